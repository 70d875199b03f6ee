import rule from '../../rules/require-claim-check.js';
import { syntaxRuleTester, typedRuleTester } from '../rule-tester.js';
import { APPLY_TOP_UP } from '../seed-examples.js';

const CLAIM = "'INSERT INTO processed_jobs (job_id) VALUES ($1) ON CONFLICT DO NOTHING'";

syntaxRuleTester().run('require-claim-check', rule, {
  valid: [
    APPLY_TOP_UP,
    // The seed's shorthand: destructured rowCount, then tested.
    `async function handle(pool, job) { const { rowCount } = await pool.query(${CLAIM}, [job.id]); if (rowCount === 0) return; await charge(job); }`,
    `async function handle(pool, job) { const result = await pool.query(${CLAIM}, [job.id]); if (result.rowCount === 0) return; await charge(job); }`,
    // RETURNING, with the rows read (pg), or pg-promise's oneOrNone.
    "async function claim(pool, id) { const res = await pool.query('INSERT INTO webhook_deliveries (delivery_id) VALUES ($1) ON CONFLICT (delivery_id) DO NOTHING RETURNING id', [id]); return { inserted: Boolean(res.rows?.[0]?.id) }; }",
    "async function claim(db, id) { const row = await db.oneOrNone('INSERT INTO processed_events (event_id) VALUES ($1) ON CONFLICT DO NOTHING RETURNING event_id', [id]); if (!row) return; await work(); }",
    // mysql2: affectedRows of the result header.
    "async function handle(pool, job) { const [result] = await pool.execute('INSERT IGNORE INTO processed_jobs (job_id) VALUES (?)', [job.id]); if (result.affectedRows === 0) return; await work(job); }",
    "async function handle(pool, job) { const res = await pool.query('INSERT INTO processed_jobs (job_id) VALUES (?) ON DUPLICATE KEY UPDATE job_id = job_id', [job.id]); if (res[0].affectedRows === 0) return; await work(job); }",
    // Returned to the caller, who checks it.
    `function claimJob(pool, id) { return pool.query(${CLAIM}, [id]); }`,
    `const claimJob = (pool, id) => pool.query(${CLAIM}, [id]);`,
    `async function handle(pool, job) { assertFirst(await pool.query(${CLAIM}, [job.id])); }`,
    // The count returned as a boolean.
    `async function tryClaim(pool, id) { const { rowCount } = await pool.query(${CLAIM}, [id]); return rowCount === 1; }`,
    // An upsert is not a claim.
    "async function f(pool, id) { await pool.query('INSERT INTO accounts (id, credits) VALUES ($1, 0) ON CONFLICT (id) DO UPDATE SET updated_at = now()', [id]); }",
    // A SELECT, a plain INSERT.
    "async function f(pool, id) { await pool.query('SELECT 1 FROM processed_jobs WHERE job_id = $1', [id]); }",
    "async function f(pool, id) { await pool.query('INSERT INTO processed_jobs (job_id) VALUES ($1)', [id]); }",
    // ON CONFLICT DO NOTHING as an idempotent write, not a marker: seed rows, history lines, tags.
    "async function seed(client, user) { await client.query('INSERT INTO users (id, name, email, password) VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING', [user.id, user.name, user.email, user.password]); }",
    "async function f(client, id) { await client.query('INSERT INTO booking_status_history (id, booking_id, from_status, to_status) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING', [crypto.randomUUID(), id, 'PAID', 'MATCHED']); }",
    "async function tag(pool, name) { await pool.query('INSERT INTO tags (name) VALUES ($1) ON CONFLICT DO NOTHING', [name]); }",
    // Fixture rows with literal values, and a backfill from a SELECT.
    'async function seedTest(pool) { await pool.query("INSERT INTO processed_jobs (job_id) VALUES (\'job-1\') ON CONFLICT DO NOTHING"); }',
    "async function backfill(pool) { await pool.query('INSERT INTO processed_jobs (job_id) SELECT id FROM jobs WHERE finished ON CONFLICT DO NOTHING'); }",
    // A look-alike string that is not sent.
    `const doc = ${CLAIM}; console.log(doc);`,
  ],
  invalid: [
    // The result is discarded (the real-world markProcessed shape).
    {
      code: `async function markProcessed(pool, eventId) {\n  await pool.query(\n    'INSERT INTO processed_events(event_id) VALUES ($1) ON CONFLICT DO NOTHING',\n    [eventId]\n  );\n}`,
      errors: [{ messageId: 'uncheckedClaim', line: 2, column: 9 }],
      output: null,
    },
    // Assigned, never read.
    {
      code: `async function handle(pool, job) { const result = await pool.query(${CLAIM}, [job.id]); await charge(job); }`,
      errors: [{ messageId: 'uncheckedClaim', line: 1, column: 57 }],
      output: null,
    },
    // Destructured, never read.
    {
      code: `async function handle(pool, job) { const { rowCount } = await pool.query(${CLAIM}, [job.id]); await charge(job); }`,
      errors: [{ messageId: 'uncheckedClaim', line: 1, column: 63 }],
      output: null,
    },
    // Only the rows are read, and without RETURNING they are always empty.
    {
      code: `async function handle(pool, job) { const { rows } = await pool.query(${CLAIM}, [job.id]); console.log(rows); await charge(job); }`,
      errors: [{ messageId: 'uncheckedClaim', line: 1, column: 59 }],
      output: null,
    },
    // mysql2 INSERT IGNORE, discarded.
    {
      code: "async function handle(pool, job) { await pool.execute('INSERT IGNORE INTO idempotency_keys (`key`) VALUES (?)', [job.id]); await send(job); }",
      errors: [{ messageId: 'uncheckedClaim', line: 1, column: 42 }],
      output: null,
    },
    // pg-promise none() resolves to nothing: the count is lost.
    {
      code: "async function handle(db, job) { await db.none('INSERT INTO processed_jobs (job_id) VALUES ($1) ON CONFLICT DO NOTHING', [job.id]); await send(job); }",
      errors: [{ messageId: 'uncheckedClaim', line: 1, column: 40 }],
      output: null,
    },
    // A short row keyed by the message id, in a table not named for it.
    {
      code: "async function onMessage(pool, msg) { await pool.query('INSERT INTO consumer_log (message_id) VALUES ($1) ON CONFLICT DO NOTHING', [msg.id]); await deliver(msg); }",
      errors: [{ messageId: 'uncheckedClaim', line: 1, column: 45 }],
      output: null,
    },
  ],
});

