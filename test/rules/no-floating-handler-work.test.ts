import rule from '../../rules/no-floating-handler-work.js';
import { syntaxRuleTester, typedRuleTester } from '../rule-tester.js';

syntaxRuleTester().run('no-floating-handler-work', rule, {
  valid: [
    // Not async and returning nothing, it throws on every path, whatever its annotation says: no promise floats.
    `
import { Worker } from 'bullmq';
function handleError(error: unknown): Promise<void> {
  throw new Error(String(error));
}
new Worker('q', async (job) => {
  try {
    await fetch('https://pay.example.com/charges', { method: 'POST', body: job.id, signal: AbortSignal.timeout(5000) });
  } catch (error) {
    handleError(error);
  }
});
`,
    // A Matrix application service answers the homeserver's transaction before its callbacks
    // settle: awaiting the work in \`onEvent\` would not hold the answer back.
    `
import { Bridge } from 'matrix-appservice-bridge';
new Bridge({
  controller: {
    onEvent: (request) => {
      bridgeMessage(request.getData()).catch((error) => console.error(error));
    },
  },
});
async function bridgeMessage(event: unknown) { await fetch('https://slack.example.com/post', { method: 'POST', body: JSON.stringify(event), signal: AbortSignal.timeout(5000) }); }
`,
    // A memoised initialiser keeps its one promise in the module for every caller: no delivery owns it.
    `
import { Worker } from 'bullmq';
let initPromise: Promise<void> | null = null;
async function initializeFlags(): Promise<void> {
  if (initPromise) return initPromise;
  initPromise = loadFlags();
  return initPromise;
}
async function loadFlags() { await fetch('https://flags.example.com', { signal: AbortSignal.timeout(3000) }); }
new Worker('q', async (job) => {
  void initializeFlags();
  await fetch(job.data.url, { signal: AbortSignal.timeout(3000) });
});
`,
    // A BullMQ processor that awaits everything (the seed's shape).
    `
import { Worker } from 'bullmq';
new Worker('payments', async (job) => {
  const res = await fetch('https://api.example-payments.test/v1/charges', { method: 'POST', signal: AbortSignal.timeout(10_000) });
  await pool.query('UPDATE jobs SET done = true WHERE id = $1', [job.id]);
  return res.json();
});
`,
    // Returned work is awaited by the broker.
    "import { Worker } from 'bullmq'; new Worker('q', (job) => fetch(job.data.url));",
    "import { Worker } from 'bullmq'; new Worker('q', (job) => { return Promise.all([fetch(a), fetch(b)]); });",
    // Promise.all over map, awaited; and a promise kept in a variable and awaited later.
    'await consumer.run({ eachBatch: async ({ batch }) => { await Promise.all(batch.messages.map(async (m) => send(m))); } });',
    "async function send(m) {} await consumer.run({ eachMessage: async ({ message }) => { const p = send(message); log('sent'); await p; } });",
    // for...of with await.
    "import { Consumer } from 'sqs-consumer'; async function save(m) {} Consumer.create({ queueUrl, handleMessageBatch: async (messages) => { for (const m of messages) await save(m); } });",
    // A Lambda SQS handler that awaits each record (aws-samples shape).
    `
export const handler = async (event: SQSEvent) => {
  for (const record of event.Records) {
    await processMessageAsync(record);
  }
};
async function processMessageAsync(record) { await fetch(record.body); }
`,
    // Synchronous calls in a handler are not work to wait for.
    "import { Worker } from 'bullmq'; new Worker('q', async (job) => { console.log(job.id); job.updateProgress; client.release(); });",
    // Unknown calls: nothing says they return a promise.
    "import { Worker } from 'bullmq'; new Worker('q', async (job) => { metrics.increment('jobs'); emitter.emit('done', job.id); });",
    // Floating work outside any handler is @typescript-eslint/no-floating-promises' business.
    'async function main() { fetch(url); }',
    "export function format(job) { fetch('https://example.test'); }",
    // Generic handlers (an exported function with a job parameter) are too weak a signal here.
    'export async function applyTopUp(job) { fetch(job.url); }',
    // A timer callback runs on its own schedule.
    "import { Worker } from 'bullmq'; new Worker('q', async (job) => { setTimeout(() => { fetch(url); }, 10); });",
    // Callback-style Bull processor and Lambda: they finish on their callback.
    "const Queue = require('bull'); const q = new Queue('v'); q.process(function (job, done) { fetch(job.data.url).then(() => done()); });",
    'exports.handler = function (event, context, callback) { for (const r of event.Records) fetch(r.body).then(() => callback()); };',
    // amqplib with automatic acks (or no ack in the callback): the return value is ignored anyway.
    "const amqp = require('amqplib'); ch.consume('q', async (msg) => { fetch(url); }, { noAck: true });",
    // amqplib acking after the awaited work.
    "const amqp = require('amqplib'); ch.consume('q', async (msg) => { await fetch(url, { method: 'POST' }); ch.ack(msg); });",
    // void is allowed when the option says so.
    {
      code: "import { Worker } from 'bullmq'; new Worker('q', async (job) => { void fetch(job.data.url); });",
      options: [{ ignoreVoid: true }],
    },
    // A POST route that is not a delivery endpoint (analytics, a form): not a webhook.
    "import express from 'express'; const app = express(); async function store(d) {} app.post('/api/search/analytics', async (req, res) => { store(req.body).catch(() => {}); res.end(); });",
    // A webhook that answers from inside the chain answers only after the work (the Mollie example).
    "import express from 'express'; const app = express(); app.post('/webhook', (req, res) => { fetch(url).then((r) => res.send(r.status)).catch(() => res.sendStatus(500)); });",
    // A GET route is not a webhook.
    "import express from 'express'; const app = express(); app.get('/x', async (req, res) => { fetch(url); res.end(); });",
    // A helper nothing on the delivery path calls is not on it.
    "import { Worker } from 'bullmq'; async function send() {} async function cron() { send(); } new Worker('q', async (job) => { await job.updateProgress(1); });",
    // An exported helper no delivery is known to wait for.
    {
      code: 'async function send(id) {} export async function notify(id) { send(id); }',
      filename: 'src/notify.ts',
      settings: { idempotency: { deliveryFunctions: [{ from: './other.js', name: 'notify' }] } },
    },
    // An imported function nothing says is async may return nothing to wait for.
    {
      code: "import { Worker } from 'bullmq'; import { record } from './record.js'; new Worker('q', async (job) => { record(job.data); });",
      settings: { idempotency: { asyncFunctions: [{ from: './other.js', name: 'record' }] } },
    },
    // WebSocket messages are not Pub/Sub messages.
    "ws.on('message', async (data) => { fetch(url); });",
    // An async forEach callback that waits for nothing runs to its end inline.
    "import { Worker } from 'bullmq'; new Worker('q', async (job) => { const ids = []; job.data.files.forEach(async (f) => { ids.push(f.id); }); await remove(ids); });",
    // amqplib: the chain acks once the work settles, so the broker keeps the message until then.
    "const amqp = require('amqplib'); ch.consume('q', (msg) => { handle(msg).catch((e) => log(e)).finally(() => ch.ack(msg)); });",
    "const amqp = require('amqplib'); async function handle(m) {} ch.consume('q', (msg) => { handle(msg).then(() => ch.ack(msg), () => ch.nack(msg)); });",
  ],
  invalid: [
    {
      // Not async, but annotated to return a promise it does return: that work floats.
      code: `
import { Worker } from 'bullmq';
function report(error: unknown): Promise<void> {
  return fetch('https://alerts.example.com', { method: 'POST', body: String(error), signal: AbortSignal.timeout(5000) }).then(() => undefined);
}
new Worker('q', async (job) => {
  try {
    await fetch('https://pay.example.com/charges', { method: 'POST', body: job.id, signal: AbortSignal.timeout(5000) });
  } catch (error) {
    report(error);
  }
});
`,
      errors: [
        {
          messageId: 'floatingWork',
          line: 10,
          suggestions: [
            {
              messageId: 'addAwait',
              output: `
import { Worker } from 'bullmq';
function report(error: unknown): Promise<void> {
  return fetch('https://alerts.example.com', { method: 'POST', body: String(error), signal: AbortSignal.timeout(5000) }).then(() => undefined);
}
new Worker('q', async (job) => {
  try {
    await fetch('https://pay.example.com/charges', { method: 'POST', body: job.id, signal: AbortSignal.timeout(5000) });
  } catch (error) {
    await report(error);
  }
});
`,
            },
          ],
        },
      ],
    },
    {
      // It keeps a promise in the module, but hands each caller a new one: that work is this delivery's.
      code: `
import { Worker } from 'bullmq';
let last: Promise<void> | null = null;
async function record(id: string): Promise<void> {
  last = fetch('https://audit.example.com/' + id, { method: 'POST' }).then(() => undefined);
  return fetch('https://audit.example.com/seen/' + id, { method: 'POST' }).then(() => undefined);
}
new Worker('q', async (job) => {
  void record(job.id);
});
`,
      errors: [
        {
          messageId: 'voidedWork',
          line: 9,
          suggestions: [
            {
              messageId: 'addAwait',
              output: `
import { Worker } from 'bullmq';
let last: Promise<void> | null = null;
async function record(id: string): Promise<void> {
  last = fetch('https://audit.example.com/' + id, { method: 'POST' }).then(() => undefined);
  return fetch('https://audit.example.com/seen/' + id, { method: 'POST' }).then(() => undefined);
}
new Worker('q', async (job) => {
  await record(job.id);
});
`,
            },
          ],
        },
      ],
      output: null,
    },
    {
      // Four calls down the delivery path, through a recursion: the path has no depth.
      code: `
import { Worker } from 'bullmq';
async function send() {}
async function c(n) { if (n > 0) return a(n - 1); send(); }
async function b(n) { await c(n); }
async function a(n) { await b(n); }
new Worker('q', async (job) => { await a(job.data.n); });
`,
      errors: [
        {
          messageId: 'floatingWork',
          line: 4,
          column: 51,
          suggestions: [
            {
              messageId: 'addAwait',
              output: `
import { Worker } from 'bullmq';
async function send() {}
async function c(n) { if (n > 0) return a(n - 1); await send(); }
async function b(n) { await c(n); }
async function a(n) { await b(n); }
new Worker('q', async (job) => { await a(job.data.n); });
`,
            },
          ],
        },
      ],
    },
    {
      // A function the processor picks from a table by the job's type runs per delivery: its floating send is this delivery's.
      code: `
import PgBoss from 'pg-boss';
const boss = new PgBoss(url);
async function sendReminder(to) {}
const reminder = async (job) => {
  sendReminder(job.data.to);
};
const handlers = { reminder };
await boss.work('bookings', async (job) => {
  const handler = handlers[job.data.eventType];
  await handler(job);
});
`,
      errors: [
        {
          messageId: 'floatingWork',
          line: 6,
          suggestions: [
            {
              messageId: 'addAwait',
              output: `
import PgBoss from 'pg-boss';
const boss = new PgBoss(url);
async function sendReminder(to) {}
const reminder = async (job) => {
  await sendReminder(job.data.to);
};
const handlers = { reminder };
await boss.work('bookings', async (job) => {
  const handler = handlers[job.data.eventType];
  await handler(job);
});
`,
            },
          ],
        },
      ],
    },
    {
      // Two calls down the delivery path: the processor awaits a helper, whose helper drops the write.
      code: `
import { Worker } from 'bullmq';
async function sendReceipt(orderId) {}
async function notify(orderId) { sendReceipt(orderId); }
async function settle(job) { await notify(job.data.orderId); }
new Worker('emails', async (job) => {
  await settle(job);
});
`,
      errors: [
        {
          messageId: 'floatingWork',
          line: 4,
          column: 34,
          suggestions: [
            {
              messageId: 'addAwait',
              output: `
import { Worker } from 'bullmq';
async function sendReceipt(orderId) {}
async function notify(orderId) { await sendReceipt(orderId); }
async function settle(job) { await notify(job.data.orderId); }
new Worker('emails', async (job) => {
  await settle(job);
});
`,
            },
          ],
        },
      ],
    },
    {
      // A fire-and-forget call in a BullMQ processor.
      code: `
import { Worker } from 'bullmq';
async function sendReceipt(orderId) {}
new Worker('emails', async (job) => {
  sendReceipt(job.data.orderId);
});
`,
      errors: [
        {
          messageId: 'floatingWork',
          line: 5,
          column: 3,
          suggestions: [
            {
              messageId: 'addAwait',
              output: `
import { Worker } from 'bullmq';
async function sendReceipt(orderId) {}
new Worker('emails', async (job) => {
  await sendReceipt(job.data.orderId);
});
`,
            },
          ],
        },
      ],
      output: null,
    },
    {
      // kafkajs: forEach with an async callback.
      code: 'await consumer.run({ eachBatch: async ({ batch }) => { batch.messages.forEach(async (m) => { await save(m); }); } });',
      errors: [
        {
          messageId: 'asyncCallback',
          line: 1,
          column: 56,
          suggestions: [
            {
              messageId: 'awaitAll',
              output:
                'await consumer.run({ eachBatch: async ({ batch }) => { await Promise.all(batch.messages.map(async (m) => { await save(m); })); } });',
            },
          ],
        },
      ],
      output: null,
    },
    {
      // map(async) whose promises nobody collects.
      code: "import { Consumer } from 'sqs-consumer'; Consumer.create({ queueUrl, handleMessageBatch: async (messages) => { messages.map(async (m) => save(m)); } });",
      errors: [
        {
          messageId: 'asyncCallback',
          line: 1,
          column: 112,
          suggestions: [
            {
              messageId: 'awaitAll',
              output:
                "import { Consumer } from 'sqs-consumer'; Consumer.create({ queueUrl, handleMessageBatch: async (messages) => { await Promise.all(messages.map(async (m) => save(m))); } });",
            },
          ],
        },
      ],
      output: null,
    },
    {
      // A Lambda SQS handler whose .then chain is not returned.
      code: 'export const handler = async (event: SQSEvent) => { for (const r of event.Records) { fetch(r.body).then((res) => res.json()); } };',
      errors: [
        {
          messageId: 'floatingWork',
          line: 1,
          column: 86,
          suggestions: [
            {
              messageId: 'addAwait',
              output:
                'export const handler = async (event: SQSEvent) => { for (const r of event.Records) { await fetch(r.body).then((res) => res.json()); } };',
            },
          ],
        },
      ],
      output: null,
    },
    {
      // void is still lost work by default.
      code: "import { Worker } from 'bullmq'; new Worker('q', async (job) => { void fetch(job.data.url, { method: 'POST' }); });",
      errors: [
        {
          messageId: 'voidedWork',
          line: 1,
          column: 72,
          suggestions: [
            {
              messageId: 'addAwait',
              output:
                "import { Worker } from 'bullmq'; new Worker('q', async (job) => { await fetch(job.data.url, { method: 'POST' }); });",
            },
          ],
        },
      ],
      output: null,
    },
    {
      // A webhook route that answers first and enqueues without waiting.
      code: `
import express from 'express';
import { Queue } from 'bullmq';
const app = express();
const indexQueue = new Queue('index');
app.post('/webhooks/github', async (req, res) => {
  res.status(202).end();
  indexQueue.add('index.run', { sha: req.body.after });
});
`,
      errors: [
        {
          messageId: 'floatingWork',
          line: 8,
          column: 3,
          suggestions: [
            {
              messageId: 'addAwait',
              output: `
import express from 'express';
import { Queue } from 'bullmq';
const app = express();
const indexQueue = new Queue('index');
app.post('/webhooks/github', async (req, res) => {
  res.status(202).end();
  await indexQueue.add('index.run', { sha: req.body.after });
});
`,
            },
          ],
        },
      ],
      output: null,
    },
    {
      // Pub/Sub: acks, then starts the job without waiting (the tttc shape), inside a sync callback: no suggestion.
      code: `
import { PubSub } from '@google-cloud/pubsub';
async function processJob(data) {}
subscription.on('message', (message) => {
  message.ack();
  processJob(JSON.parse(message.data.toString())).catch((error) => log(error));
});
`,
      errors: [{ messageId: 'floatingWork', line: 6, column: 3, suggestions: [] }],
      output: null,
    },
    {
      // A webhook factory's callback, and a Next.js route handler in a webhook route file.
      code: `
import { Queue } from 'bullmq';
const indexQueue = new Queue('index');
const onGitHub = makeGitHubWebhookHandler({ secret, onPush: async (push) => { indexQueue.add('index.run', { sha: push.sha }); } });
export async function POST(request: Request) { indexQueue.add('index.run', await request.json()); return new Response(null, { status: 202 }); }
`,
      filename: 'app/api/webhooks/github/route.ts',
      errors: [
        {
          messageId: 'floatingWork',
          line: 4,
          column: 79,
          suggestions: [
            {
              messageId: 'addAwait',
              output: `
import { Queue } from 'bullmq';
const indexQueue = new Queue('index');
const onGitHub = makeGitHubWebhookHandler({ secret, onPush: async (push) => { await indexQueue.add('index.run', { sha: push.sha }); } });
export async function POST(request: Request) { indexQueue.add('index.run', await request.json()); return new Response(null, { status: 202 }); }
`,
            },
          ],
        },
        {
          messageId: 'floatingWork',
          line: 5,
          column: 48,
          suggestions: [
            {
              messageId: 'addAwait',
              output: `
import { Queue } from 'bullmq';
const indexQueue = new Queue('index');
const onGitHub = makeGitHubWebhookHandler({ secret, onPush: async (push) => { indexQueue.add('index.run', { sha: push.sha }); } });
export async function POST(request: Request) { await indexQueue.add('index.run', await request.json()); return new Response(null, { status: 202 }); }
`,
            },
          ],
        },
      ],
      output: null,
    },
    {
      // A forEach callback that returns the promise drops it too; an unread variable as well.
      code: 'await consumer.run({ eachMessage: async ({ message }) => { ids.forEach((id) => fetch(id)); const p = fetch(url); } });',
      errors: [
        { messageId: 'floatingWork', line: 1, column: 80, suggestions: [] },
        { messageId: 'floatingWork', line: 1, column: 102, suggestions: [] },
      ],
      output: null,
    },
    {
      // An async function another module exports (idempotency-check lists them), dropped in a webhook.
      code: "import express from 'express'; import { processData } from './process.js'; const app = express(); app.post('/webhook/fitbit', async (req, res) => { processData(req.body); res.sendStatus(200); });",
      settings: { idempotency: { asyncFunctions: [{ from: './process.js', name: 'processData' }] } },
      errors: [
        {
          messageId: 'floatingWork',
          line: 1,
          column: 149,
          suggestions: [
            {
              messageId: 'addAwait',
              output:
                "import express from 'express'; import { processData } from './process.js'; const app = express(); app.post('/webhook/fitbit', async (req, res) => { await processData(req.body); res.sendStatus(200); });",
            },
          ],
        },
      ],
      output: null,
    },
    {
      // A function a delivery in another module waits for (idempotency-check says which).
      code: 'async function send(id) {} export async function notify(id) { send(id); } export async function nightly(id) { send(id); }',
      filename: 'src/notify.ts',
      settings: { idempotency: { deliveryFunctions: [{ from: './notify.js', name: 'notify' }] } },
      errors: [
        {
          messageId: 'floatingWork',
          line: 1,
          column: 63,
          suggestions: [
            {
              messageId: 'addAwait',
              output:
                'async function send(id) {} export async function notify(id) { await send(id); } export async function nightly(id) { send(id); }',
            },
          ],
        },
      ],
      output: null,
    },
    {
      // An async forEach callback without an await: its own dropped request floats.
      code: "import { Worker } from 'bullmq'; new Worker('q', async (job) => { job.data.urls.forEach(async (u) => { fetch(u, { method: 'POST' }); }); });",
      errors: [
        {
          messageId: 'floatingWork',
          line: 1,
          column: 104,
          suggestions: [
            {
              messageId: 'addAwait',
              output:
                "import { Worker } from 'bullmq'; new Worker('q', async (job) => { job.data.urls.forEach(async (u) => { await fetch(u, { method: 'POST' }); }); });",
            },
          ],
        },
      ],
      output: null,
    },
    {
      // amqplib: acked first, the chain that runs after the ack is still floating.
      code: "const amqp = require('amqplib'); async function handle(m) {} ch.consume('q', (msg) => { ch.ack(msg); handle(msg).catch((e) => log(e)); });",
      errors: [{ messageId: 'floatingWork', line: 1, column: 102, suggestions: [] }],
      output: null,
    },
  ],
});

typedRuleTester().run('no-floating-handler-work (types)', rule, {
  valid: [
    // A method the checker knows is synchronous, whatever its name.
    `
import { Worker, type Job } from 'bullmq';
const queue = { add(name: string, data: object): number { return 1; } };
new Worker('q', async (job: Job) => { queue.add('next', job.data); });
`,
  ],
  invalid: [
    {
      // An imported async function only the checker can see through.
      code: `
import { Worker, Queue, type Job } from 'bullmq';
const next = new Queue('next');
const enqueue = (job: Job) => next.add('step', job.data);
new Worker('q', async (job: Job) => {
  enqueue(job);
});
`,
      errors: [
        {
          messageId: 'floatingWork',
          line: 6,
          column: 3,
          suggestions: [
            {
              messageId: 'addAwait',
              output: `
import { Worker, Queue, type Job } from 'bullmq';
const next = new Queue('next');
const enqueue = (job: Job) => next.add('step', job.data);
new Worker('q', async (job: Job) => {
  await enqueue(job);
});
`,
            },
          ],
        },
      ],
      output: null,
    },
  ],
});
