import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext } from '../ast/context.js';
import { unwrap } from '../ast/nodes.js';
import { findVariable } from '../ast/values.js';
import { handleLibrary } from './libraries.js';
import { chainLinks, chainNames, isBinding, type OrmTransaction } from './transactions.js';

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

/** True when the chain's root is an entity manager: the transaction's, its outer one, or one the types or imports say is MikroORM's. */
function isManager(root: TSESTree.Node, transaction: OrmTransaction, context: AnyRuleContext): boolean {
  const { tx, handle } = transaction;
  if (tx && isBinding(root, tx, context)) return true;
  const text = context.sourceCode.getText.bind(context.sourceCode);
  if (handle && text(unwrap(root)) === text(unwrap(handle))) return true;
  return handleLibrary(root, context) === 'mikro-orm';
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
 * The context-free query the chain `links` (ending in `call`) sends inside a MikroORM
 * transaction, or undefined when it goes through the entity manager or carries the context.
 */
export function contextFreeQuery(
  links: readonly Link[],
  call: TSESTree.CallExpression,
  transaction: OrmTransaction,
  context: AnyRuleContext,
): ContextFreeQuery | undefined {
  if (transaction.library !== 'mikro-orm') return undefined;
  if (chainNames(links).includes('transacting')) return undefined;
  // The first member below the manager that is called: `getConnection()`, `getDriver()`, `getKnex()`.
  const at = links.findIndex(
    (link, index) =>
      index > 0 &&
      link.name !== undefined &&
      (BELOW_MANAGER.has(link.name) || link.name === 'getKnex') &&
      links[index + 1]?.node.type === AST_NODE_TYPES.CallExpression,
  );
  const manager = links[at - 1]?.node;
  const made = links[at + 1]?.node;
  if (at < 0 || !manager || !made || !isManager(manager, transaction, context)) return undefined;
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
