import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext } from '../ast/context.js';
import { unwrap } from '../ast/nodes.js';
import { memberName } from '../ast/names.js';
import { queryText, transactionStatement, type TransactionStep } from '../sql/statements.js';
import { isCheckedOutClient, receiverName, type PoolInfo } from '../sql/pools.js';
import { describeHandle, type OrmLibrary } from './libraries.js';
import { isTransactionHandle } from './transactions.js';

/**
 * Transaction statements sent through an ORM's own handle, which holds a pool:
 * `prisma.$executeRaw\`BEGIN\``, `knex.raw('BEGIN')`, `dataSource.query('START TRANSACTION')`,
 * `sequelize.query('BEGIN')`, Drizzle `db.execute(sql\`BEGIN\`)`. Each statement may run on a
 * different connection of the pool, so the queries between them are no transaction. The
 * handle of a transaction (`tx`, `trx`, a TypeORM `queryRunner`) is one connection and is not
 * a pool.
 */

/** The methods that send raw SQL through each library's handle. */
const RAW_METHODS: Readonly<Partial<Record<OrmLibrary, ReadonlySet<string>>>> = {
  prisma: new Set(['$executeRaw', '$executeRawUnsafe', '$queryRaw', '$queryRawUnsafe']),
  knex: new Set(['raw']),
  sequelize: new Set(['query']),
  typeorm: new Set(['query']),
  drizzle: new Set(['execute']),
};

/** Names a handle of each library goes by, when only the file's import tells the library. */
const HANDLE_NAMES: Readonly<Partial<Record<OrmLibrary, RegExp>>> = {
  prisma: /prisma|^db$|database/i,
  knex: /knex|^db$|database/i,
  sequelize: /sequelize|^db$|database/i,
  typeorm: /dataSource|^connection$|^manager$|^db$/i,
  drizzle: /drizzle|^db$|database/i,
};

/** The transaction statement `node` sends through an ORM handle that pools connections, or undefined. */
export function ormPoolStep(
  node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression,
  context: AnyRuleContext,
): (TransactionStep & { pool: PoolInfo }) | undefined {
  const callee = unwrap(node.type === AST_NODE_TYPES.CallExpression ? node.callee : node.tag);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const method = memberName(callee);
  if (method === undefined) return undefined;
  let text: string | undefined;
  if (node.type === AST_NODE_TYPES.TaggedTemplateExpression) {
    text = method.startsWith('$') ? queryText(node.quasi, context) : undefined;
  } else {
    const first = node.arguments[0];
    text = first && first.type !== AST_NODE_TYPES.SpreadElement ? queryText(first, context) : undefined;
  }
  const kind = text === undefined ? undefined : transactionStatement(text);
  if (!kind) return undefined;
  const receiver = unwrap(callee.object);
  if (isTransactionHandle(receiver, context) || isCheckedOutClient(receiver, context)) return undefined;
  const handle = describeHandle(receiver, context);
  if (!handle || !RAW_METHODS[handle.library]?.has(method)) return undefined;
  const name = receiverName(receiver) ?? '';
  if (handle.evidence === 'import' && !HANDLE_NAMES[handle.library]?.test(name)) return undefined;
  return {
    kind,
    node,
    receiver,
    via: 'sql',
    pool: { evidence: handle.evidence === 'import' ? 'name' : handle.evidence, acquire: undefined },
  };
}
