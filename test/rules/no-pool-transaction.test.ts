import * as tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';

import rule from '../../rules/no-pool-transaction.js';
import plugin from '../../src/index.js';
import { syntaxRuleTester, typedRuleTester } from '../rule-tester.js';
import { APPLY_TOP_UP } from '../seed-examples.js';

syntaxRuleTester().run('no-pool-transaction', rule, {
  valid: [
    APPLY_TOP_UP,
    // One round trip holding the whole transaction runs on one connection.
    `
import { Pool } from 'pg';
const pool = new Pool();
export async function move(id: string) {
  await pool.query('BEGIN; UPDATE accounts SET credits = credits - 1 WHERE id = $1; COMMIT', [id]);
}
`,
    // A checked-out client, however it is named.
    `
import { Pool } from 'pg';
const pool = new Pool();
async function f() {
  const poolClient = await pool.connect();
  await poolClient.query('BEGIN');
  await poolClient.query('COMMIT');
  poolClient.release();
}
`,
    // Look-alike statements through a pool.
    `
import { Pool } from 'pg';
const pool = new Pool();
async function f() {
  await pool.query("SELECT * FROM courses WHERE level = 'BEGINNER'");
  await pool.query('SELECT commit_id, rollback_reason FROM deploys');
  await pool.query('INSERT INTO processed_jobs (job_id) VALUES ($1) ON CONFLICT DO NOTHING', ['job-1']);
}
`,
    // A non-pool object with a query() method.
    `
const repo = { query: (text: string) => text };
repo.query('BEGIN');
repo.query('COMMIT');
`,
    // knex and Prisma run their own transactions on one connection.
    `
async function f(knex: any, prisma: any) {
  await knex.transaction(async (trx: any) => { await trx('accounts').update({ credits: 1 }); });
  await prisma.$transaction([prisma.account.update({ where: { id: 1 }, data: { credits: 1 } })]);
}
`,
    // A name alone is not enough for a lone statement: it may be a client handed in.
    `
async function finish(pool: any) {
  await pool.query('COMMIT');
}
`,
    // A parameter annotated as a pg client, even if it is called pool.
    `
import type { PoolClient } from 'pg';
async function f(pool: PoolClient) {
  await pool.query('BEGIN');
  await pool.query('COMMIT');
}
`,
    // A dedicated connection (mysql2 createConnection, pg Client) may run transactions.
    `
import mysql from 'mysql2/promise';
import { Client } from 'pg';
async function f() {
  const conn = await mysql.createConnection({});
  await conn.query('START TRANSACTION');
  await conn.query('COMMIT');
  const client = new Client();
  await client.query('BEGIN');
  await client.query('COMMIT');
}
`,
    // postgres.js: sql.begin hands a transaction-bound handle.
    `
import postgres from 'postgres';
const sql = postgres();
await sql.begin(async (tx) => {
  await tx\`SAVEPOINT a\`;
});
`,
  ],
  invalid: [
    {
      // The real-world shape: BEGIN/COMMIT on the pool, ROLLBACK on the pool in catch.
      code: `
const { Pool } = require('pg');
const pool = new Pool();
async function transfer(from: string, to: string) {
  try {
    await pool.query('BEGIN');
    await pool.query('UPDATE accounts SET balance = balance - 1 WHERE id = $1', [from]);
    await pool.query('UPDATE accounts SET balance = balance + 1 WHERE id = $1', [to]);
    await pool.query('COMMIT');
  } catch (error) {
    await pool.query('ROLLBACK');
    throw error;
  }
}
`,
      errors: [
        {
          messageId: 'poolTransaction',
          line: 6,
          column: 11,
          suggestions: [
            {
              messageId: 'rewriteOnClient',
              output: `
const { Pool } = require('pg');
const pool = new Pool();
async function transfer(from: string, to: string) {
  const client = await pool.connect();
  try {
    try {
      await client.query('BEGIN');
      await client.query('UPDATE accounts SET balance = balance - 1 WHERE id = $1', [from]);
      await client.query('UPDATE accounts SET balance = balance + 1 WHERE id = $1', [to]);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    }
  } finally {
    client.release();
  }
}
`,
            },
          ],
        },
      ],
      output: null,
    },
    {
      // Sibling statements, a template literal and a query config; the multi-line SQL keeps its text.
      code: `
import pg from 'pg';
const pool = new pg.Pool();
export async function handle(job: { id: string }) {
  const before = 1;
  await pool.query(\`BEGIN\`);
  const marker = await pool.query({ text: 'INSERT INTO processed_jobs (job_id) VALUES ($1)', values: [job.id] });
  await pool.query(\`UPDATE accounts
SET credits = credits + 1\`);
  await pool.query('COMMIT');
  return before;
}
`,
      errors: [
        {
          messageId: 'poolTransaction',
          line: 6,
          column: 9,
          suggestions: [
            {
              messageId: 'rewriteOnClient',
              output: `
import pg from 'pg';
const pool = new pg.Pool();
export async function handle(job: { id: string }) {
  const before = 1;
  const client = await pool.connect();
  try {
    await client.query(\`BEGIN\`);
    const marker = await client.query({ text: 'INSERT INTO processed_jobs (job_id) VALUES ($1)', values: [job.id] });
    await client.query(\`UPDATE accounts
SET credits = credits + 1\`);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
  return before;
}
`,
            },
          ],
        },
      ],
      output: null,
    },
    {
      // mysql2 promise pool on a class property: getConnection().
      code: `
import mysql from 'mysql2/promise';
class Ledger {
  private readonly db = mysql.createPool({ uri: process.env.DATABASE_URL });
  async credit(id: number) {
    await this.db.query('START TRANSACTION');
    await this.db.execute('UPDATE accounts SET credits = credits + 1 WHERE id = ?', [id]);
    await this.db.query('COMMIT');
  }
}
`,
      errors: [
        {
          messageId: 'poolTransaction',
          line: 6,
          column: 11,
          suggestions: [
            {
              messageId: 'rewriteOnClient',
              output: `
import mysql from 'mysql2/promise';
class Ledger {
  private readonly db = mysql.createPool({ uri: process.env.DATABASE_URL });
  async credit(id: number) {
    const client = await this.db.getConnection();
    try {
      await client.query('START TRANSACTION');
      await client.execute('UPDATE accounts SET credits = credits + 1 WHERE id = ?', [id]);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    } finally {
      client.release();
    }
  }
}
`,
            },
          ],
        },
      ],
      output: null,
    },
    {
      // One report per function, at the BEGIN; another function with only a COMMIT gets its own.
      // A helper of this file that uses the pool inside the run: no suggestion.
      code: `
import { Pool } from 'pg';
const pool = new Pool();
const db = pool;
async function debit(id: string) {
  await db.query('UPDATE accounts SET balance = balance - 1 WHERE id = $1', [id]);
}
export async function transfer(id: string) {
  await db.query('BEGIN');
  await debit(id);
  await db.query('COMMIT');
}
export async function finish() {
  await pool.query('COMMIT');
  await pool.query('ROLLBACK');
}
`,
      errors: [
        { messageId: 'poolTransaction', line: 9, column: 9, suggestions: [] },
        { messageId: 'poolTransaction', line: 14, column: 9, suggestions: [] },
      ],
      output: null,
    },
    {
      // A pool known only by its name (imported from another file): reported when the function both begins and ends a transaction.
      // The pool is also used otherwise (pool.end()): no suggestion.
      code: `
import { pool } from '../db.js';
export const createTransaction = async () => {
  try {
    await pool.query('BEGIN');
    await pool.query('UPDATE usuarios SET balance = balance - 1');
    await pool.query('COMMIT');
  } catch (error) {
    await pool.query('ROLLBACK');
    await pool.end();
  }
};
`,
      errors: [{ messageId: 'poolTransaction', line: 5, column: 11, suggestions: [] }],
      output: null,
    },
    {
      // @vercel/postgres: db and sql are pools.
      code: `
import { db, sql } from '@vercel/postgres';
export async function GET() {
  await db.query('BEGIN');
  await sql\`INSERT INTO t VALUES (1)\`;
  await db.query('COMMIT');
}
export async function POST() {
  await sql\`BEGIN\`;
  await sql\`COMMIT\`;
}
`,
      errors: [
        { messageId: 'poolTransaction', line: 4, column: 9, suggestions: [] },
        { messageId: 'poolTransaction', line: 9, column: 9, suggestions: [] },
      ],
      output: null,
    },
    {
      // A pool listed in the settings (the CLI computes them across files); a callback-style function gets no suggestion.
      code: `
import { shared } from './db';
export function f() {
  shared.query('BEGIN', () => {
    shared.query('COMMIT');
  });
}
`,
      settings: { idempotency: { pools: [{ from: './db', name: 'shared' }] } },
      errors: [{ messageId: 'poolTransaction', line: 4, column: 3, suggestions: [] }],
      output: null,
    },
    {
      // Annotated pool parameter; SAVEPOINT with no BEGIN in the function is reported where it is.
      code: `
import type { Pool } from 'pg';
export async function nested(pool: Pool) {
  await pool.query('SAVEPOINT before_charge');
}
`,
      errors: [{ messageId: 'poolTransaction', line: 4, column: 9, suggestions: [] }],
      output: null,
    },
  ],
});

