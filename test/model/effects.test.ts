import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';

import {
  exportKinds,
  findImportedRegistrations,
  summariseFunction,
  type ExportKind,
  type FunctionSummary,
  type ImportedRegistration,
} from '../../src/model/effects.js';
import { lintSnippet } from '../rule-tester.js';

type Collect = (program: TSESTree.Program, context: Parameters<typeof summariseFunction>[1]) => void;

function withContext(code: string, collect: Collect): void {
  lintSnippet(code, (context) => ({
    'Program:exit': (program: TSESTree.Program) => {
      collect(program, context);
    },
  }));
}

/** The summary of the function named `handle`. */
function summaryOf(code: string): FunctionSummary {
  let summary: FunctionSummary | undefined;
  withContext(code, (program, context) => {
    for (const statement of program.body) {
      const declaration = statement.type === AST_NODE_TYPES.ExportNamedDeclaration ? statement.declaration : statement;
      if (declaration?.type === AST_NODE_TYPES.FunctionDeclaration && declaration.id?.name === 'handle')
        summary = summariseFunction(declaration, context);
    }
  });
  if (!summary) throw new Error('no function handle');
  return summary;
}

/** Kinds of each `export const` / `export function`, by name. */
function kindsOf(code: string): Record<string, ExportKind[]> {
  const kinds: Record<string, ExportKind[]> = {};
  withContext(code, (program, context) => {
    for (const statement of program.body) {
      if (statement.type !== AST_NODE_TYPES.ExportNamedDeclaration) continue;
      const declaration = statement.declaration;
      if (declaration?.type === AST_NODE_TYPES.FunctionDeclaration && declaration.id)
        kinds[declaration.id.name] = exportKinds(declaration, context);
      if (declaration?.type === AST_NODE_TYPES.VariableDeclaration) {
        for (const declarator of declaration.declarations) {
          if (declarator.id.type === AST_NODE_TYPES.Identifier)
            kinds[declarator.id.name] = exportKinds(declarator.id, context);
        }
      }
    }
  });
  return kinds;
}

