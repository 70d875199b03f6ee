import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';

import {
  callbackReleaseProblem,
  getCallbackClient,
  getCheckedOutClient,
  releaseIgnoringFailedRollback,
  releaseProblem,
  type CheckedOutClient,
} from '../../src/model/sql/clients.js';
import { lintSnippet } from '../rule-tester.js';

/** Runs `fn` on every checked-out client in `code`. */
function eachClient<T>(
  code: string,
  fn: (client: CheckedOutClient, context: Parameters<typeof getCheckedOutClient>[1]) => T,
): T[] {
  const results: T[] = [];
  lintSnippet(code, (context) => ({
    VariableDeclarator(node: TSESTree.VariableDeclarator) {
      const client = getCheckedOutClient(node, context);
      if (client) results.push(fn(client, context));
    },
  }));
  return results;
}

/** Every checked-out client in `code`. */
function clientsIn(code: string): CheckedOutClient[] {
  return eachClient(code, (client) => client);
}

describe('getCheckedOutClient', () => {
  it.each([
    ['pg pool by name', 'async function f(pool) { const client = await pool.connect(); }'],
    [
      'pg pool by construction',
      "import { Pool } from 'pg'; const db = new Pool(); async function f() { const client = await db.connect(); }",
    ],
    [
      'mysql2 pool',
      "import mysql from 'mysql2/promise'; const db = mysql.createPool({}); async function f() { const conn = await db.getConnection(); }",
    ],
    ['member pool', 'class A { async f() { const conn = await this.pool.getConnection(); } }'],
    ['@vercel/postgres db', "import { db } from '@vercel/postgres'; const client = await db.connect();"],
    ['without await', 'function f(pool) { const pending = pool.connect(); }'],
  ])('finds %s', (_name, code) => {
    const [client] = clientsIn(code);
    expect(client?.binding.type).toBe(AST_NODE_TYPES.Identifier);
    expect(client?.acquire.type).toBe(AST_NODE_TYPES.CallExpression);
  });

  it.each([
    [
      'pg Client connect',
      "import { Client } from 'pg'; const client = new Client(); async function f() { const r = await client.connect(); }",
    ],
    ['a mongo client', 'async function f(mongo) { const conn = await mongo.connect(); }'],
    ['callback style', 'function f(pool) { const x = pool.connect((err, client, done) => done()); }'],
    ['destructured', 'async function f(pool) { const { query } = await pool.connect(); }'],
    ['a bare getConnection()', 'async function f() { const c = await getConnection(); }'],
  ])('ignores %s', (_name, code) => {
    expect(clientsIn(code)).toEqual([]);
  });
});

function problemOf(code: string): string | undefined {
  const [problem] = eachClient(code, (client, context) => {
    const found = releaseProblem(client, context);
    return found?.kind === 'skipped' ? `skipped@${found.at.loc.start.line}` : found?.kind;
  });
  return problem;
}

describe('getCheckedOutClient, beyond pool.connect()', () => {
  it('follows a client wrapped in a new object, under an instanceof Pool test', () => {
    const [binding] = eachClient(
      "import pg from 'pg'; const { Pool } = pg; class S { async t() { const session = this.client instanceof Pool ? new Session(await this.client.connect()) : this; } }",
      (client) => client.binding.name,
    );
    expect(binding).toBe('session');
  });

  it('takes a connect-named helper whose result is released', () => {
    expect(
      eachClient('async function f() { const db = await connectToDb(); db.release(); }', (client) => client.method),
    ).toEqual([undefined]);
    expect(
      eachClient('async function f() { const db = await connectToDb(); await db.query(); }', (client) => client.method),
    ).toEqual([]);
    expect(
      eachClient(
        'async function f() { const lock = await mutex.acquire(); lock.release(); }',
        (client) => client.method,
      ),
    ).toEqual([]);
  });

  it('knows the acquire method', () => {
    expect(eachClient('async function f(pool) { const c = await pool.connect(); }', (client) => client.method)).toEqual(
      ['connect'],
    );
    expect(
      eachClient('async function f(pool) { const c = await pool.getConnection(); }', (client) => client.method),
    ).toEqual(['getConnection']);
  });
});

