import type { TSESTree } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';

import {
  isIdempotencyHeaderName,
  isIdempotencyOptionName,
  keySinksAt,
  mayHoldIdempotencyKey,
} from '../../src/model/keys/sinks.js';
import { lintSnippet } from '../rule-tester.js';

/** Every key sink in `code`, as `line kind name=value`. */
function sinksIn(code: string): string[] {
  const found: string[] = [];
  lintSnippet(code, (context) => {
    const ask = (node: TSESTree.Property | TSESTree.AssignmentExpression | TSESTree.CallExpression): void => {
      for (const sink of keySinksAt(node, context)) {
        expect(sink.node).toBe(node);
        found.push(`${node.loc.start.line} ${sink.kind} ${sink.name}=${context.sourceCode.getText(sink.value)}`);
      }
    };
    return { Property: ask, AssignmentExpression: ask, CallExpression: ask };
  });
  return found;
}

describe('names', () => {
  it('isIdempotencyHeaderName', () => {
    expect(
      [
        'Idempotency-Key',
        'idempotency-key',
        'X-Idempotency-Key',
        'PayPal-Request-Id',
        'X-Request-Id',
        'Idempotency-Replayed',
        'idempotencyKey',
      ].map(isIdempotencyHeaderName),
    ).toEqual([true, true, true, true, false, false, false]);
  });

  it('isIdempotencyOptionName', () => {
    expect(
      [
        'idempotencyKey',
        'idempotency_key',
        'IdempotencyKey',
        'paypalRequestId',
        'Idempotency-Key',
        'key',
        'jobId',
        'requestId',
      ].map(isIdempotencyOptionName),
      // A field spelled like the header is a key too (`{ 'Idempotency-Key': id }` in an SDK's options).
    ).toEqual([true, true, true, true, true, false, false, false]);
  });
});

describe('mayHoldIdempotencyKey', () => {
  const holds = (code: string, settings?: Record<string, unknown>): boolean => {
    let answer: boolean | undefined;
    lintSnippet(
      code,
      (context) => {
        answer = mayHoldIdempotencyKey(context);
        return {};
      },
      settings ? { settings: { idempotency: settings } } : {},
    );
    return answer ?? false;
  };

  it('is true wherever a sink name is spelled, in any case, and with a key-header source from another module', () => {
    for (const name of [
      'Idempotency-Key',
      'x-idempotency-key',
      'PAYPAL-REQUEST-ID',
      'idempotencyKey',
      'idempotency_key',
      'IdempotencyKey',
      'paypalRequestId',
      'MessageDeduplicationId',
      'jobId',
      'deduplication',
      'debounce',
    ]) {
      expect(holds(`const options = { ['${name}']: id };`), name).toBe(true);
    }
    expect(
      holds('await fetch(url, { method: "POST", headers: buildHeaders() });', {
        keyHeaderSources: [{ from: './headers', name: 'buildHeaders' }],
      }),
    ).toBe(true);
  });

  it('is false for a file that spells none, so the key rules skip it', () => {
    expect(holds('await fetch(url, { method: "POST", headers: { "X-Request-Key": id }, body });')).toBe(false);
  });
});