describe('summariseFunction', () => {
  it('follows the functions of its file to the end of every chain, recursion included', () => {
    // Ten calls down, through a pair of functions that call each other, a write and an imported call.
    const chain = Array.from(
      { length: 10 },
      (_, index) => `async function step${index}(id) { return step${index + 1}(id); }`,
    );
    const summary = summaryOf(`import { notify } from './notify';
${chain.join('\n')}
async function step10(id) { return ping(id); }
async function ping(id) { if (id > 0) return pong(id - 1); }
async function pong(id) {
  await fetch('https://api.example.com/ledger', { method: 'POST', body: String(id) });
  await notify(id);
  return ping(id);
}
export async function handle(job) { await step0(job.data.id); }`);
    expect(summary.effects).toEqual(['http-write']);
    expect(summary.calls).toEqual([{ specifier: './notify', imported: 'notify' }]);
  });

  it('calls the method of the type a value is declared as, through typed options', () => {
    const summary = summaryOf(`import { BillingService } from './billing';
import type { Mailer } from './mailer';
type Options = { billing: BillingService; mailer: Mailer; retries: number };
export async function handle(billing: BillingService, opts: Options, untyped) {
  await billing.charge('c1');
  await opts.mailer.send('a@b.c');
  await untyped.service.refund('c1');
}`);
    // Each is a slot of its declared type, which the whole-program pass resolves to the class's method.
    expect(summary.calls).toEqual([]);
    expect(summary.slots).toEqual([
      { type: { name: 'BillingService', specifier: './billing' }, path: ['charge'] },
      { type: { name: 'Mailer', specifier: './mailer' }, path: ['send'] },
    ]);
  });

  it('memoises what a durable step reaches through a recursion, and what the recursion reaches outside it stays plain', () => {
    const summary = summaryOf(`import { Resend } from 'resend';
const resend = new Resend('key');
async function mail(n) { await resend.emails.send({ to: 'a@b.c', from: 'a@b.c', subject: String(n) }); if (n > 0) return again(n - 1); }
async function again(n) { return mail(n); }
export async function handle({ step }) {
  await step.run('welcome', () => again(3));
  await fetch('https://api.example.com/audit', { method: 'POST' });
}`);
    expect(summary.effects).toEqual(['http-write']);
    expect(summary.memoised?.effects).toEqual(['mail']);
  });

  it("keeps an Upstash Workflow step apart (with the workflow's import; another \`context.run\` is plain)", () => {
    const step = `await context.run('welcome', async () => {
    await resend.emails.send({ to: 'a@b.c', from: 'a@b.c', subject: 'Hi' });
  });`;
    const workflow = summaryOf(`import { serve } from '@upstash/workflow/nextjs';
import { Resend } from 'resend';
const resend = new Resend('key');
export async function handle(context) {
  ${step}
}
export const { POST } = serve(handle);`);
    expect(workflow.effects).toEqual([]);
    expect(workflow.memoised).toEqual({ effects: ['mail'], calls: [], steps: ['context.run'] });
    const plain = summaryOf(`import { Resend } from 'resend';
const resend = new Resend('key');
export async function handle(context) {
  ${step}
}`);
    expect(plain.effects).toEqual(['mail']);
  });

  it('keeps what runs inside a durable step apart: its engine records the result and a redelivery does not run it again', () => {
    const summary = summaryOf(`import { Resend } from 'resend';
import { sendReport } from './reports';
const resend = new Resend('key');
export async function handle({ event, step, io, ctx }) {
  await step.run('welcome', async () => {
    await resend.emails.send({ to: event.data.email, from: 'a@b.c', subject: 'Hi' });
  });
  await io.runTask('report', async () => sendReport(event.data.id));
  await fetch('https://api.example.com/audit', { method: 'POST', signal: AbortSignal.timeout(5000) });
  // Restate's ctx.run needs Restate's import: this is some other ctx.
  await ctx.run('x', async () => resend.emails.send({ to: 'b@c.d', from: 'a@b.c', subject: 'Hey' }));
  // A step of two operations is retried whole: a failed second call makes the first again.
  await step.run('deploy', async () => {
    await fetch('https://deploy.example.com', { method: 'POST', signal: AbortSignal.timeout(5000) });
    await resend.emails.send({ to: 'ops@b.c', from: 'a@b.c', subject: 'Deployed' });
  });
}`);
    expect(summary.effects).toEqual(['http-write', 'mail']);
    expect(summary.memoised).toEqual({
      effects: ['mail'],
      calls: [{ specifier: './reports', imported: 'sendReport' }],
      steps: ['io.runTask', 'step.run'],
    });
    // A step is retried whole: only its last operation is made once; a failed send deploys again.
    expect(
      summaryOf(`import { Resend } from 'resend';
const resend = new Resend('key');
export async function handle({ step }) {
  await step.run('deploy', async () => {
    await fetch('https://deploy.example.com', { method: 'POST', signal: AbortSignal.timeout(5000) });
    await resend.emails.send({ to: 'ops@b.c', from: 'a@b.c', subject: 'Deployed' });
  });
}`),
    ).toEqual({
      effects: ['http-write'],
      // Where each effect is made: the call's line.
      effectLines: { 'http-write': 5 },
      protections: ['timeout'],
      calls: [],
      memoised: { effects: ['mail'], calls: [], steps: ['step.run'] },
    });
  });

  it('records calls through a property of a value of a declared type, not of an untyped one, which take the value out of a container, and which pick it by what the function was handed', () => {
    expect(
      summaryOf(`import type { Job, JobDefinition } from './jobs/types';
export async function handle(jobs: Array<Job>, definitions: Record<string, JobDefinition>, name: string, raw: any, only: JobDefinition) {
  const found = jobs.find((job) => job.name === name);
  await found.config.run(raw);
  await definitions[name].handler({ payload: raw });
  await raw.handler(raw);
  await only.cleanup();
}`).slots,
    ).toEqual([
      { type: { name: 'Job', specifier: './jobs/types' }, path: ['config', 'run'], dispatched: true },
      { type: { name: 'JobDefinition', specifier: './jobs/types' }, path: ['cleanup'] },
      { type: { name: 'JobDefinition', specifier: './jobs/types' }, path: ['handler'], dispatched: true, picked: true },
    ]);
    // `find` walks the jobs with a callback: a search, not a pick by a key; a key of the function's own is no pick either.
    expect(
      summaryOf(`import type { JobDefinition } from './jobs/types';
const DEFAULT = 'default';
export async function handle(definitions: Map<string, JobDefinition>, raw: any) {
  await definitions.get(DEFAULT).handler(raw);
}`).slots,
    ).toEqual([{ type: { name: 'JobDefinition', specifier: './jobs/types' }, path: ['handler'], dispatched: true }]);
  });

  it('counts ORM writes as database writes, whatever the library', () => {
    expect(
      summaryOf(`import { drizzle } from 'drizzle-orm/node-postgres';
const db = drizzle(process.env.DATABASE_URL!);
export async function handle(job) {
  await db.update(accounts).set({ credits: job.data.credits }).where(eq(accounts.id, job.data.accountId));
}`),
    ).toEqual({ effects: ['db-write'], effectLines: { 'db-write': 4 }, protections: [], calls: [] });
    expect(
      summaryOf(`import { Model } from 'sequelize';
export async function handle(job) {
  await Order.create({ id: job.data.orderId });
}`),
    ).toEqual({ effects: ['db-write'], effectLines: { 'db-write': 3 }, protections: [], calls: [] });
  });

  it('an ORM claim whose result is checked, and a unique violation answered by returning, are claims', () => {
    expect(
      summaryOf(`import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
export async function handle(job) {
  const { count } = await prisma.processedJob.createMany({ data: [{ jobId: job.id }], skipDuplicates: true });
  if (count === 0) return;
  await prisma.account.update({ where: { id: job.data.accountId }, data: { credits: 1 } });
}`),
    ).toEqual({ effects: ['db-write'], effectLines: { 'db-write': 6 }, protections: ['claim'], calls: [] });
    expect(
      summaryOf(`import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
export async function handle(job) {
  try {
    await prisma.processedJob.create({ data: { jobId: job.id } });
  } catch (error) {
    if (error.code === 'P2002') return;
    throw error;
  }
  await prisma.account.update({ where: { id: job.data.accountId }, data: { credits: 1 } });
}`),
    ).toEqual({ effects: ['db-write'], effectLines: { 'db-write': 5 }, protections: ['claim'], calls: [] });
  });

  it('finds SQL writes, a transaction, and follows local helpers; a checked claim is a protection, not a write', () => {
    expect(
      summaryOf(`import { Pool } from 'pg';
const pool = new Pool();
async function credit(client, job) {
  await client.query('UPDATE accounts SET credits = credits + $1 WHERE id = $2', [job.data.credits, job.data.accountId]);
}
export async function handle(job) {
  const client = await pool.connect();
  await client.query('BEGIN');
  const claim = await client.query('INSERT INTO processed_jobs (job_id) VALUES ($1) ON CONFLICT DO NOTHING', [job.id]);
  if (claim.rowCount === 0) return;
  await credit(client, job);
  await client.query('COMMIT');
}`),
    ).toEqual({
      effects: ['sql-write'],
      // Made in the local helper it calls: `credit`'s UPDATE.
      effectLines: { 'sql-write': 4 },
      protections: ['claim', 'transaction'],
      calls: [],
    });
  });

  it('treats reads as no effect', () => {
    expect(
      summaryOf(`export async function handle(job) {
  await pool.query('SELECT * FROM accounts WHERE id = $1', [job.id]);
  await fetch('https://api.test/accounts/' + job.id, { signal: AbortSignal.timeout(5000) });
}`),
    ).toEqual({ effects: [], protections: ['timeout'], calls: [] });
  });

  it('finds HTTP and Stripe writes with their keys and records calls into other modules', () => {
    expect(
      summaryOf(`import Stripe from 'stripe';
import { notify } from './notify.js';
import * as mail from './mail.js';
const stripe = new Stripe(process.env.KEY);
export async function handle(job) {
  await stripe.charges.create({ amount: 100 }, { idempotencyKey: 'charge:' + job.id });
  await fetch('https://hooks.test', { method: 'POST', headers: { 'Idempotency-Key': job.id } });
  await notify(job);
  await mail.send(job);
}`),
    ).toEqual({
      effects: ['http-write', 'stripe'],
      effectLines: { 'http-write': 7, stripe: 6 },
      protections: ['idempotency-key'],
      calls: [
        { specifier: './mail.js', imported: 'send' },
        { specifier: './notify.js', imported: 'notify' },
      ],
    });
  });
});

