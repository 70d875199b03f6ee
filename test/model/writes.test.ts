import type { TSESTree } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';

import { effectOf, getWrite, writeTarget } from '../../src/model/writes.js';
import { lintSnippet } from '../rule-tester.js';

const CODE = `
import Stripe from 'stripe';
const stripe = new Stripe('k');
async function f(pool: Pool, id: string) {
  await pool.query('INSERT INTO t VALUES ($1)', [id]);
  await pool.query('SELECT 1');
  await fetch(url, { method: 'POST' });
  await fetch(url);
  await stripe.refunds.create({ charge: id });
  await prisma.order.update({ where: { id }, data: {} });
  await prisma.order.findMany();
  await this.prisma.invoice.create({ data: {} });
}
`;

/** What each awaited call of `code` writes, through `read`. */
function writes(
  read: (write: NonNullable<ReturnType<typeof getWrite>>) => string,
  code = CODE,
): (string | undefined)[] {
  const rows: (string | undefined)[] = [];
  lintSnippet(code, (context) => ({
    'BlockStatement > ExpressionStatement > AwaitExpression > CallExpression'(node: TSESTree.CallExpression) {
      const write = getWrite(node, context);
      rows.push(write && read(write));
    },
  }));
  return rows;
}

describe('getWrite', () => {
  it("names the AWS SDK's commands that change something by their service, in place or bound, and nothing for reads, acks or others' send", () => {
    const code = `
import { SQSClient, SendMessageCommand, ReceiveMessageCommand, DeleteMessageCommand } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient, PutCommand, GetCommand, DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { SESClient, SendEmailCommand } from '@aws-sdk/client-ses';
import { Message } from './message';
async function f(sqs, db, ses, socket) {
  await sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: body }));
  const put = new PutCommand({ TableName: 't', Item: item });
  await db.send(put);
  await db.send(new GetCommand({ TableName: 't', Key: key }));
  await sqs.send(new ReceiveMessageCommand({ QueueUrl: url }));
  await sqs.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: handle }));
  await db.send(new DeleteCommand({ TableName: 't', Key: key }));
  const mail = new SendEmailCommand({ Source: from });
  await ses.send(mail);
  await socket.send(new Message(body));
}
`;
    expect(writes(effectOf, code)).toEqual([
      'aws-sqs',
      'aws-dynamodb',
      undefined,
      undefined,
      undefined,
      'aws-delete',
      'mail',
      undefined,
    ]);
  });

  it('names SQL, HTTP, Stripe and Prisma writes, and nothing for reads', () => {
    expect(writes(writeTarget)).toEqual(['sql', undefined, 'http', undefined, 'stripe', 'prisma', undefined, 'prisma']);
  });

  it('gives the inventory one effect name per write', () => {
    expect(writes(effectOf)).toEqual([
      'sql-write',
      undefined,
      'http-write',
      undefined,
      'stripe',
      'db-write',
      undefined,
      'db-write',
    ]);
  });
});

describe('effectOf: deletes', () => {
  it('names a write that only deletes apart, through SQL, an ORM or HTTP DELETE', () => {
    const code = [
      "import { drizzle } from 'drizzle-orm/node-postgres';",
      'const db = drizzle(process.env.URL);',
      'async function f(pool: Pool, id: string) {',
      "  await pool.query('DELETE FROM sessions WHERE user_id = $1', [id]);",
      "  await pool.query('DELETE FROM a WHERE id = $1; INSERT INTO log VALUES ($1)', [id]);",
      "  await pool.query('WITH gone AS (DELETE FROM a RETURNING *) INSERT INTO archive SELECT * FROM gone');",
      '  await prisma.session.deleteMany({ where: { id } });',
      '  await prisma.session.update({ where: { id }, data: {} });',
      '  await db.delete(sessions).where(eq(sessions.id, id));',
      "  await fetch(url, { method: 'DELETE' });",
      '}',
    ].join('\n');
    expect(writes(effectOf, code)).toEqual([
      'sql-delete',
      'sql-write',
      'sql-write',
      'db-delete',
      'db-write',
      'db-delete',
      'http-delete',
    ]);
  });
});

/** The ORM library each awaited call of `code` writes through, or undefined. */
function ormWrites(code: string): (string | undefined)[] {
  const rows: (string | undefined)[] = [];
  lintSnippet(code, (context) => ({
    'ExpressionStatement > AwaitExpression > CallExpression'(node: TSESTree.CallExpression) {
      const write = getWrite(node, context);
      rows.push(write?.kind === 'orm' ? write.orm : write?.kind);
    },
  }));
  return rows;
}

