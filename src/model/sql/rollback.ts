import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { unwrap } from '../ast/nodes.js';
import { findVariable } from '../ast/values.js';
import { memberName } from '../ast/names.js';
import { type AnyRuleContext } from '../ast/context.js';
import { transactionStep, type TransactionStep } from './statements.js';
import { receiverName } from './pools.js';
import { isClientBegin, transactionEnd, transactionScope, descendants, sameReceiver } from './transactions.js';
import { isFunction } from '../ast/function.js';

// -- require-rollback ---------------------------------------------------------------------------

const ROLLBACK_NAME = /rollback|abort/i;

/** Methods that throw a connection away, so the server aborts its transaction. */
const DISCARD_METHODS = new Set(['destroy', 'end']);

/**
 * True when `begin` (a BEGIN on a client) is committed in the same function but no error
 * path undoes it: no `try` around or after it whose `catch` or `finally` rolls back, and no
 * `.catch()` callback that does. Rolling back counts as: a ROLLBACK statement or `rollback()`
 * method, a call to a function named like `rollback` / `abort` or to a function of this file
 * that sends a ROLLBACK, or discarding the connection (`release(err)` with an argument,
 * `destroy()`, `end()`). A callback-style BEGIN (`client.query('BEGIN', (err) => ...)`)
 * counts as handled when the function rolls back anywhere.
 */
export function missingRollback(begin: TransactionStep, context: AnyRuleContext): boolean {
  if (!isClientBegin(begin, context)) return false;
  const { end } = transactionEnd(begin, context);
  if (end?.kind !== 'commit') return false;
  const scope = transactionScope(begin.node);
  const callbackStyle = begin.node.type === AST_NODE_TYPES.CallExpression && begin.node.arguments.some(isFunction);
  if (callbackStyle) return !rollsBack(scope, begin.receiver, context);
  for (const node of descendants(scope, context)) {
    if (
      node.type === AST_NODE_TYPES.TryStatement &&
      node.block.range[1] > begin.node.range[1] &&
      node.range[0] < end.node.range[0]
    ) {
      if (node.handler && rollsBack(node.handler, begin.receiver, context)) return false;
      if (node.finalizer && rollsBack(node.finalizer, begin.receiver, context)) return false;
    }
    if (
      node.type === AST_NODE_TYPES.CallExpression &&
      isCatchCall(node) &&
      node.arguments.some((argument) => rollsBack(argument, begin.receiver, context))
    ) {
      return false;
    }
  }
  return !calledUnderRollback(scope, context);
}

/**
 * True when the function is a helper of this file called inside a `try` whose `catch` or
 * `finally` rolls back: `try { await transfer(client) } catch { await client.query('ROLLBACK') }`.
 */
function calledUnderRollback(fn: TSESTree.FunctionLike | TSESTree.Program, context: AnyRuleContext): boolean {
  const declaration =
    fn.type === AST_NODE_TYPES.FunctionDeclaration
      ? fn
      : fn.parent?.type === AST_NODE_TYPES.VariableDeclarator && fn.parent.init === fn
        ? fn.parent
        : undefined;
  if (!declaration) return false;
  return context.sourceCode.getDeclaredVariables(declaration).some((variable) =>
    variable.references.some((reference) => {
      const call = reference.identifier.parent;
      if (call.type !== AST_NODE_TYPES.CallExpression || call.callee !== reference.identifier) return false;
      for (let current: TSESTree.Node = call; current.parent; current = current.parent) {
        const parent: TSESTree.Node = current.parent;
        if (parent.type === AST_NODE_TYPES.TryStatement && parent.block === current) {
          if (
            (parent.handler && rollsBack(parent.handler, call, context)) ||
            (parent.finalizer && rollsBack(parent.finalizer, call, context))
          )
            return true;
        }
      }
      return false;
    }),
  );
}

function isCatchCall(call: TSESTree.CallExpression): boolean {
  const callee = unwrap(call.callee);
  return callee.type === AST_NODE_TYPES.MemberExpression && memberName(callee) === 'catch';
}

/** True when something under `root` rolls the transaction on `receiver` back (see {@link missingRollback}). */
function rollsBack(root: TSESTree.Node, receiver: TSESTree.Node, context: AnyRuleContext, depth = 0): boolean {
  for (const node of [root, ...descendants(root, context)]) {
    if (node.type !== AST_NODE_TYPES.CallExpression && node.type !== AST_NODE_TYPES.TaggedTemplateExpression) continue;
    if (transactionStep(node, context)?.kind === 'rollback') return true;
    if (node.type !== AST_NODE_TYPES.CallExpression) continue;
    const callee = unwrap(node.callee);
    const name = receiverName(callee);
    if (name !== undefined && ROLLBACK_NAME.test(name)) return true;
    if (callee.type === AST_NODE_TYPES.MemberExpression && sameReceiver(callee.object, receiver, context)) {
      const method = memberName(callee);
      if (method === 'release' && node.arguments.length > 0) return true;
      if (method !== undefined && DISCARD_METHODS.has(method)) return true;
    }
    const helper = depth < 2 ? localFunction(callee, context) : undefined;
    if (helper && rollsBack(helper.body, receiver, context, depth + 1)) return true;
  }
  return false;
}

/** The function a callee names when it is declared in this file (`function f() {}`, `const f = () => {}`). */
export function localFunction(
  callee: TSESTree.Node,
  context: AnyRuleContext,
): TSESTree.FunctionDeclaration | TSESTree.ArrowFunctionExpression | TSESTree.FunctionExpression | undefined {
  if (callee.type !== AST_NODE_TYPES.Identifier) return undefined;
  const def = findVariable(context.sourceCode.getScope(callee), callee)?.defs[0];
  if (!def) return undefined;
  if (def.node.type === AST_NODE_TYPES.FunctionDeclaration) return def.node;
  if (def.node.type === AST_NODE_TYPES.VariableDeclarator && def.node.init) {
    const init = unwrap(def.node.init);
    if (init.type === AST_NODE_TYPES.ArrowFunctionExpression || init.type === AST_NODE_TYPES.FunctionExpression)
      return init;
  }
  return undefined;
}
