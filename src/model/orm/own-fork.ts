import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext } from '../ast/context.js';
import { isFunction } from '../ast/function.js';
import { memberName } from '../ast/names.js';
import { unwrap } from '../ast/nodes.js';
import { findVariable } from '../ast/values.js';
import { walk } from '../ast/walk.js';
import { isListedCallee, settingsOf } from '../settings.js';
import { fileLibraries } from './libraries.js';
import { resolveHandlerFunction } from '../handler/methods.js';
import { isDeferred } from './deferred.js';
import { isRun } from './query-run.js';
import { chainLinks, chainNames, handsOn, isChainTop, type OrmTransaction } from './transactions.js';

/**
 * MikroORM: a function that writes through a fork of the entity manager it makes itself (`const
 * em = this.em.fork(); … em.persist(order); await em.flush()`). A fork has an identity map and
 * a transaction context of its own: made inside `em.transactional(...)` it does not resolve to
 * the transaction (only `fork({ useContext: true })` or `keepTransactionContext: true` do), so
 * the function's writes commit on their own and stay when the transaction rolls back. A fork
 * made only when no manager is given (`const em = given ?? this.em.fork()`) is not one.
 */

/** What a fork is made with when it keeps resolving through the transaction context. */
const KEEPS_CONTEXT = /\b(?:useContext|keepTransactionContext)\s*:\s*true\b/;

/** Manager members that write, or open a transaction of the fork's own. */
const FORK_WRITES =
  /^(?:persist\w*|flush|remove\w*|nativeInsert\w*|nativeUpdate|nativeDelete|insert\w*|upsert\w*|transactional|begin)$/;

/** The variables of `fn` bound to a fork it makes, which drops the transaction context. */
function ownForks(fn: TSESTree.FunctionLike, context: AnyRuleContext): TSESTree.Identifier[] {
  const forks: TSESTree.Identifier[] = [];
  if (!fn.body) return forks;
  walk(fn.body, context, (node) => {
    if (node !== fn && isFunction(node)) return 'skip';
    if (node.type !== AST_NODE_TYPES.VariableDeclarator || node.id.type !== AST_NODE_TYPES.Identifier || !node.init)
      return undefined;
    const init = unwrap(node.init);
    if (init.type !== AST_NODE_TYPES.CallExpression) return undefined;
    const callee = unwrap(init.callee);
    if (callee.type !== AST_NODE_TYPES.MemberExpression || memberName(callee) !== 'fork') return undefined;
    if (KEEPS_CONTEXT.test(context.sourceCode.getText(init))) return undefined;
    forks.push(node.id);
    return undefined;
  });
  return forks;
}

/** True when `fn` writes through a fork of the entity manager it makes itself (MikroORM files only). */
export function writesThroughOwnFork(fn: TSESTree.FunctionLike, context: AnyRuleContext): boolean {
  if (!fileLibraries(context).has('mikro-orm')) return false;
  return ownForks(fn, context).some((fork) =>
    (findVariable(context.sourceCode.getScope(fork), fork)?.references ?? []).some((reference) => {
      const used = reference.identifier;
      const member = used.parent;
      if (member.type !== AST_NODE_TYPES.MemberExpression || member.object !== used) return false;
      let top: TSESTree.Node = member;
      while (top.parent.type === AST_NODE_TYPES.MemberExpression || top.parent.type === AST_NODE_TYPES.CallExpression)
        top = top.parent;
      return chainNames(chainLinks(top)).some((name) => FORK_WRITES.test(name));
    }),
  );
}

/**
 * True when `callee` writes through a fork of its own: a function or method of this file that
 * {@link writesThroughOwnFork} describes (`this.createOrder(...)`), or one `idempotency-check`
 * found in another module (`settings.idempotency.forkingFunctions`).
 */
function isForkingCallee(
  callee: TSESTree.Node,
  local: TSESTree.FunctionLike | undefined,
  context: AnyRuleContext,
): boolean {
  if (local) return writesThroughOwnFork(local, context);
  return isListedCallee(callee, context, settingsOf(context).forkingFunctions);
}

/** The calls in a MikroORM `transaction` of functions that write through a fork of their own, handed nothing of it. */
export function forkingCalls(transaction: OrmTransaction, context: AnyRuleContext): TSESTree.CallExpression[] {
  if (transaction.library !== 'mikro-orm') return [];
  const { tx } = transaction;
  const found: TSESTree.CallExpression[] = [];
  walk(transaction.body, context, (node) => {
    if (node.range[0] < transaction.from || node.range[1] > transaction.to) return undefined;
    if (isDeferred(node, transaction, context)) return 'skip';
    if (node.type !== AST_NODE_TYPES.CallExpression || !isChainTop(node) || !isRun(node, [])) return undefined;
    if (tx && node.arguments.some((argument) => handsOn(argument, tx, context))) return undefined;
    const callee = unwrap(node.callee);
    const local = resolveHandlerFunction(callee, context.sourceCode.getScope(node));
    if (isForkingCallee(callee, local, context)) found.push(node);
    return undefined;
  });
  return found;
}