typedRuleTester().run('no-pool-transaction (typed)', rule, {
  valid: [
    APPLY_TOP_UP,
    // The type says client even though the name says pool.
    `
import { Pool, type PoolClient } from 'pg';
export async function run(pool: PoolClient) {
  await pool.query('BEGIN');
  await pool.query('COMMIT');
}
export async function other(source: Pool) {
  const conn = await source.connect();
  await conn.query('BEGIN');
  await conn.query('COMMIT');
  conn.release();
}
`,
    // mysql2 connection from the pool.
    `
import mysql from 'mysql2/promise';
const pool = mysql.createPool({});
export async function run() {
  const conn = await pool.getConnection();
  await conn.beginTransaction();
  await conn.query('UPDATE t SET a = 1');
  await conn.commit();
  conn.release();
}
`,
  ],
  invalid: [
    {
      // The type finds a pool whatever its name.
      code: `
import { Pool } from 'pg';
declare const database: Pool;
export async function run() {
  await database.query('BEGIN');
  await database.query('COMMIT');
}
`,
      errors: [
        {
          messageId: 'poolTransaction',
          line: 5,
          column: 9,
          suggestions: [
            {
              messageId: 'rewriteOnClient',
              output: `
import { Pool } from 'pg';
declare const database: Pool;
export async function run() {
  const client = await database.connect();
  try {
    await client.query('BEGIN');
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}
`,
            },
          ],
        },
      ],
      output: null,
    },
    {
      code: `
import mysql from 'mysql2/promise';
export async function run(pool: mysql.Pool, client: string) {
  await pool.query('START TRANSACTION');
  await pool.query('COMMIT');
  return client;
}
`,
      errors: [{ messageId: 'poolTransaction', line: 4, column: 9, suggestions: [] }],
      output: null,
    },
  ],
});

