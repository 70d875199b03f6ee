import type { TSESTree } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';

import { describePool, isCheckedOutClient, isPoolName, poolEvidence } from '../../src/model/sql/pools.js';
import { clientRewrite, poolTransactionListeners } from '../../rules/no-pool-transaction.js';
import { getQueryCall } from '../../src/model/sql/statements.js';
import { lintSnippet } from '../rule-tester.js';

/** For every `<x>.query(...)` in `code`: `<x>` → its pool evidence, or 'client' / '-'. */
function receiversIn(
  code: string,
  options: { typed?: boolean; settings?: Record<string, unknown> } = {},
): Record<string, string> {
  const found: Record<string, string> = {};
  lintSnippet(
    code,
    (context) => ({
      CallExpression(node: TSESTree.CallExpression) {
        const query = getQueryCall(node, context);
        if (!query) return;
        const evidence = poolEvidence(query.receiver, context);
        found[context.sourceCode.getText(query.receiver)] =
          evidence ?? (isCheckedOutClient(query.receiver, context) ? 'client' : '-');
      },
    }),
    options,
  );
  return found;
}

describe('poolEvidence without types', () => {
  it('knows pools by construction', () => {
    expect(
      receiversIn(`
      import { Pool } from 'pg';
      import pg from 'pg';
      import * as mysql from 'mysql2/promise';
      import mariadb from 'mariadb';
      const { Pool: RequiredPool } = require('pg');
      const { Pool: Destructured } = pg;
      const a = new Pool();
      const b = new pg.Pool({ max: 5 });
      const c = mysql.createPool({});
      const d = await mariadb.createPool({});
      const e = new RequiredPool();
      const f = new (require('pg').Pool)();
      const g = new Destructured();
      const h = require('mysql2').createPool({}).promise();
      const alias = a;
      let late;
      late = new Pool();
      a.query('x'); b.query('x'); c.query('x'); d.query('x'); e.query('x'); f.query('x'); g.query('x'); h.query('x');
      alias.query('x'); late.query('x');
    `),
    ).toEqual({
      a: 'construction',
      b: 'construction',
      c: 'construction',
      d: 'construction',
      e: 'construction',
      f: 'construction',
      g: 'construction',
      h: 'construction',
      alias: 'construction',
      late: 'construction',
    });
  });

  it('knows pools by annotation, class property, settings, @vercel/postgres and name', () => {
    expect(
      receiversIn(
        `
      import type { Pool, PoolClient } from 'pg';
      import * as pg from 'pg';
      import { db, sql } from '@vercel/postgres';
      import { shared } from './db';
      import * as dbModule from './db';
      import { pool } from './db';
      function f(p: Pool, q: pg.Pool, r: PoolClient, dbPool, poolClient) {
        p.query('x'); q.query('x'); r.query('x'); dbPool.query('x'); poolClient.query('x');
      }
      class Repo {
        private readonly fromField = new pg.Pool();
        private annotated: Pool;
        constructor(private readonly injected: Pool, other) {
          this.assigned = new pg.Pool();
          this.pool = other;
          this.annotated = other;
        }
        run() {
          this.fromField.query('x'); this.injected.query('x'); this.assigned.query('x'); this.pool.query('x'); this.annotated.query('x');
        }
      }
      db.query('x'); sql.query('x'); shared.query('x'); dbModule.other.query('x'); pool.query('x'); getPool().query('x');
    `,
        {
          settings: {
            idempotency: {
              pools: [
                { from: './db', name: 'shared' },
                { from: './db', name: 'other' },
              ],
            },
          },
        },
      ),
    ).toEqual({
      p: 'annotation',
      q: 'annotation',
      r: 'client',
      dbPool: 'name',
      poolClient: '-',
      'this.fromField': 'construction',
      'this.injected': 'annotation',
      'this.assigned': 'construction',
      'this.pool': 'name',
      'this.annotated': 'annotation',
      db: 'construction',
      sql: 'construction',
      shared: 'settings',
      'dbModule.other': 'settings',
      pool: 'name',
      'getPool()': 'name',
    });
  });

  it('knows checked-out clients and refuses other objects', () => {
    expect(
      receiversIn(`
      import { Client, Pool } from 'pg';
      import mysql from 'mysql2/promise';
      const pool = new Pool();
      const client = await pool.connect();
      const conn = await mysql.createPool({}).getConnection();
      const single = new Client();
      const direct = await mysql.createConnection({});
      const poolish = await pool.connect();
      pool.connect((err, cb, done) => { cb.query('x'); });
      const pinned = await getConnection();
      pinned.query('x');
      client.query('x'); conn.query('x'); single.query('x'); direct.query('x'); poolish.query('x');
      knex.query('x'); repo.query('x');
      let mixed = Math.random() > 0.5 ? pool : client;
      mixed.query('x');
    `),
    ).toEqual({
      client: 'client',
      conn: 'client',
      single: 'client',
      direct: 'client',
      poolish: 'client',
      cb: 'client',
      pinned: 'client',
      knex: '-',
      repo: '-',
      mixed: '-',
    });
  });

  it('tells the way a pool lends a connection', () => {
    const acquires: Record<string, string | undefined> = {};
    lintSnippet(
      `
      import { Pool } from 'pg';
      import mysql from 'mysql2/promise';
      import callbacks from 'mysql2';
      const pg = new Pool(); const my = mysql.createPool({}); const cb = callbacks.createPool({});
      pg.query('x'); my.query('x'); cb.query('x'); pool.query('x');
    `,
      (context) => ({
        CallExpression(node: TSESTree.CallExpression) {
          const query = getQueryCall(node, context);
          if (query)
            acquires[context.sourceCode.getText(query.receiver)] = describePool(query.receiver, context)?.acquire;
        },
      }),
    );
    expect(acquires).toEqual({ pg: 'connect', my: 'getConnection', cb: undefined, pool: undefined });
  });
});