describe('getWrite (ORMs and query builders)', () => {
  it('knows the libraries by their newer modules: Sequelize 7, Typegoose', () => {
    expect(
      ormWrites(`import { Model } from '@sequelize/core';
async function f(id: string) {
  await Order.create({ id });
  await Order.findOne({ where: { id } });
}`),
    ).toEqual(['sequelize', undefined]);
    expect(
      ormWrites(`import { getModelForClass } from '@typegoose/typegoose';
async function f(id: string) {
  await Order.updateOne({ _id: id }, { paid: true });
}`),
    ).toEqual(['mongoose']);
  });

  it('Mongoose: a document made from a model and saved is a write; a document of another class is not', () => {
    expect(
      ormWrites(`import { Model } from 'mongoose';
class Repository<T> {
  constructor(protected MongooseModel: Model<T>) {}
  async create(data: T) {
    const doc = new this.MongooseModel(data);
    await doc.save();
    const when = new Date();
    await when.save();
  }
}`),
    ).toEqual(['mongoose', undefined]);
  });

  it('Drizzle: insert, update and delete chains; a select is no write', () => {
    expect(
      ormWrites(`import { drizzle } from 'drizzle-orm/node-postgres';
const db = drizzle(process.env.DATABASE_URL!);
async function f(id: string) {
  await db.insert(orders).values({ id });
  await db.update(orders).set({ paid: true }).where(eq(orders.id, id));
  await db.delete(orders).where(eq(orders.id, id));
  await db.select().from(orders).where(eq(orders.id, id));
}`),
    ).toEqual(['drizzle', 'drizzle', 'drizzle', undefined]);
  });

  it('Knex: table calls that write; a read is no write', () => {
    expect(
      ormWrites(`import knex from 'knex';
const db = knex({ client: 'pg' });
async function f(id: string) {
  await db('orders').insert({ id });
  await db('orders').where({ id }).update({ paid: true });
  await db('orders').where({ id }).del();
  await db('orders').where({ id }).first();
}`),
    ).toEqual(['knex', 'knex', 'knex', undefined]);
  });

  it('Kysely, TypeORM, Sequelize, Mongoose, MikroORM and pg-promise', () => {
    expect(
      ormWrites(`import { Kysely } from 'kysely';
const db = new Kysely<any>({} as any);
async function f(id: string) {
  await db.insertInto('orders').values({ id }).execute();
  await db.selectFrom('orders').selectAll().execute();
}`),
    ).toEqual(['kysely', undefined]);
    expect(
      ormWrites(`import { Repository } from 'typeorm';
class S {
  constructor(private readonly orderRepository: Repository<Order>) {}
  async f(id: string) {
    await this.orderRepository.save({ id });
    await this.orderRepository.findOne({ where: { id } });
    await this.dataSource.createQueryBuilder().update(Order).set({ paid: true }).where('id = :id', { id }).execute();
  }
}`),
    ).toEqual(['typeorm', undefined, 'typeorm']);
    expect(
      ormWrites(`import { Model } from 'sequelize';
async function f(id: string) {
  await Order.create({ id });
  await Order.findOne({ where: { id } });
  await Order.destroy({ where: { id } });
}`),
    ).toEqual(['sequelize', undefined, 'sequelize']);
    expect(
      ormWrites(`import mongoose from 'mongoose';
async function f(id: string) {
  await Order.updateOne({ _id: id }, { paid: true });
  await Order.findById(id);
}`),
    ).toEqual(['mongoose', undefined]);
    expect(
      ormWrites(`import { EntityManager } from '@mikro-orm/core';
async function f(em: EntityManager, order: object) {
  await em.persistAndFlush(order);
  await em.findOne(Order, {});
}`),
    ).toEqual(['mikro-orm', undefined]);
    expect(
      ormWrites(`import pgPromise from 'pg-promise';
const db = pgPromise()('postgres://');
async function f(id: string) {
  await db.none('UPDATE orders SET paid = true WHERE id = $1', [id]);
  await db.oneOrNone('SELECT * FROM orders WHERE id = $1', [id]);
}`),
    ).toEqual(['pg-promise', undefined]);
  });

  it("Objection: a model's query builder ended by a mutate method, whatever the model is called; a read or a SQL text is not one", () => {
    expect(
      ormWrites(`class Subscriptions {
  constructor(private readonly planSubscriptionModel: typeof PlanSubscription) {}
  async cancel(slug: string, trx) {
    const subscription = await this.planSubscriptionModel.query().findOne({ slug });
    await subscription.$query().patch({ canceledAt: new Date() });
    await this.planSubscriptionModel.query(trx).insert({ slug });
    await this.planModel().query().deleteById(1);
    await subscription.$relatedQuery('invoices').insert({ amount: 1 });
    await pool.query('DELETE FROM plans').delete();
    await list.query().update(1);
  }
}`),
    ).toEqual(['objection', 'objection', 'objection', 'objection', undefined, 'objection']);
  });

  it('names no write where no ORM is imported', () => {
    expect(
      ormWrites(`async function f(id: string) {
  await cache.save({ id });
  await Order.create({ id });
  await list.insert(1);
}`),
    ).toEqual([undefined, undefined, undefined]);
  });
});

describe("getWrite: the class's own methods", () => {
  it("reads `this.update(...)` as the class's own method when the class declares it: its body says what it writes", () => {
    const code = [
      "import { PrismaClient } from '@prisma/client';",
      "import { Knex } from 'knex';",
      'class ViewService {',
      '  constructor(private readonly prisma: PrismaClient, private readonly knex: Knex) {}',
      '  async rename(id: string, name: string) {',
      '    await this.update(id, { name });',
      '    await this.prisma.view.update({ where: { id }, data: { name } });',
      '  }',
      '  async update(id: string, data: object) {',
      '    await this.prisma.view.update({ where: { id }, data });',
      '  }',
      '}',
    ].join('\n');
    expect(writes(writeTarget, code)).toEqual([undefined, 'prisma', 'prisma']);
  });
});

describe('getWrite: Stripe objects made for a person to use', () => {
  it('names no write for a Checkout or portal session (a second one moves nothing), and a write for a charge', () => {
    const code = [
      "import Stripe from 'stripe';",
      "const stripe = new Stripe('k');",
      'async function f(customer: string) {',
      "  await stripe.checkout.sessions.create({ customer, mode: 'payment' });",
      '  await stripe.billingPortal.sessions.create({ customer });',
      '  await stripe.charges.create({ customer, amount: 100 });',
      '}',
    ].join('\n');
    expect(writes(writeTarget, code)).toEqual([undefined, undefined, 'stripe']);
  });
});
