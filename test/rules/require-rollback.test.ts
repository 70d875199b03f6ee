import rule from '../../rules/require-rollback.js';
import { syntaxRuleTester, typedRuleTester } from '../rule-tester.js';
import { APPLY_TOP_UP } from '../seed-examples.js';

syntaxRuleTester().run('require-rollback', rule, {
  valid: [
    APPLY_TOP_UP,
    // node-postgres docs: BEGIN before the try, ROLLBACK in catch, release in finally.
    `
async function transfer(pool: any) {
  const client = await pool.connect();
  await client.query('BEGIN');
  try {
    await client.query('UPDATE accounts SET balance = balance - 10 WHERE id = 1');
    await client.query('COMMIT');
  } catch (e) {
    await client.query('ROLLBACK');
    throw e;
  } finally {
    client.release();
  }
}
`,
    // mysql2: beginTransaction / commit / rollback on a connection.
    `
import mysql from 'mysql2/promise';
const pool = mysql.createPool({});
export async function withTransaction<T>(fn: (conn: unknown) => Promise<T>) {
  const conn = await pool.getConnection();
  try {
    await conn.beginTransaction();
    const result = await fn(conn);
    await conn.commit();
    return result;
  } catch (error) {
    try {
      await conn.rollback();
    } catch (rollbackError) {
      console.error(rollbackError);
    }
    throw error;
  } finally {
    conn.release();
  }
}
`,
    // ROLLBACK in a helper of this file called from catch.
    `
async function undo(client: any) {
  await client.query('ROLLBACK');
}
export async function run(client: any) {
  try {
    await client.query('BEGIN');
    await client.query('UPDATE t SET a = 1');
    await client.query('COMMIT');
  } catch (e) {
    await undo(client);
    throw e;
  }
}
`,
    // An imported helper named for what it does; and a class method.
    `
import { rollback } from './db';
export async function run(connection: any) {
  try {
    await connection.query('BEGIN');
    await connection.query('COMMIT');
  } catch (e) {
    await rollback(connection);
  }
}
class Manager {
  async save(client: any) {
    await client.query('BEGIN');
    try {
      await client.query('COMMIT');
    } catch (e) {
      await this.transactionRollback();
    }
  }
  async transactionRollback() {}
}
`,
    // Destroying the connection on error: the server aborts the transaction.
    `
export async function run(pool: any) {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('COMMIT');
    client.release();
  } catch (e) {
    client.release(e);
    throw e;
  }
}
`,
    // The BEGIN lives in a helper that owns the transaction; the callback only does the work.
    `
async function withTransaction(pool: any, work: (client: any) => Promise<void>) {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await work(client);
    await client.query('COMMIT');
  } catch (e) {
    await client.query('ROLLBACK');
    throw e;
  } finally {
    client.release();
  }
}
export async function handler(pool: any) {
  await withTransaction(pool, async (client) => {
    await client.query('UPDATE t SET a = 1');
  });
}
`,
    // A helper of this file whose caller rolls back around it.
    `
async function transfer(client: any) {
  await client.query('BEGIN');
  await client.query('UPDATE accounts SET balance = balance - 1');
  await client.query('COMMIT');
}
export async function handler(pool: any) {
  const client = await pool.connect();
  try {
    await transfer(client);
  } catch (e) {
    await client.query('ROLLBACK');
    throw e;
  } finally {
    client.release();
  }
}
`,
    // A function that only begins (the caller commits and rolls back).
    `
export async function startTransaction(connection: any) {
  await connection.query('BEGIN');
}
`,
    // Promise chains with a rollback in .catch().
    `
export function run(client: any) {
  return client.query('BEGIN')
    .then(() => client.query('UPDATE t SET a = 1'))
    .then(() => client.query('COMMIT'))
    .catch((e: Error) => client.query('ROLLBACK').then(() => { throw e; }));
}
`,
    // Callback style: the function rolls back on its error branches.
    `
export function run(client: any, done: () => void) {
  client.query('BEGIN', (err: Error) => {
    if (err) return client.query('ROLLBACK', done);
    client.query('UPDATE t SET a = 1', (err2: Error) => {
      if (err2) return client.query('ROLLBACK', done);
      client.query('COMMIT', done);
    });
  });
}
`,
    // Pools are no-pool-transaction's concern.
    `
import { Pool } from 'pg';
const pool = new Pool();
export async function f() {
  await pool.query('BEGIN');
  await pool.query('COMMIT');
}
`,
    // One round trip is atomic on its own.
    `
export async function f(client: any) {
  await client.query('BEGIN; UPDATE t SET a = 1; COMMIT');
}
`,
    // Look-alike statements.
    `
export async function f(client: any) {
  await client.query("SELECT 'BEGIN'");
  await client.query('SELECT commit_id FROM deploys');
}
`,
  ],
  invalid: [
    {
      // No try at all (@vercel/postgres client.sql).
      code: `
import { db } from '@vercel/postgres';
const client = await db.connect();
export async function GET() {
  await client.sql\`BEGIN\`;
  await client.sql\`INSERT INTO users (name) VALUES ('a')\`;
  await client.sql\`COMMIT\`;
  return Response.json({ ok: true });
}
`,
      errors: [{ messageId: 'missingRollback', line: 5, column: 9 }],
      output: null,
    },
    {
      // A catch that only logs and rethrows; ROLLBACK only on the business path.
      code: `
export async function applyTopUp(pool: any, job: any) {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const claim = await client.query('INSERT INTO processed_jobs (job_id) VALUES ($1) ON CONFLICT DO NOTHING', [job.id]);
    if (claim.rowCount === 0) {
      await client.query('ROLLBACK');
      return 'duplicate';
    }
    await client.query('COMMIT');
    return 'applied';
  } catch (err) {
    console.error(err);
    throw err;
  } finally {
    client.release();
  }
}
`,
      errors: [{ messageId: 'missingRollback', line: 5, column: 11 }],
      output: null,
    },
    {
      // mysql2 connection, finally only releases.
      code: `
import mysql from 'mysql2/promise';
const pool = mysql.createPool({});
export async function run() {
  const conn = await pool.getConnection();
  try {
    await conn.beginTransaction();
    await conn.query('UPDATE t SET a = 1');
    await conn.commit();
  } finally {
    conn.release();
  }
}
`,
      errors: [{ messageId: 'missingRollback', line: 7, column: 11 }],
      output: null,
    },
    {
      // A try that ends before the BEGIN does not guard it.
      code: `
export async function run(pool: any) {
  let client;
  try {
    client = await pool.connect();
  } catch (e) {
    await client.query('ROLLBACK');
  }
  await client.query('START TRANSACTION');
  await client.query('UPDATE t SET a = 1');
  await client.query('COMMIT');
}
`,
      errors: [{ messageId: 'missingRollback', line: 9, column: 9 }],
      output: null,
    },
    {
      // A helper whose caller does not roll back.
      code: `
const transfer = async (client: any) => {
  await client.query('BEGIN');
  await client.query('COMMIT');
};
export async function handler(client: any) {
  try {
    await transfer(client);
  } catch (e) {
    console.error(e);
  }
}
`,
      errors: [{ messageId: 'missingRollback', line: 3, column: 9 }],
      output: null,
    },
    {
      // ROLLBACK TO SAVEPOINT keeps the transaction open.
      code: `
export async function run(client: any) {
  try {
    await client.query('BEGIN');
    await client.query('COMMIT');
  } catch (e) {
    await client.query('ROLLBACK TO SAVEPOINT s1');
  }
}
`,
      errors: [{ messageId: 'missingRollback', line: 4, column: 11 }],
      output: null,
    },
  ],
});

