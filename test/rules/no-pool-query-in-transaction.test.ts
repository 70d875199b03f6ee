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

syntaxRuleTester().run('no-pool-query-in-transaction (ORMs, syntax)', rule, {
  valid: [
    // Prisma: every query through the transaction client; the parameter shadowing the outer name.
    `
import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
export async function pay(id: string) {
  await prisma.$transaction(async (tx) => {
    await tx.order.update({ where: { id }, data: { paid: true } });
    await tx.ledger.create({ data: { orderId: id } });
  });
  await prisma.$transaction(async (prisma) => {
    await prisma.ledger.create({ data: { orderId: id } });
  });
  await prisma.audit.create({ data: { id } });
}
`,
    // Prisma: a read of reference data through the outer client decides nothing.
    `
import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
export async function subscribe(uid: string) {
  await prisma.$transaction(async (tx) => {
    const plan = await prisma.plan.findFirst({ where: { type: 'pro' } });
    await tx.subscription.create({ data: { uid, quota: plan?.quota ?? 0 } });
  });
}
`,
    // Prisma: a compensation closure made in the transaction but returned and run after it
    // commits must use the outer client; so must one stored on the instance.
    `
import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
export async function reserve(ids: string[], holder: { undo?: () => Promise<void> }) {
  const { undo } = await prisma.$transaction(async (tx) => {
    await tx.run.updateMany({ where: { id: { in: ids } }, data: { lockedAt: new Date() } });
    const undo = async () => {
      await prisma.run.updateMany({ where: { id: { in: ids } }, data: { lockedAt: null } });
    };
    holder.undo = async () => {
      await prisma.run.deleteMany({ where: { id: { in: ids } } });
    };
    return { ids, undo };
  });
  return undo;
}
`,
    // MikroORM: the global manager and an injected repository resolve to the transaction's fork
    // inside \`transactional\` (its transaction context), so they are in the transaction.
    `
import { EntityManager, EntityRepository } from '@mikro-orm/core';
export class Users {
  constructor(private readonly em: EntityManager, private readonly userRepo: EntityRepository<any>) {}
  async create(email: string) {
    return this.em.transactional(async (em) => {
      const existing = await this.userRepo.findOne({ email });
      if (existing) throw new Error('taken');
      const user = { email };
      this.userRepo.persist(user);
      await this.em.nativeInsert('Audit', { email });
      em.persist({ action: 'create', user });
      return user;
    });
  }
}
`,
    // Knex: `.transacting(trx)`, raw fragments and builders composed into a query of the transaction.
    `
import Knex from 'knex';
const knex = Knex({ client: 'pg' });
export async function bump(id: number) {
  await knex.transaction(async (trx) => {
    await knex('counters').where({ id }).increment('n', 1).transacting(trx);
    await trx('counters').update({ at: knex.fn.now(), n: knex.raw('n + 1') });
    const sub = knex('events').select('id').where({ id }).toSQL().toNative();
    await trx.raw(sub.sql, sub.bindings);
  });
}
`,
    // Drizzle: everything through tx.
    `
import { drizzle } from 'drizzle-orm/node-postgres';
import { eq } from 'drizzle-orm';
const db = drizzle(process.env.DATABASE_URL!);
export async function move(a: any, id: number) {
  await db.transaction(async (tx) => {
    await tx.update(a).set({ n: 1 }).where(eq(a.id, id));
    await tx.insert(a).values({ id });
  });
}
`,
    // Sequelize: every write passes the transaction; CLS passes it implicitly.
    `
import { Sequelize } from 'sequelize';
const sequelize = new Sequelize('postgres://');
export async function transfer(User: any, id: number) {
  await sequelize.transaction(async (t) => {
    const options = { transaction: t };
    await User.create({ id }, { transaction: t });
    await User.update({ n: 1 }, { where: { id }, transaction: t });
    await User.destroy({ where: { id: 2 }, ...options });
    await User.increment('n', options);
  });
}
`,
    `
import { Sequelize } from 'sequelize';
Sequelize.useCLS(namespace);
const sequelize = new Sequelize('postgres://');
export async function transfer(User: any, id: number) {
  await sequelize.transaction(async (t) => {
    await User.create({ id });
  });
}
`,
    // Mongoose: the session passed, as an option or chained.
    `
import mongoose from 'mongoose';
export async function order(Order: any, Stock: any, session: any) {
  await session.withTransaction(async () => {
    await Order.create([{ a: 1 }], { session });
    await Stock.updateOne({ sku: 'a' }, { $inc: { n: -1 } }).session(session);
  });
}
`,
    // pg-promise and Kysely: through t / trx.
    `
import pgPromise from 'pg-promise';
const db = pgPromise()('postgres://');
export async function run(id: number) {
  await db.tx(async (t) => {
    await t.none('UPDATE a SET n = n + 1 WHERE id = $1', [id]);
  });
}
`,
    `
import { Kysely } from 'kysely';
declare const db: Kysely<any>;
export async function run(id: number) {
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('a').values({ id }).execute();
  });
}
`,
    `
import { CompiledQuery, Kysely } from 'kysely';
declare const db: Kysely<any>;
export async function run(sql: string) {
  await db.transaction().execute(async (trx) => {
    await trx.executeQuery(CompiledQuery.raw(sql));
  });
  await db.executeQuery(CompiledQuery.raw(sql));
}
`,
  ],
  invalid: [
    {
      // Prisma: the outer client inside an interactive transaction.
      code: `
import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
export async function pay(id: string) {
  await prisma.$transaction(async (tx) => {
    await tx.order.update({ where: { id }, data: { paid: true } });
    await prisma.ledger.create({ data: { orderId: id } });
  });
}
`,
      errors: [{ messageId: 'ormHandle', line: 7, column: 11 }],
      output: `
import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
export async function pay(id: string) {
  await prisma.$transaction(async (tx) => {
    await tx.order.update({ where: { id }, data: { paid: true } });
    await tx.ledger.create({ data: { orderId: id } });
  });
}
`,
    },
    {
      // Prisma: a helper closure made in the transaction and called in it runs in it.
      code: `
import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
export async function pay(ids: string[]) {
  return prisma.$transaction(async (tx) => {
    const release = async () => {
      await prisma.run.updateMany({ where: { id: { in: ids } }, data: { lockedAt: null } });
    };
    await release();
    return { release };
  });
}
`,
      errors: [{ messageId: 'ormHandle', line: 7, column: 13 }],
      output: `
import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
export async function pay(ids: string[]) {
  return prisma.$transaction(async (tx) => {
    const release = async () => {
      await tx.run.updateMany({ where: { id: { in: ids } }, data: { lockedAt: null } });
    };
    await release();
    return { release };
  });
}
`,
    },
    {
      // MikroORM: a fork of its own does not resolve to the transaction; fix: the callback's manager.
      code: `
import { MikroORM } from '@mikro-orm/core';
declare const orm: MikroORM;
export async function pay(order: { id: number }) {
  const em = orm.em.fork();
  await em.transactional(async (tem) => {
    em.persist(order);
    await em.nativeInsert('Ledger', { orderId: order.id });
  });
}
`,
      errors: [
        { messageId: 'ormHandle', line: 7, column: 5 },
        { messageId: 'ormHandle', line: 8, column: 11 },
      ],
      output: `
import { MikroORM } from '@mikro-orm/core';
declare const orm: MikroORM;
export async function pay(order: { id: number }) {
  const em = orm.em.fork();
  await em.transactional(async (tem) => {
    tem.persist(order);
    await tem.nativeInsert('Ledger', { orderId: order.id });
  });
}
`,
    },
    {
      // Prisma: a callback that does not take the transaction client.
      code: `
import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
export async function lock(id: string) {
  await prisma.$transaction(async () => {
    await prisma.page.update({ where: { id }, data: { locked: true } });
  });
}
`,
      errors: [{ messageId: 'ormHandleNoClient', line: 6, column: 11 }],
      output: null,
    },
    {
      // Prisma in a NestJS service: `this.prisma` inside the transaction.
      code: `
import { Injectable } from '@nestjs/common';
import { PrismaService } from './prisma.service';
@Injectable()
export class Billing {
  constructor(private readonly prisma: PrismaService) {}
  async refund(id: string) {
    return this.prisma.$transaction(async (tx) => {
      await tx.payment.update({ where: { id }, data: { refunded: true } });
      await this.prisma.credit.updateMany({ where: { paymentId: id }, data: { amount: 0 } });
    });
  }
}
`,
      errors: [{ messageId: 'ormHandle', line: 10, column: 13 }],
      output: `
import { Injectable } from '@nestjs/common';
import { PrismaService } from './prisma.service';
@Injectable()
export class Billing {
  constructor(private readonly prisma: PrismaService) {}
  async refund(id: string) {
    return this.prisma.$transaction(async (tx) => {
      await tx.payment.update({ where: { id }, data: { refunded: true } });
      await tx.credit.updateMany({ where: { paymentId: id }, data: { amount: 0 } });
    });
  }
}
`,
    },
    {
      // Drizzle: db instead of tx.
      code: `
import { drizzle } from 'drizzle-orm/node-postgres';
const db = drizzle(process.env.DATABASE_URL!);
export async function move(a: any, id: number) {
  await db.transaction(async (tx) => {
    await tx.update(a).set({ n: 1 });
    await db.insert(a).values({ id });
  });
}
`,
      errors: [{ messageId: 'ormHandle', line: 7, column: 11 }],
      output: `
import { drizzle } from 'drizzle-orm/node-postgres';
const db = drizzle(process.env.DATABASE_URL!);
export async function move(a: any, id: number) {
  await db.transaction(async (tx) => {
    await tx.update(a).set({ n: 1 });
    await tx.insert(a).values({ id });
  });
}
`,
    },
    {
      // Knex: an existence check through knex decides the insert through trx; a builder without `.transacting`.
      code: `
import Knex from 'knex';
const knex = Knex({ client: 'pg' });
export async function cache(key: string) {
  await knex.transaction(async (trx) => {
    const existing = await knex('cache').where({ key }).first();
    if (!existing) await trx('cache').insert({ key });
    await knex('stats').increment('n', 1);
  });
}
`,
      errors: [
        { messageId: 'ormHandle', line: 6, column: 28 },
        { messageId: 'ormHandle', line: 8, column: 11 },
      ],
      output: `
import Knex from 'knex';
const knex = Knex({ client: 'pg' });
export async function cache(key: string) {
  await knex.transaction(async (trx) => {
    const existing = await trx('cache').where({ key }).first();
    if (!existing) await trx('cache').insert({ key });
    await trx('stats').increment('n', 1);
  });
}
`,
    },
    {
      // Knex: a transaction held in a variable, until its commit.
      code: `
import Knex from 'knex';
const knex = Knex({ client: 'pg' });
export async function run(id: number) {
  const trx = await knex.transaction();
  try {
    await trx('a').insert({ id });
    await knex('b').insert({ id });
    await trx.commit();
  } catch (error) {
    await trx.rollback();
    throw error;
  }
  await knex('c').insert({ id });
}
`,
      errors: [{ messageId: 'ormHandle', line: 8, column: 11 }],
      output: `
import Knex from 'knex';
const knex = Knex({ client: 'pg' });
export async function run(id: number) {
  const trx = await knex.transaction();
  try {
    await trx('a').insert({ id });
    await trx('b').insert({ id });
    await trx.commit();
  } catch (error) {
    await trx.rollback();
    throw error;
  }
  await knex('c').insert({ id });
}
`,
    },
    {
      // TypeORM: the data source's manager and an injected repository inside dataSource.transaction.
      code: `
import { DataSource, Repository } from 'typeorm';
export class Orders {
  constructor(private dataSource: DataSource, private readonly orderRepository: Repository<any>) {}
  async place(order: any) {
    await this.dataSource.transaction(async (manager) => {
      await manager.save(order);
      await this.dataSource.manager.insert('audit', { id: order.id });
      await this.orderRepository.update(order.id, { placed: true });
    });
  }
}
`,
      errors: [
        { messageId: 'ormHandle', line: 8, column: 13 },
        { messageId: 'ormRepository', line: 9, column: 13 },
      ],
      output: `
import { DataSource, Repository } from 'typeorm';
export class Orders {
  constructor(private dataSource: DataSource, private readonly orderRepository: Repository<any>) {}
  async place(order: any) {
    await this.dataSource.transaction(async (manager) => {
      await manager.save(order);
      await manager.insert('audit', { id: order.id });
      await this.orderRepository.update(order.id, { placed: true });
    });
  }
}
`,
    },
    {
      // TypeORM: a query runner's transaction, and a write through the data source's manager.
      code: `
import { DataSource } from 'typeorm';
declare const dataSource: DataSource;
export async function place(order: any) {
  const queryRunner = dataSource.createQueryRunner();
  await queryRunner.connect();
  await queryRunner.startTransaction();
  try {
    await queryRunner.manager.save(order);
    await dataSource.manager.save({ audit: order.id });
    await queryRunner.commitTransaction();
  } catch (error) {
    await queryRunner.rollbackTransaction();
  } finally {
    await queryRunner.release();
  }
}
`,
      errors: [{ messageId: 'ormHandle', line: 10, column: 11 }],
      output: `
import { DataSource } from 'typeorm';
declare const dataSource: DataSource;
export async function place(order: any) {
  const queryRunner = dataSource.createQueryRunner();
  await queryRunner.connect();
  await queryRunner.startTransaction();
  try {
    await queryRunner.manager.save(order);
    await queryRunner.manager.save({ audit: order.id });
    await queryRunner.commitTransaction();
  } catch (error) {
    await queryRunner.rollbackTransaction();
  } finally {
    await queryRunner.release();
  }
}
`,
    },
    {
      // Sequelize: a managed transaction with a write that does not pass it.
      code: `
import { Sequelize } from 'sequelize';
const sequelize = new Sequelize('postgres://');
export async function transfer(User: any, Audit: any, user: any, id: number) {
  await sequelize.transaction(async (t) => {
    await User.update({ n: 1 }, { where: { id }, transaction: t });
    await Audit.create({ id });
    await Audit.destroy({ where: { id: 2 } });
    await user.save();
  });
}
`,
      errors: [
        {
          messageId: 'ormOption',
          line: 7,
          column: 11,
          suggestions: [
            {
              messageId: 'passTransaction',
              output: `
import { Sequelize } from 'sequelize';
const sequelize = new Sequelize('postgres://');
export async function transfer(User: any, Audit: any, user: any, id: number) {
  await sequelize.transaction(async (t) => {
    await User.update({ n: 1 }, { where: { id }, transaction: t });
    await Audit.create({ id }, { transaction: t });
    await Audit.destroy({ where: { id: 2 } });
    await user.save();
  });
}
`,
            },
          ],
        },
        {
          messageId: 'ormOption',
          line: 8,
          column: 11,
          suggestions: [
            {
              messageId: 'passTransaction',
              output: `
import { Sequelize } from 'sequelize';
const sequelize = new Sequelize('postgres://');
export async function transfer(User: any, Audit: any, user: any, id: number) {
  await sequelize.transaction(async (t) => {
    await User.update({ n: 1 }, { where: { id }, transaction: t });
    await Audit.create({ id });
    await Audit.destroy({ where: { id: 2 }, transaction: t });
    await user.save();
  });
}
`,
            },
          ],
        },
        {
          messageId: 'ormOption',
          line: 9,
          column: 11,
          suggestions: [
            {
              messageId: 'passTransaction',
              output: `
import { Sequelize } from 'sequelize';
const sequelize = new Sequelize('postgres://');
export async function transfer(User: any, Audit: any, user: any, id: number) {
  await sequelize.transaction(async (t) => {
    await User.update({ n: 1 }, { where: { id }, transaction: t });
    await Audit.create({ id });
    await Audit.destroy({ where: { id: 2 } });
    await user.save({ transaction: t });
  });
}
`,
            },
          ],
        },
      ],
      output: null,
    },
    {
      // Mongoose: a write inside withTransaction without the session.
      code: `
import mongoose from 'mongoose';
export async function order(Order: any, Stock: any, session: any) {
  await session.withTransaction(async () => {
    await Order.create([{ a: 1 }], { session });
    await Stock.updateOne({ sku: 'a' }, { $inc: { n: -1 } });
  });
}
`,
      errors: [
        {
          messageId: 'ormOption',
          line: 6,
          column: 11,
          suggestions: [
            {
              messageId: 'passTransaction',
              output: `
import mongoose from 'mongoose';
export async function order(Order: any, Stock: any, session: any) {
  await session.withTransaction(async () => {
    await Order.create([{ a: 1 }], { session });
    await Stock.updateOne({ sku: 'a' }, { $inc: { n: -1 } }, { session });
  });
}
`,
            },
          ],
        },
      ],
      output: null,
    },
    {
      // pg-promise: db inside db.tx; Kysely: db inside the transaction's execute.
      code: `
import pgPromise from 'pg-promise';
const db = pgPromise()('postgres://');
export async function run(id: number) {
  await db.tx(async (t) => {
    await t.none('UPDATE a SET n = n + 1 WHERE id = $1', [id]);
    await db.none('INSERT INTO audit (id) VALUES ($1)', [id]);
  });
}
`,
      errors: [{ messageId: 'ormHandle', line: 7, column: 11 }],
      output: `
import pgPromise from 'pg-promise';
const db = pgPromise()('postgres://');
export async function run(id: number) {
  await db.tx(async (t) => {
    await t.none('UPDATE a SET n = n + 1 WHERE id = $1', [id]);
    await t.none('INSERT INTO audit (id) VALUES ($1)', [id]);
  });
}
`,
    },
    {
      code: `
import { Kysely } from 'kysely';
declare const db: Kysely<any>;
export async function run(id: number) {
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('a').set({ n: 1 }).execute();
    await db.insertInto('audit').values({ id }).execute();
  });
}
`,
      errors: [{ messageId: 'ormHandle', line: 7, column: 11 }],
      output: `
import { Kysely } from 'kysely';
declare const db: Kysely<any>;
export async function run(id: number) {
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('a').set({ n: 1 }).execute();
    await trx.insertInto('audit').values({ id }).execute();
  });
}
`,
    },
    {
      // Kysely: a compiled query run on the outer instance (executeQuery sends any text).
      code: `
import { CompiledQuery, Kysely } from 'kysely';
declare const db: Kysely<any>;
export async function run(sql: string) {
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('a').set({ n: 1 }).execute();
    await db.executeQuery(CompiledQuery.raw(sql));
  });
}
`,
      errors: [{ messageId: 'ormHandle', line: 7, column: 11 }],
      output: `
import { CompiledQuery, Kysely } from 'kysely';
declare const db: Kysely<any>;
export async function run(sql: string) {
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('a').set({ n: 1 }).execute();
    await trx.executeQuery(CompiledQuery.raw(sql));
  });
}
`,
    },
    {
      // A handle of no known library: the rewrite is a suggestion.
      code: `
import { db } from './db';
export async function run(id: number) {
  await db.transaction(async (tx) => {
    await tx.insert('a', { id });
    await db.insert('audit', { id });
  });
}
`,
      errors: [
        {
          messageId: 'ormHandle',
          line: 6,
          column: 11,
          suggestions: [
            {
              messageId: 'useTransaction',
              output: `
import { db } from './db';
export async function run(id: number) {
  await db.transaction(async (tx) => {
    await tx.insert('a', { id });
    await tx.insert('audit', { id });
  });
}
`,
            },
          ],
        },
      ],
      output: null,
    },
  ],
});

