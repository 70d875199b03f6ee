import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { unwrap } from '../ast/nodes.js';
import { memberName } from '../ast/names.js';
import { type AnyRuleContext } from '../ast/context.js';
import { typedKind } from './pool-types.js';
import { classify } from './pool-syntax.js';

/**
 * Connection pools and the connections they lend. A pool (pg `Pool`, mysql2 / mariadb
 * `createPool`, `@vercel/postgres` `db` / `sql`, postgres.js `postgres()`) sends each query
 * on whichever connection is free, so statements that must share a connection (a
 * transaction) cannot go through it; a checked-out client (`await pool.connect()`,
 * `pool.getConnection()`, `new Client()`) keeps one connection until it is released.
 */

/**
 * Why a receiver is taken for a pool, strongest first: its TypeScript type; the binding is
 * constructed as one (`new Pool()`, `createPool()`); it is annotated with a pool type; the
 * shared settings list its import; only its name says so (`pool`, `this.pool`, `dbPool`).
 */
export type PoolEvidence = 'type' | 'construction' | 'annotation' | 'settings' | 'name';

/** How a pool lends one connection: pg and `@vercel/postgres` `connect()`, mysql2 / mariadb promise pools `getConnection()`. */
export type AcquireMethod = 'connect' | 'getConnection';

export interface PoolInfo {
  evidence: PoolEvidence;
  /** Known only when the pool's library is known and it lends connections through a promise. */
  acquire: AcquireMethod | undefined;
}

export type Kind =
  | { kind: 'pool'; evidence: Exclude<PoolEvidence, 'name'>; acquire: AcquireMethod | undefined }
  | { kind: 'client' }
  | { kind: 'other' };

/** Modules whose `Pool` / `Client` types and factories this file knows. */
export const PG_MODULES = new Set(['pg', 'pg-pool', '@neondatabase/serverless']);
export const MYSQL_MODULES = new Set(['mysql', 'mysql2', 'mysql2/promise', 'mariadb', 'mariadb/callback']);
export const PROMISE_MYSQL_MODULES = new Set(['mysql2/promise', 'mariadb']);
export const POOL_TYPE_NAMES = new Set(['Pool', 'PoolCluster', 'PoolNamespace', 'VercelPool']);
export const CLIENT_TYPE_NAMES = new Set([
  'Client',
  'ClientBase',
  'PoolClient',
  'PoolConnection',
  'Connection',
  'VercelPoolClient',
  'VercelClient',
]);
/** Where the declarations of those types live. */
export const DRIVER_DECLARATION =
  /[\\/]node_modules[\\/](?:@types[\\/])?(pg|pg-pool|mysql|mysql2|mariadb|@neondatabase[\\/]serverless|@vercel[\\/]postgres)[\\/](.*)$/;

/**
 * Why `receiver` is a connection pool, or undefined when it is not known to be one. With
 * type information the type decides whenever it is not `any`: pg `Pool`, mysql2 `Pool`,
 * mariadb pools, `VercelPool` are pools, and `PoolClient`, `Client`, `PoolConnection` or any
 * other type are not. Without it (or for `any`), the binding decides (see {@link PoolEvidence});
 * a name containing "pool" counts only when nothing else is known about the binding and the
 * name does not also say client / connection / session / transaction.
 */
export function poolEvidence(receiver: TSESTree.Node, context: AnyRuleContext): PoolEvidence | undefined {
  return describePool(receiver, context)?.evidence;
}

/** {@link poolEvidence} with the way the pool lends a connection, when known. */
export function describePool(receiver: TSESTree.Node, context: AnyRuleContext): PoolInfo | undefined {
  const typed = typedKind(receiver, context);
  const known = typed ?? classify(receiver, context, 0);
  if (known) return known.kind === 'pool' ? { evidence: known.evidence, acquire: known.acquire } : undefined;
  const name = receiverName(receiver);
  return name !== undefined && isPoolName(name) ? { evidence: 'name', acquire: undefined } : undefined;
}

/**
 * True when `receiver` is one connection: bound to `await pool.connect()`,
 * `await pool.getConnection()`, `new Client()`, `mysql.createConnection()`, the client of a
 * `pool.connect((err, client, done) => ...)` callback or the handle of a postgres.js
 * `sql.begin((tx) => ...)`, annotated `PoolClient` / `Client` / `PoolConnection`, or typed so.
 */
export function isCheckedOutClient(receiver: TSESTree.Node, context: AnyRuleContext): boolean {
  const known = typedKind(receiver, context) ?? classify(receiver, context, 0);
  return known?.kind === 'client';
}

/** True for names like `pool`, `dbPool`, `POOL`, but not `poolClient` or `poolConnection`. */
export function isPoolName(name: string): boolean {
  return /pool/i.test(name) && !/client|conn|session|transaction/i.test(name);
}

export function receiverName(receiver: TSESTree.Node): string | undefined {
  const node = unwrap(receiver);
  if (node.type === AST_NODE_TYPES.Identifier) return node.name;
  if (node.type === AST_NODE_TYPES.MemberExpression) return memberName(node);
  if (node.type === AST_NODE_TYPES.CallExpression) return receiverName(node.callee);
  return undefined;
}