syntaxRuleTester().run('no-pool-transaction (ORM handles, syntax)', rule, {
  valid: [
    // Inside the ORM's own transaction the handle is one connection.
    `import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
export async function run() {
  await prisma.$transaction(async (tx) => {
    await tx.$executeRaw\`SET LOCAL lock_timeout = '1s'\`;
    await tx.$executeRawUnsafe('SAVEPOINT a');
  });
}`,
    // A TypeORM query runner holds one connection.
    `import { DataSource } from 'typeorm';
const dataSource = new DataSource({ type: 'postgres' });
export async function run() {
  const queryRunner = dataSource.createQueryRunner();
  await queryRunner.connect();
  await queryRunner.query('START TRANSACTION');
  await queryRunner.query('COMMIT');
  await queryRunner.release();
}`,
    // A Knex transaction handle.
    `import knex from 'knex';
const db = knex({ client: 'pg' });
export async function run() {
  const trx = await db.transaction();
  await trx.raw('SAVEPOINT a');
  await trx.commit();
}`,
    // A raw statement that is not a transaction statement.
    `import { Sequelize } from 'sequelize';
const sequelize = new Sequelize('postgres://');
export async function run() { await sequelize.query('SELECT 1'); }`,
    // Only the import tells, and the name is not a handle's: one BEGIN without its COMMIT.
    `import knex from 'knex';
export async function run(conn: any) { await conn.raw('BEGIN'); }`,
  ],
  invalid: [
    {
      code: `import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
export async function run(id: string) {
  await prisma.$executeRaw\`BEGIN\`;
  await prisma.account.update({ where: { id }, data: { n: 1 } });
  await prisma.$executeRaw\`COMMIT\`;
}`,
      errors: [{ messageId: 'poolTransaction', line: 4, column: 9, data: { statement: 'BEGIN', pool: 'prisma' } }],
      output: null,
    },
    {
      code: `import knex from 'knex';
const db = knex({ client: 'pg' });
export async function run() {
  await db.raw('BEGIN');
  await db('t').update({ n: 1 });
  await db.raw('COMMIT');
}`,
      errors: [{ messageId: 'poolTransaction', line: 4, column: 9 }],
      output: null,
    },
    {
      code: `import { DataSource } from 'typeorm';
const dataSource = new DataSource({ type: 'postgres' });
export async function run() {
  await dataSource.query('START TRANSACTION');
  await dataSource.query('UPDATE t SET n = 1');
  await dataSource.query('COMMIT');
}`,
      errors: [{ messageId: 'poolTransaction', line: 4, column: 9 }],
      output: null,
    },
    {
      code: `import { Sequelize } from 'sequelize';
const sequelize = new Sequelize('postgres://');
export async function run() {
  await sequelize.query('BEGIN');
  await sequelize.query('UPDATE t SET n = 1');
  await sequelize.query('COMMIT');
}`,
      errors: [{ messageId: 'poolTransaction', line: 4, column: 9 }],
      output: null,
    },
    {
      // Known by name and import only: counted because it both begins and commits.
      code: `import { Injectable } from '@nestjs/common';
import { PrismaService } from './prisma.service';
import { Prisma } from '@prisma/client';
@Injectable()
export class Accounts {
  constructor(private readonly prisma: PrismaService) {}
  async move() {
    await this.prisma.$executeRawUnsafe('BEGIN');
    await this.prisma.$executeRawUnsafe('COMMIT');
  }
}`,
      errors: [{ messageId: 'poolTransaction', line: 8, column: 11 }],
      output: null,
    },
  ],
});