typedRuleTester().run('no-pool-query-in-transaction (ORMs, typed)', rule, {
  valid: [
    // Knex, by its declarations: the builder joins the transaction.
    `
import type { Knex } from 'knex';
declare const knex: Knex;
export async function bump(id: number) {
  await knex.transaction(async (trx) => {
    await knex('counters').where({ id }).increment('n', 1).transacting(trx);
  });
}
`,
  ],
  invalid: [
    {
      // Knex, known by its type although the file imports only the type: the fix is provable.
      code: `
import type { Knex } from 'knex';
declare const knex: Knex;
export async function bump(id: number) {
  await knex.transaction(async (trx) => {
    await trx('a').insert({ id });
    await knex('counters').where({ id }).increment('n', 1);
  });
}
`,
      errors: [{ messageId: 'ormHandle', line: 7, column: 11 }],
      output: `
import type { Knex } from 'knex';
declare const knex: Knex;
export async function bump(id: number) {
  await knex.transaction(async (trx) => {
    await trx('a').insert({ id });
    await trx('counters').where({ id }).increment('n', 1);
  });
}
`,
    },
    {
      // TypeORM, by the data source's type.
      code: `
import type { DataSource } from 'typeorm';
declare const dataSource: DataSource;
export async function place(order: object) {
  await dataSource.transaction(async (manager) => {
    await manager.save('Order', order);
    await dataSource.manager.insert('Audit', { id: 1 });
  });
}
`,
      errors: [{ messageId: 'ormHandle', line: 7, column: 11 }],
      output: `
import type { DataSource } from 'typeorm';
declare const dataSource: DataSource;
export async function place(order: object) {
  await dataSource.transaction(async (manager) => {
    await manager.save('Order', order);
    await manager.insert('Audit', { id: 1 });
  });
}
`,
    },
  ],
});

syntaxRuleTester().run('no-pool-query-in-transaction (project transaction wrappers)', rule, {
  valid: [
    // The wrapper's callback passes its transaction to every query.
    `import { executeOnDBTx } from './transaction-wrapper';
export async function reset(id: string) {
  await executeOnDBTx(PatientModel.prototype, async (transaction) => {
    const patient = await PatientModel.findOne({ where: { id }, transaction });
    await patient.update({ data: {} }, { transaction });
  });
}`,
    // A helper not named for a transaction: its callback parameter is not known to be one.
    `import { withRetry } from './retry';
export async function reset(id: string) {
  await withRetry(async (transaction) => {
    await PatientModel.findOne({ where: { id }, transaction });
    await Audit.create({ id });
  });
}`,
    // Named for a transaction, but the parameter is never handed on as one.
    `import { inTransaction } from './db';
export async function reset(id: string) {
  await inTransaction(async (ctx) => {
    await Audit.create({ id });
  });
}`,
  ],
  invalid: [
    {
      code: `import { executeOnDBTx } from './transaction-wrapper';
export async function reset(id: string) {
  await executeOnDBTx(PatientModel.prototype, async (transaction) => {
    const patient = await PatientModel.findOne({ where: { id }, transaction });
    await patient.update({ data: {} });
  });
}`,
      errors: [
        {
          messageId: 'ormOption',
          line: 5,
          column: 11,
          suggestions: [
            {
              messageId: 'passTransaction',
              output: `import { executeOnDBTx } from './transaction-wrapper';
export async function reset(id: string) {
  await executeOnDBTx(PatientModel.prototype, async (transaction) => {
    const patient = await PatientModel.findOne({ where: { id }, transaction });
    await patient.update({ data: {} }, { transaction });
  });
}`,
            },
          ],
        },
      ],
      output: null,
    },
  ],
});