typedRuleTester().run('require-rollback (typed)', rule, {
  valid: [APPLY_TOP_UP],
  invalid: [
    {
      code: `
import { Pool } from 'pg';
const pool = new Pool();
export async function run() {
  const client = await pool.connect();
  await client.query('BEGIN');
  await client.query('UPDATE t SET a = 1');
  await client.query('COMMIT');
  client.release();
}
`,
      errors: [{ messageId: 'missingRollback', line: 6, column: 9 }],
      output: null,
    },
  ],
});

syntaxRuleTester().run('require-rollback (ORM transactions held in a variable)', rule, {
  valid: [
    // Knex: rolled back in catch.
    `import knex from 'knex';
const db = knex({ client: 'pg' });
export async function run(id: string) {
  const trx = await db.transaction();
  try {
    await trx('accounts').where({ id }).increment('n', 1);
    await trx.commit();
  } catch (error) {
    await trx.rollback();
    throw error;
  }
}`,
    // Sequelize: rolled back in catch.
    `import { Sequelize } from 'sequelize';
const sequelize = new Sequelize('postgres://');
export async function run(id: string) {
  const transaction = await sequelize.transaction();
  try {
    await Account.increment('n', { where: { id }, transaction });
    await transaction.commit();
  } catch (error) {
    await transaction.rollback();
    throw error;
  }
}`,
    // TypeORM: the documented shape.
    `import { DataSource } from 'typeorm';
const dataSource = new DataSource({ type: 'postgres' });
export async function run(id: string) {
  const queryRunner = dataSource.createQueryRunner();
  await queryRunner.connect();
  await queryRunner.startTransaction();
  try {
    await queryRunner.manager.delete('Session', { id });
    await queryRunner.commitTransaction();
  } catch (error) {
    if (queryRunner.isTransactionActive) await queryRunner.rollbackTransaction();
    throw error;
  } finally {
    await queryRunner.release();
  }
}`,
    // TypeORM: a query runner handed in by the caller, who rolls back.
    `import type { QueryRunner } from 'typeorm';
export async function remove(queryRunner: QueryRunner, id: string) {
  await queryRunner.startTransaction();
  await queryRunner.manager.delete('Session', { id });
  await queryRunner.commitTransaction();
}`,
    // A managed transaction rolls back by itself.
    `import knex from 'knex';
const db = knex({ client: 'pg' });
export async function run(id: string) {
  await db.transaction(async (trx) => {
    await trx('accounts').where({ id }).increment('n', 1);
  });
}`,
    // Kysely: rolled back in catch.
    `import { Kysely } from 'kysely';
declare const db: Kysely<any>;
export async function run(id: string) {
  const trx = await db.startTransaction().execute();
  try {
    await trx.updateTable('accounts').set({ n: 1 }).where('id', '=', id).execute();
    await trx.commit().execute();
  } catch (error) {
    await trx.rollback().execute();
    throw error;
  }
}`,
  ],
  invalid: [
    {
      code: `import knex from 'knex';
const db = knex({ client: 'pg' });
export async function run(id: string) {
  const trx = await db.transaction();
  await trx('accounts').where({ id }).increment('n', 1);
  await trx.commit();
}`,
      errors: [{ messageId: 'missingRollback', line: 4, column: 21, data: { client: 'trx' } }],
      output: null,
    },
    {
      // Rolled back only on a branch of the happy path, never on a throw.
      code: `import { Sequelize } from 'sequelize';
const sequelize = new Sequelize('postgres://');
export async function run(dryRun: boolean) {
  const transaction = await sequelize.transaction();
  for (const model of MODELS) {
    await model.destroy({ where: { old: true }, transaction });
  }
  if (!dryRun) await transaction.commit();
  else await transaction.rollback();
}`,
      errors: [{ messageId: 'missingRollback', line: 4, column: 29 }],
      output: null,
    },
    {
      code: `import { DataSource } from 'typeorm';
const dataSource = new DataSource({ type: 'postgres' });
export async function run(id: string) {
  const queryRunner = dataSource.createQueryRunner();
  await queryRunner.connect();
  await queryRunner.startTransaction();
  try {
    await queryRunner.manager.delete('Session', { id });
    await queryRunner.commitTransaction();
  } finally {
    await queryRunner.release();
  }
}`,
      errors: [{ messageId: 'missingRollback', line: 6, column: 9, data: { client: 'queryRunner' } }],
      output: null,
    },
    {
      code: `import { Kysely } from 'kysely';
declare const db: Kysely<any>;
export async function run(id: string) {
  const trx = await db.startTransaction().execute();
  await trx.updateTable('accounts').set({ n: 1 }).where('id', '=', id).execute();
  await trx.commit().execute();
}`,
      errors: [{ messageId: 'missingRollback', line: 4, column: 21 }],
      output: null,
    },
  ],
});

