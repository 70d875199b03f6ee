import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext, type Scope } from '../ast/context.js';
import { enclosingFunction } from '../ast/nodes.js';
import { findVariable } from '../ast/values.js';

/** What one method call on a request object says: it bounds the request, or says nothing. */
type BoundsRequest = (call: TSESTree.CallExpression, scope: Scope) => 'bounded' | undefined;

/**
 * What the request object a call returns says about its timeout, for clients that are bounded
 * through a method of that object rather than an option: Node's `req.setTimeout(ms)` (or a
 * `'timeout'` listener), superagent's `.timeout(ms)`. A method that `bounds` it, chained or
 * called through the `const` it is held in, bounds the request; a request awaited, ended or
 * left as a statement with nothing bounding it is unbounded; handed anywhere else (stored,
 * passed on, returned from a function that is not async) some other code may bound it.
 */
export function requestObjectTimeout(
  call: TSESTree.CallExpression,
  context: AnyRuleContext,
  bounds: BoundsRequest,
  /** superagent's request is a thenable: awaiting it, or returning it from an async function, sends it. */
  thenable: boolean,
): 'bounded' | 'unbounded' | 'unknown' {
  // `https.get(url, cb).setTimeout(5000).on('error', reject)`: each link of the chain is the same request.
  let current: TSESTree.Node = call;
  for (;;) {
    const parent: TSESTree.Node = current.parent;
    if (parent.type === AST_NODE_TYPES.TSNonNullExpression || parent.type === AST_NODE_TYPES.TSAsExpression) {
      current = parent;
      continue;
    }
    if (
      parent.type === AST_NODE_TYPES.MemberExpression &&
      parent.object === current &&
      parent.parent.type === AST_NODE_TYPES.CallExpression &&
      parent.parent.callee === parent
    ) {
      if (bounds(parent.parent, context.sourceCode.getScope(parent.parent)) === 'bounded') return 'bounded';
      current = parent.parent;
      continue;
    }
    break;
  }
  const parent = current.parent;
  if (parent.type === AST_NODE_TYPES.ExpressionStatement) return 'unbounded';
  if (thenable && parent.type === AST_NODE_TYPES.AwaitExpression) return 'unbounded';
  // An async function resolves a thenable it returns: the caller gets a promise, never the request.
  if (thenable && isReturned(current) && enclosingFunction(current)?.async === true) return 'unbounded';
  if (parent.type !== AST_NODE_TYPES.VariableDeclarator || parent.id.type !== AST_NODE_TYPES.Identifier)
    return 'unknown';
  const variable = findVariable(context.sourceCode.getScope(parent), parent.id);
  if (!variable) return 'unknown';
  let verdict: 'bounded' | 'unbounded' | 'unknown' = 'unbounded';
  for (const reference of variable.references) {
    if (reference.init === true) continue;
    const use = reference.identifier.parent;
    if (
      use.type === AST_NODE_TYPES.MemberExpression &&
      use.object === reference.identifier &&
      use.parent.type === AST_NODE_TYPES.CallExpression &&
      use.parent.callee === use
    ) {
      if (bounds(use.parent, context.sourceCode.getScope(use.parent)) === 'bounded') return 'bounded';
      continue;
    }
    if (thenable && use.type === AST_NODE_TYPES.AwaitExpression) continue;
    verdict = 'unknown';
  }
  return verdict;
}

/** True when the node is what a `return` or an arrow's expression body gives back. */
function isReturned(node: TSESTree.Node): boolean {
  const parent = node.parent;
  if (!parent) return false;
  if (parent.type === AST_NODE_TYPES.ReturnStatement) return true;
  return parent.type === AST_NODE_TYPES.ArrowFunctionExpression && parent.body === node;
}