typedRuleTester().run('no-pool-transaction (ORM handles, typed)', rule, {
  valid: [
    `import type { Knex } from 'knex';
declare const db: Knex;
export async function run() {
  await db.transaction(async (trx) => {
    await trx.raw('SAVEPOINT a');
  });
}`,
  ],
  invalid: [
    {
      code: `import type { Knex } from 'knex';
declare const db: Knex;
export async function run() {
  await db.raw('BEGIN');
  await db.raw('COMMIT');
}`,
      errors: [{ messageId: 'poolTransaction', line: 4, column: 9 }],
      output: null,
    },
    {
      code: `import type { Sequelize } from 'sequelize';
declare const sequelize: Sequelize;
export async function run() {
  await sequelize.query('BEGIN');
}`,
      errors: [{ messageId: 'poolTransaction', line: 4, column: 9 }],
      output: null,
    },
    {
      code: `import type { DataSource } from 'typeorm';
declare const dataSource: DataSource;
export async function run() {
  await dataSource.query('START TRANSACTION');
}`,
      errors: [{ messageId: 'poolTransaction', line: 4, column: 9 }],
      output: null,
    },
  ],
});

describe('the suggestion', () => {
  // Issue 13, item 6: the rewrite used to leave a transaction without ROLLBACK, which require-rollback reported.
  it.each([
    ['without a ROLLBACK', ''],
    ['with a ROLLBACK in catch', 'rollback'],
  ])('writes code no rule of configs.all reports (%s)', (_name, withRollback) => {
    const inner =
      withRollback === ''
        ? `  await pool.query('BEGIN');\n  await pool.query('UPDATE t SET n = n + 1 WHERE id = $1', [id]);\n  await pool.query('COMMIT');\n`
        : `  try {\n    await pool.query('BEGIN');\n    await pool.query('UPDATE t SET n = n + 1 WHERE id = $1', [id]);\n    await pool.query('COMMIT');\n  } catch (error) {\n    await pool.query('ROLLBACK');\n    throw error;\n  }\n`;
    const code = `import { Pool } from 'pg';\nconst pool = new Pool();\nexport async function credit(id: string) {\n${inner}}\n`;
    const config: Linter.Config[] = [
      { files: ['**/*.ts'], languageOptions: { parser: tsParser as unknown as Linter.Parser } },
      plugin.configs.all,
    ];
    const linter = new Linter({ configType: 'flat' });
    const reported = linter.verify(code, config, 'src/credit.ts');
    const suggestion = reported.find((message) => message.ruleId === 'idempotency/no-pool-transaction')
      ?.suggestions?.[0];
    expect(suggestion).toBeDefined();
    const { fix } = suggestion!;
    const rewritten = code.slice(0, fix.range[0]) + fix.text + code.slice(fix.range[1]);
    expect(rewritten).toContain("await client.query('ROLLBACK');");
    expect(linter.verify(rewritten, config, 'src/credit.ts').map((message) => message.ruleId)).toEqual([]);
  });
});