syntaxRuleTester().run('no-pool-query-in-transaction (a helper called without the transaction handle)', rule, {
  valid: [
    // Every repository call in the callback is handed the task.
    `
import pgPromise from 'pg-promise';
import * as TaxonomyRepository from './taxonomyRepository';
import * as ActivityLog from './activityLog';
const db = pgPromise()('postgres://');
export const insertTaxonomy = async (surveyId: number, taxonomy: object, client = db) =>
  client.tx(async (t) => {
    const inserted = await TaxonomyRepository.insertTaxonomy(surveyId, taxonomy, t);
    await ActivityLog.insert(surveyId, 'taxonomyCreate', t);
    return inserted;
  });
`,
    // A read left on the pool that decides nothing, and a same-file helper that takes no handle.
    `
import pgPromise from 'pg-promise';
import * as TaxonomyRepository from './taxonomyRepository';
const db = pgPromise()('postgres://');
const format = async (taxonomy: object) => ({ ...taxonomy });
export const updateTaxonomy = async (surveyId: number, taxonomy: object) =>
  db.tx(async (t) => {
    const all = await TaxonomyRepository.fetchTaxonomies(surveyId);
    await TaxonomyRepository.updateTaxonomy(surveyId, taxonomy, t);
    return { all, taxonomy: await format(taxonomy) };
  });
`,
    // An imported function of a module this file never hands a handle: nothing says it queries.
    `
import pgPromise from 'pg-promise';
import { insertIntoIndex } from './search';
const db = pgPromise()('postgres://');
export const save = async (id: number) =>
  db.tx(async (t) => {
    await t.none('UPDATE a SET n = 1 WHERE id = $1', [id]);
    await insertIntoIndex(id);
  });
`,
  ],
  invalid: [
    {
      // pg-promise: the repository takes the task last and defaults to the pool; the callback
      // hands its task to the other calls and leaves it out of this one.
      code: `
import pgPromise from 'pg-promise';
import * as TaxonomyRepository from './taxonomyRepository';
import * as ActivityLog from './activityLog';
const db = pgPromise()('postgres://');
export const insertTaxonomy = async (surveyId: number, taxonomy: object, client = db) =>
  client.tx(async (t) => {
    const inserted = await TaxonomyRepository.insertTaxonomy(surveyId, taxonomy);
    await ActivityLog.insert(surveyId, 'taxonomyCreate', t);
    return inserted;
  });
`,
      errors: [{ messageId: 'ormHelper', line: 8, column: 28, suggestions: [] }],
      output: null,
    },
    {
      // A function of this file whose handle defaults to the pool, called without the task; and
      // a count that decides the delete, read on the pool.
      code: `
import pgPromise from 'pg-promise';
import * as CategoryRepository from './categoryRepository';
const db = pgPromise()('postgres://');
export const deleteLevel = async (surveyId: number, levelUuid: string, client = db) =>
  client.tx(async (t) => CategoryRepository.deleteLevel(surveyId, levelUuid, t));
export const cleanup = async (surveyId: number, levels: string[], client = db) =>
  client.tx(async (t) => {
    const category = await CategoryRepository.fetchCategory(surveyId, t);
    for (const level of levels) {
      if ((await CategoryRepository.countItems(surveyId, level)) === 0) await deleteLevel(surveyId, level);
    }
    return category;
  });
`,
      errors: [
        { messageId: 'ormHelper', line: 11, column: 18, suggestions: [] },
        {
          messageId: 'ormHelper',
          line: 11,
          column: 79,
          suggestions: [
            {
              messageId: 'passHandle',
              output: `
import pgPromise from 'pg-promise';
import * as CategoryRepository from './categoryRepository';
const db = pgPromise()('postgres://');
export const deleteLevel = async (surveyId: number, levelUuid: string, client = db) =>
  client.tx(async (t) => CategoryRepository.deleteLevel(surveyId, levelUuid, t));
export const cleanup = async (surveyId: number, levels: string[], client = db) =>
  client.tx(async (t) => {
    const category = await CategoryRepository.fetchCategory(surveyId, t);
    for (const level of levels) {
      if ((await CategoryRepository.countItems(surveyId, level)) === 0) await deleteLevel(surveyId, level, t);
    }
    return category;
  });
`,
            },
          ],
        },
      ],
      output: null,
    },
    {
      // Knex: the same service method is handed the transaction elsewhere in the file; here it
      // is left out, and its result goes into what the transaction writes.
      code: `
import type { Knex } from 'knex';
export class Revisions {
  constructor(private readonly knex: Knex, private readonly aliases: any) {}
  async purge(noteId: number) {
    await this.knex.transaction(async (transaction) => {
      const alias = await this.aliases.primaryAlias(noteId);
      await transaction('revisions').update({ patch: alias }).where({ noteId });
    });
  }
  private async create(noteId: number, transaction: Knex) {
    const alias = await this.aliases.primaryAlias(noteId, transaction);
    await transaction('revisions').insert({ noteId, patch: alias });
  }
}
`,
      errors: [
        {
          messageId: 'ormHelper',
          line: 7,
          column: 27,
          suggestions: [
            {
              messageId: 'passHandle',
              output: `
import type { Knex } from 'knex';
export class Revisions {
  constructor(private readonly knex: Knex, private readonly aliases: any) {}
  async purge(noteId: number) {
    await this.knex.transaction(async (transaction) => {
      const alias = await this.aliases.primaryAlias(noteId, transaction);
      await transaction('revisions').update({ patch: alias }).where({ noteId });
    });
  }
  private async create(noteId: number, transaction: Knex) {
    const alias = await this.aliases.primaryAlias(noteId, transaction);
    await transaction('revisions').insert({ noteId, patch: alias });
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
      // Across files, idempotency-check lists the imported functions that default to the pool.
      code: `
import pgPromise from 'pg-promise';
import { updateStatus } from './accessRequests';
const db = pgPromise()('postgres://');
export const accept = async (email: string) =>
  db.tx(async (t) => {
    await updateStatus({ email, status: 'accepted' });
  });
`,
      settings: { idempotency: { defaultHandleFunctions: [{ from: './accessRequests', name: 'updateStatus' }] } },
      errors: [{ messageId: 'ormHelper', line: 7, column: 11, suggestions: [] }],
      output: null,
    },
  ],
});

typedRuleTester().run('no-pool-query-in-transaction (a helper called without the transaction handle, typed)', rule, {
  valid: [
    // Knex: the service method is handed the transaction.
    `
import type { Knex } from 'knex';
declare const knex: Knex;
declare const aliases: { primaryAlias(noteId: number, trx?: Knex.Transaction): Promise<string> };
export async function purge(noteId: number) {
  await knex.transaction(async (trx) => {
    const alias = await aliases.primaryAlias(noteId, trx);
    await trx('revisions').update({ patch: alias }).where({ noteId });
  });
}
`,
  ],
  invalid: [
    {
      // Knex: a method whose optional parameter is a \`Knex.Transaction\`, called without it; its
      // result decides what the transaction writes.
      code: `
import type { Knex } from 'knex';
declare const knex: Knex;
declare const aliases: { primaryAlias(noteId: number, trx?: Knex.Transaction): Promise<string | null> };
export async function purge(noteId: number) {
  await knex.transaction(async (trx) => {
    const alias = await aliases.primaryAlias(noteId);
    if (alias) await trx('revisions').update({ patch: alias }).where({ noteId });
  });
}
`,
      errors: [
        {
          messageId: 'ormHelper',
          line: 7,
          column: 25,
          suggestions: [
            {
              messageId: 'passHandle',
              output: `
import type { Knex } from 'knex';
declare const knex: Knex;
declare const aliases: { primaryAlias(noteId: number, trx?: Knex.Transaction): Promise<string | null> };
export async function purge(noteId: number) {
  await knex.transaction(async (trx) => {
    const alias = await aliases.primaryAlias(noteId, trx);
    if (alias) await trx('revisions').update({ patch: alias }).where({ noteId });
  });
}
`,
            },
          ],
        },
      ],
      output: null,
    },
    {
      // pg-promise: a repository typed to take an \`ITask\`, called without the task.
      code: `
import pgPromise from 'pg-promise';
import type { ITask, IDatabase } from 'pg-promise';
declare const db: IDatabase<object>;
declare function markDraft(surveyId: number, client?: ITask<object> | IDatabase<object>): Promise<void>;
export async function publish(surveyId: number) {
  await db.tx(async (t) => {
    await t.none('UPDATE survey SET published = true WHERE id = $1', [surveyId]);
    await markDraft(surveyId);
  });
}
`,
      errors: [
        {
          messageId: 'ormHelper',
          line: 9,
          column: 11,
          suggestions: [
            {
              messageId: 'passHandle',
              output: `
import pgPromise from 'pg-promise';
import type { ITask, IDatabase } from 'pg-promise';
declare const db: IDatabase<object>;
declare function markDraft(surveyId: number, client?: ITask<object> | IDatabase<object>): Promise<void>;
export async function publish(surveyId: number) {
  await db.tx(async (t) => {
    await t.none('UPDATE survey SET published = true WHERE id = $1', [surveyId]);
    await markDraft(surveyId, t);
  });
}
`,
            },
          ],
        },
      ],
      output: null,
    },
  ],
});

syntaxRuleTester().run('no-pool-query-in-transaction (TypeORM and Mongoose shapes)', rule, {
  valid: [
    // TypeORM: a repository taken from the callback's manager is the transaction's.
    `
import { DataSource } from 'typeorm';
declare const dataSource: DataSource;
export async function create(dto: { link: string }) {
  await dataSource.manager.transaction(async (transaction) => {
    const repository = transaction.getRepository('Article');
    const existing = await repository.findOneBy({ link: dto.link });
    if (existing) throw new Error('taken');
    await repository.save(dto);
  });
}
`,
    // TypeORM: injected repositories handed the runner's manager (a value made from the runner) run in it.
    `
import { DataSource } from 'typeorm';
declare class GameRepository { save(game: object, em?: unknown): Promise<void>; findPending(id: string, em?: unknown): Promise<object | null> }
export class Pairing {
  constructor(private readonly gameRepo: GameRepository, private dataSource: DataSource) {}
  async pair(userId: string) {
    const queryRunner = this.dataSource.createQueryRunner();
    await queryRunner.startTransaction();
    const em = queryRunner.manager;
    try {
      const pending = await this.gameRepo.findPending(userId, em);
      if (pending) throw new Error('busy');
      await this.gameRepo.save({ userId }, em);
      await queryRunner.commitTransaction();
    } finally {
      await queryRunner.release();
    }
  }
}
`,
    // Knex: a context object made from the transaction hands it on.
    `
import knex from 'knex';
const db = knex({});
declare const ordersRepo: { insertOrder(order: object, ctx: object): Promise<void> };
export async function place(order: object) {
  await db.transaction(async (trx) => {
    const ctx = { trx, user: 'system' };
    await db('orders').insert(order).transacting(ctx.trx);
    await ordersRepo.insertOrder(order, ctx);
  });
}
`,
    // Mongoose: after an early abort and return, the rest still passes the session.
    `
const mongoose = require('mongoose');
const order = require('../models/order');
exports.pay = async (req) => {
  const session = await mongoose.startSession();
  session.startTransaction();
  const options = { session };
  if (!req.body.email) {
    await session.abortTransaction();
    return;
  }
  await order.create([{ email: req.body.email }], options);
  await session.commitTransaction();
};
`,
  ],
  invalid: [
    {
      // TypeORM: beside calls handed the runner's manager, a repository write given none escapes;
      // a value read through the manager is data, not the manager.
      code: `
import { DataSource } from 'typeorm';
declare class GameRepository { save(game: object, em?: unknown): Promise<void> }
export class Pairing {
  constructor(private readonly gameRepo: GameRepository, private dataSource: DataSource) {}
  async pair(userId: string) {
    const queryRunner = this.dataSource.createQueryRunner();
    await queryRunner.startTransaction();
    const em = queryRunner.manager;
    try {
      await this.gameRepo.save({ userId }, em);
      const player = await em.findOneBy('Player', { userId });
      await this.gameRepo.save(player);
      await queryRunner.commitTransaction();
    } finally {
      await queryRunner.release();
    }
  }
}
`,
      errors: [{ messageId: 'ormRepository', line: 13, column: 13 }],
      output: null,
    },
    {
      // TypeORM 0.2: the default connection's repository inside a callback that takes no manager.
      code: `
import { getManager, getRepository } from 'typeorm';
export async function generate(order: object) {
  return getManager().transaction(async () => {
    return getRepository('CollectionOrder').save(order);
  });
}
`,
      errors: [{ messageId: 'ormHandleNoClient', line: 5, column: 12 }],
      output: null,
    },
    {
      // With a manager, the fix sends the same call through it.
      code: `
import { getManager, getRepository } from 'typeorm';
export async function generate(order: object) {
  return getManager().transaction(async (manager) => {
    await manager.save('Audit', { at: 1 });
    return getRepository('CollectionOrder').save(order);
  });
}
`,
      errors: [{ messageId: 'ormHandle', line: 6, column: 12 }],
      output: `
import { getManager, getRepository } from 'typeorm';
export async function generate(order: object) {
  return getManager().transaction(async (manager) => {
    await manager.save('Audit', { at: 1 });
    return manager.getRepository('CollectionOrder').save(order);
  });
}
`,
    },
    {
      // TypeORM active record: an entity with save() extends BaseEntity and saves through the data source.
      code: `
import { DataSource } from 'typeorm';
declare const dataSource: DataSource;
export async function createGame() {
  const queryRunner = dataSource.createQueryRunner();
  await queryRunner.connect();
  await queryRunner.startTransaction();
  try {
    const gameRepository = queryRunner.manager.getRepository('Game');
    const game = gameRepository.create({ status: 'pending' });
    await game.save();
    await queryRunner.commitTransaction();
  } catch (error) {
    await queryRunner.rollbackTransaction();
    throw error;
  } finally {
    await queryRunner.release();
  }
}
`,
      errors: [{ messageId: 'ormRepository', line: 11, column: 11, suggestions: [] }],
      output: null,
    },
    {
      // Mongoose: a session transaction held until commit; a model of the project's models
      // written without the session, after an early abort that returns.
      code: `
const mongoose = require('mongoose');
const order = require('../models/order');
exports.pay = async (req) => {
  const session = await mongoose.startSession();
  session.startTransaction();
  if (!req.body.email) {
    await session.abortTransaction();
    return;
  }
  await order.create({ email: req.body.email });
  await order.updateOne({ email: req.body.email }, { paid: true }, { session });
  await session.commitTransaction();
};
`,
      errors: [{ messageId: 'ormOption', line: 11, column: 9, suggestions: [] }],
      output: null,
    },
  ],
});

syntaxRuleTester().run('no-pool-query-in-transaction (a transaction a project wrapper opens and holds)', rule, {
  valid: [
    `
import SequelizeRepository from '../database/repositories/sequelizeRepository';
import CustomViewRepository from '../database/repositories/customViewRepository';
export async function destroyAll(ids: string[], options: object) {
  const transaction = await SequelizeRepository.createTransaction(options);
  try {
    for (const id of ids) await CustomViewRepository.destroy(id, { ...options, transaction });
    await SequelizeRepository.commitTransaction(transaction);
  } catch (error) {
    await SequelizeRepository.rollbackTransaction(transaction);
    throw error;
  }
  await CustomViewRepository.destroy('audit', options);
}
`,
  ],
  invalid: [
    {
      // The repository is given the outer options, without the transaction the wrapper opened.
      code: `
import SequelizeRepository from '../database/repositories/sequelizeRepository';
import CustomViewRepository from '../database/repositories/customViewRepository';
export async function destroyAll(ids: string[], options: object) {
  const transaction = await SequelizeRepository.createTransaction(options);
  try {
    for (const id of ids) await CustomViewRepository.destroy(id, options);
    await SequelizeRepository.commitTransaction(transaction);
  } catch (error) {
    await SequelizeRepository.rollbackTransaction(transaction);
    throw error;
  }
}
`,
      errors: [{ messageId: 'ormHelper', line: 7, column: 33, suggestions: [] }],
      output: null,
    },
  ],
});

typedRuleTester().run('no-pool-query-in-transaction (MikroORM, typed)', rule, {
  valid: [
    // Through the entity manager the transaction context applies: its `execute`, its query
    // builder, the global manager (it resolves to the transaction's fork), and the connection
    // or raw client when they are handed the context.
    `
import { EntityManager } from '@mikro-orm/knex';
declare const em: EntityManager;
export async function reserve(id: string) {
  await em.transactional(async (tx) => {
    await tx.execute('UPDATE links SET n = n + 1 WHERE id = ?', [id]);
    await tx.createQueryBuilder('Link').update({ locked: true }).where({ id }).execute();
    await em.nativeUpdate('Link', { id }, { locked: true });
    await tx.getConnection().execute('UPDATE links SET n = n - 1 WHERE id = ?', [id], 'run', tx.getTransactionContext());
    await tx.getKnex().raw('UPDATE links SET seen = now()').transacting(tx.getTransactionContext());
  });
}
`,
    // Outside a transaction the connection is where the query belongs.
    `
import { EntityManager } from '@mikro-orm/knex';
declare const em: EntityManager;
export async function touch(id: string) {
  await em.getConnection().execute('UPDATE links SET seen = now() WHERE id = ?', [id]);
}
`,
  ],
  invalid: [
    {
      // The connection's execute without the context runs on a pooled connection.
      code: `
import { EntityManager } from '@mikro-orm/knex';
declare const em: EntityManager;
export async function reserve(id: string) {
  await em.transactional(async (tx) => {
    const reserved = await tx.getConnection().execute('UPDATE links SET n = n + 1 WHERE id = ? RETURNING id', [id]);
    if (!reserved[0]) throw new Error('gone');
    tx.persist({ linkId: id });
    await tx.flush();
  });
}
`,
      errors: [
        {
          messageId: 'ormConnection',
          line: 6,
          column: 28,
          suggestions: [
            {
              messageId: 'useManagerExecute',
              data: { tx: 'tx' },
              output: `
import { EntityManager } from '@mikro-orm/knex';
declare const em: EntityManager;
export async function reserve(id: string) {
  await em.transactional(async (tx) => {
    const reserved = await tx.execute('UPDATE links SET n = n + 1 WHERE id = ? RETURNING id', [id]);
    if (!reserved[0]) throw new Error('gone');
    tx.persist({ linkId: id });
    await tx.flush();
  });
}
`,
            },
          ],
        },
      ],
      output: null,
    },
    {
      // MikroORM 6's raw Knex client is the pool's: neither suggestion is the same call.
      code: `
import { EntityManager } from '@mikro-orm/knex';
declare const em: EntityManager;
export async function reserve(id: string) {
  await em.transactional(async (tx) => {
    await tx.getKnex().raw('UPDATE links SET n = n + 1 WHERE id = ?', [id]);
    await tx.getConnection().getKnex()('audit').insert({ id });
  });
}
`,
      errors: [
        { messageId: 'ormConnection', line: 6, column: 11, suggestions: [] },
        { messageId: 'ormConnection', line: 7, column: 11, suggestions: [] },
      ],
      output: null,
    },
    {
      // A fork of its own, by the real declarations: outside the transaction; fix: the callback's manager.
      code: `
import { EntityManager } from '@mikro-orm/knex';
declare const em: EntityManager;
export async function pay(order: { id: number }) {
  const fork = em.fork();
  await fork.transactional(async (tx) => {
    await tx.nativeInsert('Payment', { orderId: order.id });
    await fork.nativeUpdate('Order', { id: order.id }, { paid: true });
  });
}
`,
      errors: [{ messageId: 'ormHandle', line: 8, column: 11 }],
      output: `
import { EntityManager } from '@mikro-orm/knex';
declare const em: EntityManager;
export async function pay(order: { id: number }) {
  const fork = em.fork();
  await fork.transactional(async (tx) => {
    await tx.nativeInsert('Payment', { orderId: order.id });
    await tx.nativeUpdate('Order', { id: order.id }, { paid: true });
  });
}
`,
    },
    {
      // A callback without a parameter: the context is the manager's own.
      code: `
import { EntityManager } from '@mikro-orm/knex';
export class Links {
  constructor(private readonly em: EntityManager) {}
  async reserve(id: string) {
    await this.em.transactional(async () => {
      await this.em.getConnection().execute('UPDATE links SET n = n + 1 WHERE id = ?', [id]);
    });
  }
}
`,
      errors: [{ messageId: 'ormConnection', line: 7, column: 13, suggestions: [] }],
      output: null,
    },
  ],
});

syntaxRuleTester().run('no-pool-query-in-transaction (a Mongoose wrapper that never hands out its session)', rule, {
  valid: [
    // The wrapper hands its session to the callback, which passes it on.
    `
import mongoose from 'mongoose';
async function inTransaction(work: (session: mongoose.ClientSession) => Promise<void>) {
  const session = await mongoose.startSession();
  session.startTransaction();
  await work(session);
  await session.commitTransaction();
}
export async function cancel(order: { save(options?: object): Promise<void> }) {
  await inTransaction(async (session) => {
    await order.save({ session });
  });
}
`,
    // The library's own \`session.withTransaction(work)\` calls the work with the session.
    `
import mongoose from 'mongoose';
async function inTransaction(work: (session: mongoose.ClientSession) => Promise<void>) {
  const session = await mongoose.startSession();
  await session.withTransaction(work);
}
export async function cancel(order: { save(options?: object): Promise<void> }) {
  await inTransaction(async (session) => {
    await order.save({ session });
  });
}
`,
    // Listed by the checker, but the write carries a session of its own.
    {
      code: `
import { OrderModel } from './models';
import { DBService } from './db.service';
export class Expire {
  constructor(private readonly db: DBService) {}
  async run(id: string, session: unknown) {
    await this.db.transaction(async () => {
      await OrderModel.updateOne({ _id: id }, { status: 'cancelled' }, { session });
      await OrderModel.updateOne({ _id: id }, { seen: true }).session(session);
    });
  }
}
`,
      settings: { idempotency: { sessionlessTransactions: [{ from: './db.service', name: 'DBService.transaction' }] } },
    },
  ],
  invalid: [
    {
      // A wrapper of this file starts the session and calls the work without it.
      code: `
import mongoose from 'mongoose';
async function inTransaction(work: () => Promise<void>) {
  const session = await mongoose.startSession();
  try {
    session.startTransaction();
    await work();
    await session.commitTransaction();
  } catch (error) {
    await session.abortTransaction();
    throw error;
  }
}
export async function cancel(order: { save(): Promise<void> }) {
  await inTransaction(async () => {
    await order.save();
  });
}
`,
      errors: [{ messageId: 'ormNoSession', line: 16, column: 11, data: { wrapper: 'inTransaction' } }],
      output: null,
    },
    {
      // The checker found the injected service's method in its own module.
      code: `
import { OrderModel } from './models';
import { DBService } from './db.service';
export class Expire {
  constructor(private readonly db: DBService) {}
  async run(id: string) {
    await this.db.transaction(async () => {
      await OrderModel.updateOne({ _id: id }, { status: 'cancelled' });
    });
  }
}
`,
      settings: { idempotency: { sessionlessTransactions: [{ from: './db.service', name: 'DBService.transaction' }] } },
      errors: [{ messageId: 'ormNoSession', line: 8, column: 13, data: { wrapper: 'this.db.transaction' } }],
      output: null,
    },
  ],
});

syntaxRuleTester().run('no-pool-query-in-transaction (MikroORM: transaction-scoped locks below the manager)', rule, {
  valid: [
    // Through the manager the lock is the caller's transaction's; a plain read on the connection locks nothing.
    `
import type { EntityManager } from '@mikro-orm/core';
import type { Knex } from 'knex';
export async function lockScope(em: EntityManager, key: string, knex: Knex) {
  await em.execute('select pg_advisory_xact_lock(hashtext(?))', [key]);
  await em.getConnection().execute('select 1');
  await knex.raw('select pg_advisory_xact_lock(hashtext(?))', [key]);
}
`,
  ],
  invalid: [
    {
      // A helper handed the transaction's manager takes the lock on the connection: released at once.
      code: `
import type { EntityManager } from '@mikro-orm/core';
import type { Knex } from 'knex';
export async function lockScope(em: EntityManager, key: string) {
  await em.getConnection().execute('select pg_advisory_xact_lock(hashtext(?))', [key]);
}
`,
      errors: [{ messageId: 'ormConnectionLock', line: 5, column: 9, data: { via: 'em.getConnection()' } }],
      output: null,
    },
    {
      // The raw client from a function of the file, inside the transaction: the lock escapes it.
      code: `
import type { EntityManager } from '@mikro-orm/core';
import type { Knex } from 'knex';
function getKnex(em: EntityManager): Knex {
  return (em.getConnection() as unknown as { getKnex: () => Knex }).getKnex();
}
export async function report(em: EntityManager, key: string) {
  await em.transactional(async (tx) => {
    const knex = getKnex(tx as EntityManager);
    await knex.raw('select pg_advisory_xact_lock(hashtext(?))', [key]);
    tx.persist({ key });
  });
  await getKnex(em).raw('select pg_try_advisory_xact_lock(?)', [key]);
}
`,
      errors: [
        { messageId: 'ormConnection', line: 10, column: 11, data: { via: 'knex', tx: 'tx' }, suggestions: [] },
        { messageId: 'ormConnectionLock', line: 13, column: 9, data: { via: 'getKnex(em)' } },
      ],
      output: null,
    },
  ],
});

syntaxRuleTester().run('no-pool-query-in-transaction (Mongoose create with a single document)', rule, {
  valid: [
    // An array of documents: the options are read and the session joins.
    `
const mongoose = require('mongoose');
const User = require('../models/User');
exports.create = async (req) => {
  const session = await mongoose.startSession();
  session.startTransaction();
  await User.create([req.body.user], { session });
  await User.create(req.body.users, { session });
  await session.commitTransaction();
};
`,
  ],
  invalid: [
    {
      code: `
const mongoose = require('mongoose');
const User = require('../models/User');
exports.create = async (req) => {
  const session = await mongoose.startSession();
  session.startTransaction();
  const user = await User.create(req.body.user, { session });
  await User.create({ name: 'audit' }, { session });
  await session.commitTransaction();
  return user;
};
`,
      errors: [
        {
          messageId: 'ormCreateOptionsIgnored',
          line: 7,
          column: 22,
          suggestions: [
            {
              messageId: 'wrapDocuments',
              output: `
const mongoose = require('mongoose');
const User = require('../models/User');
exports.create = async (req) => {
  const session = await mongoose.startSession();
  session.startTransaction();
  const user = await User.create([req.body.user], { session });
  await User.create({ name: 'audit' }, { session });
  await session.commitTransaction();
  return user;
};
`,
            },
          ],
        },
        {
          messageId: 'ormCreateOptionsIgnored',
          line: 8,
          column: 9,
          suggestions: [
            {
              messageId: 'wrapDocuments',
              output: `
const mongoose = require('mongoose');
const User = require('../models/User');
exports.create = async (req) => {
  const session = await mongoose.startSession();
  session.startTransaction();
  const user = await User.create(req.body.user, { session });
  await User.create([{ name: 'audit' }], { session });
  await session.commitTransaction();
  return user;
};
`,
            },
          ],
        },
      ],
      output: null,
    },
  ],
});

typedRuleTester().run('no-pool-query-in-transaction (Mongoose create with a single document, typed)', rule, {
  valid: [
    `
import { model, Schema, startSession } from 'mongoose';
const User = model('User', new Schema({ name: String }));
export async function create(docs: { name: string }[]) {
  const session = await startSession();
  await session.withTransaction(async () => {
    await User.create(docs, { session });
  });
}
`,
  ],
  invalid: [
    {
      code: `
import { model, Schema, startSession } from 'mongoose';
const User = model('User', new Schema({ name: String }));
export async function create(payload: { name: string }) {
  const session = await startSession();
  await session.withTransaction(async () => {
    await User.create(payload, { session });
  });
}
`,
      errors: [
        {
          messageId: 'ormCreateOptionsIgnored',
          line: 7,
          column: 11,
          suggestions: [
            {
              messageId: 'wrapDocuments',
              output: `
import { model, Schema, startSession } from 'mongoose';
const User = model('User', new Schema({ name: String }));
export async function create(payload: { name: string }) {
  const session = await startSession();
  await session.withTransaction(async () => {
    await User.create([payload], { session });
  });
}
`,
            },
          ],
        },
      ],
      output: null,
    },
  ],
});

syntaxRuleTester().run('no-pool-query-in-transaction (TypeORM: injected services and custom repositories)', rule, {
  valid: [
    // A transaction opened and committed inside a block that returns ends there: the service
    // write after the block runs before the next transaction opens.
    `
import { DataSource } from 'typeorm';
declare class UsersService { saveUser(user: object, runner: unknown): Promise<void>; deleteUser(id: string): Promise<void> }
export class Accounts {
  constructor(private readonly dataSource: DataSource, private readonly usersService: UsersService) {}
  async invite(user: { id: string }, fresh: boolean) {
    const queryRunner = this.dataSource.createQueryRunner();
    try {
      if (fresh) {
        await queryRunner.startTransaction();
        await this.usersService.saveUser(user, queryRunner);
        await queryRunner.commitTransaction();
        return user;
      }
      await this.usersService.deleteUser(user.id);
      await queryRunner.startTransaction();
      await this.usersService.saveUser(user, queryRunner);
      await queryRunner.commitTransaction();
      return user;
    } catch (error) {
      await queryRunner.rollbackTransaction();
      throw error;
    } finally {
      await queryRunner.release();
    }
  }
}
`,
    // Services handed the manager, a service read, a mail service: nothing escapes.
    `
import { DataSource } from 'typeorm';
declare class CartService { removeCartItem(id: number, manager?: unknown): Promise<void> }
declare class NotesService { getNote(alias: string): Promise<object | null> }
declare class MailService { createMessage(to: string): Promise<void> }
export class Checkout {
  constructor(
    private readonly dataSource: DataSource,
    private readonly cartService: CartService,
    private readonly notesService: NotesService,
    private readonly mailService: MailService,
  ) {}
  async run(id: number) {
    await this.dataSource.transaction(async (manager) => {
      const note = await this.notesService.getNote('x');
      if (!note) throw new Error('gone');
      await manager.save('Invoice', { id });
      await this.cartService.removeCartItem(id, manager);
      await this.mailService.createMessage('a@b.c');
    });
  }
}
`,
  ],
  invalid: [
    {
      code: `
import { DataSource } from 'typeorm';
declare class CartService { removeCartItem(id: number): Promise<void> }
declare class UsersRepository { banUser(id: string): Promise<boolean> }
export class Checkout {
  constructor(
    private readonly dataSource: DataSource,
    private readonly cartService: CartService,
    private readonly usersRepository: UsersRepository,
  ) {}
  async run(id: number, userId: string) {
    await this.dataSource.transaction(async (manager) => {
      await manager.save('Invoice', { id });
      await this.cartService.removeCartItem(id);
      const banned = await this.usersRepository.banUser(userId);
      if (!banned) throw new Error('not banned');
    });
  }
}
`,
      errors: [
        { messageId: 'ormService', line: 14, column: 13, data: { via: 'this.cartService', tx: 'manager' } },
        { messageId: 'ormRepository', line: 15, column: 28 },
      ],
      output: null,
    },
  ],
});

syntaxRuleTester().run('no-pool-query-in-transaction (implicit transactions)', rule, {
  valid: [
    // Sequelize CLS switched on in another module (idempotency-check passes the setting).
    {
      code: `
import { Sequelize } from 'sequelize';
const sequelize = new Sequelize('postgres://');
export async function transfer(User: any, id: number) {
  await sequelize.transaction(async (t) => {
    await User.create({ id });
  });
}
`,
      settings: { idempotency: { implicitTransactions: ['sequelize'] } },
    },
    // Mongoose's transactionAsyncLocalStorage covers connection.transaction(...).
    `
import mongoose from 'mongoose';
mongoose.set('transactionAsyncLocalStorage', true);
export async function order(Order: any) {
  await mongoose.connection.transaction(async (session) => {
    await Order.create([{ a: 1 }]);
  });
}
`,
    {
      code: `
import mongoose from 'mongoose';
export async function order(Order: any) {
  await mongoose.connection.transaction(async (session) => {
    await Order.create([{ a: 1 }]);
  });
}
`,
      settings: { idempotency: { implicitTransactions: ['mongoose'] } },
    },
    // The same migration when the project turns on CLS.
    {
      code: `
module.exports = {
  async up(queryInterface: any) {
    await queryInterface.sequelize.transaction(async (transaction: any) => {
      await prepare(queryInterface, transaction);
      await queryInterface.sequelize.query('UPDATE goals SET status = 1');
    });
  },
};
`,
      settings: { idempotency: { implicitTransactions: ['sequelize'] } },
    },
  ],
  invalid: [
    // A migration: QueryInterface holds the Sequelize instance as \`.sequelize\`, so its
    // transaction joins by option even in a file that imports nothing.
    {
      code: `
module.exports = {
  async up(queryInterface: any) {
    await queryInterface.sequelize.transaction(async (transaction: any) => {
      await prepare(queryInterface, transaction);
      await queryInterface.sequelize.query('UPDATE goals SET status = 1');
    });
  },
};
`,
      errors: [
        {
          messageId: 'ormOption',
          line: 6,
          suggestions: [
            {
              messageId: 'passTransaction',
              output: `
module.exports = {
  async up(queryInterface: any) {
    await queryInterface.sequelize.transaction(async (transaction: any) => {
      await prepare(queryInterface, transaction);
      await queryInterface.sequelize.query('UPDATE goals SET status = 1', { transaction });
    });
  },
};
`,
            },
          ],
        },
      ],
      output: null,
    },
    // CLS never covers an unmanaged transaction: its queries still need { transaction: t }.
    {
      code: `
import { Sequelize } from 'sequelize';
Sequelize.useCLS(namespace);
const sequelize = new Sequelize('postgres://');
export async function transfer(User: any, id: number) {
  const t = await sequelize.transaction();
  await User.create({ id });
  await t.commit();
}
`,
      errors: [
        {
          messageId: 'ormOption',
          line: 7,
          suggestions: [
            {
              messageId: 'passTransaction',
              output: `
import { Sequelize } from 'sequelize';
Sequelize.useCLS(namespace);
const sequelize = new Sequelize('postgres://');
export async function transfer(User: any, id: number) {
  const t = await sequelize.transaction();
  await User.create({ id }, { transaction: t });
  await t.commit();
}
`,
            },
          ],
        },
      ],
      output: null,
    },
    // transactionAsyncLocalStorage does not cover session.withTransaction(...).
    {
      code: `
import mongoose from 'mongoose';
mongoose.set({ transactionAsyncLocalStorage: true });
export async function order(Order: any, session: any) {
  await session.withTransaction(async () => {
    await Order.create([{ a: 1 }]);
  });
}
`,
      errors: [
        {
          messageId: 'ormOption',
          line: 6,
          suggestions: [
            {
              messageId: 'passTransaction',
              output: `
import mongoose from 'mongoose';
mongoose.set({ transactionAsyncLocalStorage: true });
export async function order(Order: any, session: any) {
  await session.withTransaction(async () => {
    await Order.create([{ a: 1 }], { session });
  });
}
`,
            },
          ],
        },
      ],
      output: null,
    },
    // Turned off, or on for another library, it covers nothing here.
    {
      code: `
import mongoose from 'mongoose';
mongoose.set('transactionAsyncLocalStorage', false);
export async function order(Order: any) {
  await mongoose.connection.transaction(async (session) => {
    await Order.create([{ a: 1 }]);
  });
}
`,
      errors: [
        {
          messageId: 'ormOption',
          line: 6,
          suggestions: [
            {
              messageId: 'passTransaction',
              output: `
import mongoose from 'mongoose';
mongoose.set('transactionAsyncLocalStorage', false);
export async function order(Order: any) {
  await mongoose.connection.transaction(async (session) => {
    await Order.create([{ a: 1 }], { session });
  });
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
import { Sequelize } from 'sequelize';
const sequelize = new Sequelize('postgres://');
export async function transfer(User: any, id: number) {
  await sequelize.transaction(async (t) => {
    await User.create({ id });
  });
}
`,
      settings: { idempotency: { implicitTransactions: ['mongoose'] } },
      errors: [
        {
          messageId: 'ormOption',
          line: 6,
          suggestions: [
            {
              messageId: 'passTransaction',
              output: `
import { Sequelize } from 'sequelize';
const sequelize = new Sequelize('postgres://');
export async function transfer(User: any, id: number) {
  await sequelize.transaction(async (t) => {
    await User.create({ id }, { transaction: t });
  });
}
`,
            },
          ],
        },
      ],
      output: null,
    },
  ],
});

syntaxRuleTester().run(
  'no-pool-query-in-transaction (a project wrapper that runs its callback in an ORM transaction)',
  rule,
  {
    valid: [
      // The wrapper's callback hands its manager to every write, and the service is given it.
      {
        code: `
import { TransactionService } from './transaction.service';
import { NotificationService } from './notification.service';
import { ArrivalRepository } from './arrival.repository';
export class Arrivals {
  constructor(
    private readonly transactionService: TransactionService,
    private readonly arrivalRepository: ArrivalRepository,
    private readonly notificationService: NotificationService,
  ) {}
  async arrive(id: number) {
    return this.transactionService.run(async (manager) => {
      await this.arrivalRepository.save({ id }, manager);
      await this.notificationService.createMultiple([id], manager);
      return this.notificationService.findAll();
    });
  }
}
`,
        settings: {
          idempotency: {
            transactionWrappers: [
              { from: './transaction.service', name: 'TransactionService.run', index: 0, library: 'typeorm' },
            ],
          },
        },
      },
      // The class's own \`update\` method, not an ORM's: it writes through the transaction the
      // service keeps in continuation-local storage (\`txClient()\`), as the Knex client beside it does not.
      {
        code: `
import { Knex } from 'knex';
import { PrismaService } from '@teable/db-main-prisma';
export class ViewService {
  constructor(private readonly prismaService: PrismaService, private readonly knex: Knex) {}
  async restoreView(viewId: string) {
    await this.prismaService.$tx(async () => {
      await this.updateViewByOps(viewId, { deletedTime: null });
    });
  }
  async updateViewByOps(viewId: string, data: object) {
    await this.update(viewId, data);
  }
  async update(viewId: string, data: object) {
    await this.prismaService.txClient().view.update({ where: { id: viewId }, data });
  }
}
`,
        settings: {
          idempotency: {
            transactionWrappers: [
              { from: '@teable/db-main-prisma', name: 'PrismaService.$tx', index: 0, library: 'prisma' },
            ],
          },
        },
      },
      // Without the checker's fact the method \`run\` is no transaction: nothing is guessed from its name.
      `
import { TransactionService } from './transaction.service';
import { NotificationService } from './notification.service';
export class Arrivals {
  constructor(
    private readonly transactionService: TransactionService,
    private readonly notificationService: NotificationService,
  ) {}
  async arrive(id: number) {
    return this.transactionService.run(async (manager) => {
      await this.notificationService.createMultiple([id]);
    });
  }
}
`,
      // A local function that calls its work outside any transaction is no wrapper.
      `
import { DataSource } from 'typeorm';
declare const dataSource: DataSource;
declare const notificationService: { createMultiple(ids: number[]): Promise<void> };
async function timed<T>(work: (manager: unknown) => Promise<T>): Promise<T> {
  return work(dataSource.manager);
}
export async function arrive(id: number) {
  await timed(async (manager) => {
    await dataSource.getRepository('Arrival').save({ id });
  });
}
`,
    ],
    invalid: [
      {
        // The checker found the injected service's method handing its callback to dataSource.transaction.
        code: `
import { TransactionService } from './transaction.service';
import { NotificationService } from './notification.service';
export class Arrivals {
  constructor(
    private readonly transactionService: TransactionService,
    private readonly notificationService: NotificationService,
  ) {}
  async arrive(id: number) {
    return this.transactionService.run(async (manager) => {
      await manager.save('Arrival', { id });
      await this.notificationService.createMultiple([id]);
    });
  }
}
`,
        settings: {
          idempotency: {
            transactionWrappers: [
              { from: './transaction.service', name: 'TransactionService.run', index: 0, library: 'typeorm' },
            ],
          },
        },
        errors: [
          { messageId: 'ormService', line: 12, column: 13, data: { via: 'this.notificationService', tx: 'manager' } },
        ],
        output: null,
      },
      {
        // A wrapper of this file: Prisma's transaction client handed to the work; the work queries the outer client.
        code: `
import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
async function inTransaction<T>(work: (tx: unknown) => Promise<T>) {
  return prisma.$transaction((tx) => work(tx));
}
export async function settle(id: string) {
  await inTransaction(async (tx) => {
    await prisma.order.update({ where: { id }, data: { settled: true } });
  });
}
`,
        errors: [{ messageId: 'ormHandle', line: 9, column: 11, data: { via: 'prisma', tx: 'tx' } }],
        output: `
import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
async function inTransaction<T>(work: (tx: unknown) => Promise<T>) {
  return prisma.$transaction((tx) => work(tx));
}
export async function settle(id: string) {
  await inTransaction(async (tx) => {
    await tx.order.update({ where: { id }, data: { settled: true } });
  });
}
`,
      },
    ],
  },
);

syntaxRuleTester().run('no-pool-query-in-transaction (NocoBase repositories over Sequelize)', rule, {
  valid: [
    // Every write carries the transaction in its options; a read without it is not reported.
    `
import { Migration } from '@nocobase/server';
export default class extends Migration {
  async up() {
    const { db } = this.context;
    const pluginRepo = db.getRepository('applicationPlugins');
    await db.sequelize.transaction(async (transaction) => {
      const found = await pluginRepo.findOne({ filter: { name: 'sequence-field' }, transaction });
      const count = await db.getRepository('fields').count({ filter: { type: 'sequence' } });
      if (!found) await pluginRepo.create({ values: { name: 'sequence-field', count }, transaction });
      await db.getRepository('fields').update({ filter: { type: 'sequence' }, values: { seen: true }, transaction });
      await pluginRepo.destroy(found.id);
    });
  }
}
`,
    // Outside NocoBase a repository looked up by name is another library's, with other signatures.
    `
import { Sequelize } from 'sequelize';
declare const sequelize: Sequelize;
declare const registry: { getRepository(name: string): { create(values: object, options?: object): Promise<void> } };
export async function seed() {
  await sequelize.transaction(async (transaction) => {
    await registry.getRepository('plugins').create({ name: 'x' }, { transaction });
    await registry.getRepository('plugins').create({ name: 'y' });
  });
}
`,
  ],
  invalid: [
    {
      // The repository's @transaction() decorator opens and commits a transaction of its own.
      code: `
import { Migration } from '@nocobase/server';
export default class extends Migration {
  async up() {
    const { db } = this.context;
    const pluginRepo = db.getRepository('applicationPlugins');
    await db.sequelize.transaction(async (transaction) => {
      await pluginRepo.create({ values: { name: 'sequence-field' } });
      await db.getRepository('fields').destroy({ filter: { type: 'sequence' }, transaction });
    });
  }
}
`,
      errors: [
        {
          messageId: 'ormOption',
          line: 8,
          column: 13,
          suggestions: [
            {
              messageId: 'passTransaction',
              data: { key: 'transaction: transaction' },
              output: `
import { Migration } from '@nocobase/server';
export default class extends Migration {
  async up() {
    const { db } = this.context;
    const pluginRepo = db.getRepository('applicationPlugins');
    await db.sequelize.transaction(async (transaction) => {
      await pluginRepo.create({ values: { name: 'sequence-field' }, transaction });
      await db.getRepository('fields').destroy({ filter: { type: 'sequence' }, transaction });
    });
  }
}
`,
            },
          ],
        },
      ],
      output: null,
    },
  ],
});

syntaxRuleTester().run('no-pool-query-in-transaction (Medusa: the transaction travels in the shared context)', rule, {
  valid: [
    // Every write is handed the shared context (or a context made from it); reads without it change nothing.
    `
import { Context } from '@medusajs/framework/types';
import { InjectTransactionManager, MedusaContext } from '@medusajs/framework/utils';
export class PricingModuleService {
  constructor(private readonly priceListService_: any, private readonly priceService_: any) {}
  @InjectTransactionManager()
  protected async updatePriceLists_(data: { id: string }[], @MedusaContext() sharedContext: Context = {}) {
    const existing = await this.priceListService_.list({ id: data.map((d) => d.id) }, {}, sharedContext);
    const context = { ...sharedContext, enableNestedTransactions: true };
    await this.priceService_.delete(existing.map((p: { id: string }) => p.id), context);
    const { entities } = await this.priceListService_.upsertWithReplace(data, { relations: ['rules'] }, sharedContext);
    this.normalizePrices(entities);
    return this.priceListService_.list({ id: entities.map((p: { id: string }) => p.id) });
  }
  private normalizePrices(entities: unknown[]) {
    return entities;
  }
}
`,
    // Another library's decorator of the same name is no Medusa transaction.
    `
import { InjectTransactionManager } from './decorators';
export class Prices {
  constructor(private readonly priceService_: any) {}
  @InjectTransactionManager()
  async update(data: unknown, sharedContext: object = {}) {
    await this.priceService_.update(data);
  }
}
`,
  ],
  invalid: [
    {
      code: `
import { Context } from '@medusajs/framework/types';
import { InjectTransactionManager, MedusaContext } from '@medusajs/framework/utils';
export class PricingModuleService {
  constructor(private readonly priceListService_: any) {}
  @InjectTransactionManager()
  protected async updatePriceLists_(data: { id: string }[], @MedusaContext() sharedContext: Context = {}) {
    await this.priceListService_.list({ id: data.map((d) => d.id) }, {}, sharedContext);
    const { entities } = await this.priceListService_.upsertWithReplace(data, { relations: ['rules'] });
    return entities;
  }
}
`,
      errors: [
        {
          messageId: 'ormContext',
          line: 9,
          column: 32,
          data: { via: 'this.priceListService_', tx: 'sharedContext' },
        },
      ],
      output: null,
    },
  ],
});

const sequelizeHeader = `
import { Sequelize } from 'sequelize';
const sequelize = new Sequelize('postgres://');
`;

syntaxRuleTester().run('no-pool-query-in-transaction (Sequelize: options in the one argument that reads them)', rule, {
  valid: [
    // A model's own method whose name reads as a phrase is no association accessor: its options may be its third argument.
    `${sequelizeHeader}
export async function publish(Collection: any, document: object, id: string) {
  await sequelize.transaction(async (transaction) => {
    const collection = await Collection.findByPk(id, { transaction, lock: transaction.LOCK.UPDATE });
    await collection.addDocumentToStructure(document, 0, { transaction });
  });
}
`,
    // The aggregate reads its options from its second argument, and the transaction is there.
    `${sequelizeHeader}
export async function deposit(Job: any, profile: any) {
  await sequelize.transaction(async (t) => {
    const total = await Job.sum('price', { where: { paid: null }, transaction: t });
    await profile.update({ balance: total }, { transaction: t });
  });
}
`,
    // Options that carry the transaction through a spread or a variable.
    `${sequelizeHeader}
export async function deposit(Job: any, profile: any) {
  await sequelize.transaction(async (t) => {
    const base = { transaction: t };
    const total = await Job.sum('price', { ...base, where: { paid: null } });
    const count = await Job.count(base);
    await profile.update({ balance: total + count }, base);
  });
}
`,
    // A read without the transaction and without a misplaced one: reads are not reported.
    `${sequelizeHeader}
export async function deposit(Job: any, profile: any) {
  await sequelize.transaction(async (t) => {
    const total = await Job.sum('price', { where: { paid: null } });
    await profile.update({ balance: total }, { transaction: t });
  });
}
`,
    // Association accessors that pass the transaction, through the literal or a variable.
    `${sequelizeHeader}
export async function grant(Role: any, id: string, ids: string[]) {
  const transaction = await sequelize.transaction();
  try {
    const role = await Role.findByPk(id);
    await role.addPermission(id, { transaction });
    const options = { transaction };
    await role.setPermissions(ids, options);
    await transaction.commit();
  } catch (error) {
    await transaction.rollback();
    throw error;
  }
}
`,
    // add*/set* on things that are not model instances: a response, a form, a parameter.
    `${sequelizeHeader}
export async function grant(res: any, form: any, Role: any, id: string) {
  const transaction = await sequelize.transaction();
  try {
    const role = await Role.findByPk(id, { transaction });
    res.setHeader('x-role', role.id);
    form.addField('role');
    const headers = new Headers();
    headers.set('x', '1');
    await transaction.commit();
  } catch (error) {
    await transaction.rollback();
    throw error;
  }
}
`,
    // After the commit, an accessor without the transaction is on purpose.
    `${sequelizeHeader}
export async function grant(Role: any, id: string) {
  const transaction = await sequelize.transaction();
  const role = await Role.findByPk(id, { transaction });
  await role.update({ granted: true }, { transaction });
  await transaction.commit();
  await role.addPermission(id);
}
`,
    // A project method that forwards its options, called with the transaction (literal, spread, variable).
    `${sequelizeHeader}
class BookmarkService {
  constructor(private readonly bookmarkModel: any) {}
  async create(dto: object, opts?: object) {
    return await this.bookmarkModel.create(dto, opts);
  }
  async bookmark(id: string, base: object) {
    const transaction = await sequelize.transaction();
    try {
      const options = { transaction };
      await Promise.all([
        this.create({ id }, { transaction }),
        this.create({ id }, { ...base, transaction }),
        this.create({ id }, options),
      ]);
      await transaction.commit();
    } catch (error) {
      await transaction.rollback();
      throw error;
    }
  }
}
`,
    // A method whose options go to a read, not a write: leaving them out reads outside, reported nowhere.
    `${sequelizeHeader}
class BookmarkService {
  constructor(private readonly bookmarkModel: any) {}
  async find(id: string, opts?: object) {
    return await this.bookmarkModel.findOne({ ...opts, where: { id } });
  }
  async bookmark(id: string) {
    await sequelize.transaction(async (t) => {
      const found = await this.find(id);
      await this.bookmarkModel.update({ seen: found !== null }, { where: { id }, transaction: t });
    });
  }
}
`,
    // CLS on: a managed transaction reaches the forwarded write by itself.
    {
      code: `${sequelizeHeader}
export async function createBookmark(Bookmark: any, dto: object, opts?: object) {
  return Bookmark.create(dto, opts);
}
export async function bookmark(dto: object) {
  await sequelize.transaction(async () => {
    await createBookmark(dto);
  });
}
`,
      settings: { idempotency: { implicitTransactions: ['sequelize'] } },
    },
  ],
  invalid: [
    {
      // Model.sum(field, options): a third argument is never read.
      code: `${sequelizeHeader}
export async function deposit(Job: any, profile: any) {
  await sequelize.transaction(async (t) => {
    const total = await Job.sum('price', { where: { paid: null } }, { transaction: t });
    await profile.update({ balance: total }, { transaction: t });
  });
}
`,
      errors: [{ messageId: 'ormOptionIgnored', line: 7, column: 25, suggestions: [] }],
    },
    {
      // Model.update(values, options): the transaction in a third argument is ignored too.
      code: `${sequelizeHeader}
export async function close(Job: any, id: string) {
  await sequelize.transaction(async (t) => {
    await Job.update({ closed: true }, { where: { id } }, { transaction: t });
  });
}
`,
      errors: [{ messageId: 'ormOptionIgnored', line: 7, column: 11, suggestions: [] }],
    },
    {
      // An association accessor on a found instance, not awaited, without the transaction.
      code: `${sequelizeHeader}
export async function grant(Role: any, id: string) {
  const transaction = await sequelize.transaction();
  try {
    const role = await Role.findOne({ where: { id } });
    if (id) role.addPermission(id);
    await transaction.commit();
  } catch (error) {
    await transaction.rollback();
    throw error;
  }
}
`,
      errors: [
        {
          messageId: 'ormOption',
          line: 9,
          column: 13,
          suggestions: [
            {
              messageId: 'passTransaction',
              output: `${sequelizeHeader}
export async function grant(Role: any, id: string) {
  const transaction = await sequelize.transaction();
  try {
    const role = await Role.findOne({ where: { id } });
    if (id) role.addPermission(id, { transaction });
    await transaction.commit();
  } catch (error) {
    await transaction.rollback();
    throw error;
  }
}
`,
            },
          ],
        },
      ],
    },
    {
      // A project method forwarding its options to Model.create, called without them while a sibling gets them.
      code: `${sequelizeHeader}
class BookmarkService {
  constructor(private readonly bookmarkModel: any, private readonly postModel: any) {}
  async create(dto: object, opts?: object) {
    return await this.bookmarkModel.create(dto, opts);
  }
  async bookmark(id: string) {
    const transaction = await sequelize.transaction();
    try {
      await Promise.all([
        this.create({ id }),
        this.postModel.increment('bookmarks', { where: { id }, transaction }),
      ]);
      await transaction.commit();
    } catch (error) {
      await transaction.rollback();
      throw error;
    }
  }
}
`,
      errors: [
        {
          messageId: 'ormOption',
          line: 14,
          column: 9,
          suggestions: [
            {
              messageId: 'passTransaction',
              output: `${sequelizeHeader}
class BookmarkService {
  constructor(private readonly bookmarkModel: any, private readonly postModel: any) {}
  async create(dto: object, opts?: object) {
    return await this.bookmarkModel.create(dto, opts);
  }
  async bookmark(id: string) {
    const transaction = await sequelize.transaction();
    try {
      await Promise.all([
        this.create({ id }, { transaction }),
        this.postModel.increment('bookmarks', { where: { id }, transaction }),
      ]);
      await transaction.commit();
    } catch (error) {
      await transaction.rollback();
      throw error;
    }
  }
}
`,
            },
          ],
        },
      ],
    },
    {
      // A function spreading its options into destroy, called in a .map inside Promise.all.
      code: `${sequelizeHeader}
async function removeRead(ChatRead: any, id: string, opts?: object) {
  return ChatRead.destroy({ ...opts, where: { id } });
}
export async function markRead(ChatRead: any, ids: string[]) {
  await sequelize.transaction(async (t) => {
    await Promise.all(ids.map(async (id) => await removeRead(ChatRead, id)));
  });
}
`,
      errors: [
        {
          messageId: 'ormOption',
          line: 10,
          column: 51,
          suggestions: [
            {
              messageId: 'passTransaction',
              output: `${sequelizeHeader}
async function removeRead(ChatRead: any, id: string, opts?: object) {
  return ChatRead.destroy({ ...opts, where: { id } });
}
export async function markRead(ChatRead: any, ids: string[]) {
  await sequelize.transaction(async (t) => {
    await Promise.all(ids.map(async (id) => await removeRead(ChatRead, id, { transaction: t })));
  });
}
`,
            },
          ],
        },
      ],
    },
  ],
});

typedRuleTester().run('no-pool-query-in-transaction (Sequelize: options, typed)', rule, {
  valid: [
    `
import { Sequelize, Model, type InferAttributes, type InferCreationAttributes } from 'sequelize';
const sequelize = new Sequelize('postgres://');
class Job extends Model<InferAttributes<Job>, InferCreationAttributes<Job>> {
  declare price: number;
}
export async function total(): Promise<number> {
  return sequelize.transaction(async (t) => Job.sum('price', { transaction: t }));
}
`,
  ],
  invalid: [
    {
      code: `
import { Sequelize, Model, type InferAttributes, type InferCreationAttributes } from 'sequelize';
const sequelize = new Sequelize('postgres://');
class Job extends Model<InferAttributes<Job>, InferCreationAttributes<Job>> {
  declare price: number;
}
export async function total(): Promise<number> {
  return sequelize.transaction(async (t) => {
    // @ts-expect-error sum takes (field, options): the declarations have no third argument.
    const sum = await Job.sum('price', {}, { transaction: t });
    await Job.update({ price: sum }, { where: {}, transaction: t });
    return sum;
  });
}
`,
      errors: [{ messageId: 'ormOptionIgnored', line: 10, column: 23, suggestions: [] }],
    },
  ],
});

syntaxRuleTester().run('no-pool-query-in-transaction (a read outside the transaction: a check or a lookup)', rule, {
  valid: [
    // A reference row looked up through the injected repository and guarded for existence only:
    // the transaction points another row at it and never works from its state.
    `
import { DataSource, Repository } from 'typeorm';
declare class Channel { id: number }
export class Transfers {
  constructor(private readonly dataSource: DataSource, private readonly channelRepository: Repository<Channel>) {}
  async fail(record: { channel?: Channel }) {
    const queryRunner = this.dataSource.createQueryRunner();
    await queryRunner.connect();
    try {
      await queryRunner.startTransaction();
      const lockChannel = await this.channelRepository.findOne({ where: { key: 'lock' } });
      if (!lockChannel) {
        throw new Error('the lock channel is missing');
      }
      record.channel = lockChannel;
      await queryRunner.manager.save(record);
      await queryRunner.commitTransaction();
    } catch (error) {
      await queryRunner.rollbackTransaction();
      throw error;
    } finally {
      await queryRunner.release();
    }
  }
}
`,
    // The same guard on the read itself.
    `
import { DataSource, Repository } from 'typeorm';
declare class Plan { id: number }
export class Subscriptions {
  constructor(private readonly dataSource: DataSource, private readonly planRepository: Repository<Plan>) {}
  async subscribe(planId: number) {
    await this.dataSource.transaction(async (manager) => {
      if ((await this.planRepository.findOneBy({ id: planId })) == null) return;
      await manager.insert('Subscription', { planId });
    });
  }
}
`,
  ],
  invalid: [
    {
      // Missing, the row is created: a concurrent delivery checks the same way and creates it twice.
      code: `
import { DataSource, Repository } from 'typeorm';
declare class Game { id: number }
export class Games {
  constructor(private readonly dataSource: DataSource, private readonly gameRepository: Repository<Game>) {}
  async sync(gameId: number) {
    const queryRunner = this.dataSource.createQueryRunner();
    try {
      await queryRunner.startTransaction();
      let game = await this.gameRepository.findOne({ where: { gameId } });
      if (!game) {
        game = this.gameRepository.create({ gameId });
        await queryRunner.manager.save(game);
      }
      await queryRunner.commitTransaction();
    } catch (error) {
      await queryRunner.rollbackTransaction();
      throw error;
    } finally {
      await queryRunner.release();
    }
  }
}
`,
      errors: [{ messageId: 'ormRepository', line: 10 }],
      output: null,
    },
    {
      // Guarded for existence, then worked from: the balance read outside the transaction is a lost update.
      code: `
import { DataSource, Repository } from 'typeorm';
declare class Wallet { id: number; balance: number }
export class Wallets {
  constructor(private readonly dataSource: DataSource, private readonly walletRepository: Repository<Wallet>) {}
  async debit(id: number, amount: number) {
    await this.dataSource.transaction(async (manager) => {
      const wallet = await this.walletRepository.findOneBy({ id });
      if (!wallet) throw new Error('no wallet');
      await manager.update('Wallet', { id }, { balance: wallet.balance - amount });
    });
  }
}
`,
      errors: [{ messageId: 'ormRepository', line: 8 }],
      output: null,
    },
  ],
});

syntaxRuleTester().run('no-pool-query-in-transaction (a helper handed the transaction in its options)', rule, {
  valid: [
    // Every call of the helper hands it the transaction in its options.
    `
import { db, insert } from './db';
export async function fix(rows: { id: string }[]) {
  await db().transaction(async (tx) => {
    for (const row of rows) {
      await insert({ table: 'secret', values: { id: row.id }, tx }).then(String);
    }
    await insert({ table: 'secret', values: { id: 'x' }, tx: tx });
  });
}
`,
    // The options are spread from elsewhere: they may carry the transaction.
    `
import { db, insert } from './db';
export async function fix(options: object) {
  await db().transaction(async (tx) => {
    await insert({ table: 'secret', values: {}, tx });
    await insert({ ...options, table: 'secret' });
  });
}
`,
  ],
  invalid: [
    {
      // One branch hands the helper the transaction, the other leaves it to the pooled default.
      code: `
import { db, insert } from './db';
export async function fix(resend: boolean) {
  await db().transaction(async (pTx) => {
    if (resend) {
      await insert({ table: 'secret', values: { name: 'resend' }, tx: pTx }).then(String);
    } else {
      await insert({ table: 'secret', values: { name: 'sendgrid' } }).then(String);
    }
  });
}
`,
      errors: [{ messageId: 'ormHelper', line: 8 }],
      output: null,
    },
  ],
});

syntaxRuleTester().run(
  'no-pool-query-in-transaction (MikroORM: begin() on a fork, and a context carrying the outer manager)',
  rule,
  {
    valid: [
      // Every query and every operation goes through the fork that holds the transaction.
      `
import { SqlEntityManager } from '@mikro-orm/mysql';
declare class TaggingsOperation { constructor(ctx: { em: SqlEntityManager }); execute(id: number): Promise<void> }
export class RemoveFile {
  constructor(private readonly ctx: { em: SqlEntityManager; log: unknown }) {}
  async run(id: number) {
    const em = this.ctx.em.fork();
    await em.begin();
    try {
      await new TaggingsOperation({ em, log: this.ctx.log }).execute(id);
      em.remove({ id });
      await em.commit();
    } catch (error) {
      await em.rollback();
      throw error;
    }
  }
}
`,
      // The outer context handed on where the transaction hands no operation its own manager: nothing says the operation needs one.
      `
import { SqlEntityManager } from '@mikro-orm/mysql';
declare class EventOperation { constructor(ctx: unknown); execute(id: number): Promise<void> }
export class RemoveFile {
  constructor(private readonly ctx: { em: SqlEntityManager }) {}
  async run(id: number) {
    const em = this.ctx.em;
    return em.transactional(async (tm) => {
      await new EventOperation(this.ctx).execute(id);
      tm.remove({ id });
    });
  }
}
`,
    ],
    invalid: [
      {
        // begin() sets no transaction context: the query through the manager forked from runs outside.
        code: `
import { SqlEntityManager } from '@mikro-orm/mysql';
export class RemoveFile {
  constructor(private readonly ctx: { em: SqlEntityManager }) {}
  async run(id: number) {
    const em = this.ctx.em.fork();
    await em.begin();
    try {
      await this.ctx.em.nativeDelete('Tagging', { fileId: id });
      em.remove({ id });
      await em.commit();
    } catch (error) {
      await em.rollback();
      throw error;
    }
  }
}
`,
        errors: [{ messageId: 'ormHandle', line: 9 }],
        output: `
import { SqlEntityManager } from '@mikro-orm/mysql';
export class RemoveFile {
  constructor(private readonly ctx: { em: SqlEntityManager }) {}
  async run(id: number) {
    const em = this.ctx.em.fork();
    await em.begin();
    try {
      await em.nativeDelete('Tagging', { fileId: id });
      em.remove({ id });
      await em.commit();
    } catch (error) {
      await em.rollback();
      throw error;
    }
  }
}
`,
      },
      {
        // One operation is handed the transaction's manager, the other the outer context.
        code: `
import { SqlEntityManager } from '@mikro-orm/mysql';
declare class TaggingsOperation { constructor(ctx: { em: SqlEntityManager }); execute(id: number): Promise<void> }
declare class EventOperation { constructor(ctx: { em: SqlEntityManager }); execute(id: number): Promise<void> }
export class RemoveFile {
  constructor(private readonly ctx: { em: SqlEntityManager; log: unknown }) {}
  async run(id: number) {
    const em = this.ctx.em;
    return em.transactional(async (tm) => {
      await new TaggingsOperation({ em: tm, log: this.ctx.log }).execute(id);
      const eventOp = new EventOperation(this.ctx);
      await eventOp.execute(id);
      tm.remove({ id });
    });
  }
}
`,
        errors: [{ messageId: 'ormCarrier', line: 11, data: { via: 'this.ctx', tx: 'tm' } }],
        output: null,
      },
    ],
  },
);

syntaxRuleTester().run(
  'no-pool-query-in-transaction (MikroORM: a function that writes through a fork of its own)',
  rule,
  {
    valid: [
      // The method forks with the transaction context kept, or only reads through its fork.
      `
import { EntityManager } from '@mikro-orm/core';
export class Checkout {
  constructor(private readonly em: EntityManager) {}
  async createOrder(id: string) {
    const em = this.em.fork({ keepTransactionContext: true });
    await em.persistAndFlush(em.create('Order', { id }));
  }
  async findOrder(id: string) {
    const em = this.em.fork();
    return em.findOne('Order', { id });
  }
  async run(id: string) {
    await this.em.transactional(async () => {
      await this.createOrder(id);
      await this.findOrder(id);
    });
  }
}
`,
      // Listed in another module, but handed the transaction's manager.
      {
        code: `
import { EntityManager } from '@mikro-orm/core';
import { OrdersService } from './orders.service';
export class Checkout {
  constructor(private readonly em: EntityManager, private readonly ordersService: OrdersService) {}
  async run(id: string) {
    await this.em.transactional(async (tx) => {
      await this.ordersService.create(id, tx);
    });
  }
}
`,
        settings: { idempotency: { ownHandleFunctions: [{ from: './orders.service', name: 'OrdersService.create' }] } },
      },
    ],
    invalid: [
      {
        code: `
import { EntityManager } from '@mikro-orm/core';
export class Checkout {
  constructor(private readonly em: EntityManager) {}
  async createOrder(id: string) {
    const em = this.em.fork();
    em.persist(em.create('Order', { id }));
    await em.flush();
  }
  async run(id: string) {
    await this.em.transactional(async (tx) => {
      await this.createOrder(id);
      tx.persist(tx.create('Invoice', { id }));
    });
  }
}
`,
        errors: [{ messageId: 'ormOwnHandle', line: 12, data: { via: 'this.createOrder' } }],
        output: null,
      },
      {
        // A callback that takes no manager: the injected services (listed by idempotency-check) fork their own.
        code: `
import { EntityManager } from '@mikro-orm/core';
import { OrdersService } from './orders.service';
import { InvoicesService } from './invoices.service';
export class Checkout {
  constructor(
    private readonly em: EntityManager,
    private readonly ordersService: OrdersService,
    private readonly invoicesService: InvoicesService,
  ) {}
  async run(id: string) {
    const em = this.em.fork();
    await em.transactional(async () => {
      const order = await this.ordersService.createFromRegistration(id);
      await this.invoicesService.createFromOrder(order.id);
    });
  }
}
`,
        settings: {
          idempotency: {
            ownHandleFunctions: [
              { from: './orders.service', name: 'OrdersService.createFromRegistration' },
              { from: './invoices.service', name: 'InvoicesService.createFromOrder' },
            ],
          },
        },
        errors: [
          { messageId: 'ormOwnHandle', line: 14 },
          { messageId: 'ormOwnHandle', line: 15 },
        ],
        output: null,
      },
    ],
  },
);

syntaxRuleTester().run('no-pool-query-in-transaction (a held transaction nothing queries through)', rule, {
  valid: [
    // The runner's manager is used, so the class's other calls are not read as its writes.
    `
import { DataSource } from 'typeorm';
declare class CrudService { create(data: object): Promise<{ id: string }> }
export class ModulesService extends CrudService {
  constructor(private readonly dataSource: DataSource) { super(); }
  async createModule(data: object) {
    const queryRunner = this.dataSource.createQueryRunner();
    await queryRunner.connect();
    try {
      await queryRunner.startTransaction();
      const created = await queryRunner.manager.save('Module', data);
      await this.assignTasks(created);
      await queryRunner.commitTransaction();
    } catch (error) {
      await queryRunner.rollbackTransaction();
      throw error;
    } finally {
      await queryRunner.release();
    }
  }
  async assignTasks(module: object) {}
}
`,
    // A callback transaction that ignores its manager is another message's concern (services, repositories).
    `
import { DataSource } from 'typeorm';
export class ModulesService {
  constructor(private readonly dataSource: DataSource) {}
  async createModule(data: object) {
    await this.dataSource.transaction(async () => {
      await this.logChange(data);
    });
  }
  async logChange(data: object) {}
}
`,
  ],
  invalid: [
    {
      code: `
import { DataSource } from 'typeorm';
declare class CrudService { create(data: object): Promise<{ id: string }> }
declare class ActivityLogService { record(entry: object): void }
export class ModulesService extends CrudService {
  constructor(private readonly dataSource: DataSource, private readonly activityLogService: ActivityLogService) { super(); }
  async createModule(data: object) {
    const queryRunner = this.dataSource.createQueryRunner();
    await queryRunner.connect();
    try {
      await queryRunner.startTransaction();
      const created = await super.create(data);
      await this.assignTasksToModule(created);
      await queryRunner.commitTransaction();
      return created;
    } catch (error) {
      await queryRunner.rollbackTransaction();
      throw error;
    } finally {
      await queryRunner.release();
    }
  }
  async assignTasksToModule(module: object) {}
}
`,
      errors: [
        { messageId: 'ormUnusedTransaction', line: 12, data: { via: 'super.create', tx: 'queryRunner' } },
        { messageId: 'ormUnusedTransaction', line: 13, data: { via: 'this.assignTasksToModule', tx: 'queryRunner' } },
      ],
      output: null,
    },
  ],
});

syntaxRuleTester().run('no-pool-query-in-transaction (Sequelize 7, Prisma generated clients, Typegoose)', rule, {
  valid: [
    // Sequelize 7 passes a managed transaction to every query inside it by default.
    `
import { Sequelize } from '@sequelize/core';
import { PostgresDialect } from '@sequelize/postgres';
const sequelize = new Sequelize({ dialect: PostgresDialect });
export async function transfer(User: any, id: number) {
  await sequelize.transaction(async (t) => {
    await User.update({ n: 1 }, { where: { id } });
    await User.create({ id });
  });
}
`,
  ],
  invalid: [
    {
      // ...unless the instance turns that off: the write lacks the transaction.
      code: `
import { Sequelize } from '@sequelize/core';
const sequelize = new Sequelize({ disableClsTransactions: true });
export async function transfer(User: any, id: number) {
  await sequelize.transaction(async (t) => {
    await User.update({ n: 1 }, { where: { id }, transaction: t });
    await User.create({ id });
  });
}
`,
      errors: [
        {
          messageId: 'ormOption',
          line: 7,
          suggestions: [
            {
              messageId: 'passTransaction',
              output: `
import { Sequelize } from '@sequelize/core';
const sequelize = new Sequelize({ disableClsTransactions: true });
export async function transfer(User: any, id: number) {
  await sequelize.transaction(async (t) => {
    await User.update({ n: 1 }, { where: { id }, transaction: t });
    await User.create({ id }, { transaction: t });
  });
}
`,
            },
          ],
        },
      ],
    },
    {
      // A unmanaged Sequelize 7 transaction is never implicit.
      code: `
import { Sequelize } from '@sequelize/core';
const sequelize = new Sequelize({});
export async function transfer(User: any, id: number) {
  const t = await sequelize.transaction();
  try {
    await User.update({ n: 1 }, { where: { id }, transaction: t });
    await User.create({ id });
    await t.commit();
  } catch (error) {
    await t.rollback();
    throw error;
  }
}
`,
      errors: [
        {
          messageId: 'ormOption',
          line: 8,
          suggestions: [
            {
              messageId: 'passTransaction',
              output: `
import { Sequelize } from '@sequelize/core';
const sequelize = new Sequelize({});
export async function transfer(User: any, id: number) {
  const t = await sequelize.transaction();
  try {
    await User.update({ n: 1 }, { where: { id }, transaction: t });
    await User.create({ id }, { transaction: t });
    await t.commit();
  } catch (error) {
    await t.rollback();
    throw error;
  }
}
`,
            },
          ],
        },
      ],
    },
    {
      // Prisma 6.6+ generates the client into the project.
      code: `
import type { Prisma } from '../generated/prisma/client';
import { db } from './db';
export async function pay(id: string, data: Prisma.LedgerCreateInput) {
  await db.$transaction(async (tx) => {
    await tx.order.update({ where: { id }, data: { paid: true } });
    await db.ledger.create({ data });
  });
}
`,
      errors: [{ messageId: 'ormHandle', line: 7 }],
      output: `
import type { Prisma } from '../generated/prisma/client';
import { db } from './db';
export async function pay(id: string, data: Prisma.LedgerCreateInput) {
  await db.$transaction(async (tx) => {
    await tx.order.update({ where: { id }, data: { paid: true } });
    await tx.ledger.create({ data });
  });
}
`,
    },
  ],
});

syntaxRuleTester().run('no-pool-query-in-transaction (a function that queries through a handle of its own)', rule, {
  valid: [
    // A CLS transaction host: `txHost.tx` is the transaction.
    `
import { PrismaClient } from '@prisma/client';
export class Credits {
  constructor(private readonly prisma: PrismaClient, private readonly txHost: { tx: PrismaClient }) {}
  async recharge(uid: string) {
    await this.txHost.tx.creditRecharge.create({ data: { uid } });
  }
  async subscribe(uid: string) {
    await this.prisma.$transaction(async (tx) => {
      await tx.subscription.create({ data: { uid } });
      await this.recharge(uid);
    });
  }
}
`,
    // A Knex builder compiled to SQL text (`.toQuery()`) writes nothing; the transaction's client runs the text.
    `
import { Knex } from 'knex';
import { PrismaClient } from '@prisma/client';
export class Tables {
  constructor(private readonly prisma: PrismaClient & { txClient(): PrismaClient }, private readonly knex: Knex) {}
  async stamp(name: string) {
    const sql = this.knex(name).update({ stamped: true }).toQuery();
    await this.prisma.txClient().$executeRawUnsafe(sql);
  }
  async copy(name: string) {
    await this.prisma.$transaction(async (tx) => {
      await tx.space.update({ where: { name }, data: { copied: true } });
      await this.stamp(name);
    });
  }
}
`,
    // A service that keeps the open transaction in the async context: `txClient()` returns it.
    `
import { PrismaClient } from '@prisma/client';
export class Bases {
  constructor(private readonly prismaService: PrismaClient & { txClient(): PrismaClient }) {}
  async duplicate(id: string) {
    const prisma = this.prismaService.txClient();
    await prisma.base.create({ data: { id } });
  }
  async copy(id: string) {
    await this.prismaService.$transaction(async (tx) => {
      await tx.space.update({ where: { id }, data: { copied: true } });
      await this.duplicate(id);
    });
  }
}
`,
    // The helper is handed the transaction, or takes it as a parameter that may carry it.
    `
import { Sequelize } from 'sequelize';
const sequelize = new Sequelize('postgres://');
declare const Membership: { destroy(options: object): Promise<number> };
export class Moved {
  async destroyMemberships(documentId: string, transaction: unknown) {
    await Membership.destroy({ where: { documentId }, transaction });
  }
  async perform(documentId: string) {
    await sequelize.transaction(async (transaction) => {
      await this.destroyMemberships(documentId, transaction);
    });
  }
}
`,
    // Sequelize CLS switched on: the helper's write joins the managed transaction.
    `
import { Sequelize } from 'sequelize';
import { createNamespace } from 'cls-hooked';
Sequelize.useCLS(createNamespace('app'));
const sequelize = new Sequelize('postgres://');
declare const Membership: { destroy(options: object): Promise<number> };
export class Moved {
  async destroyMemberships(documentId: string) {
    await Membership.destroy({ where: { documentId } });
  }
  async perform(documentId: string) {
    await sequelize.transaction(async (t) => {
      await this.destroyMemberships(documentId);
    });
  }
}
`,
    // A read of its own before the transaction writes anything reads what the transaction would.
    `
import { Kysely } from 'kysely';
export class Pages {
  constructor(private readonly db: Kysely<any>) {}
  async findPage(id: string) {
    return this.db.selectFrom('pages').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  }
  async move(id: string) {
    await this.db.transaction().execute(async (trx) => {
      const page = await this.findPage(id);
      await trx.updateTable('pages').set({ position: page.position }).where('id', '=', id).execute();
    });
  }
}
`,
    // A read of its own whose result the transaction does not use.
    `
import { Kysely } from 'kysely';
export class Pages {
  constructor(private readonly db: Kysely<any>) {}
  async countPages() {
    return this.db.selectFrom('pages').select(['id']).execute();
  }
  async move(id: string) {
    await this.db.transaction().execute(async (trx) => {
      await this.countPages();
      await trx.updateTable('pages').set({ moved: true }).where('id', '=', id).execute();
    });
  }
}
`,
  ],
  invalid: [
    {
      // An injected service whose method writes through its own Prisma client (listed by idempotency-check).
      code: `
import { PrismaClient } from '@prisma/client';
import { CreditService } from './credit.service';
export class Subscriptions {
  constructor(private readonly prisma: PrismaClient, private readonly creditService: CreditService) {}
  async subscribe(uid: string) {
    await this.prisma.$transaction(async (prisma) => {
      await prisma.subscription.create({ data: { uid } });
      await this.creditService.createSubscriptionCreditRecharge(uid);
    });
  }
}
`,
      settings: {
        idempotency: {
          ownHandleFunctions: [{ from: './credit.service', name: 'CreditService.createSubscriptionCreditRecharge' }],
        },
      },
      errors: [
        { messageId: 'ormOwnHandle', line: 9, data: { via: 'this.creditService.createSubscriptionCreditRecharge' } },
      ],
      output: null,
    },
    {
      // The same update run on the service's own Knex (awaited): a write outside the transaction.
      code: `
import { Knex } from 'knex';
import { PrismaClient } from '@prisma/client';
export class Tables {
  constructor(private readonly prisma: PrismaClient & { txClient(): PrismaClient }, private readonly knex: Knex) {}
  async stamp(name: string) {
    await this.knex(name).update({ stamped: true });
    await this.prisma.txClient().$executeRawUnsafe('select 1');
  }
  async copy(name: string) {
    await this.prisma.$transaction(async (tx) => {
      await tx.space.update({ where: { name }, data: { copied: true } });
      await this.stamp(name);
    });
  }
}
`,
      errors: [{ messageId: 'ormOwnHandle', line: 13, data: { via: 'this.stamp' } }],
      output: null,
    },
    {
      // A method of the same class that hands the write on to another of its methods.
      code: `
import { PrismaClient } from '@prisma/client';
export class Credits {
  constructor(private readonly prisma: PrismaClient) {}
  async processRecharge(uid: string, amount: number) {
    await this.prisma.creditRecharge.create({ data: { uid, amount } });
  }
  async createSubscriptionRecharge(uid: string) {
    await this.processRecharge(uid, 5);
  }
  async subscribe(uid: string) {
    await this.prisma.$transaction(async (tx) => {
      await tx.subscription.create({ data: { uid } });
      await this.createSubscriptionRecharge(uid);
    });
  }
}
`,
      errors: [{ messageId: 'ormOwnHandle', line: 14 }],
      output: null,
    },
    {
      // A method of the same class that writes through the module's own client.
      code: `
import { drizzle } from 'drizzle-orm/node-postgres';
declare const ledger: any;
const db = drizzle(process.env.DATABASE_URL!);
export class Payments {
  async record(orderId: string) {
    await db.insert(ledger).values({ orderId });
  }
  async pay(orderId: string) {
    await db.transaction(async (tx) => {
      await tx.update(ledger).set({ paid: true });
      await this.record(orderId);
    });
  }
}
`,
      errors: [{ messageId: 'ormOwnHandle', line: 12 }],
      output: null,
    },
    {
      // Sequelize: a private helper handed no transaction writes without one.
      code: `
import { Sequelize } from 'sequelize';
const sequelize = new Sequelize('postgres://');
declare const Membership: { destroy(options: object): Promise<number> };
export class Moved {
  private async destroyMemberships(documentId: string) {
    await Membership.destroy({ where: { documentId } });
  }
  async perform(documentId: string) {
    await sequelize.transaction(async (transaction) => {
      await this.destroyMemberships(documentId);
    });
  }
}
`,
      errors: [{ messageId: 'ormOwnHandle', line: 11 }],
      output: null,
    },
    {
      // Kysely: a read of its own whose result the transaction writes.
      code: `
import { Kysely } from 'kysely';
export class Pages {
  constructor(private readonly db: Kysely<any>) {}
  async nextPosition(spaceId: string) {
    const last = this.db.selectFrom('pages').select(['position']).where('spaceId', '=', spaceId).limit(1);
    const row = await last.executeTakeFirst();
    return row ? row.position + 1 : 0;
  }
  async move(spaceId: string, ids: string[]) {
    await this.db.transaction().execute(async (trx) => {
      for (const id of ids) {
        const position = await this.nextPosition(spaceId);
        await trx.updateTable('pages').set({ position }).where('id', '=', id).execute();
      }
    });
  }
}
`,
      errors: [{ messageId: 'ormOwnHandleRead', line: 13 }],
      output: null,
    },
  ],
});

syntaxRuleTester().run('no-pool-query-in-transaction (Sequelize: a transaction the function is handed)', rule, {
  valid: [
    // Every query passes the handed transaction on.
    `
import { Model } from 'sequelize';
declare const User: any;
export async function markRead(ctx: { state: { transaction: unknown } }, id: string) {
  const { transaction } = ctx.state;
  const user = await User.findByPk(id, { transaction, lock: true });
  user.read = true;
  await user.save({ transaction });
}
`,
    // A parameter passed on everywhere.
    `
import { Model } from 'sequelize';
declare const Membership: any;
export async function destroyMemberships(documentId: string, transaction: unknown) {
  await Membership.destroy({ where: { documentId }, transaction });
  await Membership.create({ documentId }, { transaction });
}
`,
    // Under CLS, the handed transaction may be a managed one that every query joins.
    {
      code: `
import { Model } from 'sequelize';
declare const User: any;
export async function markRead(ctx: { state: { transaction: unknown } }, id: string) {
  const { transaction } = ctx.state;
  const user = await User.findByPk(id, { transaction, lock: true });
  await user.save();
}
`,
      settings: { idempotency: { implicitTransactions: ['sequelize'] } },
    },
  ],
  invalid: [
    {
      // A middleware's transaction locks the row, and the save leaves it out.
      code: `
import { Model } from 'sequelize';
declare const User: any;
export async function markRead(ctx: { state: { transaction: { LOCK: { UPDATE: unknown } } } }, id: string) {
  const { transaction } = ctx.state;
  const user = await User.findByPk(id, { transaction, lock: transaction.LOCK.UPDATE });
  user.notificationsReadAt = new Date();
  await user.save();
}
`,
      errors: [
        {
          messageId: 'ormOption',
          line: 8,
          suggestions: [
            {
              messageId: 'passTransaction',
              output: `
import { Model } from 'sequelize';
declare const User: any;
export async function markRead(ctx: { state: { transaction: { LOCK: { UPDATE: unknown } } } }, id: string) {
  const { transaction } = ctx.state;
  const user = await User.findByPk(id, { transaction, lock: transaction.LOCK.UPDATE });
  user.notificationsReadAt = new Date();
  await user.save({ transaction });
}
`,
            },
          ],
        },
      ],
    },
  ],
});

syntaxRuleTester().run('no-pool-query-in-transaction (Sequelize: a transaction carried on a context object)', rule, {
  valid: [
    // The helper reads only when handed a team, and this call hands none: it reads nothing here.
    `
import { Model } from 'sequelize';
declare const Document: any;
type Ctx = { context: { transaction: unknown } };
export async function importAll(ctx: Ctx, ids: string[], known: Record<string, string>) {
  for (const id of ids) {
    await Document.create({ externalId: id }, { transaction: ctx.context.transaction });
    const internal = await internalId(id, known);
    await Document.update({ internal }, { where: { externalId: id }, transaction: ctx.context.transaction });
  }
}
async function internalId(externalId: string, known: Record<string, string>, teamId?: string) {
  if (!known[externalId] && teamId) {
    const existing = await Document.findOne({ where: { teamId, externalId } });
    if (existing) return existing.id;
  }
  return (known[externalId] ??= externalId);
}
`,
    // Every query passes the context's transaction, and the helper is handed it too.
    `
import { Model } from 'sequelize';
declare const Team: any;
type Ctx = { context: { transaction: unknown } };
export async function createTeam(ctx: Ctx, name: string) {
  const team = await Team.create({ name }, { transaction: ctx.context.transaction });
  const free = await freeSubdomain(name, ctx.context.transaction);
  await team.update({ subdomain: free }, { transaction: ctx.context.transaction });
}
async function freeSubdomain(wanted: string, transaction: unknown) {
  const taken = await Team.findOne({ where: { subdomain: wanted }, transaction });
  return taken ? wanted + '1' : wanted;
}
`,
  ],
  invalid: [
    {
      // The helper searches teams without the transaction after the team was created in it, and a later save leaves it out.
      code: `
import { Model } from 'sequelize';
declare const Team: any;
type Ctx = { context: { transaction: unknown } };
export async function createTeam(ctx: Ctx, name: string) {
  const team = await Team.create({ name }, { transaction: ctx.context.transaction });
  const free = await freeSubdomain(name);
  await team.update({ subdomain: free }, { transaction: ctx.context.transaction });
  await team.update({ name: name.trim() });
}
async function freeSubdomain(wanted: string) {
  const taken = await Team.findOne({ where: { subdomain: wanted } });
  return taken ? wanted + '1' : wanted;
}
`,
      errors: [
        { messageId: 'ormOwnHandleRead', line: 7 },
        {
          messageId: 'ormOption',
          line: 9,
          data: { tx: 'ctx.context.transaction', key: 'transaction: ctx.context.transaction' },
          suggestions: [
            {
              messageId: 'passTransaction',
              output: `
import { Model } from 'sequelize';
declare const Team: any;
type Ctx = { context: { transaction: unknown } };
export async function createTeam(ctx: Ctx, name: string) {
  const team = await Team.create({ name }, { transaction: ctx.context.transaction });
  const free = await freeSubdomain(name);
  await team.update({ subdomain: free }, { transaction: ctx.context.transaction });
  await team.update({ name: name.trim() }, { transaction: ctx.context.transaction });
}
async function freeSubdomain(wanted: string) {
  const taken = await Team.findOne({ where: { subdomain: wanted } });
  return taken ? wanted + '1' : wanted;
}
`,
            },
          ],
        },
      ],
    },
  ],
});

syntaxRuleTester().run('no-pool-query-in-transaction (a helper of the file that takes the transaction last)', rule, {
  valid: [
    // The helper is handed the transaction the repository's wrapper started.
    `
const orders = require('./orders.repository');
const findOrder = async (id, t) => orders.findById(id, t);
const cancel = async (id) => {
  const t = await orders.startTransaction();
  try {
    const order = await findOrder(id, t);
    if (order.status !== 'paid') throw new Error('not paid');
    await orders.updateOrder(order.id, { status: 'cancelled' }, t);
    await t.commit();
  } catch (error) {
    await t.rollback();
    throw error;
  }
};
module.exports = { cancel };
`,
  ],
  invalid: [
    {
      // The order is read without the transaction, so its status check and the update do not see one row.
      code: `
const orders = require('./orders.repository');
const findOrder = async (id, t) => orders.findById(id, t);
const cancel = async (id) => {
  const t = await orders.startTransaction();
  try {
    const order = await findOrder(id);
    if (order.status !== 'paid') throw new Error('not paid');
    await orders.updateOrder(order.id, { status: 'cancelled' }, t);
    await t.commit();
  } catch (error) {
    await t.rollback();
    throw error;
  }
};
module.exports = { cancel };
`,
      errors: [
        {
          messageId: 'ormHelper',
          line: 7,
          suggestions: [
            {
              messageId: 'passHandle',
              output: `
const orders = require('./orders.repository');
const findOrder = async (id, t) => orders.findById(id, t);
const cancel = async (id) => {
  const t = await orders.startTransaction();
  try {
    const order = await findOrder(id, t);
    if (order.status !== 'paid') throw new Error('not paid');
    await orders.updateOrder(order.id, { status: 'cancelled' }, t);
    await t.commit();
  } catch (error) {
    await t.rollback();
    throw error;
  }
};
module.exports = { cancel };
`,
            },
          ],
        },
      ],
      output: null,
    },
  ],
});

syntaxRuleTester().run('no-pool-query-in-transaction (TypeORM: a method handed the manager)', rule, {
  valid: [
    // Everything goes through the manager the method is handed.
    `
import { EntityManager } from 'typeorm';
export class DeleteAccount {
  protected async execute(req: { code: string }, context: EntityManager) {
    await context.delete('Otp', { code: req.code });
    return context.save('User', { deleted: true });
  }
}
`,
    // An injected service's lookup that the transaction only points at: nothing of the row is changed.
    `
import { EntityManager } from 'typeorm';
export class MakeOrder {
  constructor(private readonly customersService: { findOne(id: string): Promise<{ id: string } | null> }) {}
  protected async execute(req: { customerId: string }, context: EntityManager) {
    const customer = await this.customersService.findOne(req.customerId);
    if (!customer) throw new Error('no customer');
    return context.save('Order', { customerId: customer.id });
  }
}
`,
    // An optional manager with a fallback is not a transaction the method is surely in.
    `
import { EntityManager } from 'typeorm';
export class Users {
  constructor(private readonly usersRepository: { save(user: object): Promise<void> }) {}
  async touch(manager?: EntityManager) {
    await this.usersRepository.save({ touched: true });
    await manager?.save('Audit', { touched: true });
  }
}
`,
    // The injected repository writes only when no query runner is handed (the \`else\` of
    // \`if (queryRunner)\`, after \`if (!runner) return …\`): a caller's transaction never runs it.
    `
import { QueryRunner } from 'typeorm';
export class Verifications {
  constructor(private readonly verificationRepository: { save(row: object): Promise<object> }) {}
  async request(email: string, queryRunner: QueryRunner) {
    let verification = { email, status: 'sent' };
    if (queryRunner) verification = await queryRunner.manager.save(verification);
    else verification = await this.verificationRepository.save(verification);
    return verification;
  }
  async resend(email: string, runner: QueryRunner) {
    if (!runner) return this.verificationRepository.save({ email });
    return runner.manager.save({ email });
  }
}
`,
  ],
  invalid: [
    {
      // A base class runs execute(req, queryRunner.manager) in its transaction; the injected repository writes outside it.
      code: `
import { EntityManager } from 'typeorm';
declare class Otp { static remove(otp: object): Promise<void> }
export class DeleteAccount {
  constructor(private readonly otpsRepo: typeof Otp) {}
  protected async execute(req: { code: string }, context: EntityManager) {
    const otp = { code: req.code };
    await this.otpsRepo.remove(otp);
    return context.save('User', { deleted: true });
  }
}
`,
      errors: [{ messageId: 'ormRepository', line: 8, data: { via: 'this.otpsRepo', tx: 'context' } }],
      output: null,
    },
    {
      // Inside a Mongoose session's transaction, a service call handed a TypeORM query runner this
      // method started a transaction on writes through that one (another database); the call
      // handed neither writes outside both.
      code: `
import mongoose from 'mongoose';
import { DataSource } from 'typeorm';
export class CustomersConsumer {
  constructor(private readonly customersService: any, private readonly segmentsService: any, private readonly dataSource: DataSource) {}
  async handle(id: string) {
    const clientSession = await mongoose.startSession();
    clientSession.startTransaction();
    const queryRunner = this.dataSource.createQueryRunner();
    await queryRunner.startTransaction();
    const customer = await this.customersService.findByCustomerId(id, clientSession);
    await this.segmentsService.updateCustomerSegments(customer, queryRunner);
    await this.segmentsService.updateCounts(customer);
    await clientSession.commitTransaction();
    await queryRunner.commitTransaction();
  }
}
`,
      errors: [{ messageId: 'ormOption', line: 13 }],
      output: null,
    },
    {
      // The same repository write beside the handed runner's, not in a branch without it.
      code: `
import { QueryRunner } from 'typeorm';
export class Verifications {
  constructor(private readonly verificationRepository: { save(row: object): Promise<object> }) {}
  async request(email: string, queryRunner: QueryRunner) {
    const verification = await queryRunner.manager.save({ email, status: 'sent' });
    if (queryRunner) await this.verificationRepository.save({ email, audit: true });
    return verification;
  }
}
`,
      errors: [
        { messageId: 'ormRepository', line: 7, data: { via: 'this.verificationRepository', tx: 'queryRunner' } },
      ],
      output: null,
    },
    {
      // The promo code read through the injected service is changed and saved through the manager: a lost update.
      code: `
import { EntityManager } from 'typeorm';
export class MakeOrder {
  constructor(private readonly promoCodeService: { findValid(code: string): Promise<{ uses: number; discount: number } | null> }) {}
  protected async execute(req: { code?: string; total: number }, context: EntityManager) {
    const order = { total: req.total };
    if (req.code) {
      const promo = await this.promoCodeService.findValid(req.code);
      if (promo) {
        order.total -= promo.discount;
        promo.uses++;
        await context.save(promo);
      }
    }
    return context.save('Order', order);
  }
}
`,
      errors: [{ messageId: 'ormOwnHandleRead', line: 8, data: { via: 'this.promoCodeService.findValid' } }],
      output: null,
    },
  ],
});

syntaxRuleTester().run('no-pool-query-in-transaction (rows read outside drive the transaction)', rule, {
  valid: [
    // The rows are read through the transaction.
    `
import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
export async function replaceVotes(participantId: string, pollId: string, votes: { optionId: string }[]) {
  await prisma.$transaction(async (tx) => {
    const options = await tx.option.findMany({ where: { pollId } });
    const known = new Set(options.map((option) => option.id));
    await tx.vote.createMany({ data: votes.filter(({ optionId }) => known.has(optionId)) });
  });
}
`,
    // One row taken out of a limited read, only to point at it.
    `
import { drizzle } from 'drizzle-orm/node-postgres';
declare const prices: any, histories: any, eq: any;
const db = drizzle('postgres://');
export async function merge(priceId: number, name: string) {
  await db.transaction(async (tx) => {
    const [match] = await db.select({ id: prices.id }).from(prices).where(eq(prices.name, name)).limit(1);
    await tx.update(histories).set({ priceId: match.id }).where(eq(histories.priceId, priceId));
  });
}
`,
    // Rows read outside and only logged: nothing the transaction writes comes from them.
    `
import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
export async function close(pollId: string) {
  await prisma.$transaction(async (tx) => {
    const watchers = await prisma.watcher.findMany({ where: { pollId } });
    console.log(watchers.length);
    await tx.poll.update({ where: { id: pollId }, data: { closed: true } });
  });
}
`,
  ],
  invalid: [
    {
      // The options read on the pool decide which votes the transaction inserts.
      code: `
import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
export async function replaceVotes(participantId: string, pollId: string, votes: { optionId: string }[]) {
  await prisma.$transaction(async (tx) => {
    await tx.vote.deleteMany({ where: { participantId } });
    const options = await prisma.option.findMany({ where: { pollId } });
    const known = new Set(options.map((option) => option.id));
    const valid = votes.filter(({ optionId }) => known.has(optionId));
    await tx.vote.createMany({ data: valid.map(({ optionId }) => ({ optionId, participantId })) });
  });
}
`,
      errors: [{ messageId: 'ormHandle', line: 7 }],
      output: `
import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
export async function replaceVotes(participantId: string, pollId: string, votes: { optionId: string }[]) {
  await prisma.$transaction(async (tx) => {
    await tx.vote.deleteMany({ where: { participantId } });
    const options = await tx.option.findMany({ where: { pollId } });
    const known = new Set(options.map((option) => option.id));
    const valid = votes.filter(({ optionId }) => known.has(optionId));
    await tx.vote.createMany({ data: valid.map(({ optionId }) => ({ optionId, participantId })) });
  });
}
`,
    },
    {
      // Rows chosen through the injected repository are deleted one by one through the transaction.
      code: `
import { DataSource, EntityManager, LessThan } from 'typeorm';
declare const dataSource: DataSource;
export class Users {
  constructor(private readonly usersRepository: { find(options: object): Promise<{ id: string }[]> }) {}
  async purgeExpired() {
    await dataSource.transaction(async (manager) => {
      const expired = await this.usersRepository.find({ where: { confirmed: false, expiresAt: LessThan(new Date()) } });
      for (const user of expired) await this.removeUser(user.id, manager);
    });
  }
  async removeUser(id: string, manager: EntityManager) {
    await manager.delete('User', { id });
  }
}
`,
      errors: [{ messageId: 'ormRepository', line: 8 }],
      output: null,
    },
  ],
});

syntaxRuleTester().run('no-pool-query-in-transaction (a helper of the class reads before any write)', rule, {
  valid: [
    // The row is only used, before the transaction writes anything: through it the read would be the same.
    `
import { DataSource } from 'typeorm';
import { EventEntity } from './event.entity';
export class Events {
  constructor(private readonly connection: DataSource) {}
  async findEvent(name: string) {
    return EventEntity.createQueryBuilder('event').where({ name }).getOne();
  }
  async rename(name: string, next: string) {
    const runner = this.connection.createQueryRunner();
    await runner.startTransaction();
    try {
      const event = await this.findEvent(name);
      await runner.manager.update('Event', { id: event.id }, { name: next });
      await runner.commitTransaction();
    } catch (error) {
      await runner.rollbackTransaction();
      throw error;
    } finally {
      await runner.release();
    }
  }
}
`,
  ],
  invalid: [
    {
      // The helper's answer decides between update and insert: a check-then-write on another connection.
      code: `
import { DataSource } from 'typeorm';
import { EventEntity } from './event.entity';
export class Events {
  constructor(private readonly connection: DataSource) {}
  async findEvent(name: string) {
    return EventEntity.createQueryBuilder('event').where({ name }).getOne();
  }
  async register(name: string) {
    const runner = this.connection.createQueryRunner();
    await runner.startTransaction();
    try {
      const event = await this.findEvent(name);
      if (event) await runner.manager.update('Event', { id: event.id }, { seen: new Date() });
      else await runner.manager.insert('Event', { name });
      await runner.commitTransaction();
    } catch (error) {
      await runner.rollbackTransaction();
      throw error;
    } finally {
      await runner.release();
    }
  }
}
`,
      errors: [{ messageId: 'ormOwnHandleRead', line: 13 }],
      output: null,
    },
  ],
});

syntaxRuleTester().run('no-pool-query-in-transaction (a Kysely wrapper in a file that imports no ORM)', rule, {
  valid: [
    // The helper is handed the transaction.
    `
type Db = { transaction(): { execute<T>(work: (trx: any) => Promise<T>): Promise<T> }; selectFrom(t: string): any };
export async function inTx<T>(db: Db, work: (trx: any) => Promise<T>, outer?: any): Promise<T> {
  if (outer) return work(outer);
  return db.transaction().execute((trx) => work(trx));
}
export class Pages {
  constructor(private readonly db: Db) {}
  async move(ids: string[]) {
    await inTx(this.db, async (trx) => {
      for (const id of ids) {
        const position = await this.nextPosition(trx);
        await trx.updateTable('pages').set({ position }).where('id', '=', id).execute();
      }
    });
  }
  async nextPosition(trx: any) {
    const row = await trx.selectFrom('pages').select(['position']).orderBy('position', 'desc').limit(1).executeTakeFirst();
    return row ? row.position + 1 : 0;
  }
}
`,
  ],
  invalid: [
    {
      // Each turn reads the last position on the pool, missing the positions the earlier turns wrote.
      code: `
type Db = { transaction(): { execute<T>(work: (trx: any) => Promise<T>): Promise<T> }; selectFrom(t: string): any };
export async function inTx<T>(db: Db, work: (trx: any) => Promise<T>, outer?: any): Promise<T> {
  if (outer) return work(outer);
  return db.transaction().execute((trx) => work(trx));
}
export class Pages {
  constructor(private readonly db: Db) {}
  async move(ids: string[]) {
    await inTx(this.db, async (trx) => {
      for (const id of ids) {
        const position = await this.nextPosition();
        await trx.updateTable('pages').set({ position }).where('id', '=', id).execute();
      }
    });
  }
  async nextPosition() {
    const last = this.db.selectFrom('pages').select(['position']).where('deletedAt', 'is', null).orderBy('position', 'desc').limit(1);
    const row = await last.executeTakeFirst();
    return row ? row.position + 1 : 0;
  }
}
`,
      errors: [{ messageId: 'ormOwnHandleRead', line: 12 }],
      output: null,
    },
  ],
});

syntaxRuleTester().run('no-pool-query-in-transaction (Feathers services over Mongoose)', rule, {
  valid: [
    // The session travels in the service call's params.
    `
const mongoose = require('mongoose');
module.exports = (app) => ({
  async activate(systemId) {
    const systems = app.service('systems');
    const session = await mongoose.startSession();
    await session.withTransaction(async () => {
      await systems.patch(systemId, { active: true }, { mongoose: { session } });
      await app.service('schools').create({ systemId }, { mongoose: { session } });
    });
  },
});
`,
    // Params handed on whole may carry it.
    `
const mongoose = require('mongoose');
module.exports = (app) => ({
  async activate(systemId, params) {
    const session = await mongoose.startSession();
    await session.withTransaction(async () => {
      await app.service('systems').patch(systemId, { active: true }, params);
    });
  },
});
`,
  ],
  invalid: [
    {
      // Neither service write is handed the session: both commit on their own.
      code: `
const mongoose = require('mongoose');
module.exports = (app) => ({
  async activate(systemId, schoolId) {
    const systems = await app.service('systems');
    const session = await mongoose.startSession();
    await session.withTransaction(async () => {
      await systems.patch(systemId, { active: true });
      await app.service('schools').patch(schoolId, { ldap: true }, { query: { active: true } });
    });
    await session.endSession();
  },
});
`,
      errors: [
        { messageId: 'ormOption', line: 8 },
        { messageId: 'ormOption', line: 9 },
      ],
      output: null,
    },
  ],
});

syntaxRuleTester().run('no-pool-query-in-transaction (services handed the session by a project wrapper)', rule, {
  valid: [
    // Every service call inside the wrapper's callback is handed the session.
    `
import { runWithTransaction } from '../core';
export class Cars {
  fileService = new FileService();
  carService = new CarService();
  create = async (input: any, file: any) => {
    return runWithTransaction(async (session) => {
      const saved = await this.fileService.saveFile(file, session);
      return this.carService.createCar({ ...input, image: saved.id }, session);
    });
  };
}
declare class FileService { saveFile(file: any, session: unknown): Promise<{ id: string }> }
declare class CarService { createCar(input: any, session?: unknown): Promise<unknown> }
`,
  ],
  invalid: [
    {
      // The file is saved in the session, the car is created without it.
      code: `
import { runWithTransaction } from '../core';
export class Cars {
  fileService = new FileService();
  carService = new CarService();
  create = async (input: any, file: any) => {
    return runWithTransaction(async (session) => {
      const saved = await this.fileService.saveFile(file, session);
      return this.carService.createCar({ ...input, image: saved.id });
    });
  };
}
declare class FileService { saveFile(file: any, session: unknown): Promise<{ id: string }> }
declare class CarService { createCar(input: any, session?: unknown): Promise<unknown> }
`,
      errors: [{ messageId: 'ormOption', line: 9 }],
      output: null,
    },
  ],
});
