import { spellsKeySink } from './keys/sinks.js';
import { mayMatter } from './prefilter.js';
import type { Summaries, SummaryField } from './summary.js';

/**
 * Which facts of other modules can change what the rules report in a file. Most summary facts
 * can on their own: a handler registered elsewhere, a client without a timeout, a key parameter
 * make a finding of a file whose text names none of it. A few only refine a finding that starts
 * from the file's own text, and without that start they change nothing; `idempotency-check`
 * then keeps the file's first pass as it is instead of linting it again with the facts.
 */
const STARTS_IN_TEXT: Partial<Record<SummaryField, (text: string, filename: string) => boolean>> = {
  // A call of a function that writes through a handle of its own is a finding only inside a
  // transaction the file opens or is handed (orm/own-handle.ts), and every way the model finds one
  // in a file's text is among the prefilter's words (a transaction wrapper of another module is
  // a fact of its own, `transactionWrapper`).
  ownHandle: (text, filename) => mayMatter(text, filename),
  // A per-attempt helper's value is a finding only where it becomes a key or the body of a keyed
  // request (keys/), which a file's text spells with a key sink's name; the facts that make a sink
  // of a call without one (`keyParameters`, `keyHeaderSource`, `keyHeaderName`, `writtenAsKey`)
  // are facts of their own.
  perAttempt: (text) => spellsKeySink(text),
};

/** False when no fact of `summaries` can change what the rules report in the file of `text`. */
export function summariesMayMatter(summaries: Summaries, text: string, filename: string): boolean {
  return Object.values(summaries).some((module) =>
    Object.values(module).some((summary) =>
      (Object.keys(summary) as SummaryField[]).some((field) => STARTS_IN_TEXT[field]?.(text, filename) ?? true),
    ),
  );
}
