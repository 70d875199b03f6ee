import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext } from '../ast/context.js';
import { isFunction } from '../ast/function.js';
import { memberName } from '../ast/names.js';
import { unwrap } from '../ast/nodes.js';
import { walk } from '../ast/walk.js';
import { isDeferred } from './deferred.js';
import { WRITE_NAME } from './omitted-handle.js';
import { isDatabaseServiceName } from './services.js';
import { isRun } from './query-run.js';
import { isChainTop, mentions, type OrmTransaction } from './transactions.js';

/**
 * A transaction held in a variable that nothing inside it queries through: `await
 * queryRunner.startTransaction()`, then `await super.create(data)` and `await
 * this.assignTasks(...)`, then `commitTransaction()`, with `queryRunner.manager` never used. The
 * class's own writes (its base CRUD service, its methods, its injected services) go through
 * repositories bound to the data source, so each commits on its own and the rollback in `catch`
 * rolls back an empty transaction.
 */

/** `super.create(...)`, `this.assignTasks(...)`, `this.tasksService.update(...)`: a write of the class or its services. */
function classWrite(call: TSESTree.CallExpression): TSESTree.Node | undefined {
  const callee = unwrap(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const method = memberName(callee);
  if (method === undefined || !WRITE_NAME.test(method)) return undefined;
  const object = unwrap(callee.object);
  if (object.type === AST_NODE_TYPES.Super || object.type === AST_NODE_TYPES.ThisExpression) return callee;
  if (object.type !== AST_NODE_TYPES.MemberExpression || unwrap(object.object).type !== AST_NODE_TYPES.ThisExpression)
    return undefined;
  const field = memberName(object);
  return isDatabaseServiceName(field) ? callee : undefined;
}

/** The writes of the class in a held transaction (no callback) whose handle nothing in its window mentions. */
export function unusedTransactionWrites(
  transaction: OrmTransaction,
  context: AnyRuleContext,
): { node: TSESTree.CallExpression; via: TSESTree.Node }[] {
  const { tx } = transaction;
  // A callback transaction's handle is its parameter: only a held one can go unused.
  if (!tx || transaction.joins !== 'handle' || transaction.call.arguments.some((argument) => isFunction(argument)))
    return [];
  const uses: TSESTree.Node[] = [];
  const writes: { node: TSESTree.CallExpression; via: TSESTree.Node }[] = [];
  walk(transaction.body, context, (node) => {
    if (node.range[0] < transaction.from || node.range[1] > transaction.to) return undefined;
    if (isDeferred(node, transaction, context)) return 'skip';
    if (node.type === AST_NODE_TYPES.Identifier && node.name === tx.name && mentions(node, tx, context))
      uses.push(node);
    if (node.type !== AST_NODE_TYPES.CallExpression || !isChainTop(node) || !isRun(node, [])) return undefined;
    const via = classWrite(node);
    if (via) writes.push({ node, via });
    return undefined;
  });
  return uses.length > 0 ? [] : writes;
}
