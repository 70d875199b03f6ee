import rule from '../../rules/no-per-attempt-body.js';
import { syntaxRuleTester, typedRuleTester } from '../rule-tester.js';

const BODY = 'perAttemptBody';
/** The message's words where no redelivery of a handler is in sight, and where one is. */
const ANY_ATTEMPT = { attempt: 'attempt', rerun: 'retry' };
const REDELIVERED = { attempt: 'delivery', rerun: 'redelivery' };

syntaxRuleTester().run('no-per-attempt-body', rule, {
  valid: [
    // The month is in the body and in the key: a retry in another month is another request.
    'async function report(stripe, id) { const month = new Date().toISOString().slice(0, 7); await stripe.invoices.create({ customer: id, description: `Report ${month}` }, { idempotencyKey: `report-${month}-${id}` }); }',
    // An event built for the SDK's own listeners is kept, not sent.
    "function emitRequest(emitter, headers) { const event = removeNullish({ idempotency_key: headers['Idempotency-Key'], request_start_time: Date.now() }); emitter.emit('request', event); }",
    // A row upsert stores the key beside the clock; nothing is sent.
    "async function record(supabase, sid, status) { await supabase.from('calls').upsert({ call_sid: sid, meta: { idempotency_key: `${sid}-${status}`, updated_at: new Date().toISOString() } }); }",
    // Svix replays the first response for a key and never compares bodies.
    "import { sendSvixEvent } from '@/external/svix/helpers'; export async function notify(ctx, key) { await sendSvixEvent({ ctx, payload: { id: crypto.randomUUID(), occurred_at: Date.now() }, idempotencyKey: key }); }",
    "import { Svix } from 'svix'; const svix = new Svix(token); export async function notify(app, order) { await svix.message.create(app, { eventType: 'order.paid', payload: { at: Date.now() } }, { idempotencyKey: `order:${order.id}` }); }",
    // A PDF loaded without pdf-lib's metadata stamp is the same bytes on every attempt.
    `import { PDFDocument } from 'pdf-lib';
async function render(template) { const pdf = await PDFDocument.load(template, { updateMetadata: false }); return pdf.save(); }
export async function mail(record, template) {
  const pdf = await render(template);
  await resend.emails.send({ to: record.email, attachments: [{ content: Buffer.from(pdf) }] }, { idempotencyKey: \`baa-\${record.id}\` });
}`,
    // A client's key read from the request and forwarded to Stripe with a stable body.
    "app.post('/refund', async (req, res) => { const idempotencyKey = req.headers['idempotency-key']; res.json(await stripe.refunds.create({ payment_intent: req.body.pi, amount: req.body.amount }, { idempotencyKey })); });",
    // Server code keeping a record of a key a client sent: nothing goes out.
    "async function remember(req, store) { const key = req.headers['idempotency-key']; await store.save({ idempotencyKey: key, expiresAt: Date.now() + 86_400_000 }); }",
    // A project's own mutation, handed the incoming key and a trace id: nothing is sent under the key.
    'export async function handle(req) { const key = req.body.key; return runMutation({ idempotencyKey: key, requestId: crypto.randomUUID(), at: Date.now() }); }',
    // A repository insert and an in-process service keep the key in this process.
    'async function deliver(deps, invoice, key) { await deps.deliveryRepo.create({ id: crypto.randomUUID(), invoiceId: invoice.id, idempotencyKey: key }); }',
    'async function batch(service, body, key) { await service.call(body, { idempotencyKey: key, idempotencyKeyExpiresAt: new Date(Date.now() + 86_400_000) }); }',
    // A log entry pushed onto a row's array, beside the event's key.
    'function log(row, event) { row.webhookLog.push({ idempotencyKey: event.key, receivedAt: new Date().toISOString() }); }',
    // A correlation id beside the key in a client wrapper's options is a header, not the body.
    "async function upsert(apiClient, input, key) { return apiClient.put('/tax/profile', input, { idempotencyKey: key, correlationId: crypto.randomUUID() }); }",
    // A trigger.dev wait under a known key returns the waitpoint made first.
    'async function pause(apiClient, ctx, options) { await apiClient.waitForDuration(ctx.run.id, { date: new Date(Date.now() + options.ms), idempotencyKey: options.idempotencyKey }); }',
    // trigger.dev keeps the first run under a key and never compares payloads.
    'async function remind(task, id) { await task.trigger({ id }, { idempotencyKey: `remind-${id}`, delay: new Date(Date.now() + 300_000) }); }',
    // The seed's chargeOnce: a key from the job and a body from the job.
    `async function chargeOnce(job) {
      const res = await fetch('https://api.example-payments.test/v1/charges', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'Idempotency-Key': job.id },
        body: JSON.stringify({ amount: job.data.amount, currency: 'gbp' }),
        signal: AbortSignal.timeout(10_000),
      });
      return res.json();
    }`,
    // A timestamp from the message, not from the clock.
    "async function f(job) { await fetch(url, { method: 'POST', headers: { 'Idempotency-Key': `msg:${job.id}` }, body: JSON.stringify({ amount: job.data.amount, sentAt: job.timestamp, at: new Date(job.timestamp).toISOString() }) }); }",
    // No key: a changing body cannot conflict.
    "async function f(job) { await fetch(url, { method: 'POST', body: JSON.stringify({ amount: job.data.amount, sentAt: new Date().toISOString() }) }); }",
    // A request-id header is not a key.
    "async function f(job) { await fetch(url, { method: 'POST', headers: { 'X-Request-Id': job.id }, body: JSON.stringify({ at: Date.now() }) }); }",
    // A per-attempt value in a header, not the body.
    "async function f(job) { await fetch(url, { method: 'POST', headers: { 'Idempotency-Key': job.id, 'X-Request-Id': crypto.randomUUID() }, body: JSON.stringify({ amount: 1 }) }); }",
    // The key itself is per-attempt: no-per-attempt-key reports that.
    "async function f(amount) { await fetch(url, { method: 'POST', headers: { 'Idempotency-Key': crypto.randomUUID() }, body: JSON.stringify({ amount, at: Date.now() }) }); }",
    // Stored with the message, not sent as a keyed request.
    "async function f(queue, order) { await queue.add('charge', { idempotencyKey: `order:${order.id}`, createdAt: Date.now() }); }",
    // A BullMQ jobId dedupes by id: the data may differ.
    "async function f(queue, order) { await queue.add('charge', { at: Date.now() }, { jobId: `order:${order.id}` }); }",
    // A keyed SDK call with stable params.
    "async function f(stripe, job) { await stripe.charges.create({ amount: job.data.amount, currency: 'gbp' }, { idempotencyKey: job.id }); }",
    // A body held in a module-level const is built once.
    "const BODY = JSON.stringify({ startedAt: Date.now() }); async function f(job) { await fetch(url, { method: 'POST', headers: { 'Idempotency-Key': job.id }, body: BODY }); }",
    // Inside a test.
    "it('charges', async () => { await fetch(url, { method: 'POST', headers: { 'Idempotency-Key': 'k' }, body: JSON.stringify({ at: Date.now() }) }); });",
    // The key is made of the receipt id drawn for this request, read back from the row inserted
    // with it: a new key every time (no-per-attempt-key's question), never the same key twice.
    `export async function tip(supabase, stripe, amount) {
  const receipt_id = crypto.randomUUID();
  const { data: intentRow, error } = await supabase.from('tip_intents').insert({ receipt_id, amount, status: 'pending' }).select().single();
  if (error) throw error;
  return stripe.paymentIntents.create({ amount, currency: 'usd', metadata: { receipt_id } }, { idempotencyKey: \`tip-\${intentRow.receipt_id}\` });
}`,
    // The same through a transaction that returns the created order, and a key built in a const.
    `export async function buy(db, stripe, body) {
  const code = crypto.randomUUID().split('-')[0].toUpperCase();
  const order = await db.$transaction(async (tx) => tx.order.create({ data: { code, quantity: body.quantity } }));
  const key = \`checkout:\${order.code}\`;
  return stripe.checkout.sessions.create({ metadata: { code }, mode: 'payment' }, { idempotencyKey: key });
}`,
    // The key's own random part sent in the body of a fetch.
    "async function f(db, amount) { const ref = nanoid(); const [row] = await db.insert(payments).values({ ref, amount }).returning(); await fetch(url, { method: 'POST', headers: { 'Idempotency-Key': `pay-${row.ref}` }, body: JSON.stringify({ amount, ref }) }); }",
    // Every caller in another module keys the checkout with a code it draws for the request
    // (idempotency-check lists the parameter): the key is never the same twice.
    {
      code: `export async function openCheckout(stripe, { amount, code }) {
  return stripe.checkout.sessions.create({ amount, expires_at: Math.floor(Date.now() / 1000) + 1800 }, { idempotencyKey: \`checkout:\${code}\` });
}`,
      filename: 'src/stripe.ts',
      settings: {
        idempotency: { freshKeyArguments: [{ from: './stripe', name: 'openCheckout', index: 1, property: 'code' }] },
      },
    },
    {
      code: `export async function refund(stripe, key, amount) {
  return stripe.refunds.create({ amount, metadata: { at: Date.now() } }, { idempotencyKey: key });
}`,
      filename: 'src/refunds.ts',
      settings: { idempotency: { freshKeyArguments: [{ from: './refunds', name: 'refund', index: 1 }] } },
    },
    // The key is minted inside the backoff callback with the clock: each try is a new request, and
    // no-per-attempt-key reports the key.
    "import { backOff } from 'exponential-backoff';\nexport async function report(usage) {\n  await backOff(() => fetch(url, { method: 'POST', headers: { 'Idempotency-Key': crypto.randomUUID() }, body: JSON.stringify({ ...usage, at: Date.now() }) }));\n}",
    // The key made in an outer retry loop's body, before the inner backoff: each pass of the loop
    // mints a new key (no-per-attempt-key reports it), so the body under it cannot conflict.
    "import { backOff } from 'exponential-backoff';\nexport async function report(usage) {\n  for (let attempt = 0; attempt < 3; attempt++) {\n    const key = crypto.randomUUID();\n    try {\n      return await backOff(() => fetch(url, { method: 'POST', headers: { 'Idempotency-Key': key }, body: JSON.stringify({ ...usage, at: Date.now() }) }));\n    } catch {}\n  }\n}",
    // The clock read once, before the retry, with the key: every try sends the same body.
    "import { backOff } from 'exponential-backoff';\nexport async function report(usage) {\n  const key = crypto.randomUUID();\n  const body = JSON.stringify({ ...usage, at: Date.now() });\n  await backOff(() => fetch(url, { method: 'POST', headers: { 'Idempotency-Key': key }, body }));\n}",
    // The customer is created under a key of its own: a retry gets the same customer back.
    "import Stripe from 'stripe';\nconst stripe = new Stripe(key);\nexport async function deposit(amount, idempotencyKey) {\n  const customer = await stripe.customers.create({ source: 'tok_visa' }, { idempotencyKey: `cus-${idempotencyKey}` });\n  return stripe.charges.create({ amount, currency: 'usd', customer: customer.id }, { idempotencyKey });\n}",
    // A customer read back, not created, is the same on every attempt.
    "import Stripe from 'stripe';\nconst stripe = new Stripe(key);\nexport async function deposit(amount, customerId, idempotencyKey) {\n  const customer = await stripe.customers.retrieve(customerId);\n  return stripe.charges.create({ amount, currency: 'usd', customer: customer.id }, { idempotencyKey });\n}",
    // A customer created once, at module level, for every call.
    "import Stripe from 'stripe';\nconst stripe = new Stripe(key);\nconst customer = await stripe.customers.create({ source: 'tok_visa' });\nexport async function deposit(amount, idempotencyKey) {\n  return stripe.charges.create({ amount, currency: 'usd', customer: customer.id }, { idempotencyKey });\n}",
  ],
  invalid: [
    {
      // The key is given to the options object after it is made (`options.idempotencyKey = key`),
      // before the project's retry helper; the closure it re-runs rebuilds the metadata with the clock.
      code: [
        'export async function pay(stripe, order, idempotencyKey) {',
        '  return retryStripeCall(() => {',
        "    const params = { amount: order.total, currency: 'usd', metadata: { orderId: `order_${Date.now()}` } };",
        '    const options = {};',
        '    if (idempotencyKey) options.idempotencyKey = idempotencyKey;',
        '    return stripe.paymentIntents.create(params, options);',
        "  }, 'createPaymentIntent');",
        '}',
      ].join('\n'),
      errors: [
        { messageId: 'perAttemptBodyInRetry', line: 3, data: { source: 'Date.now()', retry: 'retryStripeCall' } },
      ],
      output: null,
    },
    {
      // A local template helper reads the clock from a field of the object it is handed.
      code: "const render = (props) => `<p>Built ${props.builtAt}</p>`;\nexport async function notify(resend, org, to) {\n  const html = render({ builtAt: new Date().toISOString() });\n  await resend.emails.send({ from: 'a@x.test', to, subject: 'Ready', html }, { idempotencyKey: `cart-ready-${org.id}` });\n}",
      errors: [{ messageId: BODY, line: 4, data: { source: 'new Date()', ...ANY_ATTEMPT } }],
      output: null,
    },
    {
      // A Temporal activity handed its key by the workflow creates a customer first with no key:
      // each retry of the activity creates another customer and sends its id under the same key.
      code: "import Stripe from 'stripe';\nexport async function deposit(amount, idempotencyKey) {\n  const stripe = new Stripe(key);\n  const customer = await stripe.customers.create({ source: 'tok_visa' });\n  return stripe.charges.create({ amount, currency: 'usd', customer: customer.id }, { idempotencyKey });\n}",
      errors: [{ messageId: BODY, line: 5, column: 69, data: { source: 'customer.id', ...ANY_ATTEMPT } }],
      output: null,
    },
    {
      // The seed's timestamp in a keyed body, in a BullMQ processor: the redelivery is the attempt.
      code: "import { Worker } from 'bullmq';\nnew Worker('usage', async (job) => {\n  await fetch(url, { method: 'POST', headers: { 'Idempotency-Key': `usage:${job.id}` }, body: JSON.stringify({ units: job.data.units, at: Date.now() }), signal: AbortSignal.timeout(5000) });\n});",
      errors: [{ messageId: BODY, line: 3, column: 139, data: { source: 'Date.now()', ...REDELIVERED } }],
      output: null,
    },
    {
      // The seeds' central mistake: a metered-usage write retried by a backoff helper, one key made
      // before it for every try, and the current time in the body of each try.
      code: "import { backOff } from 'exponential-backoff';\nimport { v4 as uuid } from 'uuid';\nexport async function reportUsage(usage) {\n  const idempotencyKey = uuid();\n  await backOff(() => fetch('https://api.example.test/v1/usage', { method: 'POST', headers: { 'Idempotency-Key': idempotencyKey }, body: JSON.stringify({ quantity: usage.quantity, timestamp: Date.now() }), signal: AbortSignal.timeout(10_000) }));\n}",
      errors: [
        { messageId: 'perAttemptBodyInRetry', line: 5, column: 192, data: { source: 'Date.now()', retry: 'backOff' } },
      ],
      output: null,
    },
    {
      // The Stripe client the call goes through is a choice between two clients a class keeps.
      code: `import { backOff } from 'exponential-backoff';
import Stripe from 'stripe';
export class UsageWriter {
  private stripeLive: Stripe;
  private stripeTest?: Stripe;
  constructor(key: string) { this.stripeLive = new Stripe(key); }
  async push(item: string, total: number, test: boolean) {
    const idempotencyKey = \`push:\${item}:\${total}\`;
    const client = test ? this.stripeTest! : this.stripeLive;
    await backOff(() => client.subscriptionItems.createUsageRecord(item, { quantity: total, timestamp: Math.floor(Date.now() / 1000) }, { idempotencyKey }));
  }
}`,
      errors: [
        { messageId: 'perAttemptBodyInRetry', line: 10, column: 104, data: { source: 'Date.now()', retry: 'backOff' } },
      ],
      output: null,
    },
    {
      // The same through p-retry and an SDK's options.
      code: "import pRetry from 'p-retry';\nexport async function meter(stripe, customer, quantity) {\n  const idempotencyKey = crypto.randomUUID();\n  return pRetry(() => stripe.billing.meterEvents.create({ event_name: 'tokens', payload: { stripe_customer_id: customer, value: String(quantity) }, timestamp: Math.floor(Date.now() / 1000) }, { idempotencyKey }), { retries: 5 });\n}",
      errors: [
        { messageId: 'perAttemptBodyInRetry', line: 4, column: 160, data: { source: 'Date.now()', retry: 'pRetry' } },
      ],
      output: null,
    },
    {
      // Listed for the callers elsewhere, but a caller in this file passes the order's own id.
      code: `export async function refund(stripe, key, amount) {
  return stripe.refunds.create({ amount, metadata: { at: Date.now() } }, { idempotencyKey: key });
}
export const again = (stripe, order) => refund(stripe, order.id, order.amount);`,
      filename: 'src/refunds.ts',
      settings: { idempotency: { freshKeyArguments: [{ from: './refunds', name: 'refund', index: 1 }] } },
      errors: [{ messageId: BODY, line: 2, column: 58, data: { source: 'Date.now()', ...ANY_ATTEMPT } }],
      output: null,
    },
    {
      // Without the callers' facts a key parameter is of unknown origin: the body must be stable.
      code: `export async function openCheckout(stripe, { amount, code }) {
  return stripe.checkout.sessions.create({ amount, expires_at: Math.floor(Date.now() / 1000) + 1800 }, { idempotencyKey: \`checkout:\${code}\` });
}`,
      filename: 'src/stripe.ts',
      settings: {
        idempotency: { freshKeyArguments: [{ from: './stripe', name: 'openCheckout', index: 1, property: 'amount' }] },
      },
      errors: [{ messageId: BODY, line: 2, column: 64, data: { source: 'Date.now()', ...ANY_ATTEMPT } }],
      output: null,
    },
    {
      // The caller's key is kept when given: then the receipt id drawn here differs under it.
      code: `export async function tip(supabase, stripe, amount, given) {
  const receipt_id = crypto.randomUUID();
  const { data: intentRow } = await supabase.from('tip_intents').insert({ receipt_id, amount }).select().single();
  return stripe.paymentIntents.create({ amount, metadata: { receipt_id } }, { idempotencyKey: given ?? \`tip-\${intentRow.receipt_id}\` });
}`,
      errors: [{ messageId: BODY, line: 4, column: 61, data: { source: 'crypto.randomUUID()', ...ANY_ATTEMPT } }],
      output: null,
    },
    {
      // A field the insert did not write from the mint: the row's id is stable, the clock is not.
      code: `export async function tip(supabase, stripe, amount, tipId) {
  const { data: intentRow } = await supabase.from('tip_intents').insert({ tip_id: tipId, amount }).select().single();
  return stripe.paymentIntents.create({ amount, metadata: { created: new Date().toISOString() } }, { idempotencyKey: \`tip-\${intentRow.tip_id}\` });
}`,
      errors: [{ messageId: BODY, line: 3, column: 70, data: { source: 'new Date()', ...ANY_ATTEMPT } }],
      output: null,
    },
    {
      // Today's date under a key that holds no date: the row retried tomorrow sends other dates.
      code: `async function invoice(row) {
  const today = new Date();
  const fmtDate = (d) => \`\${d.getFullYear()}-\${d.getMonth() + 1}-\${d.getDate()}\`;
  await fetch(url, {
    method: 'POST',
    headers: { 'Idempotency-Key': \`sched-\${row.id}\` },
    body: JSON.stringify({ customer_id: row.customerId, issue_date: fmtDate(today) }),
  });
}`,
      errors: [{ messageId: BODY, line: 7, column: 69, data: { source: 'new Date()', ...ANY_ATTEMPT } }],
      output: null,
    },
    {
      // pdf-lib stamps a loaded document's modification date with the current time: the
      // attachment rebuilt on a retry differs from the first one under the same key.
      code: `import { PDFDocument } from 'pdf-lib';
async function render(template) {
  const pdf = await PDFDocument.load(template);
  return pdf.save();
}
export async function mail(record, template) {
  let pdf;
  pdf = await render(template);
  await resend.emails.send(
    { to: record.email, attachments: [{ filename: 'baa.pdf', content: Buffer.from(pdf) }] },
    { idempotencyKey: \`baa-email-\${record.id}\` },
  );
}`,
      errors: [{ messageId: BODY, line: 10, column: 38, data: { source: 'render()', ...ANY_ATTEMPT } }],
      output: null,
    },
    {
      // A client's key forwarded to Stripe, with the moment of each attempt in the metadata.
      code: `app.post('/refund', async (req, res) => {
  const idempotencyKey = req.headers.get('idempotency-key') ?? \`refund-\${req.body.tipId}\`;
  await stripe.refunds.create({ amount: req.body.amount, metadata: { initiated_at: new Date().toISOString() } }, { idempotencyKey });
  res.end();
});`,
      errors: [{ messageId: BODY, line: 3, column: 84, data: { source: 'new Date()', ...ANY_ATTEMPT } }],
      output: null,
    },
    {
      // A client's key forwarded to Stripe, or a fresh one when it gave none: under the client's
      // key, the expiry recomputed from the clock makes its retry differ from the first request.
      code: `export async function checkout(req, res) {
  const given = req.get('Idempotency-Key')?.trim();
  const idempotencyKey = given ? given.slice(0, 255) : crypto.randomUUID();
  const session = await stripe.checkout.sessions.create(
    { mode: 'payment', expires_at: Math.floor(Date.now() / 1000) + 1800 },
    { idempotencyKey },
  );
  res.json(session);
}`,
      errors: [{ messageId: BODY, line: 5, column: 36, data: { source: 'Date.now()', ...ANY_ATTEMPT } }],
      output: null,
    },
    {
      // The mint far above the call: reported at the body field that carries it.
      code: `export async function report(customerId, timestamp) {
  const reportedAt = timestamp || Math.floor(Date.now() / 1000);
  const today = new Date(reportedAt * 1000).toISOString().split('T')[0];
  await stripe.subscriptionItems.createUsageRecord(
    'si_1',
    { quantity: 1, timestamp: reportedAt, action: 'set' },
    { idempotencyKey: \`\${customerId}:\${today}:set\` },
  );
}`,
      errors: [{ messageId: BODY, line: 6, column: 31, data: { source: 'Date.now()', ...ANY_ATTEMPT } }],
      output: null,
    },
    {
      // An email's own headers are part of the payload the provider compares under the key.
      code: `import { nanoid } from 'nanoid';
export async function sendTransactional({ to, idempotencyKey }) {
  await resend.emails.send(
    { to, subject: 'Hi', headers: { 'X-Entity-Ref-ID': nanoid() } },
    idempotencyKey ? { idempotencyKey } : undefined,
  );
}`,
      errors: [{ messageId: BODY, line: 4, column: 56, data: { source: 'nanoid()', ...ANY_ATTEMPT } }],
      output: null,
    },
    {
      // The seed's mistake: a timestamp inside the keyed body.
      code: `export async function charge(message) {
  const res = await fetch('https://api.example-payments.test/v1/charges', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'Idempotency-Key': \`msg:\${message.id}\` },
    body: JSON.stringify({ amount: message.amount, requestedAt: new Date().toISOString() }),
  });
}`,
      errors: [{ messageId: BODY, line: 5, column: 65, data: { source: 'new Date()', ...ANY_ATTEMPT } }],
      output: null,
    },
    {
      // The body built beforehand in a const.
      code: `async function charge(job) {
  const payload = { amount: job.data.amount, nonce: Math.random() };
  await fetch(url, { method: 'POST', headers: { 'Idempotency-Key': job.id }, body: JSON.stringify(payload) });
}`,
      errors: [{ messageId: BODY, line: 2, column: 53, data: { source: 'Math.random()', ...ANY_ATTEMPT } }],
      output: null,
    },
    {
      // axios: the data argument, key header in the config.
      code: `import axios from 'axios';
async function charge(job) {
  await axios.post(url, { amount: job.data.amount, sentAt: Date.now() }, { headers: { 'Idempotency-Key': job.id } });
}`,
      errors: [{ messageId: BODY, line: 3, column: 60, data: { source: 'Date.now()', ...ANY_ATTEMPT } }],
      output: null,
    },
    {
      // Stripe: changed params under the same key are refused.
      code: `async function charge(stripe, job) {
  await stripe.charges.create({ amount: job.data.amount, metadata: { attemptedAt: new Date().toISOString() } }, { idempotencyKey: job.id });
}`,
      errors: [{ messageId: BODY, line: 2, column: 83, data: { source: 'new Date()', ...ANY_ATTEMPT } }],
      output: null,
    },
    {
      // A Resend client made from a package's class: the email is compared under the key.
      code: `import { Resend } from '@unkey/resend';
const resend = new Resend({ apiKey: process.env.RESEND_KEY });
async function warn(job) {
  await resend.sendLeakedKeyEmail({ to: job.data.email, date: new Date().toISOString(), idempotencyKey: job.id });
}`,
      errors: [{ messageId: BODY, line: 4, column: 63, data: { source: 'new Date()', ...ANY_ATTEMPT } }],
      output: null,
    },
    {
      // The key inside the params (Square, Circle): the other params must be stable too.
      code: `async function pay(client, job) {
  await client.payments.create({ idempotencyKey: job.id, sourceId: job.data.sourceId, referenceId: crypto.randomUUID() });
}`,
      errors: [{ messageId: BODY, line: 2, column: 100, data: { source: 'crypto.randomUUID()', ...ANY_ATTEMPT } }],
      output: null,
    },
    {
      // A key field in the posted body (Circle): the other fields must be stable too; one report, not one per wrapper.
      code: `async function convert(job) {
  await fetch(url, { method: 'POST', body: JSON.stringify({ idempotencyKey: job.id, tokenData: job.data.token, at: Date.now() }) });
}`,
      errors: [{ messageId: BODY, line: 2, column: 116, data: { source: 'Date.now()', ...ANY_ATTEMPT } }],
      output: null,
    },
    {
      // A value from a local helper: reported at the body.
      code: `function stamp() { return new Date().toISOString(); }
async function charge(job) {
  await fetch(url, { method: 'POST', headers: { 'Idempotency-Key': job.id }, body: JSON.stringify({ at: stamp() }) });
}`,
      errors: [{ messageId: BODY, line: 3, column: 105, data: { source: 'stamp()', ...ANY_ATTEMPT } }],
      output: null,
    },
  ],
});

typedRuleTester().run('no-per-attempt-body (typed)', rule, {
  valid: [
    `import Stripe from 'stripe';
const stripe = new Stripe('sk_test');
export async function charge(job: { id: string; data: { amount: number } }) {
  await stripe.paymentIntents.create({ amount: job.data.amount, currency: 'gbp' }, { idempotencyKey: job.id });
}`,
  ],
  invalid: [
    {
      code: `import Stripe from 'stripe';
const stripe = new Stripe('sk_test');
export async function charge(job: { id: string; data: { amount: number } }) {
  await stripe.paymentIntents.create({ amount: job.data.amount, currency: 'gbp', description: \`charge at \${Date.now()}\` }, { idempotencyKey: job.id });
}`,
      errors: [{ messageId: BODY, line: 4, column: 95, data: { source: 'Date.now()', ...ANY_ATTEMPT } }],
      output: null,
    },
  ],
});
