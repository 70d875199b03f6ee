import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { importSource, memberName, memberPath, resolveValue, unwrap, type AnyRuleContext } from './ast.js';

/**
 * Checked-out clients: one connection taken from a pool (`await pool.connect()` in
 * node-postgres, `await pool.getConnection()` in mysql2 and mariadb). The pool lends it until
 * `release()`; one that is never given back shrinks the pool for good, and once it runs dry
 * every later job waits until its visibility timeout and is delivered again.
 */

export interface CheckedOutClient {
  binding: TSESTree.Identifier;
  /** `pool.connect()` / `pool.getConnection()`. */
  acquire: TSESTree.CallExpression;
  /** The pool the client came from. */
  pool: TSESTree.Node;
}

/** Pool methods that lend out one connection. */
const ACQUIRE_METHODS = new Set(['connect', 'getConnection']);

/**
 * The pool call that lends out a connection, when `node` is one (`pool.connect()`,
 * `await pool.getConnection()`); a callback-style `pool.connect((err, client, done) => ...)`
 * is not, since its client lives in the callback.
 */
export function getAcquireCall(node: TSESTree.Node, context: AnyRuleContext): { call: TSESTree.CallExpression; pool: TSESTree.Node } | undefined {
  const call = unwrap(node);
  if (call.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const callee = unwrap(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const method = memberName(callee);
  if (method === undefined || !ACQUIRE_METHODS.has(method)) return undefined;
  if (call.arguments.some((argument) => argument.type === AST_NODE_TYPES.ArrowFunctionExpression || argument.type === AST_NODE_TYPES.FunctionExpression)) {
    return undefined;
  }
  if (!isPool(callee.object, context)) return undefined;
  return { call, pool: callee.object };
}

/**
 * The client bound by `const client = await pool.connect()` (or `getConnection()`), or
 * undefined when the declarator binds something else or destructures the client.
 */
export function getCheckedOutClient(declarator: TSESTree.VariableDeclarator, context: AnyRuleContext): CheckedOutClient | undefined {
  if (declarator.id.type !== AST_NODE_TYPES.Identifier || !declarator.init) return undefined;
  const acquire = getAcquireCall(declarator.init, context);
  if (!acquire) return undefined;
  return { binding: declarator.id, acquire: acquire.call, pool: acquire.pool };
}

/** Modules whose exports or factories are connection pools. */
const POOL_MODULES = new Set(['pg', 'mysql', 'mysql2', 'mysql2/promise', 'mariadb', '@vercel/postgres', '@neondatabase/serverless']);

/**
 * Fallback for pool evidence until `src/model/pool.ts` lands: a binding made with
 * `new Pool(...)` / `createPool(...)`, `db` from `@vercel/postgres`, or a name that says pool.
 */
export function isPool(receiver: TSESTree.Node, context: AnyRuleContext): boolean {
  const scope = context.sourceCode.getScope(receiver);
  const path = memberPath(receiver, scope);
  const last = path?.[path.length - 1];
  if (last !== undefined && /pool$/i.test(last)) return true;
  const value = resolveValue(receiver, scope);
  if (value.type === AST_NODE_TYPES.NewExpression || value.type === AST_NODE_TYPES.CallExpression) {
    const calleePath = memberPath(value.callee, scope);
    const name = calleePath?.[calleePath.length - 1];
    if (name === 'Pool' || name === 'createPool') return true;
  }
  const target = unwrap(receiver);
  if (target.type === AST_NODE_TYPES.Identifier) {
    const source = importSource(target, scope);
    if (source?.module === '@vercel/postgres' && (source.imported === 'db' || source.imported === 'pool')) return true;
    if (source && POOL_MODULES.has(source.module) && /pool/i.test(source.imported)) return true;
  }
  return false;
}