describe('keySinksAt: headers', () => {
  it('finds header writes in literals, Headers, set/append and member assignments', () => {
    expect(
      sinksIn(`
fetch(url, { method: 'POST', headers: { 'Idempotency-Key': job.id } });
const headers = new Headers({ 'x-idempotency-key': key });
headers.set('Idempotency-Key', key);
headers.append('PayPal-Request-Id', id);
req.setHeader('Idempotency-Key', key);
function makeHeaders(job) { return { 'Idempotency-Key': job.id, Authorization: token }; }
axios.defaults.headers.common['Idempotency-Key'] = key;
api.interceptors.request.use((config) => { config.headers['Idempotency-Key'] = key; return config; });
`),
    ).toEqual([
      '2 header Idempotency-Key=job.id',
      '3 header x-idempotency-key=key',
      '4 header Idempotency-Key=key',
      '5 header PayPal-Request-Id=id',
      '6 header Idempotency-Key=key',
      '7 header Idempotency-Key=job.id',
      '8 header Idempotency-Key=key',
      '9 header Idempotency-Key=key',
    ]);
  });

  it('finds the token spellings, Checkout.com and header-name constants from other modules', () => {
    expect(
      sinksIn(`
import { IDEMPOTENCY_HEADER } from './constants';
fetch(url, { method: 'POST', headers: { 'Idempotency-Token': key, 'Cko-Idempotency-Key': key } });
fetch(url, { method: 'POST', headers: { [IDEMPOTENCY_HEADER]: key } });
headers.set(IDEMPOTENCY_HEADER, key);
config.headers[IDEMPOTENCY_HEADER] = key;
`),
    ).toEqual([
      '3 header Idempotency-Token=key',
      '3 header Cko-Idempotency-Key=key',
      '4 header Idempotency-Key=key',
      '5 header Idempotency-Key=key',
      '6 header Idempotency-Key=key',
    ]);
  });

  it('ignores reads, other headers and non-static names', () => {
    expect(
      sinksIn(`
const key = req.headers['idempotency-key'];
const { 'idempotency-key': fromHeader } = req.headers;
headers.get('Idempotency-Key');
headers.set('X-Request-Id', crypto.randomUUID());
headers.set(name, key);
fetch(url, { headers: { 'x-correlation-id': id, [dynamic]: key } });
type H = { 'Idempotency-Key': string };
`),
    ).toEqual([]);
  });
});

describe('keySinksAt: SDK options', () => {
  it('finds idempotencyKey on objects handed to calls', () => {
    expect(
      sinksIn(`
await stripe.charges.create({ amount }, { idempotencyKey: job.id });
await client.paymentsApi.createPayment({ sourceId, idempotencyKey: randomUUID(), amountMoney });
const payload = { idempotency_key: key, amount };
await circle.createPayment(payload);
fetch(url, { method: 'POST', body: JSON.stringify({ idempotency_key: key }) });
params.idempotencyKey = key;
`),
    ).toEqual([
      '2 sdk-option idempotencyKey=job.id',
      '3 sdk-option idempotencyKey=randomUUID()',
      '4 sdk-option idempotency_key=key',
      '6 sdk-option idempotency_key=key',
      '7 sdk-option idempotencyKey=key',
    ]);
  });

  it('finds AWS client tokens, idempotencyToken and the key of an object a builder returns', () => {
    expect(
      sinksIn(`
await ec2.send(new RunInstancesCommand({ ImageId, ClientToken: key }));
await sfn.send(new StartExecutionCommand({ ClientRequestToken: key }));
await acm.requestCertificate({ DomainName, IdempotencyToken: key });
export function buildPayment(amount) { return { amount, idempotencyKey: key }; }
const toBody = (amount) => ({ amount, idempotencyToken: key });
`),
    ).toEqual([
      '2 sdk-option ClientToken=key',
      '3 sdk-option ClientRequestToken=key',
      '4 sdk-option IdempotencyToken=key',
      '5 sdk-option idempotencyKey=key',
      '6 sdk-option idempotencyToken=key',
    ]);
  });

  it('finds PayPal paypalRequestId and a key one level down in data, body, params or payload', () => {
    expect(
      sinksIn(`
await ordersController.createOrder({ body, paypalRequestId: randomUUID() });
await this.mercury.createTransaction({ $, accountId, data: { recipientId, amount, idempotencyKey } });
await client.transfers.send({ body: { idempotency_key: key } });
await sdk.pay({ params: { idempotencyKey: key } }, { payload: { IdempotencyKey: key } });
`),
    ).toEqual([
      '2 sdk-option paypalRequestId=randomUUID()',
      '3 sdk-option idempotencyKey=idempotencyKey',
      '4 sdk-option idempotency_key=key',
      '5 sdk-option idempotencyKey=key',
      '5 sdk-option IdempotencyKey=key',
    ]);
  });

  it('ignores nested keys in row writes, other fields, deeper levels and logs', () => {
    expect(
      sinksIn(`
await prisma.payment.create({ data: { idempotencyKey: key } });
await db.transfer.update({ where: { id }, data: { idempotencyKey: key } });
await prisma.payment.upsert({ where: { id }, create: { idempotencyKey: key }, update: {} });
await stripe.paymentIntents.create({ amount, metadata: { idempotencyKey: key } });
await sdk.call({ data: { meta: { idempotencyKey: key } } });
logger.info('charging', { data: { idempotencyKey: key } });
const row = { data: { idempotencyKey: key } };
`),
    ).toEqual([]);
  });

  it('ignores reads, logs, responses, nested rows and instance state', () => {
    expect(
      sinksIn(`
const k = options.idempotencyKey;
const { idempotencyKey } = options;
console.log({ idempotencyKey: key });
logger.info({ idempotencyKey: key }, 'charging');
res.json({ idempotencyKey: key });
await prisma.payment.create({ data: { idempotencyKey: key } });
const unused = { idempotencyKey: key };
this.idempotencyKey = randomUUID();
`),
    ).toEqual([]);
  });
});

