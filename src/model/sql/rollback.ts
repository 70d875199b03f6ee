import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { enclosingFunction, unwrap } from '../ast/nodes.js';
import { ormTransaction, parentOf } from '../orm/transactions.js';
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
function missingRollback(begin: TransactionStep, context: AnyRuleContext): boolean {
  if (!isClientBegin(begin, context)) return false;
  const { end } = transactionEnd(begin, context);
  if (end?.kind !== 'commit') return false;
  const scope = transactionScope(begin.node);
  const callbackStyle = begin.node.type === AST_NODE_TYPES.CallExpression && begin.node.arguments.some(isFunction);
  if (callbackStyle) return !rollsBack(scope, begin.receiver, context);
  return !undoneOnError(begin.node, end.node, begin.receiver, context);
}

/**
 * True when an error between `begin` and `end` (its commit) is undone: a `try` around or after
 * the begin whose `catch` or `finally` rolls back, a `.catch()` callback that does, or the
 * function is a helper called under such a `try`.
 */
function undoneOnError(
  begin: TSESTree.Node,
  end: TSESTree.Node,
  receiver: TSESTree.Node,
  context: AnyRuleContext,
): boolean {
  const scope = transactionScope(begin);
  for (const node of descendants(scope, context)) {
    if (
      node.type === AST_NODE_TYPES.TryStatement &&
      node.block.range[1] > begin.range[1] &&
      node.range[0] < end.range[0]
    ) {
      if (node.handler && rollsBack(node.handler, receiver, context)) return true;
      if (node.finalizer && rollsBack(node.finalizer, receiver, context)) return true;
    }
    if (
      node.type === AST_NODE_TYPES.CallExpression &&
      isCatchCall(node) &&
      node.arguments.some((argument) => rollsBack(argument, receiver, context))
    ) {
      return true;
    }
  }
  return calledUnderRollback(scope, context);
}

/** Methods that commit an ORM transaction held in a variable (Knex, Sequelize, Kysely; TypeORM's query runner). */
const ORM_COMMITS = new Set(['commit', 'commitTransaction']);

/**
 * The handle of an ORM transaction opened without a callback (`const trx = await
 * knex.transaction()`, Sequelize `await sequelize.transaction()`, Kysely `await
 * db.startTransaction().execute()`, TypeORM `queryRunner.startTransaction()` on a query runner
 * created in the same function) that is committed in the function with no rollback on its
 * error path; undefined otherwise. A query runner handed in by the caller is the caller's to
 * roll back.
 */
function missingOrmRollback(call: TSESTree.CallExpression, context: AnyRuleContext): TSESTree.Identifier | undefined {
  const transaction = ormTransaction(call, context);
  const tx = transaction?.tx ?? kyselyControlled(call);
  if (!tx || (transaction && transaction.body !== enclosingFunction(call)?.body)) return undefined;
  const scope = transactionScope(call);
  const commit = descendants(scope, context).find((node): node is TSESTree.CallExpression => {
    if (node.type !== AST_NODE_TYPES.CallExpression || node.range[0] < call.range[1]) return false;
    const callee = unwrap(node.callee);
    return (
      callee.type === AST_NODE_TYPES.MemberExpression &&
      ORM_COMMITS.has(memberName(callee) ?? '') &&
      sameReceiver(callee.object, tx, context)
    );
  });
  if (!commit) return undefined;
  return undoneOnError(call, commit, tx, context) ? undefined : tx;
}

/**
 * The client or transaction handle of a transaction `node` opens with no rollback on its
 * error path: a BEGIN on a client (see {@link missingRollback}) or an ORM transaction held in a
 * variable (see {@link missingOrmRollback}).
 */
export function transactionWithoutRollback(
  node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression,
  context: AnyRuleContext,
): TSESTree.Node | undefined {
  const step = transactionStep(node, context);
  if (step) return step.kind === 'begin' && missingRollback(step, context) ? step.receiver : undefined;
  return node.type === AST_NODE_TYPES.CallExpression ? missingOrmRollback(node, context) : undefined;
}

/** Kysely 0.28: `const trx = await db.startTransaction().execute()`, a transaction held until `trx.commit().execute()`. */
function kyselyControlled(call: TSESTree.CallExpression): TSESTree.Identifier | undefined {
  const callee = unwrap(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression || memberName(callee) !== 'execute') return undefined;
  const start = unwrap(callee.object);
  if (start.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const inner = unwrap(start.callee);
  if (inner.type !== AST_NODE_TYPES.MemberExpression || memberName(inner) !== 'startTransaction') return undefined;
  let current: TSESTree.Node = call;
  while (parentOf(current)?.type === AST_NODE_TYPES.AwaitExpression) current = parentOf(current) ?? current;
  const declarator = parentOf(current);
  return declarator?.type === AST_NODE_TYPES.VariableDeclarator && declarator.id.type === AST_NODE_TYPES.Identifier
    ? declarator.id
    : undefined;
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