typedRuleTester().run('require-claim-check (typed)', rule, {
  valid: [
    APPLY_TOP_UP,
    `import { Pool } from 'pg'; const pool = new Pool(); export async function f(id: string) { const { rowCount } = await pool.query(${CLAIM}, [id]); if (rowCount === 0) return; }`,
    "import mysql from 'mysql2/promise'; import type { ResultSetHeader } from 'mysql2'; const pool = mysql.createPool({}); export async function f(id: string) { const [header] = await pool.execute<ResultSetHeader>('INSERT IGNORE INTO processed_jobs (job_id) VALUES (?)', [id]); if (header.affectedRows === 0) return; }",
  ],
  invalid: [
    {
      code: `import { Pool } from 'pg'; const pool = new Pool(); export async function f(id: string) { await pool.query(${CLAIM}, [id]); }`,
      errors: [{ messageId: 'uncheckedClaim', line: 1, column: 97 }],
      output: null,
    },
    {
      code: "import mysql from 'mysql2/promise'; const pool = mysql.createPool({}); export async function f(id: string) { await pool.query('INSERT IGNORE INTO processed_jobs (job_id) VALUES (?)', [id]); }",
      errors: [{ messageId: 'uncheckedClaim', line: 1, column: 116 }],
      output: null,
    },
  ],
});