describe('exportKinds', () => {
  it('follows a function that hands its own parameter to itself once, not until the stack runs out', () => {
    // trigger.dev's tree-view reducer: `return reducer(state, { … })` in most of its cases.
    expect(
      kindsOf(`type State = { nodes: string[] };
export function reducer(state: State, action: { type: string }): State {
  if (action.type === 'select') return reducer(state, { type: 'deselect' });
  if (action.type === 'toggle') return reducer(reducer(state, { type: 'select' }), { type: 'deselect' });
  return state;
}`),
    ).toEqual({ reducer: [] });
  });

  it('tells pools, per-attempt helpers, bounded clients and key-header sources from look-alikes', () => {
    expect(
      kindsOf(`import { Pool } from 'pg';
import axios from 'axios';
import { randomUUID } from 'node:crypto';
export const db = new Pool();
export const poolSize = 10;
export function newKey() { return randomUUID(); }
export const stamp = () => Date.now();
export function keyFor(id: string) { return 'msg:' + id; }
export const api = axios.create({ baseURL: 'https://api.test', timeout: 5000 });
export const unbounded = axios.create({ baseURL: 'https://api.test' });
export const noTimeout = axios.create({ timeout: 0 });
export function headersFor(id: string) { return { 'Idempotency-Key': 'msg:' + id }; }
export const jsonHeaders = { 'content-type': 'application/json' };`),
    ).toEqual({
      db: ['pool'],
      poolSize: [],
      newKey: ['perAttemptFunction'],
      stamp: ['perAttemptFunction'],
      keyFor: [],
      api: ['boundedClient'],
      unbounded: [],
      noTimeout: [],
      headersFor: ['keyHeaderSource'],
      jsonHeaders: [],
    });
  });

  it('finds key headers however a factory builds them, and header-name constants', () => {
    expect(
      kindsOf(`import { v4 as uuid } from 'uuid';
const base = (token: string) => ({ authorization: token, 'X-Idempotency-Key': uuid() });
export const viaHelper = (token: string) => base(token);
export function spread(token: string) { return { ...base(token), accept: 'application/json' }; }
export function built(user?: string) { const headers: Record<string, string> = { 'Idempotency-Key': uuid() }; if (user) headers['x-user'] = user; return headers; }
export const optionSpelling = () => ({ Accept: 'application/json', 'Content-Type': 'application/json', idempotencyKey: uuid() });
export const bodyNotHeaders = (amount: number) => ({ amount, idempotencyKey: uuid() });
export const nested = { headers: { 'Idempotency-Key': 'k' } };
export const KEY_HEADER = 'Idempotency-Key';
export const TRACE_HEADER = 'x-request-id';`),
    ).toEqual({
      viaHelper: ['keyHeaderSource', 'perAttemptFunction'],
      spread: ['keyHeaderSource', 'perAttemptFunction'],
      built: ['keyHeaderSource', 'perAttemptFunction'],
      optionSpelling: ['keyHeaderSource', 'perAttemptFunction'],
      bodyNotHeaders: ['perAttemptFunction'],
      nested: ['keyHeaderSource'],
      KEY_HEADER: ['keyHeaderName'],
      TRACE_HEADER: [],
    });
  });

  it('judges got and ky instances with the request model: a timeout bounds them, none or a disabled one does not', () => {
    expect(
      kindsOf(`import got from 'got';
import ky from 'ky';
const base = got.extend({ prefixUrl: 'https://api.test' });
export const gotApi = got.extend({ timeout: { request: 5000 } });
export const gotOff = got.extend({ timeout: { request: 0 } });
export const kyApi = ky.create({ timeout: 5000 });
export const kyOff = ky.extend({ timeout: false });
export const nested = base.extend({ timeout: { request: 5000 } });
export const notAFactory = makeClient({ timeout: 5000 });`),
    ).toEqual({
      gotApi: ['boundedClient'],
      gotOff: [],
      kyApi: ['boundedClient'],
      kyOff: [],
      nested: ['boundedClient'],
      notAFactory: [],
    });
  });
});

