import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext } from '../ast/context.js';
import { unwrap } from '../ast/nodes.js';
import { findVariable } from '../ast/values.js';
import { handleLibrary } from './libraries.js';
import { localFunction } from '../sql/rollback.js';
import { queryText, takesTransactionLock } from '../sql/statements.js';
import { isRun } from './query-run.js';
import { chainLinks, chainNames, isBinding, isChainTop, type OrmTransaction } from './transactions.js';

/**
 * MikroORM: a query sent below the entity manager, through its connection or driver
 * (`em.getConnection().execute(sql, params)`, `em.getDriver().execute(...)`) or through the raw
 * client they hold (`em.getKnex()`, `em.getConnection().getKnex()`, MikroORM 7's
 * `em.getConnection().getClient()`). Only the entity manager applies its transaction context
 * (`em.execute`, `em.createQueryBuilder`, MikroORM 7's `em.getKysely()`); the connection runs
 * what it is given on a pooled connection unless it is handed the context itself (`execute`'s
 * fourth argument, a builder `.transacting(ctx)`), so inside `em.transactional(...)` such a
 * query commits on its own.
 */
export interface ContextFreeQuery {
  /** What the query goes through: `tx.getConnection()`, `tx.getKnex()`. */
  via: TSESTree.Node;
  /** For `execute` with the entity manager's own arguments: the callee that `tx.execute` replaces (a suggestion). */
  callee: TSESTree.Node | undefined;
}

type Link = ReturnType<typeof chainLinks>[number];

/** The members below the entity manager whose `execute` skips its transaction context. */
const BELOW_MANAGER = new Set(['getConnection', 'getDriver']);

/** The connection's members that hand out the pool's raw client: Knex (MikroORM 6), Kysely (MikroORM 7). */
const RAW_CLIENTS = new Set(['getKnex', 'getClient']);

/** Builder members that carry a transaction context into `execute`: it reads the builder's own. */
const CARRIES_CONTEXT = new Set(['transacting', 'getKnexQuery', 'createQueryBuilder', 'qb']);

/** True when `node` is an entity manager: the transaction's, its outer one, or one the types, annotation or imports say is MikroORM's. */
function isManager(node: TSESTree.Node, transaction: OrmTransaction | undefined, context: AnyRuleContext): boolean {
  if (transaction) {
    const { tx, handle } = transaction;
    if (tx && isBinding(node, tx, context)) return true;
    const text = context.sourceCode.getText.bind(context.sourceCode);
    if (handle && text(unwrap(node)) === text(unwrap(handle))) return true;
  }
  return handleLibrary(node, context) === 'mikro-orm';
}

/** Where a chain goes below the manager: the called member (`getConnection`, `getDriver`, `getKnex`) and the manager. */
function belowManager(
  links: readonly Link[],
  transaction: OrmTransaction | undefined,
  context: AnyRuleContext,
): { at: number; made: TSESTree.Node } | undefined {
  const at = links.findIndex(
    (link, index) =>
      index > 0 &&
      link.name !== undefined &&
      (BELOW_MANAGER.has(link.name) || link.name === 'getKnex') &&
      links[index + 1]?.node.type === AST_NODE_TYPES.CallExpression,
  );
  const manager = links[at - 1]?.node;
  const made = links[at + 1]?.node;
  return at > 0 && manager && made && isManager(manager, transaction, context) ? { at, made } : undefined;
}

/**
 * True when `node` is the pool's raw client: `em.getKnex()`, `em.getConnection().getKnex()` /
 * `.getClient()`, a `const` set to one, or a call of a function of this file that returns one
 * (`const knex = getKnex(em)`).
 */