syntaxRuleTester().run('require-claim-check (ORMs, syntax)', rule, {
  valid: [
    // Prisma: the count read.
    `import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
export async function handle(eventId: string) {
  const { count } = await prisma.processedEvent.createMany({ data: [{ eventId }], skipDuplicates: true });
  if (count === 0) return;
  await charge(eventId);
}`,
    `import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
export async function handle(eventId: string) {
  const result = await prisma.processedEvent.createMany({ data: { eventId }, skipDuplicates: true });
  return result.count > 0;
}`,
    // Prisma: skipDuplicates on data that is not a marker (a bulk import of rows).
    `import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
export async function importTags(names: string[]) {
  await prisma.tag.createMany({ data: names.map((name) => ({ name })), skipDuplicates: true });
}`,
    // skipDuplicates on a row not keyed by its own id, beside other writes (a tag, then its link).
    `import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
export async function tag(postId: string, name: string) {
  await prisma.tag.createMany({ data: [{ name }], skipDuplicates: true });
  await prisma.postTag.create({ data: { postId, name } });
}`,
    // A row keyed by its own id but with nothing else written: an idempotent write in itself.
    `import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
export async function record(paymentId: string, amount: number) {
  await prisma.payment.createMany({ data: [{ paymentId, amount, currency: 'usd', source: 'stripe' }], skipDuplicates: true });
}`,
    // A batch whose results are read.
    `import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
export async function handle(eventId: string) {
  const [claimed] = await prisma.$transaction([prisma.processedEvent.createMany({ data: [{ eventId }], skipDuplicates: true })]);
  if (claimed.count === 0) return;
}`,
    `import { drizzle } from 'drizzle-orm/node-postgres';
const db = drizzle(process.env.DATABASE_URL!);
export async function handle(eventId: string) {
  const rows = await db.insert(processedEvents).values({ eventId }).onConflictDoNothing().returning();
  if (rows.length === 0) return;
  await charge(eventId);
}`,
    `import { drizzle } from 'drizzle-orm/node-postgres';
const db = drizzle(process.env.DATABASE_URL!);
export async function handle(eventId: string) {
  const result = await db.insert(processedEvents).values({ eventId }).onConflictDoNothing();
  if (result.rowCount === 0) return;
  await charge(eventId);
}`,
    // Knex: the returned rows tested.
    `import knex from 'knex';
const db = knex({ client: 'pg' });
export async function handle(jobId: string) {
  const [row] = await db('processed_jobs').insert({ job_id: jobId }).onConflict('job_id').ignore().returning('job_id');
  if (!row) return;
  await send(jobId);
}`,
    // TypeORM: the identifiers read.
    `import { DataSource } from 'typeorm';
const dataSource = new DataSource({ type: 'postgres' });
export async function handle(eventId: string) {
  const result = await dataSource.createQueryBuilder().insert().into(ProcessedEvent).values({ eventId }).orIgnore().execute();
  if (result.identifiers.length === 0) return;
  await charge(eventId);
}`,
    // Sequelize: created read.
    `import { Sequelize } from 'sequelize';
export async function handle(eventId: string) {
  const [, created] = await ProcessedEvent.findOrCreate({ where: { eventId } });
  if (!created) return;
  await charge(eventId);
}`,
    `import { Sequelize } from 'sequelize';
export async function handle(eventId: string) {
  const result = await ProcessedEvent.findOrCreate({ where: { eventId } });
  if (!result[1]) return;
  await charge(eventId);
}`,
    // Sequelize: findOrCreate of an ordinary row, where the row is what is wanted.
    `import { Sequelize } from 'sequelize';
export async function user(email: string) {
  const [row] = await User.findOrCreate({ where: { email } });
  return row;
}`,
    // Prisma raw: the count itself tested.
    `import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
export async function handle(eventId: string) {
  const inserted = await prisma.$executeRaw\`INSERT INTO processed_events (event_id) VALUES (\${eventId}) ON CONFLICT DO NOTHING\`;
  if (inserted === 0) return;
  await charge(eventId);
}`,
  ],
  invalid: [
    {
      code: `import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
export async function handle(eventId: string) {
  await prisma.processedEvent.createMany({ data: [{ eventId }], skipDuplicates: true });
  await charge(eventId);
}`,
      errors: [{ messageId: 'uncheckedClaim', line: 4, column: 9 }],
      output: null,
    },
    {
      // A row keyed by its own id from the event, batched with the writes it should guard; the batch's result discarded.
      code: `import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
export async function recharge(uid: string, event: { rechargeId: string; amount: number }) {
  const operations = [prisma.debt.update({ where: { uid }, data: { paid: true } })];
  operations.push(
    prisma.creditRecharge.createMany({
      data: [{ rechargeId: event.rechargeId, uid, amount: event.amount, balance: event.amount, enabled: true }],
      skipDuplicates: true,
    }),
  );
  await prisma.$transaction(operations);
}`,
      errors: [{ messageId: 'uncheckedClaim', line: 6, column: 5 }],
      output: null,
    },
    {
      code: `import { drizzle } from 'drizzle-orm/node-postgres';
const db = drizzle(process.env.DATABASE_URL!);
export async function handle(eventId: string) {
  await db.insert(processedEvents).values({ eventId }).onConflictDoNothing();
  await charge(eventId);
}`,
      errors: [{ messageId: 'uncheckedClaim', line: 4, column: 9 }],
      output: null,
    },
    {
      code: `import knex from 'knex';
const db = knex({ client: 'pg' });
export async function handle(jobId: string) {
  await db('processed_jobs').insert({ job_id: jobId }).onConflict('job_id').ignore();
  await send(jobId);
}`,
      errors: [{ messageId: 'uncheckedClaim', line: 4, column: 9 }],
      output: null,
    },
    {
      code: `import { DataSource } from 'typeorm';
const dataSource = new DataSource({ type: 'postgres' });
export async function handle(eventId: string) {
  await dataSource.createQueryBuilder().insert().into(ProcessedEvent).values({ eventId }).orIgnore().execute();
  await charge(eventId);
}`,
      errors: [{ messageId: 'uncheckedClaim', line: 4, column: 9 }],
      output: null,
    },
    {
      // The row read, \`created\` ignored.
      code: `import { Sequelize } from 'sequelize';
export async function handle(eventId: string) {
  const [row] = await ProcessedEvent.findOrCreate({ where: { eventId } });
  await charge(row.eventId);
}`,
      errors: [{ messageId: 'uncheckedClaim', line: 3, column: 23 }],
      output: null,
    },
    {
      code: `import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
export async function handle(eventId: string) {
  await prisma.$executeRaw\`INSERT INTO processed_events (event_id) VALUES (\${eventId}) ON CONFLICT DO NOTHING\`;
  await charge(eventId);
}`,
      errors: [{ messageId: 'uncheckedClaim', line: 4, column: 9 }],
      output: null,
    },
    {
      code: `import knex from 'knex';
const db = knex({ client: 'pg' });
export async function handle(jobId: string) {
  await db.raw('INSERT INTO processed_jobs (job_id) VALUES (?) ON CONFLICT DO NOTHING', [jobId]);
  await send(jobId);
}`,
      errors: [{ messageId: 'uncheckedClaim', line: 4, column: 9 }],
      output: null,
    },
  ],
});

