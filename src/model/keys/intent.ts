import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext } from '../ast/context.js';

/**
 * A key the code says, in a comment a reviewer reads, is unique per request on purpose: a CSV
 * export that must run again on every click, a reprocessing job that must not be swallowed by
 * the queue's dedupe of an earlier job. The statement is the developer's decision, as ESLint's
 * `no-fallthrough` honours a `// falls through` comment: the rule takes it at its word.
 *
 * The default pattern asks for intent and uniqueness together, so a comment that only describes
 * the key ("Generate a unique idempotency key", "the key must be unique") is not an opt-out:
 * - `intentionally`, `deliberately`, `on purpose` or `by design`, followed in the same comment by
 *   `unique`, `non-idempotent`, `not idempotent`, `new` or `fresh`
 *   (`// CSV exports are intentionally non-idempotent: each request makes a new export`);
 * - `must use`, `must include` or `must contain` followed by `unique`, `a unique`, `a new`,
 *   `a fresh` or `a timestamp` (`// reprocessing must use unique IDs`,
 *   `// job ids must include a timestamp for reprocessing to work`);
 * - `always issues` / `creates` / `opens` / `starts` / `makes` / `sends` followed by `a new` or
 *   `a fresh` (`// Always issues a fresh Checkout Session`), or `must not be deduped`;
 * - a statement that the value is the key: `is a valid` / `is a stable` ... `key`
 *   (`// each firing runs exactly once, so the firing timestamp is a valid logical execution key`);
 * - a statement that a reused key is refused, in one sentence (`rejects` / `refuses` ... `reused`,
 *   `reused` ... `rejected`), or that the key must never be reused (`must not be reused`,
 *   `never reuse`): the author weighed reuse and chose a key per call
 *   (a helper's doc comment "Unique per call — Stripe rejects a reused key on a different request.").
 *   "Reuse the key on retry" and "unique key each request" say no such thing.
 */
export const DEFAULT_INTENT_PATTERN =
  String.raw`\b(?:intentional(?:ly)?|deliberate(?:ly)?|on purpose|by design)\b.*\b(?:unique|non-idempotent|not idempotent|new|fresh)\b` +
  String.raw`|\bmust (?:use|include|contain) (?:an? )?(?:unique|new|fresh|timestamp)\b` +
  String.raw`|\balways (?:issues|creates|opens|starts|makes|sends) (?:an? )?(?:new|fresh)\b` +
  String.raw`|\bmust not be (?:de-?dup(?:ed|licated)?|deduplicated)\b` +
  String.raw`|\bis a (?:valid|stable) (?:logical )?(?:[a-z]+ )?key\b` +
  String.raw`|\b(?:rejects?|refuses?)\b[^.;]*\breus(?:e|ed|ing)\b|\breus(?:e|ed|ing)\b[^.;]*\b(?:rejected|refused)\b` +
  String.raw`|\b(?:must|should|can)(?:not|n't| not) (?:be )?reused?\b|\bnever (?:be )?reused?\b`;

const compiled = new Map<string, RegExp | undefined>();

/** The option's pattern, compiled once (case-insensitive); an empty pattern turns the opt-out off. */
export function intentPattern(source: string): RegExp | undefined {
  if (!compiled.has(source)) compiled.set(source, source === '' ? undefined : new RegExp(source, 'i'));
  return compiled.get(source);
}

/**
 * True when a comment attached to one of `nodes` (the key's property, assignment or argument, and
 * the mint) matches `pattern`: the comments right before the node or on its line after it, and the
 * comment block right above the statement that holds it. Consecutive line comments are read as one.
 */
export function isDeclaredUnique(
  nodes: readonly TSESTree.Node[],
  pattern: RegExp | undefined,
  context: AnyRuleContext,
): boolean {
  if (!pattern) return false;
  const sourceCode = context.sourceCode;
  const attached = (node: TSESTree.Node): TSESTree.Comment[] => {
    const after = sourceCode
      .getCommentsAfter(sourceCode.getTokenAfter(node) ?? node)
      .concat(sourceCode.getCommentsAfter(node))
      .filter((comment) => comment.loc.start.line === node.loc.end.line);
    return [...sourceCode.getCommentsBefore(node), ...after];
  };
  return nodes.some((node) => {
    const statement = enclosingStatement(node);
    const comments = [...attached(node), ...(statement && statement !== node ? attached(statement) : [])];
    const text = comments.map((comment) => comment.value.replace(/^\s*\*+/gm, ' ').trim()).join(' ');
    return text !== '' && pattern.test(text);
  });
}

/** The statement a node is part of, up to the nearest block or program. */
function enclosingStatement(node: TSESTree.Node): TSESTree.Node | undefined {
  let current: TSESTree.Node = node;
  while (current.parent) {
    const parent = current.parent;
    if (
      parent.type === AST_NODE_TYPES.BlockStatement ||
      parent.type === AST_NODE_TYPES.Program ||
      parent.type === AST_NODE_TYPES.StaticBlock ||
      parent.type === AST_NODE_TYPES.SwitchCase ||
      // A method's or field's own comment, not the class's.
      parent.type === AST_NODE_TYPES.ClassBody
    )
      return current;
    // A function boundary: the statement is the function's own, not its caller's.
    if (
      parent.type === AST_NODE_TYPES.ArrowFunctionExpression ||
      parent.type === AST_NODE_TYPES.FunctionExpression ||
      parent.type === AST_NODE_TYPES.FunctionDeclaration
    )
      return parent.type === AST_NODE_TYPES.ArrowFunctionExpression && parent.body === current ? current : undefined;
    current = parent;
  }
  return undefined;
}
