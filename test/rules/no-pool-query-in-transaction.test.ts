import rule from '../../rules/no-pool-query-in-transaction.js';
import { syntaxRuleTester, typedRuleTester } from '../rule-tester.js';
import { APPLY_TOP_UP } from '../seed-examples.js';

syntaxRuleTester().run('no-pool-query-in-transaction', rule, {
  valid: [
    APPLY_TOP_UP,
    // Pool queries before the BEGIN and after the COMMIT are outside on purpose.
    `
import { Pool } from 'pg';
const pool = new Pool();
export async function run(id: string) {
  await pool.query('INSERT INTO audit (id) VALUES ($1)', [id]);
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('UPDATE t SET a = 1');
    await client.query('COMMIT');
  } catch (e) {
    await client.query('ROLLBACK');
    await pool.query('INSERT INTO failures (id) VALUES ($1)', [id]);
    throw e;
  } finally {
    client.release();
  }
  await pool.query('DELETE FROM outbox WHERE id = $1', [id]);
}
`,
    // Reads through the pool change nothing.
    `
import { Pool } from 'pg';
const pool = new Pool();
export async function run() {
  const client = await pool.connect();
  await client.query('BEGIN');
  const { rows } = await pool.query('SELECT * FROM settings');
  await client.query('UPDATE t SET a = $1', [rows[0]]);
  await client.query('COMMIT');
  client.release();
}
`,
    // After an early ROLLBACK on the duplicate path, the transaction is over on that path.
    `
import { Pool } from 'pg';
const pool = new Pool();
export async function run(id: string) {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const claim = await client.query('INSERT INTO processed_jobs (job_id) VALUES ($1) ON CONFLICT DO NOTHING', [id]);
    if (claim.rowCount === 0) {
      await client.query('ROLLBACK');
      await pool.query('INSERT INTO duplicates (job_id) VALUES ($1)', [id]);
      return 'duplicate';
    }
    await client.query('COMMIT');
    return 'applied';
  } finally {
    client.release();
  }
}
`,
    // A helper handed the client uses it.
    `
import { Pool } from 'pg';
const pool = new Pool();
function clientQuery(client: any, text: string) {
  return client ? client.query(text) : pool.query(text);
}
export async function run() {
  const client = await pool.connect();
  await client.query('BEGIN');
  await clientQuery(client, 'UPDATE t SET a = 1');
  await client.query('COMMIT');
  client.release();
}
`,
    // A look-alike object named db with query(), not a pool.
    `
export async function run(client: any, db: any) {
  await client.query('BEGIN');
  await db.query('UPDATE t SET a = 1');
  await client.query('COMMIT');
}
`,
    // postgres.js: everything on the transaction handle.
    `
import postgres from 'postgres';
const sql = postgres();
export async function seed() {
  await sql.begin(async (sql) => {
    await sql\`INSERT INTO users (id) VALUES (1)\`;
  });
}
`,
  ],
  invalid: [
    {
      // The pool the client came from, known only by name.
      code: `
import { pool } from './db';
export async function run(job: { id: string }) {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await pool.query('INSERT INTO processed_jobs (job_id) VALUES ($1)', [job.id]);
    await client.query('UPDATE accounts SET credits = credits + 1');
    await client.query('COMMIT');
  } catch (e) {
    await client.query('ROLLBACK');
    throw e;
  } finally {
    client.release();
  }
}
`,
      errors: [{ messageId: 'poolQuery', line: 7, column: 11 }],
      output: null,
    },
    {
      // mysql2: a statement whose text is unknown, and a helper of this file that writes through the pool.
      code: `
import mysql from 'mysql2/promise';
const pool = mysql.createPool({});
async function audit(id: number) {
  await pool.execute('INSERT INTO audit (id) VALUES (?)', [id]);
}
export async function run(id: number, statement: string) {
  const conn = await pool.getConnection();
  await conn.beginTransaction();
  await pool.query(statement);
  await audit(id);
  await conn.commit();
  conn.release();
}
`,
      errors: [
        { messageId: 'poolQuery', line: 10, column: 9 },
        { messageId: 'poolHelper', line: 11, column: 9 },
      ],
      output: null,
    },
    {
      // postgres.js: the begin callback ignores its handle and its helpers use the outer pool.
      code: `
import postgres from 'postgres';
const sql = postgres(process.env.POSTGRES_URL!);
async function seedUsers() {
  return sql\`INSERT INTO users (id) VALUES (1)\`;
}
export async function GET() {
  await sql.begin((tx) => [seedUsers(), sql\`DELETE FROM sessions\`]);
}
`,
      errors: [
        { messageId: 'poolHelper', line: 8, column: 28 },
        { messageId: 'poolQuery', line: 8, column: 41 },
      ],
      output: null,
    },
  ],
});

typedRuleTester().run('no-pool-query-in-transaction (typed)', rule, {
  valid: [APPLY_TOP_UP],
  invalid: [
    {
      // A second pool known by its type.
      code: `
import { Pool } from 'pg';
declare const audit: Pool;
declare const main: Pool;
export async function run() {
  const client = await main.connect();
  await client.query('BEGIN');
  await audit.query('INSERT INTO audit (a) VALUES (1)');
  await client.query('COMMIT');
  client.release();
}
`,
      errors: [{ messageId: 'poolQuery', line: 8, column: 9 }],
      output: null,
    },
  ],
});