describe('keySinksAt: BullMQ and SQS', () => {
  it('finds jobId and deduplication.id in add options, addBulk and flows', () => {
    expect(
      sinksIn(`
await emails.add('send-receipt', { orderId: order.id }, { jobId: \`send-receipt:\${order.id}\` });
const opts = { jobId: job.id, deduplication: { id: job.id } };
await queue.add('name', data, opts);
await queue.addBulk([{ name: 'a', data, opts: { jobId: id } }]);
await flow.add({ name: 'parent', queueName: 'q', data, opts: { jobId: id } });
`),
    ).toEqual([
      '2 bullmq-job-id jobId=`send-receipt:${order.id}`',
      '3 bullmq-job-id jobId=job.id',
      '3 bullmq-job-id id=job.id',
      '5 bullmq-job-id jobId=id',
      '6 bullmq-job-id jobId=id',
    ]);
  });

  it('finds jobId in entries a .map callback builds for addBulk, directly or through a const', () => {
    expect(
      sinksIn(`
const jobs = items.map((item) => ({ name: 'sync', data: item, opts: { jobId: \`\${Date.now()}-\${Math.random()}\` } }));
await queue.addBulk(jobs);
await queue.addBulk(items.map((item) => { return { name: 'sync', data: item, opts: { jobId: item.id } }; }));
`),
    ).toEqual(['2 bullmq-job-id jobId=`${Date.now()}-${Math.random()}`', '4 bullmq-job-id jobId=item.id']);
  });

  it('ignores .map entries that never reach addBulk', () => {
    expect(
      sinksIn(`
const rows = items.map((item) => ({ opts: { jobId: item.id } }));
await db.insertMany(rows);
const other = items.filter((item) => ({ opts: { jobId: item.id } }));
await queue.addBulk(other);
items.map((item) => ({ opts: { jobId: item.id } }));
`),
    ).toEqual([]);
  });

  it('ignores jobId and id elsewhere', () => {
    expect(
      sinksIn(`
await db.insert({ jobId: job.id, status: 'done' });
await queue.add({ jobId: id });
const row = { id: randomUUID(), deduplication: { id: x } };
`),
    ).toEqual([]);
  });

  it('finds MessageDeduplicationId wherever a literal or assignment writes it', () => {
    expect(
      sinksIn(`
await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody, MessageGroupId: 'g', MessageDeduplicationId: event.id }));
await sqs.sendMessage({ QueueUrl, MessageBody, MessageDeduplicationId: hash }).promise();
const entries = items.map((item) => ({ Id: item.id, MessageBody: body(item), MessageDeduplicationId: item.id }));
params.MessageDeduplicationId = dedupe;
`),
    ).toEqual([
      '2 deduplication-id MessageDeduplicationId=event.id',
      '3 deduplication-id MessageDeduplicationId=hash',
      '4 deduplication-id MessageDeduplicationId=item.id',
      '5 deduplication-id MessageDeduplicationId=dedupe',
    ]);
  });
});