function isRawClient(
  node: TSESTree.Node,
  transaction: OrmTransaction | undefined,
  context: AnyRuleContext,
  depth = 0,
): boolean {
  const target = unwrap(node);
  if (depth > 2) return false;
  if (target.type === AST_NODE_TYPES.Identifier) {
    const def = findVariable(context.sourceCode.getScope(target), target)?.defs[0];
    return (
      def?.node.type === AST_NODE_TYPES.VariableDeclarator &&
      def.node.id.type === AST_NODE_TYPES.Identifier &&
      def.node.init !== null &&
      isRawClient(def.node.init, transaction, context, depth + 1)
    );
  }
  if (target.type !== AST_NODE_TYPES.CallExpression) return false;
  const links = chainLinks(target);
  const below = belowManager(links, transaction, context);
  if (below) {
    const method = links[below.at]?.name;
    const next = links[below.at + 2]?.name;
    if (method === 'getKnex') return links.length === below.at + 2;
    return next !== undefined && RAW_CLIENTS.has(next) && links.length === below.at + 4;
  }
  const fn = localFunction(unwrap(target.callee), context);
  if (!fn) return false;
  const returned =
    fn.body.type === AST_NODE_TYPES.BlockStatement
      ? fn.body.body.flatMap((statement) =>
          statement.type === AST_NODE_TYPES.ReturnStatement && statement.argument ? [statement.argument] : [],
        )
      : [fn.body];
  return returned.length > 0 && returned.every((value) => isRawClient(value, undefined, context, depth + 1));
}

/** The chain a value is built by: the argument itself, or what the variable it names was set to. */
function builtBy(node: TSESTree.Node, context: AnyRuleContext): string[] {
  let target = unwrap(node);
  if (target.type === AST_NODE_TYPES.Identifier) {
    const def = findVariable(context.sourceCode.getScope(target), target)?.defs[0];
    if (def?.node.type === AST_NODE_TYPES.VariableDeclarator && def.node.init) target = unwrap(def.node.init);
  }
  return target.type === AST_NODE_TYPES.CallExpression || target.type === AST_NODE_TYPES.MemberExpression
    ? chainNames(chainLinks(target))
    : [];
}

/**
 * The context-free query the chain `links` (ending in `call`) sends, inside `transaction` when
 * one is given (a MikroORM transaction), or undefined when it goes through the entity manager
 * or carries the context.
 */
export function contextFreeQuery(
  links: readonly Link[],
  call: TSESTree.CallExpression,
  transaction: OrmTransaction | undefined,
  context: AnyRuleContext,
): ContextFreeQuery | undefined {
  if (transaction && transaction.library !== 'mikro-orm') return undefined;
  if (chainNames(links).includes('transacting')) return undefined;
  // `knex.raw(...)` on `const knex = getKnex(em)`, `getKnex(em).raw(...)`.
  const client = links.slice(0, 2).find((link) => link.node !== call && isRawClient(link.node, transaction, context));
  if (client && links.length > 2) return { via: client.node, callee: undefined };
  const below = belowManager(links, transaction, context);
  if (!below) return undefined;
  const { at, made } = below;
  const method = links[at]?.name ?? '';
  const next = links[at + 2]?.name;
  // `em.getKnex()...`, `em.getConnection().getKnex()...`: the pool's own client.
  if (method === 'getKnex') return { via: made, callee: undefined };
  if (next !== undefined && RAW_CLIENTS.has(next) && links[at + 3]?.node.type === AST_NODE_TYPES.CallExpression)
    return { via: links[at + 3]?.node ?? made, callee: undefined };
  // `em.getConnection().execute(sql, params)`: the connection's execute without a context.
  if (next !== 'execute' || links.length !== at + 4 || links.at(-1)?.node !== call) return undefined;
  const [query] = call.arguments;
  if (!query || call.arguments.length >= 4 || query.type === AST_NODE_TYPES.SpreadElement) return undefined;
  if (builtBy(query, context).some((name) => CARRIES_CONTEXT.has(name))) return undefined;
  return { via: made, callee: unwrap(call.callee) };
}

/**
 * A transaction-scoped lock (`select pg_advisory_xact_lock(...)`, `… FOR UPDATE`) taken through
 * a context-free connection, wherever it is: the statement runs in a transaction of its own on
 * a pooled connection, so the lock is released as soon as it returns and guards nothing. (Inside
 * a transaction of the same file the escape is reported as such.)
 */
export function lockOnContextFreeConnection(
  call: TSESTree.CallExpression,
  context: AnyRuleContext,
): ContextFreeQuery | undefined {
  const [query] = call.arguments;
  if (!query || query.type === AST_NODE_TYPES.SpreadElement || !isChainTop(call)) return undefined;
  const text = queryText(query, context);
  if (text === undefined || !takesTransactionLock(text)) return undefined;
  const links = chainLinks(call);
  if (!isRun(call, chainNames(links))) return undefined;
  return contextFreeQuery(links, call, undefined, context);
}
