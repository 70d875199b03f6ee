import type { Finding, HandlerEntry, Verdict } from '../report/model.js';
import { isDelivery } from '../model/handler/consumer-handler.js';
import { CROSS_FILE_DEPTH, type FileState, type ImportGraph } from './graph.js';

/**
 * The handler inventory: every consumer handler and webhook the facts found (not ordinary routes
 * nor functions merely shaped like handlers), with the effects it reaches
 * through calls into other files, the protections around them and a verdict.
 */

/** Effects a claim or an idempotency key makes harmless when repeated. */
const KEYED_EFFECTS = new Set(['http-write']);

export function inventory(
  states: ReadonlyMap<string, FileState>,
  graph: ImportGraph,
  findings: readonly Finding[],
): HandlerEntry[] {
  const handlers: HandlerEntry[] = [];
  for (const state of states.values()) {
    for (const handler of state.facts.handlers) {
      // A function registered in another file: that registration names the broker and queue.
      const registration =
        handler.broker === 'generic'
          ? graph.registrationsOf(state.path).find((entry) => entry.imported === (handler.exportedAs ?? handler.name))
          : undefined;
      // Only deliveries: an ordinary route or a function merely shaped like a handler is not one.
      if (!registration && !isDelivery(handler.broker)) continue;
      const { effects, protections, unresolved } = graph.expand(handler.summary, state.path, CROSS_FILE_DEPTH);
      const inside = findings.some(
        (finding) =>
          !finding.suppressed &&
          finding.file === state.relative &&
          finding.line >= handler.line &&
          finding.line <= handler.endLine,
      );
      const entry: HandlerEntry = {
        file: state.relative,
        line: handler.line,
        column: handler.column,
        broker: handler.broker,
        effects: [...effects],
        protections: [...protections],
        verdict: verdictOf(effects, protections, unresolved, inside),
      };
      if (handler.name !== undefined) entry.name = handler.name;
      if (handler.queue !== undefined) entry.queue = handler.queue;
      if (registration) {
        entry.broker = registration.broker;
        if (registration.queue !== undefined) entry.queue = registration.queue;
      }
      handlers.push(entry);
    }
  }
  handlers.push(...activityEntries(states, graph, findings, handlers));
  return handlers;
}

/** The functions exported by the modules that workflows proxy or workers register as Temporal activities. */
function activityEntries(
  states: ReadonlyMap<string, FileState>,
  graph: ImportGraph,
  findings: readonly Finding[],
  listed: readonly HandlerEntry[],
): HandlerEntry[] {
  const entries = new Map<string, HandlerEntry>();
  for (const file of graph.activityFiles()) {
    for (const { file: defining, name, fact } of graph.exportedFunctionsOf(file)) {
      const state = states.get(defining);
      const position = fact.position;
      if (!state || !position || !fact.summary) continue;
      const key = `${state.relative}:${position.line}`;
      if (entries.has(key) || listed.some((entry) => entry.file === state.relative && entry.line === position.line))
        continue;
      const { effects, protections, unresolved } = graph.expand(fact.summary, defining, CROSS_FILE_DEPTH);
      const inside = findings.some(
        (finding) =>
          !finding.suppressed &&
          finding.file === state.relative &&
          finding.line >= position.line &&
          finding.line <= position.endLine,
      );
      entries.set(key, {
        file: state.relative,
        line: position.line,
        column: position.column,
        broker: 'temporal',
        name: position.name ?? name,
        effects: [...effects],
        protections: [...protections],
        verdict: verdictOf(effects, protections, unresolved, inside),
      });
    }
  }
  return [...entries.values()];
}

/**
 * protected: every effect is covered (a checked claim covers all; an idempotency key covers
 * outgoing writes) and no rule reports inside the handler. unprotected: a finding inside, or
 * an effect nothing covers. unknown: no effect seen, but calls lead where the analysis stops.
 */
export function verdictOf(
  effects: ReadonlySet<string>,
  protections: ReadonlySet<string>,
  unresolved: boolean,
  hasFindings: boolean,
): Verdict {
  if (hasFindings) return 'unprotected';
  if (effects.size === 0) return unresolved ? 'unknown' : 'protected';
  if (protections.has('claim')) return 'protected';
  for (const effect of effects) {
    const keyed = KEYED_EFFECTS.has(effect) || effect !== 'sql-write';
    if (!(keyed && protections.has('idempotency-key'))) return 'unprotected';
  }
  return 'protected';
}