typedRuleTester().run('require-claim-check (ORMs, typed)', rule, {
  valid: [
    `import type { Knex } from 'knex';
declare const db: Knex;
export async function handle(jobId: string) {
  const rows = await db('processed_jobs').insert({ job_id: jobId }).onConflict('job_id').ignore().returning('job_id');
  if (rows.length === 0) return;
}`,
    `import type { Model, ModelStatic } from 'sequelize';
declare const ProcessedEvent: ModelStatic<Model>;
export async function handle(eventId: string) {
  const [, created] = await ProcessedEvent.findOrCreate({ where: { eventId } });
  if (!created) return;
}`,
  ],
  invalid: [
    {
      code: `import type { Knex } from 'knex';
declare const db: Knex;
export async function handle(jobId: string) {
  await db('processed_jobs').insert({ job_id: jobId }).onConflict('job_id').ignore();
}`,
      errors: [{ messageId: 'uncheckedClaim', line: 4, column: 9 }],
      output: null,
    },
    {
      code: `import { pgTable, text } from 'drizzle-orm/pg-core';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
const processedEvents = pgTable('processed_events', { eventId: text('event_id').primaryKey() });
declare const db: NodePgDatabase;
export async function handle(eventId: string) {
  await db.insert(processedEvents).values({ eventId }).onConflictDoNothing();
}`,
      errors: [{ messageId: 'uncheckedClaim', line: 6, column: 9 }],
      output: null,
    },
    {
      code: `import type { DataSource } from 'typeorm';
declare const dataSource: DataSource;
export async function handle(eventId: string) {
  await dataSource.createQueryBuilder().insert().into('processed_events').values({ eventId }).orIgnore().execute();
}`,
      errors: [{ messageId: 'uncheckedClaim', line: 4, column: 9 }],
      output: null,
    },
    {
      code: `import type { Model, ModelStatic } from 'sequelize';
declare const ProcessedEvent: ModelStatic<Model>;
export async function handle(eventId: string) {
  await ProcessedEvent.findOrCreate({ where: { eventId } });
}`,
      errors: [{ messageId: 'uncheckedClaim', line: 4, column: 9 }],
      output: null,
    },
  ],
});

