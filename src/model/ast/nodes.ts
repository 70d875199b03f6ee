import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';

/** Strips wrappers that do not change a value: `await`, `(x as T)`, `x!`, `<T>x`, `x satisfies T`. */
export function unwrap(node: TSESTree.Node): TSESTree.Node {
  let current = node;
  for (;;) {
    switch (current.type) {
      case AST_NODE_TYPES.AwaitExpression:
        current = current.argument;
        break;
      case AST_NODE_TYPES.TSAsExpression:
      case AST_NODE_TYPES.TSNonNullExpression:
      case AST_NODE_TYPES.TSTypeAssertion:
      case AST_NODE_TYPES.TSSatisfiesExpression:
      case AST_NODE_TYPES.ChainExpression:
        current = current.expression;
        break;
      default:
        return current;
    }
  }
}

/** The identifier (or `this`) a member and call chain starts from: `tx` of `tx.vote.createMany`. */
export function chainRoot(node: TSESTree.Node): TSESTree.Node {
  let current = unwrap(node);
  for (;;) {
    if (current.type === AST_NODE_TYPES.MemberExpression) current = unwrap(current.object);
    else if (current.type === AST_NODE_TYPES.CallExpression) current = unwrap(current.callee);
    else return current;
  }
}

/** The reverse of {@link unwrap} for type-only wrappers: the outermost `(x as T)`, `x!`, `<T>x` or `x satisfies T` around a node. */
export function outermost(node: TSESTree.Node): TSESTree.Node {
  let current = node;
  while (
    current.parent &&
    (current.parent.type === AST_NODE_TYPES.TSAsExpression ||
      current.parent.type === AST_NODE_TYPES.TSSatisfiesExpression ||
      current.parent.type === AST_NODE_TYPES.TSNonNullExpression ||
      current.parent.type === AST_NODE_TYPES.TSTypeAssertion)
  )
    current = current.parent;
  return current;
}

/** The innermost function containing a node, or undefined at module level. */
export function enclosingFunction(node: TSESTree.Node): TSESTree.FunctionLike | undefined {
  for (let current = node.parent; current; current = current.parent) {
    if (
      current.type === AST_NODE_TYPES.FunctionDeclaration ||
      current.type === AST_NODE_TYPES.FunctionExpression ||
      current.type === AST_NODE_TYPES.ArrowFunctionExpression
    ) {
      return current;
    }
  }
  return undefined;
}

/** True when `inner` lies within `outer` (by source range). */
export function contains(outer: TSESTree.Node, inner: TSESTree.Node): boolean {
  return outer.range[0] <= inner.range[0] && inner.range[1] <= outer.range[1];
}

/** True for an ESTree node (an object with a string `type`), as found among a node's keys. */
function isNode(value: unknown): value is TSESTree.Node {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

/** The direct children of a node, in source order, by the parser's visitor keys. */
export function childNodes(node: TSESTree.Node, keys: TSESLint.SourceCode.VisitorKeys): TSESTree.Node[] {
  const result: TSESTree.Node[] = [];
  for (const key of keys[node.type] ?? []) {
    const child = (node as unknown as Record<string, unknown>)[key];
    if (Array.isArray(child)) {
      for (const item of child) if (isNode(item)) result.push(item);
    } else if (isNode(child)) {
      result.push(child);
    }
  }
  return result;
}

/**
 * The direct children of a node by its own keys, for code that walks a subtree without a
 * `SourceCode`'s visitor keys (a role read from a file's AST, a fact about one function).
 */
export function ownChildNodes(node: TSESTree.Node): TSESTree.Node[] {
  const result: TSESTree.Node[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === 'parent') continue;
    if (Array.isArray(value)) {
      for (const item of value) if (isNode(item)) result.push(item);
    } else if (isNode(value)) result.push(value);
  }
  return result;
}

/** One step of ESLint's recorded traversal (`SourceCode#traverse()`): kind 1 visits a node. */
export interface TraversalStep {
  kind: number;
  phase?: number;
  target: unknown;
}

/** A statement that leaves: `throw`, `return`, or a block of expression statements ending in one. */
export function leaves(statement: TSESTree.Statement): boolean {
  if (statement.type === AST_NODE_TYPES.ThrowStatement || statement.type === AST_NODE_TYPES.ReturnStatement)
    return true;
  if (statement.type !== AST_NODE_TYPES.BlockStatement) return false;
  const last = statement.body.at(-1);
  return (
    last !== undefined &&
    leaves(last) &&
    statement.body.every((inner) => inner.type === AST_NODE_TYPES.ExpressionStatement || leaves(inner))
  );
}
