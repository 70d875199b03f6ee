import { type AnyRuleContext } from './context.js';

/**
 * Answers kept per file. A question about a function (what a parameter holds from its callers,
 * whether a retry re-runs it) is asked again by every rule, for every sink and on every path that
 * reaches it; answered once and looked up after, a search over a chain of n functions costs n
 * steps instead of a tree of paths. Keyed by the file's AST, so nothing outlives the file and a
 * file whose analysis was cut short leaves nothing behind for the next one.
 */
const perFile = new WeakMap<object, Map<string, unknown>>();

/** The file's own instance of `name`, made by `create` on first use. */
export function fileMemo<T>(context: AnyRuleContext, name: string, create: () => T): T {
  const ast = context.sourceCode.ast;
  let memos = perFile.get(ast);
  if (!memos) perFile.set(ast, (memos = new Map<string, unknown>()));
  if (memos.has(name)) return memos.get(name) as T;
  const made = create();
  memos.set(name, made);
  return made;
}

/**
 * A memo for a recursive question over a graph that may have cycles (functions calling each
 * other). A key met again while its own answer is being computed gets `onCycle`; answers that
 * depended on such a provisional answer are not kept unless `isFinal` says no later answer can
 * change them (a value found on one path stays found), so they are computed again when asked
 * from outside the cycle. Every other answer is computed once.
 */
export class RecursiveMemo<K, V> {
  private readonly answers = new Map<K, V>();
  private readonly stack: { key: K; provisional: boolean }[] = [];

  constructor(
    private readonly onCycle: V,
    private readonly isFinal: (answer: V) => boolean,
  ) {}

  get(key: K, compute: () => V): V {
    if (this.answers.has(key)) return this.answers.get(key) as V;
    const open = this.stack.findIndex((entry) => entry.key === key);
    if (open >= 0) {
      // Everything opened since `key` rests on its provisional answer.
      for (let index = open + 1; index < this.stack.length; index++)
        (this.stack[index] as { provisional: boolean }).provisional = true;
      return this.onCycle;
    }
    const entry = { key, provisional: false };
    this.stack.push(entry);
    let answer: V;
    try {
      answer = compute();
    } finally {
      this.stack.pop();
    }
    if (!entry.provisional || this.isFinal(answer)) this.answers.set(key, answer);
    return answer;
  }
}