syntaxRuleTester().run('require-claim-check (tagged SQL clients and blind upserts)', rule, {
  valid: [
    // @vercel/postgres: the result's rowCount is read.
    `
import { sql } from '@vercel/postgres';
export async function handle(eventId: string) {
  const { rowCount } = await sql\`INSERT INTO processed_events (event_id) VALUES (\${eventId}) ON CONFLICT DO NOTHING\`;
  if (rowCount === 0) return;
  await sendReceipt(eventId);
}
`,
    // postgres.js: the RETURNING rows are read.
    `
import postgres from 'postgres';
const sql = postgres(process.env.DATABASE_URL!);
export async function handle(eventId: string) {
  const [row] = await sql\`INSERT INTO processed_events (event_id) VALUES (\${eventId}) ON CONFLICT DO NOTHING RETURNING event_id\`;
  if (!row) return;
  await sendReceipt(eventId);
}
`,
    // An upsert that updates something is an ordinary write, not a claim.
    `
export async function handle(prisma: any, event: { id: string }) {
  await prisma.processedEvent.upsert({ where: { eventId: event.id }, create: { eventId: event.id }, update: { seenAt: new Date() } });
}
`,
    // An empty-update upsert of a row that records no handled work.
    `
export async function handle(prisma: any, user: { email: string }) {
  await prisma.user.upsert({ where: { email: user.email }, create: { email: user.email }, update: {} });
}
`,
  ],
  invalid: [
    {
      code: `
import { sql } from '@vercel/postgres';
export async function handle(eventId: string) {
  await sql\`INSERT INTO processed_events (event_id) VALUES (\${eventId}) ON CONFLICT DO NOTHING\`;
  await sendReceipt(eventId);
}
`,
      errors: [{ messageId: 'uncheckedClaim', line: 4 }],
    },
    {
      code: `
export async function markProcessed(prisma: any, eventId: string) {
  await prisma.webhookEvent.upsert({ where: { eventId }, create: { eventId, processedAt: new Date() }, update: {} });
}
`,
      errors: [{ messageId: 'blindClaim', line: 3 }],
    },
  ],
});

syntaxRuleTester().run('require-claim-check (a row made sure of, then claimed by a checked update)', rule, {
  valid: [
    // The insert only makes sure the task's row exists; the run is claimed by the conditional
    // update whose affected count is read.
    `
import { DataSource, IsNull } from 'typeorm';
declare class TaskRow { taskId: string; lockedAt: Date | null }
declare const dataSource: DataSource;
export class Scheduler {
  private async ensureRow(taskId: string) {
    await dataSource.getRepository(TaskRow).createQueryBuilder().insert().into(TaskRow).values({ taskId }).orIgnore().execute();
  }
  async run(taskId: string, work: () => Promise<void>) {
    await this.ensureRow(taskId);
    const result = await dataSource
      .getRepository(TaskRow)
      .createQueryBuilder('task')
      .update()
      .set({ lockedAt: new Date() })
      .where('taskId = :taskId', { taskId })
      .andWhere('lockedAt IS NULL')
      .execute();
    if (!result.affected) return;
    await work();
  }
}
`,
  ],
  invalid: [
    {
      // The checked update claims another table's rows: the marker's own result still goes unread.
      code: `
import { DataSource } from 'typeorm';
declare class TaskRow { taskId: string }
declare class LockRow { name: string }
declare const dataSource: DataSource;
export async function run(taskId: string, work: () => Promise<void>) {
  await dataSource.createQueryBuilder().insert().into(TaskRow).values({ taskId }).orIgnore().execute();
  const lock = await dataSource.getRepository(LockRow).createQueryBuilder().update().set({ held: true }).where('name = :n', { n: 'x' }).execute();
  if (!lock.affected) return;
  await work();
}
`,
      errors: [{ messageId: 'uncheckedClaim', line: 7 }],
      output: null,
    },
  ],
});