describe('findImportedRegistrations', () => {
  it('finds BullMQ and sqs-consumer handlers imported from other modules, not inline ones', () => {
    let found: ImportedRegistration[] = [];
    withContext(
      `import { Worker } from 'bullmq';
import { Consumer } from 'sqs-consumer';
import { processTopUp, handleSqs } from './handlers.js';
import process from './default-handler.js';
new Worker('top-ups', processTopUp);
new Worker('inline', async (job) => job.id);
new Worker(QUEUE, process);
Consumer.create({ queueUrl: 'https://sqs.test/q', handleMessage: handleSqs });`,
      (program, context) => (found = findImportedRegistrations(program, context).imported),
    );
    expect(found).toEqual(
      expect.arrayContaining([
        { specifier: './handlers.js', imported: 'processTopUp', broker: 'bullmq', queue: 'top-ups', line: 5 },
        { specifier: './default-handler.js', imported: 'default', broker: 'bullmq', queue: undefined, line: 7 },
        {
          specifier: './handlers.js',
          imported: 'handleSqs',
          broker: 'sqs-consumer',
          queue: 'https://sqs.test/q',
          line: 8,
        },
      ]),
    );
    expect(found).toHaveLength(3);
  });

  it('finds a parameter of a function of the file handed to a library as it is, and no other value', () => {
    let found: { owner: string | undefined; index: number; broker: string }[] = [];
    withContext(
      `import { Kafka } from 'kafkajs';
const consumer = new Kafka({ brokers }).consumer({ groupId: 'g' });
export async function startConsumer(topic, onMessage) {
  await consumer.run({ eachMessage: onMessage });
}
export async function notHanded(onMessage) {
  await consumer.run({ eachMessage: async (payload) => log(payload) });
}
export async function reassigned(onMessage) {
  onMessage = wrap(onMessage);
  await consumer.run({ eachMessage: onMessage });
}`,
      (program, context) =>
        (found = findImportedRegistrations(program, context).handedOn.map(({ owner, index, broker }) => ({
          owner: owner.type === AST_NODE_TYPES.FunctionDeclaration ? owner.id?.name : undefined,
          index,
          broker,
        }))),
    );
    expect(found).toEqual([{ owner: 'startConsumer', index: 1, broker: 'kafkajs' }]);
  });
});
