import type { TSESTree } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';

import { ackedOnSettle, autoAckedWrite, getAck, workAfterAck } from '../../src/model/handler/ack.js';
import { findConsumerHandlers } from '../../src/model/handler/consumer-handler.js';
import { lintSnippet } from '../rule-tester.js';

interface Row {
  kind: string;
  line: number;
  work: number | undefined;
}

/** Every ack in `code` with the line of the work that follows it. */
function acksIn(code: string): Row[] {
  const rows: Row[] = [];
  lintSnippet(code, (context) => ({
    CallExpression(node: TSESTree.CallExpression) {
      const ack = getAck(node, context);
      if (ack)
        rows.push({ kind: ack.kind, line: node.loc.start.line, work: workAfterAck(ack, context)?.work.loc.start.line });
    },
  }));
  return rows;
}

describe('getAck and workAfterAck', () => {
  it('finds each broker ack and the work after it', () => {
    expect(
      acksIn(`
const ch = await conn.createChannel();
ch.consume('q', async (msg) => {
  ch.ack(msg);
  await save(msg);
});
subscription.on('message', (message) => {
  message.ack();
  console.log('acked');
});
await consumer.run({ eachBatch: async ({ batch, resolveOffset, heartbeat }) => {
  for (const m of batch.messages) {
    await handle(m);
    resolveOffset(m.offset);
    await heartbeat();
  }
} });
await sqs.send(new DeleteMessageCommand({ QueueUrl, ReceiptHandle }));
await fetch(url, { method: 'POST' });
`),
    ).toEqual([
      { kind: 'amqplib', line: 4, work: 5 },
      { kind: 'pubsub', line: 8, work: undefined },
      { kind: 'kafkajs', line: 14, work: undefined },
      { kind: 'sqs', line: 18, work: 19 },
    ]);
  });

  it('ignores look-alikes', () => {
    expect(
      acksIn(
        `res.ack(); socket.ack; function f(result) { result.ack(); } bot.deleteMessage(chatId, id); emitter.send(payload);`,
      ),
    ).toEqual([]);
  });

  it('follows exits, catches and exclusive branches', () => {
    expect(
      acksIn(`
const ch = await conn.createChannel();
ch.consume('q', async (msg) => {
  if (dup(msg)) { ch.ack(msg); return; }
  await save(msg);
});
ch.consume('q', async (msg) => { try { await save(msg); ch.ack(msg); } catch (e) { ch.ack(msg); await report(e); } });
ch.consume('q', async (msg) => { if (bad(msg)) ch.ack(msg); else await save(msg); });
`),
    ).toEqual([
      { kind: 'amqplib', line: 4, work: undefined },
      { kind: 'amqplib', line: 7, work: undefined },
      { kind: 'amqplib', line: 7, work: undefined },
      { kind: 'amqplib', line: 8, work: undefined },
    ]);
  });
});

describe('ackedOnSettle and autoAckedWrite', () => {
  it('tells which handlers the broker considers done when they settle', () => {
    const rows: [string, boolean, string | undefined][] = [];
    lintSnippet(
      `
import { Worker } from 'bullmq';
const Queue = require('bull');
const queue = new Queue('q');
new Worker('a', async (job) => {});
queue.process(function (job, done) { done(); });
export async function generic(job) {}
const ch = await conn.createChannel();
ch.consume('b', async (msg) => { await save(msg); ch.ack(msg); });
ch.consume('c', async (msg) => { await pool.query('DELETE FROM t WHERE id = $1', [msg.content]); }, { noAck: true });
ch.consume('d', (msg) => { console.log(msg); }, { noAck: true });
`,
      (context) => ({
        Program(program: TSESTree.Program) {
          for (const handler of findConsumerHandlers(program, context)) {
            rows.push([handler.broker, ackedOnSettle(handler, context), autoAckedWrite(handler, context)?.what]);
          }
        },
      }),
    );
    expect(rows).toEqual([
      ['bullmq', true, undefined],
      ['bull', false, undefined],
      ['generic', false, undefined],
      ['amqplib', true, undefined],
      ['amqplib', false, 'sql'],
      ['amqplib', false, undefined],
    ]);
  });
});