describe('poolEvidence with types', () => {
  it('lets the type decide when it is known', () => {
    expect(
      receiversIn(
        `
      import { Pool, type PoolClient } from 'pg';
      import mysql from 'mysql2/promise';
      declare const injected: Pool;
      declare const client: PoolClient;
      declare const maybe: Pool | undefined;
      declare const untyped: any;
      const my = mysql.createPool({});
      export async function f(pool: PoolClient, db: { query(text: string): void }) {
        injected.query('x'); client.query('x'); maybe?.query('x'); untyped.query('x'); my.query('x');
        pool.query('x'); db.query('x');
        const conn = await my.getConnection();
        conn.query('x');
      }
    `,
        { typed: true },
      ),
    ).toEqual({
      injected: 'type',
      client: 'client',
      maybe: 'type',
      untyped: '-',
      my: 'type',
      pool: 'client',
      db: '-',
      conn: 'client',
    });
  });
});

describe('isPoolName', () => {
  it.each(['pool', 'dbPool', 'POOL', 'pgPool', 'getPool'])('%s says pool', (name) => {
    expect(isPoolName(name)).toBe(true);
  });
  it.each(['poolClient', 'poolConnection', 'client', 'db', 'spool_session', 'transactionPool'])(
    '%s does not',
    (name) => {
      expect(isPoolName(name)).toBe(false);
    },
  );
});

/** Runs the pool-transaction analysis over `code`: each report's line and whether a rewrite is offered. */
function poolTransactionsIn(code: string): { line: number; rewrite: boolean }[] {
  const found: { line: number; rewrite: boolean }[] = [];
  lintSnippet(code, (context) =>
    poolTransactionListeners(context, (report) => {
      found.push({
        line: report.step.node.loc.start.line,
        rewrite: clientRewrite(report.steps, context) !== undefined,
      });
    }),
  );
  return found;
}

describe('poolTransactionReports / clientRewrite', () => {
  const HEAD = "import { Pool } from 'pg';\nconst pool = new Pool();\n";

  it('offers the rewrite for a plain run of statements', () => {
    expect(
      poolTransactionsIn(`${HEAD}async function f() {\n  await pool.query('BEGIN');\n  await pool.query('COMMIT');\n}`),
    ).toEqual([{ line: 4, rewrite: true }]);
  });

  it.each([
    ['a function that is not async', "function f() {\n  pool.query('BEGIN');\n  pool.query('COMMIT');\n}"],
    [
      'the name client already taken',
      "async function f(client: unknown) {\n  await pool.query('BEGIN');\n  await pool.query('COMMIT');\n  return client;\n}",
    ],
    [
      'a declaration used after the run',
      "async function f() {\n  await pool.query('BEGIN');\n  const r = await pool.query('UPDATE t SET a = 1');\n  await pool.query('COMMIT');\n  return r;\n}",
    ],
    [
      'the pool used otherwise',
      "async function f() {\n  await pool.query('BEGIN');\n  pool.on('error', () => {});\n  await pool.query('COMMIT');\n}",
    ],
    [
      'a pool of unknown library',
      "async function f(other: any) {\n  const dbPool = other;\n  await dbPool.query('BEGIN');\n  await dbPool.query('COMMIT');\n}",
    ],
    [
      'two pools',
      "const second = new Pool();\nasync function f() {\n  await pool.query('BEGIN');\n  await second.query('COMMIT');\n}",
    ],
    [
      'a promise chain in an expression body',
      "const f = async () => pool.query('BEGIN').then(() => pool.query('COMMIT'));",
    ],
  ])('offers no rewrite for %s', (_, body) => {
    const reports = poolTransactionsIn(`${HEAD}${body}`);
    expect(reports.length).toBeGreaterThan(0);
    expect(reports.every((report) => !report.rewrite)).toBe(true);
  });

  it('groups a callback under the function that begins, and reports a lone COMMIT once', () => {
    expect(
      poolTransactionsIn(
        `${HEAD}function f() {\n  pool.query('BEGIN', () => pool.query('COMMIT'));\n}\nasync function g() {\n  await pool.query('COMMIT');\n  await pool.query('ROLLBACK');\n}`,
      ),
    ).toEqual([
      { line: 4, rewrite: false },
      { line: 7, rewrite: false },
    ]);
  });

  it('needs both ends of a transaction for a pool known by name only', () => {
    expect(
      poolTransactionsIn(
        "async function f(pool: any) {\n  await pool.query('BEGIN');\n}\nasync function g(pool: any) {\n  await pool.query('BEGIN');\n  await pool.query('ROLLBACK');\n}",
      ),
    ).toEqual([{ line: 5, rewrite: false }]);
  });
});