typedRuleTester().run('require-rollback (ORM transactions, typed)', rule, {
  valid: [
    `import type { Knex } from 'knex';
declare const db: Knex;
export async function run(id: string) {
  const trx = await db.transaction();
  try {
    await trx('accounts').where({ id }).increment('n', 1);
    await trx.commit();
  } catch (error) {
    await trx.rollback(error);
    throw error;
  }
}`,
  ],
  invalid: [
    {
      code: `import type { Knex } from 'knex';
declare const db: Knex;
export async function run(id: string) {
  const trx = await db.transaction();
  await trx('accounts').where({ id }).increment('n', 1);
  await trx.commit();
}`,
      errors: [{ messageId: 'missingRollback', line: 4, column: 21 }],
      output: null,
    },
    {
      code: `import type { Sequelize } from 'sequelize';
declare const sequelize: Sequelize;
export async function run() {
  const transaction = await sequelize.transaction();
  await sequelize.query('DELETE FROM sessions', { transaction });
  await transaction.commit();
}`,
      errors: [{ messageId: 'missingRollback', line: 4, column: 29 }],
      output: null,
    },
    {
      code: `import type { Kysely } from 'kysely';
declare const db: Kysely<{ accounts: { id: string; n: number } }>;
export async function run(id: string) {
  const trx = await db.startTransaction().execute();
  await trx.updateTable('accounts').set({ n: 1 }).where('id', '=', id).execute();
  await trx.commit().execute();
}`,
      errors: [{ messageId: 'missingRollback', line: 4, column: 21 }],
      output: null,
    },
  ],
});