describe('releaseProblem', () => {
  it.each([
    [
      'released in finally',
      'async function f(pool) { const c = await pool.connect(); try { await c.query("x"); } finally { c.release(); } }',
    ],
    [
      'released before awaited work',
      'async function f(pool) { const c = await pool.connect(); c.release(); await x(); }',
    ],
    ['returned', 'async function f(pool) { const c = await pool.connect(); return c; }'],
    ['stored', 'async function f(pool, holder) { const c = await pool.connect(); holder.client = c; }'],
    [
      'released in a callback',
      'async function f(pool) { const c = await pool.connect(); c.on("error", () => c.release()); await c.query("x"); }',
    ],
    ['await using', 'async function f(pool) { await using c = await pool.connect(); await c.query("x"); }'],
    [
      'catch releases and rethrows',
      'async function f(pool) { const c = await pool.connect(); try { await c.query("x"); } catch (e) { c.release(); throw e; } c.release(); }',
    ],
    [
      'enclosing try releases in finally',
      'async function f(pool) { try { var c = await pool.connect(); await c.query("x"); } finally { c.release(); } }',
    ],
    [
      'loop that releases',
      'async function f(pool) { const c = await pool.connect(); for (const q of qs) { c.release(); await q; } }',
    ],
    [
      'both branches release',
      'async function f(pool, a) { const c = await pool.connect(); if (a) { c.release(); } else { c.release(); } }',
    ],
  ])('none when %s', (_name, code) => {
    expect(problemOf(code)).toBeUndefined();
  });

  it.each([
    [
      'never released',
      'async function f(pool) { const c = await pool.connect(); await c.query("x"); }',
      'neverReleased',
    ],
    [
      'awaited before release',
      'async function f(pool) {\n  const c = await pool.connect();\n  await c.query("x");\n  c.release();\n}',
      'skipped@3',
    ],
    [
      'return before release',
      'async function f(pool, a) {\n  const c = await pool.connect();\n  if (a) return 1;\n  c.release();\n}',
      'skipped@3',
    ],
    [
      'throw before release',
      'async function f(pool, a) {\n  const c = await pool.connect();\n  if (a) throw new Error();\n  c.release();\n}',
      'skipped@3',
    ],
    [
      'awaited in an if test',
      'async function f(pool) {\n  const c = await pool.connect();\n  if (await c.query("x")) {}\n  c.release();\n}',
      'skipped@3',
    ],
    [
      'return inside a loop',
      'async function f(pool, qs) {\n  const c = await pool.connect();\n  for (const q of qs) { if (q) return q; }\n  c.release();\n}',
      'skipped@3',
    ],
    [
      'one branch releases',
      'async function f(pool, a) {\n  const c = await pool.connect();\n  if (a) c.release();\n}',
      'skipped@3',
    ],
    [
      'catch swallows, try returns',
      'async function f(pool) {\n  const c = await pool.connect();\n  try {\n    return await c.query("x");\n  } catch (e) {}\n  c.release();\n}',
      'skipped@4',
    ],
    [
      'catch rethrows unreleased',
      'async function f(pool) {\n  const c = await pool.connect();\n  try {\n    await c.query("x");\n  } catch (e) {\n    throw e;\n  }\n  c.release();\n}',
      'skipped@6',
    ],
  ])('%s', (_name, code, expected) => {
    expect(problemOf(code)).toBe(expected);
  });
});

describe('callbackReleaseProblem', () => {
  function callbackProblem(code: string): string | undefined {
    let found: string | undefined;
    lintSnippet(code, (context) => ({
      CallExpression(node: TSESTree.CallExpression) {
        const lent = getCallbackClient(node, context);
        if (lent) found = callbackReleaseProblem(lent, context)?.kind ?? 'ok';
      },
    }));
    return found;
  }

  it('is quiet when done() or release() is called, or the client or done is handed on', () => {
    expect(callbackProblem('pool.connect((err, client, done) => { done(); });')).toBe('ok');
    expect(callbackProblem('pool.getConnection((err, conn) => { conn.query("x", () => conn.release()); });')).toBe(
      'ok',
    );
    expect(callbackProblem('pool.connect((err, client) => { resolve(client); });')).toBe('ok');
    expect(callbackProblem('pool.connect((err, client, done) => { next(done); });')).toBe('ok');
  });

  it('reports a callback that never gives the client back', () => {
    expect(
      callbackProblem(
        "import { Pool } from 'pg'; const pool = new Pool(); pool.connect((err) => { if (err) throw err; });",
      ),
    ).toBe('neverReleased');
    expect(callbackProblem('pool.connect((err, client) => { client.query("x"); });')).toBe('neverReleased');
  });

  it('ignores connect() on something that is not a pool, and mssql-style pools known by name only', () => {
    expect(callbackProblem('mongo.connect((err, client) => {});')).toBeUndefined();
    expect(callbackProblem('pool.connect((err) => {});')).toBeUndefined();
    expect(callbackProblem('const c = pool.connect((err, client) => {});')).toBeUndefined();
    expect(callbackProblem('pool.connect(async (connection) => {});')).toBeUndefined();
  });
});

describe('releaseIgnoringFailedRollback', () => {
  function flagged(code: string): boolean[] {
    return eachClient(code, (client, context) => releaseIgnoringFailedRollback(client, context) !== undefined);
  }

  it('flags release() without an argument on a pg client that rolls back', () => {
    expect(
      flagged(
        "async function f(pool) { const c = await pool.connect(); try { await c.query('BEGIN'); } catch (e) { await c.query('ROLLBACK'); throw e; } finally { c.release(); } }",
      ),
    ).toEqual([true]);
    expect(
      flagged(
        "import { db } from '@vercel/postgres'; async function f() { const c = await db.connect(); try { await c.sql`BEGIN`; } catch (e) { await c.sql`ROLLBACK`; } finally { c.release(); } }",
      ),
    ).toEqual([true]);
  });

  it('accepts release(err), no ROLLBACK, and mysql2 connections', () => {
    expect(
      flagged(
        "async function f(pool) { const c = await pool.connect(); let bad; try { await c.query('BEGIN'); } catch (e) { bad = e; await c.query('ROLLBACK'); } finally { c.release(bad); } }",
      ),
    ).toEqual([false]);
    expect(
      flagged(
        "async function f(pool) { const c = await pool.connect(); try { await c.query('SELECT 1'); } finally { c.release(); } }",
      ),
    ).toEqual([false]);
    expect(
      flagged(
        'async function f(pool) { const c = await pool.getConnection(); try { await c.rollback(); } finally { c.release(); } }',
      ),
    ).toEqual([false]);
  });
});
