import rule from '../../rules/no-ack-before-work.js';
import { syntaxRuleTester, typedRuleTester } from '../rule-tester.js';

syntaxRuleTester().run('no-ack-before-work', rule, {
  valid: [
    // amqplib: ack after the awaited work (the liauring shape).
    `
const amqp = require('amqplib');
const ch = await conn.createChannel();
ch.consume('saveNewOrder', async (msg) => {
  const result = await orders.insertOne(JSON.parse(msg.content.toString()));
  console.log(result);
  ch.ack(msg);
}, { noAck: false });
`,
    // Ack on the skip path, which returns before the work.
    `
const ch = await conn.createChannel();
ch.consume('q', async (msg) => {
  if (seen(msg)) { ch.ack(msg); return; }
  await pool.query('INSERT INTO t VALUES ($1)', [msg.content]);
  ch.ack(msg);
});
`,
    // Ack in one branch, work in the other.
    "const ch = await conn.createChannel(); ch.consume('q', async (msg) => { if (bad(msg)) ch.ack(msg); else await fetch(url, { method: 'POST' }); });",
    // nack / ack in catch: the error path.
    "const ch = await conn.createChannel(); ch.consume('q', async (msg) => { try { await work(msg); ch.ack(msg); } catch (e) { ch.nack(msg, false, false); await log(e); } });",
    "const ch = await conn.createChannel(); ch.consume('q', async (msg) => { try { await work(msg); } catch (e) { ch.ack(msg); await report(e); } });",
    // A noAck consumer that only logs.
    "const amqp = require('amqplib'); ch.consume('logs', (msg) => { console.log(msg.content.toString()); }, { noAck: true });",
    // kafkajs: commit after the work (the n8n / integr8 shape), commit on the early-return path.
    `
await consumer.run({
  autoCommit: false,
  eachMessage: async ({ topic, partition, message }) => {
    const run = await prisma.workflowRun.findFirst({ where: { id: message.key } });
    if (!run) {
      await consumer.commitOffsets([{ topic, partition, offset: message.offset }]);
      return;
    }
    await sendEmail(run);
    await consumer.commitOffsets([{ topic, partition, offset: message.offset }]);
  },
});
`,
    // A pagination helper of the project that bears kafkajs' name acks nothing.
    "import { Worker } from 'bullmq';\nimport { resolveOffset } from './paging';\nnew Worker('feed', async (job) => { const offset = resolveOffset(job.data.offset); await fetchFeed(offset); });",
    // eachBatch: resolveOffset after each message, then heartbeat.
    'await consumer.run({ eachBatch: async ({ batch, resolveOffset, heartbeat }) => { for (const m of batch.messages) { await handle(m); resolveOffset(m.offset); await heartbeat(); } } });',
    // Pub/Sub: ack after the awaited work, nack in catch (the tttc pipeline-worker shape).
    "subscription.on('message', async (message) => { try { await handler(message); message.ack(); } catch (e) { message.nack(); } });",
    // Pub/Sub ack in the .then of the work.
    "subscription.on('message', (message) => { processJob(message.data).then(() => message.ack()).catch(() => message.nack()); });",
    // SQS: delete after the work.
    "import { DeleteMessageCommand } from '@aws-sdk/client-sqs'; for (const m of Messages) { await handle(m); await sqs.send(new DeleteMessageCommand({ QueueUrl, ReceiptHandle: m.ReceiptHandle })); }",
    // Something else's ack(): a chat bot's deleteMessage, an unrelated ack with no message parameter.
    "async function onCommand(ctx) { await bot.deleteMessage(ctx.chat.id, ctx.message.message_id); await ctx.reply('ok'); }",
    'function f(result) { result.ack(); return fetch(url); }',
    // The helper that acks is called last.
    "const ch = await conn.createChannel(); function done(msg) { ch.ack(msg); } ch.consume('q', async (msg) => { await pool.query('UPDATE t SET n = n + 1'); done(msg); });",
  ],
  invalid: [
    {
      // The ack sits in a helper the consumer calls first: it still acks before the write.
      code: `
const ch = await conn.createChannel();
function done(msg) { ch.ack(msg); }
ch.consume('payments', async (msg) => {
  done(msg);
  await pool.query('UPDATE accounts SET credits = credits + 1 WHERE id = $1', [msg.content.toString()]);
});
`,
      errors: [{ messageId: 'ackBeforeWork', line: 5, column: 3 }],
      output: null,
    },
    {
      // amqplib: ack first, then the write.
      code: `
const ch = await conn.createChannel();
ch.consume('payments', async (msg) => {
  ch.ack(msg);
  await pool.query('UPDATE accounts SET credits = credits + 1 WHERE id = $1', [msg.content.toString()]);
});
`,
      errors: [{ messageId: 'ackBeforeWork', line: 4, column: 3 }],
      output: null,
    },
    {
      // Pub/Sub: ack right after parsing, then the job (the tttc express-server shape).
      code: `
import { PubSub } from '@google-cloud/pubsub';
this.subscription.on('message', (message) => {
  const jobData = JSON.parse(message.data.toString());
  message.ack();
  processJob(jobData).catch((error) => processJobFailure(jobData, error));
});
`,
      errors: [{ messageId: 'ackBeforeWork', line: 5, column: 3 }],
      output: null,
    },
    {
      // kafkajs: resolveOffset before the processing.
      code: 'await consumer.run({ eachBatch: async ({ batch, resolveOffset }) => { for (const m of batch.messages) { resolveOffset(m.offset); await handle(m); } } });',
      errors: [{ messageId: 'ackBeforeWork', line: 1, column: 105 }],
      output: null,
    },
    {
      // kafkajs: commitOffsets before the processing.
      code: 'await consumer.run({ autoCommit: false, eachMessage: async ({ topic, partition, message }) => { await consumer.commitOffsets([{ topic, partition, offset: message.offset }]); await sendEmail(message); } });',
      errors: [{ messageId: 'ackBeforeWork', line: 1, column: 103 }],
      output: null,
    },
    {
      // SQS: delete first, in a Lambda-free polling loop, SDK v3 and v2.
      code: `
import { DeleteMessageCommand } from '@aws-sdk/client-sqs';
for (const m of Messages) {
  await client.send(new DeleteMessageCommand({ QueueUrl, ReceiptHandle: m.ReceiptHandle }));
  await fetch(url, { method: 'POST', body: m.Body });
}
async function v2(m) {
  await sqs.deleteMessage({ QueueUrl, ReceiptHandle: m.ReceiptHandle }).promise();
  await charge(m);
}
`,
      errors: [
        { messageId: 'ackBeforeWork', line: 4, column: 9 },
        { messageId: 'ackBeforeWork', line: 8, column: 9 },
      ],
      output: null,
    },
    {
      // noAck: true with a write in the callback.
      code: `
const amqp = require('amqplib');
ch.consume('orders', async (msg) => {
  await pool.query('INSERT INTO orders (id) VALUES ($1)', [msg.content.toString()]);
}, { noAck: true });
`,
      errors: [{ messageId: 'autoAckWrite', line: 5, column: 6 }],
      output: null,
    },
    {
      // noAck: true with an email sent in the callback: lost with the message if the process dies.
      code: `
const amqp = require('amqplib');
const nodemailer = require('nodemailer');
const transporter = nodemailer.createTransport({ host: 'smtp' });
ch.consume('welcome', async (msg) => {
  await transporter.sendMail({ to: msg.content.toString(), subject: 'Welcome' });
}, { noAck: true });
`,
      errors: [{ messageId: 'autoAckWrite', line: 7, column: 6 }],
      output: null,
    },
  ],
});

typedRuleTester().run('no-ack-before-work (types)', rule, {
  valid: [
    `
import { SQSClient, DeleteMessageCommand, type Message } from '@aws-sdk/client-sqs';
const sqs = new SQSClient({});
export async function handle(m: Message, work: (m: Message) => Promise<void>) {
  await work(m);
  await sqs.send(new DeleteMessageCommand({ QueueUrl: 'q', ReceiptHandle: m.ReceiptHandle }));
}
`,
  ],
  invalid: [
    {
      code: `
import { SQSClient, DeleteMessageCommand, type Message } from '@aws-sdk/client-sqs';
const sqs = new SQSClient({});
export async function handle(m: Message, work: (m: Message) => Promise<void>) {
  await sqs.send(new DeleteMessageCommand({ QueueUrl: 'q', ReceiptHandle: m.ReceiptHandle }));
  work(m);
}
`,
      errors: [{ messageId: 'ackBeforeWork', line: 5, column: 9 }],
      output: null,
    },
  ],
});
