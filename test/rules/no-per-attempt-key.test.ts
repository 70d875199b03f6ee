import rule from '../../rules/no-per-attempt-key.js';
import { syntaxRuleTester, typedRuleTester } from '../rule-tester.js';

const KEY_MESSAGE = 'perAttemptKey';
const DERIVE = 'deriveFromMessage';
/** The message's words when no retry or redelivery around the key is in sight in the file. */
const ANY_RERUN = { where: '', rerun: 'redelivery or retry' };
const REDELIVERY = { where: ' in a handler that each redelivery runs again', rerun: 'redelivery' };
const inRetry = (name: string) => ({ where: ` inside the \`${name}\` callback`, rerun: 'retry' });
/** A user-declared key parameter that is a field of its object (`data.eventId`). */
const SETTINGS_BY_FIELD = {
  idempotency: {
    keyParameters: [
      { from: './queues', name: 'orchestrationQueue.enqueue', index: 0, parameter: 'data', property: 'eventId' },
    ],
  },
};
const IN_FOR_LOOP = { where: ' inside a `for` loop that retries', rerun: 'retry' };

syntaxRuleTester().run('no-per-attempt-key', rule, {
  valid: [
    // A retry written by hand: the closure that sends is called again after the first call failed,
    // and the key made before it goes with both tries.
    "export async function checkout(url, payload) {\n  const key = crypto.randomUUID();\n  const attempt = () => fetch(url, { method: 'POST', headers: { 'Idempotency-Key': key }, body: JSON.stringify(payload), signal: AbortSignal.timeout(5000) });\n  try {\n    const response = await attempt();\n    if (response.status < 500) return response;\n  } catch {}\n  return attempt();\n}",
    // A job added only when the queue holds none for the same demo: a re-run finds it and adds nothing.
    "export async function queueHighlights(batchQueue, matchId, demoId) {\n  const existing = await batchQueue.getJobs(['delayed', 'waiting', 'active']);\n  const alreadyEnqueued = existing.some((j) => j.data?.matchId === matchId && j.data?.demoId === demoId);\n  if (!alreadyEnqueued) {\n    await batchQueue.add('highlights', { matchId, demoId }, { jobId: `${matchId}-${demoId}-${Date.now()}` });\n  }\n}",
    // A GraphQL input whose key is the webhook event's id: the same on every delivery.
    'export async function onPaymentCreated(client, wh) {\n  await client.mutate({ mutation: DEPOSIT, variables: { input: { paymentId: wh.data.id, idempotencyKey: wh.id } } });\n}',
    // A row stored with an input object under `data`: no request carries it.
    "import { v4 as uuid } from 'uuid';\nexport async function save(prisma) { await prisma.audit.create({ data: { input: { idempotencyKey: uuid() } } }); }",
    // The key helper joins the parts of the usage it keys: stable for the same total.
    "export function generateStripeIdempotencyKey(params: { tenantId: string; periodStart: string; quantity: number }): string {\n  const { tenantId, periodStart, quantity } = params;\n  return ['push', tenantId, periodStart, quantity.toFixed(6)].join(':');\n}",
    // A parameter default made once per call, sent by a function handed by its name to a retry
    // helper in the same call: every retry re-sends the same key.
    "import uuid from 'uuid/v4';\nimport axios from 'axios';\nexport const credit = async (accountId, amount, settlementId = uuid()) => {\n  const notify = () => axios({ method: 'POST', url: `/accounts/${accountId}/settlements`, data: { amount }, timeout: 10000, headers: { 'Idempotency-Key': settlementId } });\n  await retryRequest(notify);\n};",
    // The key (a random fallback) is made once, before the project's helper that re-runs the
    // operation it is handed in its options: every retry sends it.
    "import { randomUUID } from 'node:crypto';\nexport async function checkout(stripe, params, options) {\n  const idempotencyKey = options?.idempotencyKey ?? `checkout:${randomUUID()}`;\n  return callStripeWithRetry({ operation: 'paymentIntents.create', fn: () => stripe.paymentIntents.create(params, { idempotencyKey }) });\n}",
    // A Stripe meter event's identifier from the response it meters: the same on every retry.
    "export async function meter(stripe, input) {\n  await stripe.billing.meterEvents.create({ event_name: 'response_created', identifier: `response_created:${input.responseId}`, payload: { stripe_customer_id: input.customer, value: '1' } });\n}",
    // `identifier` outside a meter event is no key.
    'export async function save(db) { await db.insert({ identifier: crypto.randomUUID(), payload: {} }); }',
    // The key reads the event's stable field; another field of the same object holds the clock.
    "import type { SQSEvent } from 'aws-lambda';\nexport const handler = async (event: SQSEvent) => {\n  const events = [];\n  for (const record of event.Records) events.push({ identifier: record.messageId, timestamp: Date.now() });\n  await Promise.all(events.map((e) => stripe.billing.meterEvents.create(e, { idempotencyKey: `usage-${e.identifier}` })));\n};",
    // An object made once before the retry helper: every retry reads the same field.
    "import pRetry from 'p-retry';\nexport async function charge(amount) {\n  const request = { amount, key: `charge-${Date.now()}` };\n  await pRetry(() => stripe.charges.create({ amount }, { idempotencyKey: request.key }), { retries: 3 });\n}",
    // `unique_id` is Klaviyo's deduplication key only beside an event's `metric` and `profile`: a row's own id is not one.
    "import { v4 as uuidv4 } from 'uuid';\nexport async function save(db, name) { await db.insert({ unique_id: uuidv4(), name }); }",
    // A PayPal payout batch id from the payout row: every retry of the batch presents it again.
    "export async function payout(token, row) {\n  await fetch('https://api-m.paypal.com/v1/payments/payouts', { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: JSON.stringify({ sender_batch_header: { sender_batch_id: `payout-${row.id}`, email_subject: 'Paid' }, items: row.items }), signal: AbortSignal.timeout(10_000) });\n}",
    // `sender_batch_id` outside PayPal's batch header is no key.
    'export async function save(db) { await db.insert({ sender_batch_id: crypto.randomUUID(), note: "x" }); }',
    // A Paystack charge of a saved card keyed by the transaction row: a retry presents it again.
    "export async function recharge(tx) {\n  await fetch('https://api.paystack.co/transaction/charge_authorization', { method: 'POST', body: JSON.stringify({ authorization_code: tx.authorizationCode, email: tx.email, amount: tx.amount, reference: `charge-${tx.id}-${tx.attemptCount}` }), signal: AbortSignal.timeout(10_000) });\n}",
    // A callback a library runs for a caller out of sight (a Nango action's `exec`) keys the request
    // with the caller's input, and mints one only when the caller gave none: the caller's key, as
    // for an exported function.
    "import { randomUUID } from 'node:crypto';\nimport { createAction } from 'nango';\nexport default createAction({\n  exec: async (nango, input) => {\n    const idempotencyKey = input.idempotency_key ?? randomUUID();\n    return nango.post({ endpoint: '/v2/orders', retries: 3, data: { idempotency_key: idempotencyKey, order: input.order } });\n  },\n});",
    // A Paystack transfer whose reference is the payout's id: a retry cannot credit twice.
    "export async function transfer(payout) {\n  await fetch('https://api.paystack.co/transfer', { method: 'POST', body: JSON.stringify({ source: 'balance', amount: payout.amount, recipient: payout.recipientCode, reference: `payout-${payout.id}` }), signal: AbortSignal.timeout(10_000) });\n}",
    // MTN MoMo's sandbox provisioning names no target environment: `X-Reference-Id` there makes an API user once.
    "import { v4 as uuid } from 'uuid';\nimport axios from 'axios';\nexport async function provision(host, key) {\n  await axios.post(`${host}/v1_0/apiuser`, { providerCallbackHost: 'x' }, { timeout: 5000, headers: { 'X-Reference-Id': uuid(), 'Ocp-Apim-Subscription-Key': key } });\n}",
    // A Wise transfer keyed by the payout's id; `customerTransactionId` beside no `targetAccount` is no transfer.
    "export async function pay(wise, payout) {\n  await wise.post('/v1/transfers', { targetAccount: payout.recipientId, quoteUuid: payout.quoteId, customerTransactionId: payout.transferKey });\n}",
    'export async function note(db) { await db.insert({ customerTransactionId: crypto.randomUUID(), memo: "x" }); }',
    // A row with a random `reference` and a `recipient` is no Paystack transfer: nothing draws on a balance.
    "import { randomUUID } from 'node:crypto';\nexport async function log(db, email) { await db.insert({ reference: randomUUID(), recipient: email, amount: 1 }); }",
    // A QStash deduplication id from the user: a retried publish is the same message.
    "import { Client } from '@upstash/qstash';\nconst qstash = new Client({ token: process.env.QSTASH_TOKEN });\nexport async function remind(user) {\n  await qstash.publishJSON({ url: 'https://example.test/api/remind', body: { userId: user.id }, deduplicationId: `remind-${user.id}` });\n}",
    // A deduplication id only logged, or kept on the instance, goes to no queue.
    "import { randomUUID } from 'node:crypto';\nexport function note(logger) { logger.info({ deduplicationId: randomUUID() }); }",
    "import { randomUUID } from 'node:crypto';\nexport class Draft { constructor() { this.deduplicationId = randomUUID(); } }",
    // A transfer client handed the payout's own id as its reference.
    'export async function pay(paystackClient, payout) {\n  await paystackClient.initiateTransfer({ amount: payout.amount, recipient: payout.code, reference: `payout-${payout.id}` });\n}',
    // Stored in the `catch` of a failed send, which then answers and leaves: the replay sends it.
    "async function handle(request, queue) {\n  const key = crypto.randomUUID();\n  const headers = new Headers(request.headers);\n  headers.set('Idempotency-Key', key);\n  try { return await fetch(new Request(request, { headers })); } catch {\n    await queue.insert({ key, url: request.url });\n    return new Response('{}', { status: 202 });\n  }\n}",
    // A Klaviyo event whose `unique_id` is the order's: the same on every retry.
    "export async function track(order, request) {\n  await request('https://a.klaviyo.com/api/events/', { method: 'POST', json: { data: { type: 'event', attributes: { unique_id: `order-${order.id}`, metric: { data: { type: 'metric', attributes: { name: 'Placed Order' } } }, profile: order.profile } } } });\n}",
    // A service worker mints one key per intercepted request and stores it, through a helper of
    // the file, with the request it replays later.
    "async function save(data) { const db = await openDB(); db.transaction('q', 'readwrite').objectStore('q').put(data); }\nasync function handle(request) {\n  const key = self.crypto?.randomUUID ? self.crypto.randomUUID() : Math.random().toString(36).slice(2);\n  const headers = new Headers(request.headers);\n  headers.set('Idempotency-Key', key);\n  try { return await fetch(new Request(request, { headers })); } catch { await save({ key, url: request.url }); }\n}",
    // A new key only after the receiver refused the previous one (422: reused with another payload).
    "import axiosRetry from 'axios-retry';\nimport { v4 as uuid } from 'uuid';\naxiosRetry(api, { retries: 3, onRetry(count, error, config) { if (error.response?.status === 422 && config.headers) { config.headers['Idempotency-Key'] = uuid(); } } });",
    // Keys the code says are unique per request on purpose, in a comment on the key or its statement.
    'export const exportCsv = (task, orgId) => task.trigger({ orgId }, {\n  // CSV exports are intentionally non-idempotent: each request makes a new export\n  idempotencyKey: `export-${orgId}-${Date.now()}`,\n});',
    "export async function reprocess(doc) {\n  // Reprocessing must use unique IDs: the queue returns the earlier job for a known id.\n  await triggerJob('process', { id: doc.id }, 'documents', { jobId: `reprocess-${doc.id}-${Date.now()}` });\n}",
    "export async function classify(file) {\n  /* NOTE: job ids must include a timestamp for reprocessing to work */\n  await queue.add('classify', { file }, { jobId: `classify-${file}-${Date.now()}` });\n}",
    'export async function charge(amount) {\n  const key = crypto.randomUUID(); // a new key per click, deliberately\n  await stripe.charges.create({ amount }, { idempotencyKey: key });\n}',
    {
      // The pattern is an option: a project's own wording.
      code: "export async function send(body) {\n  // idempotency: fresh per send\n  await fetch(url, { method: 'POST', headers: { 'Idempotency-Key': crypto.randomUUID() }, body });\n}",
      options: [{ intentionalComment: 'idempotency: fresh per send' }],
    },
    // Minted once before a retry wrapper: every retry of the callback sends the same key.
    "import { v4 } from 'uuid'; async function start(data) { const key = v4(); return pRetry(() => axios.post(url, data, { headers: { 'Idempotency-Key': key } }), { retries: 3 }); }",
    // A builder whose result is stored in a row, not sent.
    'function buildPayment(amount) { return { amount, idempotencyKey: crypto.randomUUID() }; } async function create(db, amount) { await db.insert(payments).values(buildPayment(amount)); }',
    // Rotating the key kept on a stored row (a query builder's update).
    'async function rotate(db, id) { await db.update(keys).set({ idempotencyKey: crypto.randomUUID() }).where(eq(keys.id, id)); }',
    // A parameter the callers fill from the message.
    "async function open(data, idempotencyKey) { return axios.post(url, data, { headers: { 'Idempotency-Key': idempotencyKey } }); } async function onMessage(message) { return open(message.body, `msg:${message.id}`); }",
    // The seed documents' correct examples.
    'export const keyed = (api) => (message) => api.charge({ amount: message.amount, key: `msg:${message.id}` })',
    `export function deduped(api, seen = new Map()) {
      return (message) => {
        if (seen.has(message.id)) return { ...seen.get(message.id), skipped: true }
        const result = api.charge({ amount: message.amount, key: \`msg:\${message.id}\` })
        seen.set(message.id, result)
        return result
      }
    }`,
    `async function chargeOnce(job) {
      const res = await fetch('https://api.example-payments.test/v1/charges', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'Idempotency-Key': job.id },
        body: JSON.stringify({ amount: job.data.amount, currency: 'gbp' }),
        signal: AbortSignal.timeout(10_000),
      });
      return res.json();
    }`,
    "async function f(emails, order) { await emails.add('send-receipt', { orderId: order.id }, { jobId: `send-receipt:${order.id}` }); }",
    // A key derived from the message.
    "async function f(message) { await fetch(url, { method: 'POST', headers: { 'Idempotency-Key': `msg:${message.id}` } }); }",
    "import { v5 } from 'uuid'; async function f(job) { await stripe.charges.create({ amount: 1 }, { idempotencyKey: v5(job.id, NAMESPACE) }); }",
    "import { createHash } from 'node:crypto'; async function f(job) { await api.charge({ idempotencyKey: createHash('sha256').update(job.id).digest('hex') }); }",
    'async function f(job) { await api.charge({ idempotencyKey: `charge:${job.id}:${new Date(job.createdAt).getTime()}` }); }',
    // A fresh UUID as a row id, not a key.
    "import { randomUUID } from 'node:crypto'; async function f(pool, job) { await pool.query('INSERT INTO orders (id, job_id) VALUES ($1, $2)', [randomUUID(), job.id]); }",
    'async function f(db, job) { await db.insert(orders).values({ id: crypto.randomUUID(), jobId: job.id }); }',
    // Request-id and trace headers are not idempotency keys.
    "async function f() { await fetch(url, { method: 'POST', headers: { 'X-Request-Id': crypto.randomUUID(), traceparent: makeTrace() } }); }",
    "import axios from 'axios'; const client = axios.create(); client.defaults.headers.common['x-request-id'] = crypto.randomUUID();",
    "import { v4 as uuid } from 'uuid'; api.interceptors.request.use((config) => { if (!config.headers['x-correlation-id']) { config.headers['x-correlation-id'] = uuid(); } return config; });",
    // Minted once and kept: component state, a class field, a module-level const, form state.
    {
      code: "import { useState } from 'react'; import { v4 } from 'uuid'; function Pay() { const [key] = useState(() => v4()); return <button onClick={() => fetch(url, { method: 'POST', headers: { 'Idempotency-Key': key } })} />; }",
      languageOptions: { parserOptions: { ecmaFeatures: { jsx: true } } },
    },
    "import { useRef } from 'react'; function Pay() { const key = useRef(crypto.randomUUID()); const pay = () => api.pay({ idempotencyKey: key.current }); }",
    "import { useMemo } from 'react'; function Pay() { const key = useMemo(() => crypto.randomUUID(), []); const pay = () => api.pay({ idempotencyKey: key }); }",
    "import { v4 } from 'uuid'; const formData = reactive({ idempotencyKey: route.query.key || v4(), amount: '' }); async function submit() { await api.createPayment({ idempotencyKey: formData.idempotencyKey }); }",
    'class Checkout { key = crypto.randomUUID(); pay() { return this.api.pay({ idempotencyKey: this.key }); } }',
    'const KEY = crypto.randomUUID(); async function f() { await api.pay({ idempotencyKey: KEY }); }',
    // Vue options API: minted in data(), reused by every submit.
    "import { v4 } from 'uuid'; export default { data() { return { form: { idempotencyKey: v4() } }; }, methods: { submit() { return this.api.pay(this.form); } } };",
    // A form reset after success: the state gets a new key for the next payment.
    "import { v4 } from 'uuid'; const form = { idempotencyKey: '' }; function reset() { form.idempotencyKey = v4(); }",
    // Minted when the event enters the system and stored with the message or row later deliveries carry.
    "import { randomUUID } from 'node:crypto'; app.post('/charge', async (req, res) => { await queue.add('charge', { idempotencyKey: randomUUID(), amount: req.body.amount }); res.end(); });",
    'async function f(sqs, order) { await sqs.sendMessage({ QueueUrl: url, MessageBody: JSON.stringify({ orderId: order.id, idempotencyKey: crypto.randomUUID() }) }); }',
    'async function f(prisma, order) { await prisma.payment.create({ data: { orderId: order.id, idempotencyKey: crypto.randomUUID() } }); }',
    // A builder returns the key; nothing is sent here.
    "import { randomBytes } from 'crypto'; function generateIdempotencyHeader() { return { 'Idempotency-Key': randomBytes(18).toString('base64') }; }",
    // Set only when the request has none yet, on an instance that retries: the retry re-sends
    // the same config with the same key.
    "api.interceptors.request.use((config) => { if (config.headers['Idempotency-Key'] == undefined) { config.headers['Idempotency-Key'] = crypto.randomUUID(); } return config; }); api.interceptors.response.use(undefined, (error) => api.request(error.config));",
    "import axiosRetry from 'axios-retry'; import { v4 as uuid } from 'uuid'; const IDEMPOTENCY_KEY = 'Idempotency-Key'; export function makeRetryable(axios) { axios.interceptors.request.use((config) => { const key = config.headers[IDEMPOTENCY_KEY]; if (key) { return config; } config.headers[IDEMPOTENCY_KEY] = uuid(); return config; }); axiosRetry(axios, { retries: 3 }); }",
    "import axiosRetry from 'axios-retry'; axiosRetry(api, { retries: 3 }); api.interceptors.request.use((config) => { if (!config.headers['Idempotency-Key']) config.headers['Idempotency-Key'] = crypto.randomUUID(); return config; });",
    // A key passed through from the client.
    'async function create(req, res) { const response = await sdk.createTransaction({ idempotencyKey: req.body.idempotencyKey, amount: req.body.amount }); res.json(response); }',
    // Logged or answered, not sent on.
    'function f() { console.log({ idempotencyKey: crypto.randomUUID() }); }',
    // Inside a test, every run is a new request on purpose.
    "it('charges', async () => { await api.charge({ idempotencyKey: crypto.randomUUID(), amount: 1 }); });",
    // Time buckets chosen on purpose.
    "async function f(queue) { await queue.add('daily-report', {}, { jobId: `report-${new Date().toISOString().slice(0, 10)}` }); }",
    "async function f(queue) { await queue.add('sync', {}, { jobId: `sync-${Math.floor(Date.now() / 3_600_000)}` }); }",
    // PayPal request ids derived from the order, passed through from the client, or stored with the job.
    "app.post('/orders/:id/capture', async (req, res) => { res.json(await ordersController.captureOrder({ id: req.params.id, paypalRequestId: `capture-${req.params.id}` })); });",
    "app.post('/orders', async (req, res) => { res.json(await ordersController.createOrder({ body: req.body, paypalRequestId: req.get('PayPal-Request-Id') })); });",
    "import { randomUUID } from 'node:crypto'; app.post('/orders', async (req, res) => { await queue.add('create-order', { paypalRequestId: randomUUID(), cart: req.body }); res.end(); });",
    // addBulk entries keyed by the item.
    "async function f(queue, items) { await queue.addBulk(items.map((item) => ({ name: 'sync', data: item, opts: { jobId: `sync:${item.id}` } }))); }",
    // A key one level down: Prisma row writes store it, metadata is not a key, deeper levels and logs are not payloads.
    "import { randomUUID } from 'node:crypto'; async function f(db, id) { await db.transfer.update({ where: { id }, data: { idempotencyKey: randomUUID() } }); }",
    "import { randomUUID } from 'node:crypto'; async function f(prisma, order) { await prisma.payment.upsert({ where: { orderId: order.id }, create: { orderId: order.id, idempotencyKey: randomUUID() }, update: {} }); }",
    "import { randomUUID } from 'node:crypto'; async function f(order) { await stripe.paymentIntents.create({ amount: order.amount, metadata: { idempotencyKey: randomUUID() } }); }",
    "import { randomUUID } from 'node:crypto'; async function f() { logger.info('charging', { data: { idempotencyKey: randomUUID() } }); }",
    'async function f(job) { await this.mercury.createTransaction({ accountId: job.data.accountId, data: { amount: job.data.amount, idempotencyKey: `transfer:${job.id}` } }); }',
    // A fallback behind a key joined from several parts: it runs only when every part is empty.
    'async function bill(uid, callId, resultId, tool) { const key = [callId, resultId, tool].filter(Boolean).join(":") || `${uid}:${tool}:${Date.now()}`; await api.charge({ idempotencyKey: key }); }',
    'async function bill(given, callId, tool) { const joined = given || [callId, tool].filter(Boolean).join(":"); const key = joined || `${tool}:${Date.now()}`; await api.charge({ idempotencyKey: key }); }',
    // A local generator that derives its key: read for what it returns, not by its name.
    'function generateIdempotencyKey() { return "fixed"; } async function f() { await api.charge({ idempotencyKey: generateIdempotencyKey() }); }',
    // A generator called with the parts it derives from.
    "import { makeKey } from './keys'; async function f(job) { await api.charge({ idempotencyKey: makeKey(job.id) }); }",
    // Handed to a call told to retry: that call re-sends the same key on every attempt.
    'async function order(payload) { const key = crypto.randomUUID(); await fetchWithResilience(url, { method: "POST", body: JSON.stringify(payload), idempotencyKey: key, retry: { retries: 2 } }); }',
    // A key-named value handed to a function of this file is followed from its parameter.
    "async function open(data, idempotencyKey) { return axios.post(url, data, { headers: { 'Idempotency-Key': idempotencyKey } }); } async function onMessage(message) { const idempotencyKey = `msg:${message.id}`; return open(message.body, idempotencyKey); }",
    // Minted once in component state and handed to the client on every attempt.
    "import { useRef } from 'react'; function useOpen(client) { const key = useRef(crypto.randomUUID()); return () => client.openSession({}, key.current); }",
    // A debug route that wants a new job each time it is hit, and a developer's script.
    "app.get('/debug/insights/:id', async (req, res) => { await queue.add('insights', { id: req.params.id }, { jobId: `debug:${req.params.id}:${Date.now()}` }); res.end(); });",
    {
      code: "async function main() { await queue.add('insight', {}, { jobId: `test-${Date.now()}` }); }\nmain();",
      filename: 'scripts/generate-test-insight.ts',
    },
    // Minted once and stored with the row or the outbox command that later syncs replay.
    "async function createSale(db, params) { const idempotencyKey = uuidv4(); await db.runAsync('INSERT INTO sales (id, idempotency_key) VALUES (?, ?)', [params.id, idempotencyKey]); return { ...params, idempotencyKey }; }",
    "import { buildCommand } from './commands'; async function offline(outbox, payload) { const idempotencyKey = uuidv4(); await outbox.enqueue(buildCommand(payload, idempotencyKey)); }",
    // Saved in component state with the request, which the retry action re-sends.
    "async function send(content) { const idem = newIdempotencyKey(); const headers = { 'x-idempotency-key': idem }; const snapshot = { headers, body: { content } }; setPendingMessage({ snapshot }); await retryFetch('/api/chat', { method: 'POST', headers, body: JSON.stringify({ content }) }); }",
    // An SDK's request function fills in a key per logical call when its caller gave none, and
    // nothing re-runs it per attempt (fintoc-node, stripe-node): the caller who retries passes one.
    "import crypto from 'crypto';\nexport class Client {\n  async request({ path, method = 'get', json, idempotencyKey }) {\n    const headers = this.buildHeaders(method, idempotencyKey);\n    return (await this.http.request({ method, url: path, data: JSON.stringify(json), headers })).data;\n  }\n  private buildHeaders(method, idempotencyKey) {\n    const headers = {};\n    if (method === 'post') headers['Idempotency-Key'] = idempotencyKey || crypto.randomUUID();\n    return headers;\n  }\n}",
    // Re-run by its own retries, but the default is written back onto the caller's options, which
    // every retry passes again: the next attempt finds it and keeps it.
    "const uuid4 = () => 'xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx'.replace(/[xy]/g, (c) => ((Math.random() * 16) | 0).toString(16));\nexport class Core {\n  buildRequest(inputOptions) {\n    const options = { ...inputOptions };\n    const { method, headers = {} } = options;\n    if (method !== 'get') {\n      if (!inputOptions.idempotencyKey) inputOptions.idempotencyKey = `retry-${uuid4()}`;\n      headers['Idempotency-Key'] = inputOptions.idempotencyKey;\n    }\n    return { method, headers };\n  }\n  async makeRequest(options, retries) {\n    const req = this.buildRequest(options);\n    const response = await fetch(this.url, req).catch((error) => error);\n    if (response instanceof Error && retries) return this.retryRequest(options, retries);\n    return response;\n  }\n  async retryRequest(options, retries) { await sleep(500); return this.makeRequest(options, retries - 1); }\n}",
    // Re-entered by its own retry, which hands the defaulted key back in the key's parameter: the
    // fallback runs on the first attempt only (remit-md's SDK).
    "import { randomUUID } from 'node:crypto';\nexport class Http {\n  post(path, body) { return this.#request('POST', path, body); }\n  async #request(method, path, body, attempt = 0, idempotencyKey) {\n    const key = idempotencyKey ?? (method === 'POST' ? randomUUID() : undefined);\n    const headers = {};\n    if (key) headers['X-Idempotency-Key'] = key;\n    const response = await fetch(this.base + path, { method, headers, body: JSON.stringify(body), signal: AbortSignal.timeout(5000) });\n    if (response.status >= 500 && attempt < 3) return this.#request(method, path, body, attempt + 1, key);\n    return response.json();\n  }\n}",
    // An SDK method for one endpoint fills in a key when its caller gave none; no caller in sight
    // leaves it out (workos-node): one key per logical call, the API's contract.
    "export class AuditLogs {\n  async createEvent(organization, event, options = {}) {\n    const withKey = { ...options, idempotencyKey: options.idempotencyKey || `workos-node-${globalThis.crypto.randomUUID()}` };\n    await this.workos.post('/audit_logs/events', { event, organization_id: organization }, withKey);\n  }\n}",
    // The same with a conditional default (gocardless-nodejs).
    "import { v4 as uuidv4 } from 'uuid';\nexport class Api {\n  async request({ method = 'get', idempotencyKey = '' }) { return got(this.createOptions(method, idempotencyKey)); }\n  private createOptions(method, idempotencyKey) {\n    const headers = {};\n    if (method === 'post') headers['Idempotency-Key'] = idempotencyKey ? idempotencyKey : uuidv4();\n    return { method, headers };\n  }\n}",
    // The row's own key is read first and a minted one is written back into that field before the
    // send: a later sweep reads the stored key and resends it (a payout retry job).
    "export async function retryPayouts(prisma, provider) {\n  for (const p of await prisma.payout.findMany({ where: { status: 'FAILED' } })) {\n    const idem = p.idempotencyKey?.trim() ? p.idempotencyKey : crypto.randomUUID();\n    if (!p.idempotencyKey) await prisma.payout.update({ where: { id: p.id }, data: { idempotencyKey: idem } });\n    await provider.pay({ payoutId: p.id, amount: p.amount, idempotencyKey: idem });\n  }\n}",
    // A route's key is the caller's request id, minted only when the caller sent none: a caller's
    // retry with its id is deduplicated (a Next.js route).
    "export async function POST(request) {\n  const requestId = request.headers.get('X-Request-Id') ?? crypto.randomUUID();\n  const receipt = await tanso.events.ingest({ featureKey: 'chat', eventIdempotencyKey: `usage-${requestId}`, usageUnits: 1 });\n  return Response.json(receipt);\n}",
    // Minted into the body handed to a function whose own loop over attempts re-sends it: one key
    // per call of the caller (a Circle client's `circleRequest`).
    "import { randomBytes } from 'node:crypto';\nasync function circleRequest(method, path, body) {\n  for (let attempt = 0; attempt <= MAX_RETRIES; attempt++) {\n    try {\n      const response = await fetch(BASE + path, { method, body: JSON.stringify(body), signal: AbortSignal.timeout(15000) });\n      if (response.status >= 500 && attempt < MAX_RETRIES) continue;\n      return response.json();\n    } catch (error) {\n      if (attempt === MAX_RETRIES) throw error;\n    }\n  }\n}\nexport async function createWallet(userId) {\n  return circleRequest('POST', '/wallets', { idempotencyKey: randomBytes(16).toString('hex'), walletSetId: userId });\n}",
    // Minted once per call before the request goes to a function that retries it by calling itself
    // again (trigger.dev): every retry re-sends that key.
    "async function fetchWithRetries(url, init, attempt = 1) {\n  const response = await fetch(url, init);\n  if (!response.ok && attempt < 3) return fetchWithRetries(url, init, attempt + 1);\n  return response;\n}\nexport async function send(url, body) {\n  const idempotencyKey = crypto.randomUUID();\n  const headers = new Headers();\n  headers.set('Idempotency-Key', idempotencyKey);\n  return fetchWithRetries(url, { method: 'POST', headers, body });\n}",
    // Minted after the row exists and stored with it by a function named for storing the key.
    "import { createIdempotencyKey, generateIdempotencyKey } from './keys';\nexport async function createBooking(db, input) {\n  const booking = await db.booking.create({ data: input });\n  const idempotencyKey = generateIdempotencyKey();\n  await createIdempotencyKey(idempotencyKey, booking.id);\n  return { bookingId: booking.id, idempotencyKey };\n}",
    // Comments that state a fresh key per request is the intent, or that the value is the key.
    'export async function retryCheckout(ad) {\n  // Always issues a fresh Checkout Session: the earlier one may have expired, so this must not be deduped.\n  return createCheckoutSession({ adId: ad.id, idempotencyKey: `ad-checkout:${ad.id}:${Date.now()}` });\n}',
    'export async function fire(queue, schedule) {\n  // Each firing runs exactly once, so the firing timestamp is a valid logical execution key.\n  await queue.enqueue(buildPayload({ id: schedule.id, idempotencyKey: keyFor(schedule.id, Date.now()) }));\n}',
    // Drawn once when the gateway is built (its constructor, a NestJS init hook): one key per
    // instance, sent by every charge; not minted per attempt.
    "import axios from 'axios';\nimport { randomUUID } from 'crypto';\nexport class Gateway {\n  api = axios.create({ baseURL: 'https://api.example.com' });\n  constructor() {\n    this.api.defaults.headers.common['X-Idempotency-Key'] = randomUUID();\n  }\n  async charge(body) { return (await this.api.post('/v1/payments', body)).data; }\n}",
    "import axios from 'axios';\nexport class Client {\n  http = axios.create();\n  onModuleInit() { this.http.defaults.headers.common['Idempotency-Key'] = crypto.randomUUID(); }\n  pay(body) { return this.http.post('/pay', body); }\n}",
    // The helper mints its key once, before its own retry loop: every attempt sends that key.
    "function newIdemKey(prefix = 'CK_') {\n  return prefix + crypto.randomUUID().replace(/-/g, '').slice(1, 24);\n}\nexport async function postWithIdempotency(path, body, { keyPrefix = 'CK_', maxRetries = 10 } = {}) {\n  const key = newIdemKey(keyPrefix);\n  const stableBody = JSON.parse(JSON.stringify(body));\n  for (let i = 0; i < maxRetries; i++) {\n    try {\n      return await api(path, { method: 'POST', body: JSON.stringify(stableBody), headers: { 'Idempotency-Key': key } });\n    } catch (error) {\n      if (error.code === 'idempotency_in_progress') { await sleep(1000); continue; }\n      throw error;\n    }\n  }\n  throw new Error('too_many_retries');\n}",
    'export async function charge(body) {\n  const idempotencyKey = crypto.randomUUID();\n  let attempt = 0;\n  while (attempt < 3) {\n    try { return await stripe.charges.create(body, { idempotencyKey }); } catch { attempt++; }\n  }\n}',
    // A helper documented as unique per call on purpose: a reused key is refused.
    "import { randomUUID } from 'node:crypto';\n/** Unique per call — Stripe rejects a reused key on a different request. */\nexport const buildStripeIdempotencyKey = ({ source }) => `app:${source ?? 'billing'}:${randomUUID()}`;\nexport const stripeRequestOptions = ({ source } = {}) => ({ idempotencyKey: buildStripeIdempotencyKey({ source }) });",
    'export class Payments {\n  // A new key per call: the key must never be reused, the provider refuses a reused key.\n  keyFor(orderId) { return `${orderId}-${Date.now()}`; }\n  pay(order) { return stripe.charges.create(order, { idempotencyKey: this.keyFor(order.id) }); }\n}',
    // A key written into a row through the project's own store (Prisma's write arguments): the
    // expired key moved aside, a placeholder in its place; the row keeps it, nothing sends it.
    "import { nanoid } from 'nanoid';\nexport async function rotate(store, existing) {\n  const rotateArgs = { where: { id: existing.id }, data: { idempotencyKey: nanoid(24), inactiveIdempotencyKey: existing.idempotencyKey } };\n  await store.updateWaitpoint(rotateArgs);\n}",
    "import { nanoid } from 'nanoid';\nexport class Waitpoints {\n  build(projectId) { return { type: 'RUN', idempotencyKey: nanoid(24), projectId }; }\n  async create(projectId, runId) {\n    const data = this.build(projectId);\n    return this.$.runStore.createWaitpoint({ data: { ...data, completedByTaskRunId: runId } });\n  }\n}",
    "import { nanoid } from 'nanoid';\nexport async function park(repo, id) { await repo.moveAside({ where: { id }, data: { idempotencyKey: nanoid() } }); }",
    // The same header builder handed the caller's own options, which every retry passes again:
    // the first attempt's key is found by the next.
    "import { uuid4 } from './uuid';\nexport class Core {\n  buildRequest(options) {\n    const headers = this.buildHeaders({ options, method: options.method });\n    return { method: options.method, headers };\n  }\n  buildHeaders({ options, method }) {\n    const headers = {};\n    if (method !== 'get') {\n      if (!options.idempotencyKey) options.idempotencyKey = this.defaultIdempotencyKey();\n      headers['Idempotency-Key'] = options.idempotencyKey;\n    }\n    return headers;\n  }\n  defaultIdempotencyKey() { return `sdk-retry-${uuid4()}`; }\n  async makeRequest(options, retries) {\n    const response = await fetch(this.url, this.buildRequest(options)).catch((error) => error);\n    if (response instanceof Error && retries) return this.retryRequest(options, retries);\n    return response;\n  }\n  async retryRequest(options, retries) { await sleep(500); return this.makeRequest(options, retries - 1); }\n}",
    // A key kept in a ref until the action succeeds: cleared only after success, so a retry after a
    // failure sends the same key.
    "import { useRef, useCallback } from 'react';\nimport { useMutation } from '@tanstack/react-query';\nexport function useSafeMutation(mutationFn) {\n  const keyRef = useRef(null);\n  const run = useCallback(async (variables) => {\n    if (!keyRef.current) keyRef.current = crypto.randomUUID();\n    apiClient.defaults.headers.common['Idempotency-Key'] = keyRef.current;\n    const result = await mutationFn(variables);\n    keyRef.current = null;\n    return result;\n  }, [mutationFn]);\n  const mutation = useMutation({ mutationFn: run, onSuccess: () => { keyRef.current = null; toast('Saved'); } });\n  return { mutate: (variables) => mutation.mutate(variables) };\n}",
    // Attempt scopes: a loop over chunks is not a retry, so its index names a different request.
    "export async function upload(file, chunks) {\n  for (let i = 0; i < chunks.length; i++) {\n    await fetch(url, { method: 'PUT', headers: { 'Idempotency-Key': `${file.id}-${i}` }, body: chunks[i] });\n  }\n}",
    // A count the application stores and reads back (a new key only after a recorded failure).
    'export async function renew(invoice) {\n  await stripe.invoices.pay(invoice.id, {}, { idempotencyKey: `${invoice.id}-${invoice.failedAttempts}` });\n}',
    // The attempt number of a callback that never fails is always the first: async-retry runs it once.
    "import retry from 'async-retry';\nexport async function pay(body) {\n  return retry(async (bail, attempt) => {\n    try {\n      await square.paymentsApi.createPayment({ ...body, idempotencyKey: `${body.orderId}:${attempt}` });\n    } catch (error) {\n      log(error);\n    }\n  });\n}",
    // Made before async-retry's callback, in a function no delivery re-runs: every try sends it.
    "import retry from 'async-retry';\nimport { randomUUID } from 'node:crypto';\nexport async function pay(body) {\n  const key = randomUUID();\n  return retry(async (bail, attempt) => square.paymentsApi.createPayment({ ...body, idempotencyKey: key }), { retries: 3 });\n}",
    // A key from the job's id, sent by every try of a retry helper inside a worker.
    "import { Worker } from 'bullmq';\nimport { backOff } from 'exponential-backoff';\nnew Worker('usage', async (job) => {\n  await backOff(() => fetch(url, { method: 'POST', headers: { 'Idempotency-Key': `usage:${job.id}` }, body: JSON.stringify(job.data) }));\n});",
    // A Temporal workflow makes the key: `uuid4()` of @temporalio/workflow and the sandbox's clock
    // are the same on every replay, and the activity is retried with the key it was handed.
    "import { proxyActivities, uuid4 } from '@temporalio/workflow';\nconst { deposit } = proxyActivities({ startToCloseTimeout: '1 minute' });\nexport async function transfer(amount) {\n  const idempotencyKey = uuid4();\n  await deposit(idempotencyKey, amount);\n  await fetch(url, { method: 'POST', headers: { 'Idempotency-Key': idempotencyKey }, body: '{}' });\n}",
    "import { proxyActivities } from '@temporalio/workflow';\nconst { charge } = proxyActivities({ startToCloseTimeout: '1 minute' });\nexport async function bill(order) {\n  await charge(order.amount, { idempotencyKey: `bill-${order.id}-${Date.now()}` });\n}",
    // A key written into the message a producer enqueues is that message's identity: its consumer
    // sends it on every redelivery (flossbank's billing run puts one per charge on SQS).
    "import { v4 as uuidv4 } from 'uuid';\nexport async function bill(sqs, advertiser) {\n  await sqs.sendMessage({ amount: advertiser.amount, customerId: advertiser.customerId, idempotencyKey: uuidv4() });\n}",
    // The key is made once per post and handed to a request function that schedules itself again
    // with the same headers on a failed response: every retry re-sends it (semaphore's front end).
    "import { v4 as uuid } from 'uuid';\nexport var Http = {\n  request: (method, url, body, callback, headers, options) => {\n    fetch(url, { method, body, headers }).then((response) => {\n      if (response.ok) callback(response);\n      else setTimeout(Http.request.bind(null, method, url, body, callback, headers, options), 1000);\n    });\n  },\n  post: (url, body, callback) => {\n    const headers = { 'Idempotency-Key': uuid() };\n    return Http.request('POST', url, body, callback, headers);\n  },\n};",
    {
      // The field a user-declared key parameter names, from the job's own id: the same on every delivery.
      code: "import { Worker } from 'bullmq';\nimport { orchestrationQueue } from './queues';\nnew Worker('scheduled', async (job) => {\n  await orchestrationQueue.enqueue({ eventId: `sched-${job.id}`, request: crypto.randomUUID() });\n});",
      settings: SETTINGS_BY_FIELD,
    },
  ],
  invalid: [
    {
      // The same closure with the key made inside it: each try of the hand-written retry sends a new key.
      code: "export async function checkout(url, payload) {\n  const attempt = () => fetch(url, { method: 'POST', headers: { 'Idempotency-Key': crypto.randomUUID() }, body: JSON.stringify(payload), signal: AbortSignal.timeout(5000) });\n  try {\n    const response = await attempt();\n    if (response.status < 500) return response;\n  } catch {}\n  return attempt();\n}",
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 2,
          data: { name: 'Idempotency-Key', source: 'crypto.randomUUID()', ...inRetry('attempt') },
        },
      ],
      output: null,
    },
    {
      // Two requests, not two tries of one: a closure called with other arguments is no retry, and
      // a key it mints is minted per call as anywhere else.
      code: "export async function notifyBoth(url) {\n  const post = (to) => fetch(url, { method: 'POST', headers: { 'Idempotency-Key': crypto.randomUUID() }, body: to, signal: AbortSignal.timeout(5000) });\n  await post('a');\n  await post('b');\n}",
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 2,
          data: { name: 'Idempotency-Key', source: 'crypto.randomUUID()', ...ANY_RERUN },
        },
      ],
      output: null,
    },
    {
      // The queue looked up is another one: nothing stops a second add to this queue.
      code: "export async function queueHighlights(batchQueue, otherQueue, matchId) {\n  const existing = await otherQueue.getJobs(['waiting']);\n  if (!existing.some((j) => j.data?.matchId === matchId)) {\n    await batchQueue.add('highlights', { matchId }, { jobId: `${matchId}-${Date.now()}` });\n  }\n}",
      errors: [{ messageId: KEY_MESSAGE, line: 4 }],
      output: null,
    },
    {
      // A GraphQL mutation's input object, in place under the client's variables: a new key on every run.
      code: "import { v4 as uuid } from 'uuid';\nexport async function onPaymentCreated(client, wh) {\n  await client.mutate({ mutation: DEPOSIT, variables: { input: { paymentId: wh.data.id, idempotencyKey: uuid() } } });\n}",
      errors: [{ messageId: KEY_MESSAGE, line: 3, data: { name: 'idempotencyKey', source: 'uuid()', ...ANY_RERUN } }],
      output: null,
    },
    {
      // The same input held in a binding the mutation's variables take.
      code: "import { v4 as uuid } from 'uuid';\nexport async function depositPeerLiquidity(client, peerId, amount) {\n  const variables = { input: { peerId, amount, idempotencyKey: uuid() } };\n  return client.mutate({ mutation: DEPOSIT, variables });\n}",
      errors: [{ messageId: KEY_MESSAGE, line: 3, data: { name: 'idempotencyKey', source: 'uuid()', ...ANY_RERUN } }],
      output: null,
    },
    {
      // A key helper whose last part defaults to the clock: every caller that leaves it out gets a new key.
      code: "export function generateStripeIdempotencyKey(params: { tenantId: string; quantity: number; timestamp?: number }): string {\n  const { tenantId, quantity, timestamp = Date.now() } = params;\n  const components = ['push', tenantId, quantity.toFixed(6), timestamp.toString()];\n  return components.join(':');\n}",
      errors: [{ messageId: 'perAttemptKey', line: 2, column: 43 }],
      output: null,
    },
    {
      // Made inside a function handed by its name to p-retry: new on every retry.
      code: "import pRetry from 'p-retry';\nexport async function charge(stripe, amount) {\n  const attempt = () => stripe.charges.create({ amount }, { idempotencyKey: crypto.randomUUID() });\n  return pRetry(attempt, { retries: 3 });\n}",
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 3,
          data: { name: 'idempotencyKey', source: 'crypto.randomUUID()', ...inRetry('pRetry') },
        },
      ],
      output: null,
    },
    {
      // Made inside the operation a project's retry helper is handed in its options: new on every retry.
      code: "export async function pay(stripe, params) {\n  return withRetry({ fn: () => stripe.paymentIntents.create(params, { idempotencyKey: crypto.randomUUID() }), shouldRetry: (error) => error.type === 'StripeConnectionError' });\n}",
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 2,
          data: { name: 'idempotencyKey', source: 'crypto.randomUUID()', ...inRetry('withRetry') },
        },
      ],
      output: null,
    },
    {
      // Stripe refuses a meter event whose identifier it has seen: a fresh one per delivery bills the usage twice.
      code: "import type { SQSEvent } from 'aws-lambda';\nexport const handler = async (event: SQSEvent) => {\n  for (const record of event.Records)\n    await stripe.billing.meterEvents.create({ event_name: 'api_calls', identifier: crypto.randomUUID(), payload: JSON.parse(record.body) });\n};",
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 4,
          data: { name: 'identifier', source: 'crypto.randomUUID()', ...REDELIVERY },
          suggestions: [
            {
              messageId: DERIVE,
              data: { id: 'record.messageId' },
              output:
                "import type { SQSEvent } from 'aws-lambda';\nexport const handler = async (event: SQSEvent) => {\n  for (const record of event.Records)\n    await stripe.billing.meterEvents.create({ event_name: 'api_calls', identifier: `msg:${record.messageId}`, payload: JSON.parse(record.body) });\n};",
            },
          ],
        },
      ],
      output: null,
    },
    {
      // The key is built from a field of the objects pushed into a local array, one of which holds
      // the clock: each redelivery of the batch sends every meter event under a new key.
      code: [
        "import type { SQSEvent } from 'aws-lambda';",
        'export const handler = async (event: SQSEvent) => {',
        '  const events = [];',
        '  for (const record of event.Records) {',
        '    const meterEvent = { identifier: record.messageId, timestamp: Math.floor(Date.now() / 1000) };',
        '    events.push(meterEvent);',
        '  }',
        '  await Promise.allSettled(events.map((e) => {',
        '    const idempotencyKey = `usage-${e.identifier}-${e.timestamp}`;',
        '    return stripe.billing.meterEvents.create(e, { idempotencyKey });',
        '  }));',
        '};',
      ].join('\n'),
      errors: [
        { messageId: KEY_MESSAGE, line: 10, data: { name: 'idempotencyKey', source: 'Date.now()', ...REDELIVERY } },
      ],
      output: null,
    },
    {
      // A field of an object literal made in the retry callback, read through a `for…of` of a literal array.
      code: "import pRetry from 'p-retry';\nexport async function send(items) {\n  await pRetry(async () => {\n    for (const entry of [{ id: items.id, stamp: new Date().toISOString() }]) {\n      await fetch(url, { method: 'POST', headers: { 'Idempotency-Key': `${entry.id}:${entry.stamp}` } });\n    }\n  });\n}",
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 5,
          data: { name: 'Idempotency-Key', source: 'new Date()', ...inRetry('pRetry') },
        },
      ],
      output: null,
    },
    {
      // An untyped EventBridge Lambda (it reads the envelope's `detail-type` in the helper it
      // hands the event to) publishes a domain event whose idempotency key is a fresh uuid.
      code: [
        "import { v4 } from 'uuid';",
        "import { PutEventsCommand } from '@aws-sdk/client-eventbridge';",
        "const transform = (event) => ({ DetailType: event['detail-type'] === 'Object Created' ? 'ClaimCreated' : 'ClaimProcessed', Detail: JSON.stringify({ metadata: { 'idempotency-key': v4() }, data: event.detail }) });",
        'export async function handler(event) {',
        '  await client.send(new PutEventsCommand({ Entries: [transform(event)] }));',
        '}',
      ].join('\n'),
      errors: [{ messageId: KEY_MESSAGE, line: 3, data: { name: 'idempotency-key', source: 'v4()', ...REDELIVERY } }],
      output: null,
    },
    {
      // The window's end is saved only after every event of the window is sent: a run that fails
      // half-way saves nothing, and the next run bills the same usage under new identifiers.
      code: [
        "import Stripe from 'stripe';",
        'const stripe = new Stripe(process.env.STRIPE_KEY);',
        'export async function report(db, owners) {',
        '  const windowEnd = new Date();',
        '  if (owners.length === 0) {',
        '    await db.cursor.update({ data: { reportedUntil: windowEnd } });',
        '    return;',
        '  }',
        '  for (const owner of owners)',
        "    await stripe.billing.meterEvents.create({ event_name: 'minutes', identifier: `${owner.id}:${windowEnd.toISOString()}`, payload: { stripe_customer_id: owner.id, value: '1' } });",
        '  await db.cursor.update({ data: { reportedUntil: windowEnd } });',
        '}',
      ].join('\n'),
      errors: [{ messageId: KEY_MESSAGE, line: 10, data: { name: 'identifier', source: 'new Date()', ...ANY_RERUN } }],
      output: null,
    },
    {
      // The key is written into the transaction's row and then sent: a client's retry of the
      // request mints another and writes another row, and nothing reads the first one back.
      code: [
        'async function mint(wallet, amount, transactionId) {',
        "  await fetch('https://api.circle.example/v1/transfers', { method: 'POST', body: JSON.stringify({ idempotencyKey: transactionId, amount }), signal: AbortSignal.timeout(10_000) });",
        '}',
        'export async function handler(db, event) {',
        '  const transactionId = `txn_${Date.now()}`;',
        "  await db.collection('transactions').insertOne({ transactionId, status: 'pending' });",
        '  await mint(event.wallet, event.amount, transactionId);',
        '}',
      ].join('\n'),
      errors: [
        { messageId: KEY_MESSAGE, line: 2, data: { name: 'idempotencyKey', source: 'Date.now()', ...ANY_RERUN } },
      ],
      output: null,
    },
    {
      // A project's publisher hands `deduplicationId` to a FIFO queue: a clock in it enqueues a resent webhook twice.
      code: "import { enqueue } from './queues';\nexport async function onBlock(req, res) {\n  await enqueue(process.env.QUEUE_URL, { block: req.body }, { messagegroup: 'blocks', deduplicationId: `block/${Date.now()}` });\n  res.sendStatus(200);\n}",
      errors: [
        { messageId: KEY_MESSAGE, line: 3, data: { name: 'deduplicationId', source: 'Date.now()', ...ANY_RERUN } },
      ],
      output: null,
    },
    {
      // QStash drops a message whose deduplication id it has seen: a fresh one per attempt enqueues it again.
      code: "import { Client } from '@upstash/qstash';\nimport { randomUUID } from 'node:crypto';\nconst qstash = new Client({ token: process.env.QSTASH_TOKEN });\nexport async function schedule(post) {\n  await qstash.publishJSON({ url: 'https://example.test/api/publish', body: { postId: post.id }, deduplicationId: randomUUID() });\n}",
      errors: [
        { messageId: KEY_MESSAGE, line: 5, data: { name: 'deduplicationId', source: 'randomUUID()', ...ANY_RERUN } },
      ],
      output: null,
    },
    {
      // MTN MoMo refuses a reference id it has seen (409 RESOURCE_ALREADY_EXIST) and takes a new one:
      // minted per call into the headers of the instance that call makes, each retry asks to pay again.
      code: "import { v4 as uuidv4 } from 'uuid';\nimport axios from 'axios';\nexport class Momo {\n  private headers(env: string, transactionId?: string) {\n    const headers: Record<string, string> = { 'X-Target-Environment': env, 'Ocp-Apim-Subscription-Key': 'k' };\n    if (transactionId) headers['X-Reference-Id'] = transactionId;\n    return headers;\n  }\n  private async client(env: string, transactionId?: string) {\n    return axios.create({ baseURL: 'https://momo', timeout: 5000, headers: this.headers(env, transactionId) });\n  }\n  async transfer(amount: number) {\n    const api = await this.client('prod', uuidv4());\n    await api.post('/disbursement/v1_0/transfer', { amount });\n  }\n}",
      errors: [{ messageId: KEY_MESSAGE, line: 6, data: { name: 'X-Reference-Id', source: 'uuidv4()', ...ANY_RERUN } }],
      output: null,
    },
    {
      // Wise treats a repeated customerTransactionId as the same transfer: a fresh one per run pays again.
      code: "import { v4 as uuid } from 'uuid';\nexport async function pay(wise, payout) {\n  await wise.post('/v1/transfers', { targetAccount: payout.recipientId, quoteUuid: payout.quoteId, customerTransactionId: uuid() });\n}",
      errors: [
        { messageId: KEY_MESSAGE, line: 3, data: { name: 'customerTransactionId', source: 'uuid()', ...ANY_RERUN } },
      ],
      output: null,
    },
    {
      // PayPal refuses a batch id it has seen in 30 days, and pays a new one: a fresh id per run pays again.
      code: "export async function payout(token, items) {\n  await fetch('https://api-m.paypal.com/v1/payments/payouts', { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: JSON.stringify({ sender_batch_header: { sender_batch_id: `payout_${Date.now()}`, email_subject: 'Paid' }, items }), signal: AbortSignal.timeout(10_000) });\n}",
      errors: [
        { messageId: KEY_MESSAGE, line: 2, data: { name: 'sender_batch_id', source: 'Date.now()', ...ANY_RERUN } },
      ],
      output: null,
    },
    {
      // PayPal's server SDK spells the same header in camel case.
      code: "import { randomUUID } from 'node:crypto';\nexport async function payout(controller, items) {\n  await controller.createPayout({ body: { senderBatchHeader: { senderBatchId: randomUUID() }, items } });\n}",
      errors: [
        { messageId: KEY_MESSAGE, line: 3, data: { name: 'senderBatchId', source: 'randomUUID()', ...ANY_RERUN } },
      ],
      output: null,
    },
    {
      // Paystack recognises a retried transfer by its reference: a clock in it makes each retry a new transfer.
      code: "export async function retryTransfer(payout) {\n  await fetch('https://api.paystack.co/transfer', { method: 'POST', body: JSON.stringify({ source: 'balance', amount: payout.amount, recipient: payout.recipientCode, reference: `${payout.id}-retry-${Date.now()}` }), signal: AbortSignal.timeout(10_000) });\n}",
      errors: [{ messageId: KEY_MESSAGE, line: 2, data: { name: 'reference', source: 'Date.now()', ...ANY_RERUN } }],
      output: null,
    },
    {
      // Paystack refuses a charge reference it has seen: a clock in it makes each retry a new charge.
      code: "export async function recharge(tx) {\n  await fetch('https://api.paystack.co/transaction/charge_authorization', { method: 'POST', body: JSON.stringify({ authorization_code: tx.authorizationCode, email: tx.email, amount: tx.amount, reference: `retry_${tx.id}_${Date.now()}` }), signal: AbortSignal.timeout(10_000) });\n}",
      errors: [{ messageId: KEY_MESSAGE, line: 2, data: { name: 'reference', source: 'Date.now()', ...ANY_RERUN } }],
      output: null,
    },
    {
      // The same charge through the project's own Paystack client, in a file that spells no request:
      // the charge's fields are what the file is kept for.
      code: "import { paystackRequest } from './paystack';\nexport async function recharge(tx) {\n  await paystackRequest('/transaction/charge_authorization', { authorization_code: tx.authorizationCode, email: tx.email, amount: tx.amount, reference: `retry_${tx.id}_${Date.now()}` });\n}",
      errors: [{ messageId: KEY_MESSAGE, line: 3, data: { name: 'reference', source: 'Date.now()', ...ANY_RERUN } }],
      output: null,
    },
    {
      // A mutation's `mutationFn` is run by the page's own `mutate()`, which gives no key: each
      // submit mints another (the callback is the project's, not an entry a caller outside runs).
      code: "import { useMutation } from '@tanstack/react-query';\nexport function useAssign() {\n  return useMutation({\n    mutationFn: ({ slotId, idempotencyKey }) =>\n      fetch('/api/slots/' + slotId, { method: 'POST', headers: { 'Idempotency-Key': idempotencyKey ?? crypto.randomUUID() } }),\n  });\n}",
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 5,
          data: { name: 'Idempotency-Key', source: 'crypto.randomUUID()', ...ANY_RERUN },
        },
      ],
      output: null,
    },
    {
      // The same fallback in a job processor: a message without a key is redelivered without one,
      // and each delivery mints another.
      code: "import { randomUUID } from 'node:crypto';\nimport { Worker } from 'bullmq';\nnew Worker('orders', async (job) => {\n  const idempotencyKey = job.data.idempotencyKey ?? randomUUID();\n  await fetch('https://connect.squareup.com/v2/orders', { method: 'POST', body: JSON.stringify({ idempotency_key: idempotencyKey, order: job.data.order }), signal: AbortSignal.timeout(10_000) });\n});",
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 5,
          data: { name: 'idempotency_key', source: 'randomUUID()', ...REDELIVERY },
          suggestions: [
            {
              messageId: DERIVE,
              data: { id: 'job.id' },
              output:
                "import { randomUUID } from 'node:crypto';\nimport { Worker } from 'bullmq';\nnew Worker('orders', async (job) => {\n  const idempotencyKey = job.data.idempotencyKey ?? randomUUID();\n  await fetch('https://connect.squareup.com/v2/orders', { method: 'POST', body: JSON.stringify({ idempotency_key: `msg:${job.id}`, order: job.data.order }), signal: AbortSignal.timeout(10_000) });\n});",
            },
          ],
        },
      ],
      output: null,
    },
    {
      // A project's Paystack client takes `{ amount, recipient, reference }` and adds the source.
      code: "export async function payViaPaystack(paystackClient, wallet, creatorId) {\n  const reference = `payout_${creatorId}_${Date.now()}`;\n  await paystackClient.initiateTransfer({ amount: wallet.pending, recipient: wallet.code, reason: 'payout', reference });\n}",
      errors: [{ messageId: KEY_MESSAGE, line: 3, data: { name: 'reference', source: 'Date.now()', ...ANY_RERUN } }],
      output: null,
    },
    {
      // A bulk transfer's items carry one reference each.
      code: "import { v4 } from 'uuid';\nexport async function bulk(paystack, rows) {\n  await paystack.transfer.bulk({ source: 'balance', transfers: [{ amount: rows[0].amount, recipient: rows[0].code, reference: v4() }] });\n}",
      errors: [{ messageId: KEY_MESSAGE, line: 3, data: { name: 'reference', source: 'v4()', ...ANY_RERUN } }],
      output: null,
    },
    {
      // Klaviyo records an event once per `unique_id`: a new uuid per send makes a retried send a second event.
      code: "import { v4 as uuidv4 } from 'uuid';\nexport async function perform(request, payload) {\n  await request('https://a.klaviyo.com/api/events/', { method: 'POST', json: { data: { type: 'event', attributes: { properties: payload.properties, unique_id: uuidv4(), metric: { data: { type: 'metric', attributes: { name: 'Ordered Product' } } }, profile: payload.profile } } } });\n}",
      errors: [{ messageId: KEY_MESSAGE, line: 3, data: { name: 'unique_id', source: 'uuidv4()', ...ANY_RERUN } }],
      output: null,
    },
    {
      // A lazy-loading wrapper whose local binding has the wrapper's own name does not call
      // itself, so it is no function that retries its request by itself: the key built from the
      // attempt number is still new on every retry of the Inngest step.
      code: [
        "import { inngest } from './client';",
        'async function getEmailProvider() {',
        "  const { getEmailProvider } = await import('./providers/email');",
        '  return getEmailProvider();',
        '}',
        "export const deliver = inngest.createFunction({ id: 'deliver', retries: 3 }, { event: 'mail/deliver' }, async ({ event, step, attempt }) =>",
        "  step.run('send', async () => {",
        '    const idempotencyKey = `delivery-${event.data.id}-attempt-${attempt}`;',
        '    const provider = await getEmailProvider();',
        "    return provider.send({ to: event.data.to, headers: { 'X-Idempotency-Key': idempotencyKey } });",
        '  }),',
        ');',
      ].join('\n'),
      errors: [
        {
          messageId: 'attemptNumberKey',
          line: 10,
          data: { name: 'X-Idempotency-Key', source: 'attempt', ...REDELIVERY },
        },
      ],
      output: null,
    },
    {
      // `settings.idempotency.keyParameters` names the field of the object parameter that becomes
      // the key (`jobId: \`orch-${data.eventId}\`` in the queue module): a clock there is new per delivery.
      code: "import { Worker } from 'bullmq';\nimport { orchestrationQueue } from './queues';\nnew Worker('scheduled', async (job) => {\n  await orchestrationQueue.enqueue({ eventId: `sched-${Date.now()}`, request: job.data.id });\n});",
      settings: SETTINGS_BY_FIELD,
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 4,
          data: { name: 'eventId', source: 'Date.now()', ...REDELIVERY },
          suggestions: [
            {
              messageId: DERIVE,
              data: { id: 'job.id' },
              output:
                "import { Worker } from 'bullmq';\nimport { orchestrationQueue } from './queues';\nnew Worker('scheduled', async (job) => {\n  await orchestrationQueue.enqueue({ eventId: `msg:${job.id}`, request: job.data.id });\n});",
            },
          ],
        },
      ],
      output: null,
    },
    {
      // Made inside the function that schedules itself again: each retry makes another key.
      code: "import { v4 as uuid } from 'uuid';\nexport var Http = {\n  request: (method, url, body, callback) => {\n    fetch(url, { method, body, headers: { 'Idempotency-Key': uuid() } }).then((response) => {\n      if (response.ok) callback(response);\n      else setTimeout(Http.request.bind(null, method, url, body, callback), 1000);\n    });\n  },\n};",
      errors: [{ messageId: KEY_MESSAGE, line: 4, data: { name: 'Idempotency-Key', source: 'uuid()', ...ANY_RERUN } }],
      output: null,
    },
    {
      // The same message written by a handler each redelivery runs again: another message, with
      // another key, every time.
      code: "import { Worker } from 'bullmq';\nimport { v4 as uuidv4 } from 'uuid';\nnew Worker('invoices', async (job) => {\n  await sqs.sendMessage({ amount: job.data.amount, idempotencyKey: uuidv4() });\n});",
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 4,
          data: { name: 'idempotencyKey', source: 'uuidv4()', ...REDELIVERY },
          suggestions: [
            {
              messageId: DERIVE,
              data: { id: 'job.id' },
              output:
                "import { Worker } from 'bullmq';\nimport { v4 as uuidv4 } from 'uuid';\nnew Worker('invoices', async (job) => {\n  await sqs.sendMessage({ amount: job.data.amount, idempotencyKey: `msg:${job.id}` });\n});",
            },
          ],
        },
      ],
      output: null,
    },
    {
      // SQS's own deduplication id is the key SQS compares, not message content.
      code: "import { v4 as uuidv4 } from 'uuid';\nexport async function send(sqs, url, body) {\n  await sqs.sendMessage({ QueueUrl: url, MessageBody: body, MessageGroupId: 'g', MessageDeduplicationId: uuidv4() }).promise();\n}",
      errors: [
        { messageId: KEY_MESSAGE, line: 3, data: { name: 'MessageDeduplicationId', source: 'uuidv4()', ...ANY_RERUN } },
      ],
      output: null,
    },
    {
      // The same mint in an activity's module: an activity is not replayed, it is retried, and
      // every retry runs the mint again.
      code: "import { Context } from '@temporalio/activity';\nimport { v4 as uuid4 } from 'uuid';\nexport async function deposit(amount) {\n  Context.current().heartbeat();\n  return stripe.charges.create({ amount }, { idempotencyKey: uuid4() });\n}",
      errors: [{ messageId: KEY_MESSAGE, line: 5, data: { name: 'idempotencyKey', source: 'uuid4()', ...ANY_RERUN } }],
      output: null,
    },
    {
      // A type imported from the workflow module does not make this file a workflow.
      code: "import type { WorkflowInfo } from '@temporalio/workflow';\nexport async function deposit(info: WorkflowInfo, amount: number) {\n  return stripe.charges.create({ amount }, { idempotencyKey: `dep-${info.workflowId}-${Date.now()}` });\n}",
      errors: [
        { messageId: KEY_MESSAGE, line: 3, data: { name: 'idempotencyKey', source: 'Date.now()', ...ANY_RERUN } },
      ],
      output: null,
    },
    {
      // Made before the inner backoff helper but inside an outer retry loop: each pass of the loop
      // mints a new key for the same request.
      code: "import { backOff } from 'exponential-backoff';\nexport async function send(url, body) {\n  for (let attempt = 0; attempt < 3; attempt++) {\n    const key = crypto.randomUUID();\n    try {\n      return await backOff(() => fetch(url, { method: 'POST', headers: { 'Idempotency-Key': key }, body }));\n    } catch {}\n  }\n}",
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 6,
          column: 93,
          data: { name: 'Idempotency-Key', source: 'crypto.randomUUID()', ...IN_FOR_LOOP },
        },
      ],
      output: null,
    },
    {
      // Banco Inter's Pix API takes its idempotency key in `x-id-idempotente`.
      code: "import { v4 as uuidv4 } from 'uuid';\nexport async function payout(client, pix) {\n  return client.post('/banking/v2/pix', pix, { headers: { 'x-id-idempotente': uuidv4() }, timeout: 10_000 });\n}",
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 3,
          column: 79,
          data: { name: 'x-id-idempotente', source: 'uuidv4()', ...ANY_RERUN },
        },
      ],
      output: null,
    },
    {
      // ...and a project's option for that header.
      code: 'export async function payout(inter, id, pix) {\n  return inter.realizarPix({ ...pix, xIdIdempotente: `PAYOUT-${id}-${Date.now()}` });\n}',
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 2,
          column: 54,
          data: { name: 'xIdIdempotente', source: 'Date.now()', ...ANY_RERUN },
        },
      ],
      output: null,
    },
    {
      // The counter of a loop that retries the call: each attempt sends a new key.
      code: 'export async function pay(intent, key) {\n  for (let attempt = 1; attempt <= 3; attempt++) {\n    try {\n      return await gateway.executePayment({ intent, idempotencyKey: `${key}-${attempt}` });\n    } catch {}\n  }\n}',
      errors: [
        {
          messageId: 'attemptNumberKey',
          line: 4,
          column: 69,
          data: { name: 'idempotencyKey', source: 'attempt', ...IN_FOR_LOOP },
        },
      ],
      output: null,
    },
    {
      // async-retry hands its callback the attempt number.
      code: "import retry from 'async-retry';\nexport async function pay(body) {\n  return retry(async (bail, attempt) => square.paymentsApi.createPayment({ ...body, idempotencyKey: `${body.orderId}:${attempt}` }));\n}",
      errors: [
        {
          messageId: 'attemptNumberKey',
          line: 3,
          column: 101,
          data: { name: 'idempotencyKey', source: 'attempt', ...inRetry('retry') },
        },
      ],
      output: null,
    },
    {
      // BullMQ counts the job's attempts: a redelivered job gets a new key.
      code: "import { Worker } from 'bullmq';\nnew Worker('payouts', async (job) => {\n  const key = `payout-${job.data.id}-${job.attemptsMade}`;\n  await fetch(url, { method: 'POST', headers: { 'Idempotency-Key': key }, body: JSON.stringify(job.data) });\n});",
      errors: [
        {
          messageId: 'attemptNumberKey',
          line: 4,
          column: 68,
          data: { name: 'Idempotency-Key', source: 'job.attemptsMade', ...REDELIVERY },
          suggestions: [
            {
              messageId: DERIVE,
              data: { id: 'job.id' },
              output:
                "import { Worker } from 'bullmq';\nnew Worker('payouts', async (job) => {\n  const key = `payout-${job.data.id}-${job.attemptsMade}`;\n  await fetch(url, { method: 'POST', headers: { 'Idempotency-Key': `msg:${job.id}` }, body: JSON.stringify(job.data) });\n});",
            },
          ],
        },
      ],
      output: null,
    },
    {
      // Inngest's handler context carries the attempt number.
      code: "export const deliver = inngest.createFunction({ id: 'deliver' }, { event: 'mail/send' }, async ({ event, step, attempt }) => {\n  await step.run('send', () => lob.letters.create(event.data.letter, { idempotencyKey: `mail-${event.data.id}-attempt-${attempt}` }));\n});",
      errors: [
        {
          messageId: 'attemptNumberKey',
          line: 2,
          column: 88,
          data: { name: 'idempotencyKey', source: 'attempt', ...REDELIVERY },
        },
      ],
      output: null,
    },
    {
      // Temporal's activity info counts the activity's attempts.
      code: "import { Context } from '@temporalio/activity';\nexport async function charge(input) {\n  const { attempt } = Context.current().info;\n  return stripe.charges.create({ amount: input.amount }, { idempotencyKey: `${input.id}:${Context.current().info.attempt}` });\n}",
      errors: [
        {
          messageId: 'attemptNumberKey',
          line: 4,
          column: 76,
          data: { name: 'idempotencyKey', source: 'Context.current().info.attempt', ...ANY_RERUN },
        },
      ],
      output: null,
    },
    {
      // Made before the backoff helper, but in code a BullMQ delivery runs: a redelivered job
      // mints a new key, whatever the helper's own tries reuse.
      code: "import { Worker } from 'bullmq';\nimport { backOff } from 'exponential-backoff';\nimport { randomUUID } from 'node:crypto';\nasync function report(job) {\n  const key = randomUUID();\n  await backOff(() => fetch(url, { method: 'POST', headers: { 'Idempotency-Key': key }, body: JSON.stringify(job.data) }));\n}\nnew Worker('usage', async (job) => report(job));",
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 6,
          column: 82,
          data: { name: 'Idempotency-Key', source: 'randomUUID()', ...REDELIVERY },
          suggestions: [
            {
              messageId: DERIVE,
              data: { id: 'job.id' },
              output:
                "import { Worker } from 'bullmq';\nimport { backOff } from 'exponential-backoff';\nimport { randomUUID } from 'node:crypto';\nasync function report(job) {\n  const key = randomUUID();\n  await backOff(() => fetch(url, { method: 'POST', headers: { 'Idempotency-Key': `msg:${job.id}` }, body: JSON.stringify(job.data) }));\n}\nnew Worker('usage', async (job) => report(job));",
            },
          ],
        },
      ],
      output: null,
    },
    {
      // The same recursion without the key handed back: each attempt takes the fallback again.
      code: "import { randomUUID } from 'node:crypto';\nexport class Http {\n  post(path, body) { return this.#request('POST', path, body); }\n  async #request(method, path, body, attempt = 0, idempotencyKey) {\n    const key = idempotencyKey ?? (method === 'POST' ? randomUUID() : undefined);\n    const headers = {};\n    if (key) headers['X-Idempotency-Key'] = key;\n    const response = await fetch(this.base + path, { method, headers, body: JSON.stringify(body), signal: AbortSignal.timeout(5000) });\n    if (response.status >= 500 && attempt < 3) return this.#request(method, path, body, attempt + 1);\n    return response.json();\n  }\n}",
      errors: [{ messageId: KEY_MESSAGE, line: 7 }],
    },
    {
      // The same client before the fix: the default goes into a fresh copy of the options that each
      // retry builds again, so every attempt of one call sends a new key.
      code: "const uuid4 = () => 'xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx'.replace(/[xy]/g, (c) => ((Math.random() * 16) | 0).toString(16));\nexport class Core {\n  buildRequest(options) {\n    options = { ...options };\n    const { method, headers = {} } = options;\n    if (method !== 'get') {\n      if (!options.idempotencyKey) options.idempotencyKey = `retry-${uuid4()}`;\n      headers['Idempotency-Key'] = options.idempotencyKey;\n    }\n    return { method, headers };\n  }\n  async makeRequest(options, retries) {\n    const req = this.buildRequest(options);\n    const response = await fetch(this.url, req).catch((error) => error);\n    if (response instanceof Error && retries) return this.retryRequest(options, retries);\n    return response;\n  }\n  async retryRequest(options, retries) { await sleep(500); return this.makeRequest(options, retries - 1); }\n}",
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 7,
          column: 61,
          data: { name: 'idempotencyKey', source: 'uuid4()', ...ANY_RERUN },
        },
      ],
      output: null,
    },
    {
      // A key helper named for the key, handed out by a hook: it hashes the data and then appends
      // the clock, so the same submission never gets the same key. Reported once, at the helper.
      code: 'export function useIdempotencyKey() {\n  const generateKey = (data) => {\n    const timestamp = Date.now();\n    return `req_${hash(data)}_${timestamp}`;\n  };\n  return { generateKey };\n}',
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 3,
          column: 23,
          data: { name: 'generateKey()', source: 'Date.now()', ...ANY_RERUN },
        },
      ],
      output: null,
    },
    {
      // The same fallback in a loop that retries the call: each attempt mints again.
      code: "export async function send(method, url, body, idempotencyKey) {\n  return fetch(url, { method, body, headers: { 'Idempotency-Key': idempotencyKey ?? crypto.randomUUID() } });\n}\nexport async function sendWithRetry(url, body) {\n  for (let attempt = 0; attempt < 3; attempt++) {\n    const response = await send('POST', url, body);\n    if (response.ok) return response;\n  }\n}",
      errors: [{ messageId: KEY_MESSAGE, line: 2, column: 67 }],
      output: null,
    },
    {
      // A plain function named for the key itself, out of sight and called without input.
      code: "import { apiFetch, idempotency } from './api';\nexport function placeOrder(body) {\n  return apiFetch('/orders', { method: 'POST', body: JSON.stringify(body), idempotencyKey: idempotency() });\n}",
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 3,
          column: 92,
          data: { name: 'idempotencyKey', source: 'idempotency()', ...ANY_RERUN },
        },
      ],
      output: null,
    },
    {
      // A generator out of sight, called without input: imported, on a client object, inherited.
      code: "import { generateIdempotencyKey } from './idempotency';\nimport { apiClient } from './api-client';\nexport async function transfer(data) { await fetch(url, { method: 'POST', headers: { 'Idempotency-Key': generateIdempotencyKey() }, body: JSON.stringify(data) }); }\nexport async function create(input) { return apiClient.post('/products', input, { idempotencyKey: apiClient.generateIdempotencyKey() }); }\nclass Pos extends ApiClient { openShift(input) { return this.post('/shifts', input, { idempotencyKey: this.generateIdempotencyKey() }); } }",
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 3,
          column: 105,
          data: { name: 'Idempotency-Key', source: 'generateIdempotencyKey()', ...ANY_RERUN },
        },
        {
          messageId: KEY_MESSAGE,
          line: 4,
          column: 99,
          data: { name: 'idempotencyKey', source: 'apiClient.generateIdempotencyKey()', ...ANY_RERUN },
        },
        {
          messageId: KEY_MESSAGE,
          line: 5,
          column: 103,
          data: { name: 'idempotencyKey', source: 'this.generateIdempotencyKey()', ...ANY_RERUN },
        },
      ],
      output: null,
    },
    {
      // The caller's key is optional, and the caller in sight leaves it out: the fallback is the common call.
      code: "async function setup(input, idempotencyKey) { return apiClient.post('/setup', input, { idempotencyKey: idempotencyKey || apiClient.generateIdempotencyKey() }); }\nexport const useSetup = () => useMutation({ mutationFn: (input) => setup(input) });",
      errors: [{ messageId: KEY_MESSAGE, line: 1, column: 104 }],
      output: null,
    },
    {
      // A key-named value handed to a function out of sight: a React Query mutationFn, a handler.
      code: "import { useMutation } from '@tanstack/react-query';\nimport { openTableSession } from './http';\nexport function useOpen(tableId) {\n  return useMutation({ mutationFn: async () => {\n    const idempotencyKey = crypto.randomUUID();\n    return openTableSession({ tableId }, idempotencyKey);\n  } });\n}",
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 6,
          column: 42,
          data: { name: 'idempotencyKey', source: 'crypto.randomUUID()', ...ANY_RERUN },
        },
      ],
      output: null,
    },
    {
      // Stable parts plus the clock, passed on; reported once at the mint for the body field and the argument.
      code: 'export function upload(batchId, file) {\n  startTransition(async () => {\n    const idempotencyKey = `upload-${batchId}-${Date.now()}`;\n    await mutateJSON(URL, { batch_id: batchId, idempotency_key: idempotencyKey }, idempotencyKey);\n  });\n}',
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 4,
          column: 83,
          data: { name: 'idempotencyKey', source: 'Date.now()', ...ANY_RERUN },
        },
      ],
      output: null,
    },
    {
      // An RPC parameter spelled the Postgres way.
      code: "async function log(supabase, tableId) { await supabase.rpc('log_buyin', { p_table_id: tableId, p_idempotency_key: `grind:${tableId}:${Date.now()}` }); }",
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 1,
          column: 115,
          data: { name: 'p_idempotency_key', source: 'Date.now()', ...ANY_RERUN },
        },
      ],
      output: null,
    },
    {
      // A key derived from a per-attempt input is per attempt.
      code: 'async function exportCsv(task, orgId) { await task.trigger({ orgId }, { idempotencyKey: await createTriggerIdempotencyKey(`export-${orgId}-${Date.now()}`) }); }',
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 1,
          column: 89,
          data: { name: 'idempotencyKey', source: 'Date.now()', ...ANY_RERUN },
        },
      ],
      output: null,
    },
    {
      // The options of a project's own enqueue helper.
      code: "import { triggerJob } from '@app/job-client';\nexport async function reprocess(doc) { await triggerJob('process-document', { path: doc.path }, 'documents', { jobId: `reprocess-${doc.id}-${Date.now()}` }); }",
      errors: [
        { messageId: KEY_MESSAGE, line: 2, column: 119, data: { name: 'jobId', source: 'Date.now()', ...ANY_RERUN } },
      ],
      output: null,
    },
    {
      // A headers callback and a prepare-request hook the transport calls for every request.
      code: "import { useMemo } from 'react';\nexport function useChat() {\n  return useMemo(() => new DefaultChatTransport({\n    headers: async () => ({ 'X-Idempotency-Key': createIdempotencyKey() }),\n    prepareSendMessagesRequest: async ({ messages }) => { const key = crypto.randomUUID(); return { headers: { 'X-Idempotency-Key': key }, body: { messages } }; },\n  }), []);\n}",
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 4,
          column: 50,
          data: { name: 'X-Idempotency-Key', source: 'createIdempotencyKey()', ...ANY_RERUN },
        },
        {
          messageId: KEY_MESSAGE,
          line: 5,
          column: 133,
          data: { name: 'X-Idempotency-Key', source: 'crypto.randomUUID()', ...ANY_RERUN },
        },
      ],
      output: null,
    },
    {
      // The same early return without a retrying instance: every call is a new request.
      code: "import { v4 as uuid } from 'uuid'; const IDEMPOTENCY_KEY = 'Idempotency-Key'; export function keyed(axios) { axios.interceptors.request.use((config) => { const key = config.headers[IDEMPOTENCY_KEY]; if (key) { return config; } config.headers[IDEMPOTENCY_KEY] = uuid(); return config; }); }",
      errors: [{ messageId: KEY_MESSAGE, line: 1, column: 262 }],
      output: null,
    },
    {
      // An interceptor that keys only unkeyed writes, on an instance that never retries: every call is new.
      code: "api.interceptors.request.use((config) => {\n  const headers = config.headers || {};\n  if (!headers['x-idempotency-key']) {\n    headers['x-idempotency-key'] = crypto.randomUUID();\n  }\n  config.headers = headers;\n  return config;\n});",
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 4,
          column: 36,
          data: { name: 'x-idempotency-key', source: 'crypto.randomUUID()', ...ANY_RERUN },
        },
      ],
      output: null,
    },
    {
      // addBulk entries built by a .map whose jobId is minted per attempt (a block body too).
      code: "import { randomUUID } from 'node:crypto';\nasync function f(queue, items) { await queue.addBulk(items.map((item) => ({ name: 'sync', data: item, opts: { jobId: randomUUID() } }))); }\nasync function g(queue, items) { const jobs = items.map((item) => { return { name: 'sync', data: item, opts: { jobId: `sync:${Date.now()}` } }; }); await queue.addBulk(jobs); }",
      errors: [
        { messageId: KEY_MESSAGE, line: 2, column: 118, data: { name: 'jobId', source: 'randomUUID()', ...ANY_RERUN } },
        { messageId: KEY_MESSAGE, line: 3, column: 119 },
      ],
      output: null,
    },
    {
      // The seed's mistake: a fresh UUID per call.
      code: "import { randomUUID } from 'node:crypto';\nexport const keyed = (api) => (message) => api.charge({ amount: message.amount, idempotencyKey: randomUUID() })",
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 2,
          column: 97,
          data: { name: 'idempotencyKey', source: 'randomUUID()', ...ANY_RERUN },
          suggestions: [
            {
              messageId: DERIVE,
              data: { id: 'message.id' },
              output:
                "import { randomUUID } from 'node:crypto';\nexport const keyed = (api) => (message) => api.charge({ amount: message.amount, idempotencyKey: `msg:${message.id}` })",
            },
          ],
        },
      ],
      output: null,
    },
    {
      // chargeOnce with a fresh key in the header.
      code: `async function chargeOnce(job) {
  const res = await fetch('https://api.example-payments.test/v1/charges', {
    method: 'POST',
    headers: { 'Idempotency-Key': crypto.randomUUID() },
    body: JSON.stringify({ amount: job.data.amount }),
  });
}`,
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 4,
          column: 35,
          suggestions: [
            {
              messageId: DERIVE,
              output: `async function chargeOnce(job) {
  const res = await fetch('https://api.example-payments.test/v1/charges', {
    method: 'POST',
    headers: { 'Idempotency-Key': \`msg:\${job.id}\` },
    body: JSON.stringify({ amount: job.data.amount }),
  });
}`,
            },
          ],
        },
      ],
      output: null,
    },
    {
      // A random BullMQ jobId on the route that adds the job: a double click enqueues two jobs.
      code: "import { randomUUID } from 'node:crypto';\napp.post('/orders/:id/receipt', async (req, res) => {\n  await emails.add('send-receipt', { orderId: req.params.id }, { jobId: randomUUID() });\n});",
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 3,
          column: 73,
          data: { name: 'jobId', source: 'randomUUID()', ...ANY_RERUN },
          suggestions: [],
        },
      ],
      output: null,
    },
    {
      // A jobId of the clock and Math.random.
      code: "async function notify(queue, data) {\n  await queue.add('send-notification', data, { jobId: `notification-${Date.now()}-${Math.random().toString(36).substr(2, 9)}` });\n}",
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 2,
          column: 55,
          data: { name: 'jobId', source: 'Date.now()', ...ANY_RERUN },
          suggestions: [],
        },
      ],
      output: null,
    },
    {
      // An SQS FIFO deduplication id from the clock.
      code: "async function send(sqs, body) {\n  await sqs.sendMessage({ QueueUrl: url, MessageBody: body, MessageGroupId: 'g', MessageDeduplicationId: new Date().getTime().toString() }).promise();\n}",
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 2,
          column: 106,
          data: { name: 'MessageDeduplicationId', source: 'new Date()', ...ANY_RERUN },
          suggestions: [],
        },
      ],
      output: null,
    },
    {
      // The key minted into a const, then the payload posted: a new key per call.
      code: "import { v4 as uuidv4 } from 'uuid';\nfunction createWallet() {\n  const payload = { idempotencyKey: uuidv4() };\n  return instance.post('/v1/wallets', payload);\n}",
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 3,
          column: 37,
          data: { name: 'idempotencyKey', source: 'uuidv4()', ...ANY_RERUN },
          suggestions: [],
        },
      ],
      output: null,
    },
    {
      // async-retry re-runs its callback only when it throws: one that catches every error and
      // never rethrows runs once, so the message names no retry (the key is still new per call).
      code: "import retry from 'async-retry';\nimport { nanoid } from 'nanoid';\nexport async function createPayment(payload) {\n  await retry(async (bail, attempt) => {\n    try {\n      await payments.create({ idempotencyKey: payload.idempotencyKey || nanoid() });\n    } catch (error) {\n      if (error.status === 400) bail(error);\n      else log(error, attempt);\n    }\n  });\n}",
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 6,
          column: 47,
          data: { name: 'idempotencyKey', source: 'nanoid()', ...ANY_RERUN },
          suggestions: [],
        },
      ],
      output: null,
    },
    {
      // promise-retry re-runs its callback when it calls the function it is handed, whatever its name:
      // a catch that calls it asks for another run.
      code: "import promiseRetry from 'promise-retry';\nimport { nanoid } from 'nanoid';\nexport async function createPayment(payload) {\n  await promiseRetry(async (again) => {\n    try {\n      await payments.create({ idempotencyKey: nanoid() });\n    } catch (error) {\n      again(error);\n    }\n  });\n}",
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 6,
          column: 47,
          data: { name: 'idempotencyKey', source: 'nanoid()', ...inRetry('promiseRetry') },
          suggestions: [],
        },
      ],
      output: null,
    },
    {
      // A fallback minted inside the retry callback.
      code: "const { nanoid } = require('nanoid');\nasync function createPayment(payload) {\n  await retry(async () => {\n    const idempotencyKey = payload.idempotencyKey || nanoid();\n    await paymentsApi.createPayment({ idempotencyKey, sourceId: payload.sourceId });\n  });\n}",
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 5,
          column: 39,
          data: { name: 'idempotencyKey', source: 'nanoid()', ...inRetry('retry') },
          suggestions: [],
        },
      ],
      output: null,
    },
    {
      // A consumer handler: the suggestion derives the key from the job, shorthand expanded.
      code: "import { Worker } from 'bullmq';\nnew Worker('charges', async (job) => {\n  const idempotencyKey = crypto.randomUUID();\n  await api.charge({ amount: job.data.amount, idempotencyKey });\n});",
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 4,
          column: 47,
          suggestions: [
            {
              messageId: DERIVE,
              data: { id: 'job.id' },
              output:
                "import { Worker } from 'bullmq';\nnew Worker('charges', async (job) => {\n  const idempotencyKey = crypto.randomUUID();\n  await api.charge({ amount: job.data.amount, idempotencyKey: `msg:${job.id}` });\n});",
            },
          ],
        },
      ],
      output: null,
    },
    {
      // An sqs-consumer handler: the SQS message id.
      code: "import { Consumer } from 'sqs-consumer';\nConsumer.create({ queueUrl, handleMessage: async (message) => {\n  await fetch(url, { method: 'POST', headers: { 'Idempotency-Key': crypto.randomUUID() } });\n} });",
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 3,
          column: 68,
          suggestions: [
            {
              messageId: DERIVE,
              data: { id: 'message.MessageId' },
              output:
                "import { Consumer } from 'sqs-consumer';\nConsumer.create({ queueUrl, handleMessage: async (message) => {\n  await fetch(url, { method: 'POST', headers: { 'Idempotency-Key': `msg:${message.MessageId}` } });\n} });",
            },
          ],
        },
      ],
      output: null,
    },
    {
      // sqs-consumer's handleMessageBatch receives an array: `messages.MessageId` is undefined, so no suggestion.
      code: "import { Consumer } from 'sqs-consumer';\nConsumer.create({ queueUrl, handleMessageBatch: async (messages) => {\n  await fetch(url, { method: 'POST', headers: { 'Idempotency-Key': crypto.randomUUID() } });\n} });",
      errors: [{ messageId: KEY_MESSAGE, line: 3, column: 68, suggestions: [] }],
      output: null,
    },
    {
      // ...inside a loop over the batch, the item's id.
      code: "import { Consumer } from 'sqs-consumer';\nConsumer.create({ queueUrl, handleMessageBatch: async (messages) => {\n  for (const m of messages) await fetch(url, { method: 'POST', headers: { 'Idempotency-Key': crypto.randomUUID() } });\n} });",
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 3,
          column: 94,
          suggestions: [
            {
              messageId: DERIVE,
              data: { id: 'm.MessageId' },
              output:
                "import { Consumer } from 'sqs-consumer';\nConsumer.create({ queueUrl, handleMessageBatch: async (messages) => {\n  for (const m of messages) await fetch(url, { method: 'POST', headers: { 'Idempotency-Key': `msg:${m.MessageId}` } });\n} });",
            },
          ],
        },
      ],
      output: null,
    },
    {
      // A header set on a local Headers object.
      code: "async function pay(amount) {\n  const headers = new Headers();\n  headers.set('Idempotency-Key', `pay-${Date.now()}`);\n  await fetch(url, { method: 'POST', headers, body: JSON.stringify({ amount }) });\n}",
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 3,
          column: 34,
          data: { name: 'Idempotency-Key', source: 'Date.now()', ...ANY_RERUN },
          suggestions: [],
        },
      ],
      output: null,
    },
    {
      // An interceptor that mints a key for every request, retries included.
      code: "import { v4 } from 'uuid';\napi.interceptors.request.use((config) => {\n  config.headers['Idempotency-Key'] = v4();\n  return config;\n});",
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 3,
          column: 39,
          data: { name: 'Idempotency-Key', source: 'v4()', ...ANY_RERUN },
          suggestions: [],
        },
      ],
      output: null,
    },
    {
      // A header factory whose result is spread into every request's headers.
      code: "import { v4 as uuid } from 'uuid';\nfunction headers() {\n  return { 'Idempotency-Key': uuid() };\n}\nexport const pay = (body) => axios.post(url, body, { headers: { ...headers() } });",
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 3,
          column: 31,
          data: { name: 'Idempotency-Key', source: 'uuid()', ...ANY_RERUN },
          suggestions: [],
        },
      ],
      output: null,
    },
    {
      // A request builder exported for callers elsewhere to send.
      code: 'export function buildPayment(amount) {\n  return { amount, idempotencyKey: crypto.randomUUID() };\n}',
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 2,
          column: 36,
          data: { name: 'idempotencyKey', source: 'crypto.randomUUID()', ...ANY_RERUN },
          suggestions: [],
        },
      ],
      output: null,
    },
    {
      // Axios defaults written right before the call.
      code: "const api = axios.create();\nexport async function pay(body) {\n  api.defaults.headers.common['Idempotency-Key'] = crypto.randomUUID();\n  return api.post('/pay', body);\n}",
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 3,
          column: 52,
          data: { name: 'Idempotency-Key', source: 'crypto.randomUUID()', ...ANY_RERUN },
          suggestions: [],
        },
      ],
      output: null,
    },
    {
      // A header-name constant imported from another module.
      code: "import { IDEMPOTENCY_HEADER } from './constants';\nexport const pay = (body) => fetch(url, { method: 'POST', body, headers: { [IDEMPOTENCY_HEADER]: crypto.randomUUID() } });",
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 2,
          column: 98,
          data: { name: 'Idempotency-Key', source: 'crypto.randomUUID()', ...ANY_RERUN },
          suggestions: [],
        },
      ],
      output: null,
    },
    {
      // A key minted by the caller and passed to the parameter that becomes the key.
      code: "async function openSession(data, idempotencyKey) {\n  return axios.post(url, data, { headers: { 'Idempotency-Key': idempotencyKey } });\n}\nexport const start = (data) => openSession(data, crypto.randomUUID());",
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 2,
          column: 64,
          data: { name: 'Idempotency-Key', source: 'crypto.randomUUID()', ...ANY_RERUN },
          suggestions: [],
        },
      ],
      output: null,
    },
    {
      // An AWS client token minted per call.
      code: "export const start = () => ec2.send(new RunInstancesCommand({ ImageId: 'ami', ClientToken: crypto.randomUUID() }));",
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 1,
          column: 92,
          data: { name: 'ClientToken', source: 'crypto.randomUUID()', ...ANY_RERUN },
          suggestions: [],
        },
      ],
      output: null,
    },
    {
      // A key helper with a default timestamp: never stable, reported at the helper.
      code: 'function keyFor(id, at = Date.now()) {\n  return `${id}:${at}`;\n}\nexport const charge = (id) => stripe.charges.create({ amount: 1 }, { idempotencyKey: keyFor(id) });',
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 1,
          column: 26,
          data: { name: 'idempotencyKey', source: 'Date.now()', ...ANY_RERUN },
          suggestions: [],
        },
      ],
      output: null,
    },
    {
      // A local generator (no input to derive from): minting is its job, so each caller that
      // calls it per attempt is reported, where it writes the key.
      code: 'function newKey() {\n  return `k_${Math.random().toString(36).slice(2)}`;\n}\nasync function charge(amount) {\n  await stripe.paymentIntents.create({ amount }, { idempotencyKey: newKey() });\n  await stripe.refunds.create({ amount }, { idempotencyKey: newKey() });\n}',
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 5,
          column: 68,
          data: { name: 'idempotencyKey', source: 'newKey()', ...ANY_RERUN },
          suggestions: [],
        },
        {
          messageId: KEY_MESSAGE,
          line: 6,
          column: 61,
          data: { name: 'idempotencyKey', source: 'newKey()', ...ANY_RERUN },
          suggestions: [],
        },
      ],
      output: null,
    },
    {
      // A helper that derives a key from its input through a generator: reported once, at the
      // generator's call in the helper, not at every caller.
      code: 'function newKey() {\n  return crypto.randomUUID();\n}\nfunction keyFor(id) {\n  return `${id}:${newKey()}`;\n}\nasync function charge(id) {\n  await stripe.paymentIntents.create({ amount: 1 }, { idempotencyKey: keyFor(id) });\n  await stripe.refunds.create({ amount: 1 }, { idempotencyKey: keyFor(id) });\n}',
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 5,
          column: 19,
          data: { name: 'idempotencyKey', source: 'newKey()', ...ANY_RERUN },
          suggestions: [],
        },
      ],
      output: null,
    },
    {
      // A module-level script: the mint is inline in the call that enqueues.
      code: "const Ulid = require('ulid');\nqueue.add('process', { field: 'data' }, { attempts: 2, jobId: Ulid.ulid() });",
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 2,
          column: 63,
          data: { name: 'jobId', source: 'Ulid.ulid()', ...ANY_RERUN },
          suggestions: [],
        },
      ],
      output: null,
    },
    {
      // A click handler that mints a key per click.
      code: "import { v4 as uuid } from 'uuid';\nasync function onToken(token) {\n  await fetch(ENDPOINT, { method: 'POST', body: JSON.stringify({ token, amount, idempotency_key: uuid() }) });\n}",
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 3,
          column: 98,
          data: { name: 'idempotency_key', source: 'uuid()', ...ANY_RERUN },
          suggestions: [],
        },
      ],
      output: null,
    },
    {
      // PayPal's server SDK: paypalRequestId becomes the PayPal-Request-Id header, minted per request.
      code: "import { randomUUID } from 'node:crypto';\napp.post('/orders', async (req, res) => {\n  const { result } = await ordersController.createOrder({ body: req.body, paypalRequestId: randomUUID() });\n  res.json(result);\n});",
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 3,
          column: 92,
          data: { name: 'paypalRequestId', source: 'randomUUID()', ...ANY_RERUN },
          suggestions: [],
        },
      ],
      output: null,
    },
    {
      // A key one level down in the SDK call's data, with a per-call fallback.
      code: "import { randomUUID } from 'node:crypto';\nexport default {\n  async run({ $ }) {\n    const idempotencyKey = this.idempotencyKey || randomUUID();\n    return this.mercury.createTransaction({ $, accountId: this.accountId, data: { recipientId: this.recipientId, amount: this.amount, idempotencyKey } });\n  },\n};",
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 5,
          column: 135,
          data: { name: 'idempotencyKey', source: 'randomUUID()', ...ANY_RERUN },
          suggestions: [],
        },
      ],
      output: null,
    },
    {
      // A callback mints a key per call; the response it awaits is kept in state, not the key.
      code: "import { mutateJSON } from './http';\nexport function useIssue() {\n  return useCallback(async (input) => {\n    const idempotencyKey = crypto.randomUUID();\n    const result = await mutateJSON(URL, { id: input.id }, idempotencyKey);\n    setData(result);\n  }, []);\n}",
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 5,
          column: 60,
          data: { name: 'idempotencyKey', source: 'crypto.randomUUID()', ...ANY_RERUN },
          suggestions: [],
        },
      ],
      output: null,
    },
    {
      // A mutationFn falls back to a local generator when the caller gave no key: each retry of
      // the mutation runs it again and mints another.
      code: "import { clearSlot } from './http';\nfunction newIdempotencyKey() {\n  return crypto.randomUUID();\n}\nexport const useClear = () => useMutation({\n  mutationFn: ({ slotId, idempotencyKey }) => clearSlot(slotId, idempotencyKey ?? newIdempotencyKey()),\n});",
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 6,
          column: 65,
          data: { name: 'idempotencyKey', source: 'newIdempotencyKey()', ...ANY_RERUN },
          suggestions: [],
        },
      ],
      output: null,
    },
    {
      // An interceptor that writes a fresh key from a local generator on every request.
      code: "import axios from 'axios';\nfunction createIdempotencyKey() {\n  return crypto.randomUUID();\n}\naxios.interceptors.request.use((req) => {\n  req.headers['X-Idempotent-Key'] = createIdempotencyKey();\n  return req;\n});",
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 6,
          column: 37,
          data: { name: 'X-Idempotent-Key', source: 'createIdempotencyKey()', ...ANY_RERUN },
          suggestions: [],
        },
      ],
      output: null,
    },
    {
      // An Angular interceptor that adds a key from a local generator to every write it passes on.
      code: "function createIdempotencyKey() {\n  return crypto.randomUUID();\n}\nexport const idempotencyInterceptor = (req, next) => {\n  if (req.method === 'GET' || req.headers.has('Idempotency-Key')) return next(req);\n  return next(req.clone({ setHeaders: { 'Idempotency-Key': createIdempotencyKey() } }));\n};",
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 6,
          column: 60,
          data: { name: 'Idempotency-Key', source: 'createIdempotencyKey()', ...ANY_RERUN },
          suggestions: [],
        },
      ],
      output: null,
    },
    {
      // A comment that describes the key without saying it is unique on purpose is no opt-out.
      code: 'export async function charge(amount) {\n  // Generate a unique idempotency key; the key must be unique\n  const key = crypto.randomUUID();\n  await stripe.charges.create({ amount }, { idempotencyKey: key });\n}',
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 4,
          column: 61,
          data: { name: 'idempotencyKey', source: 'crypto.randomUUID()', ...ANY_RERUN },
          suggestions: [],
        },
      ],
      output: null,
    },
    {
      // An empty pattern turns the opt-out off.
      code: "export async function reprocess(doc) {\n  // Reprocessing must use unique IDs.\n  await queue.add('process', { id: doc.id }, { jobId: `reprocess-${doc.id}-${Date.now()}` });\n}",
      options: [{ intentionalComment: '' }],
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 3,
          column: 55,
          data: { name: 'jobId', source: 'Date.now()', ...ANY_RERUN },
          suggestions: [],
        },
      ],
      output: null,
    },
    {
      // Defaults written in a method, right before that method's request: a new key per call.
      code: "import axios from 'axios';\nimport { randomUUID } from 'crypto';\nexport class Gateway {\n  api = axios.create();\n  async charge(body) {\n    this.api.defaults.headers.common['X-Idempotency-Key'] = randomUUID();\n    return this.api.post('/v1/payments', body);\n  }\n}",
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 6,
          column: 61,
          data: { name: 'X-Idempotency-Key', source: 'randomUUID()', ...ANY_RERUN },
          suggestions: [],
        },
      ],
      output: null,
    },
    {
      // A key minted inside the retry loop: every attempt sends a new one.
      code: "export async function postWithRetry(path, body, maxRetries = 3) {\n  for (let i = 0; i < maxRetries; i++) {\n    const key = crypto.randomUUID();\n    try { return await api(path, { method: 'POST', body, headers: { 'Idempotency-Key': key } }); } catch { await sleep(1000); }\n  }\n}",
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 4,
          column: 88,
          data: { name: 'Idempotency-Key', source: 'crypto.randomUUID()', ...IN_FOR_LOOP },
          suggestions: [],
        },
      ],
      output: null,
    },
    {
      // A comment that says the key is new each request, without weighing reuse, is no opt-out.
      code: "import { randomUUID } from 'node:crypto';\n/** Unique per call: a fresh key each request. */\nexport const buildStripeIdempotencyKey = ({ source }) => `app:${source}:${randomUUID()}`;\nexport const stripeRequestOptions = ({ source } = {}) => ({ idempotencyKey: buildStripeIdempotencyKey({ source }) });",
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 3,
          column: 75,
          data: { name: 'buildStripeIdempotencyKey()', source: 'randomUUID()', ...ANY_RERUN },
          suggestions: [],
        },
      ],
      output: null,
    },
    {
      // The key is a field of the request itself, beside a row's data: it goes to the receiver.
      code: 'export async function update(api, id, body) {\n  return api.updatePayment({ where: { id }, data: body, idempotencyKey: crypto.randomUUID() });\n}',
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 2,
          column: 73,
          data: { name: 'idempotencyKey', source: 'crypto.randomUUID()', ...ANY_RERUN },
          suggestions: [],
        },
      ],
      output: null,
    },
    {
      // The default key goes onto the options a header builder is handed, but its caller handed a
      // copy (`options = { ...options }`), and the retry passes the original: each attempt mints.
      code: "import { uuid4 } from './uuid';\nexport class Core {\n  buildRequest(options) {\n    options = { ...options };\n    const headers = this.buildHeaders({ options, method: options.method });\n    return { method: options.method, headers };\n  }\n  buildHeaders({ options, method }) {\n    const headers = {};\n    if (method !== 'get') {\n      if (!options.idempotencyKey) options.idempotencyKey = this.defaultIdempotencyKey();\n      headers['Idempotency-Key'] = options.idempotencyKey;\n    }\n    return headers;\n  }\n  defaultIdempotencyKey() { return `sdk-retry-${uuid4()}`; }\n  async makeRequest(options, retries) {\n    const response = await fetch(this.url, this.buildRequest(options)).catch((error) => error);\n    if (response instanceof Error && retries) return this.retryRequest(options, retries);\n    return response;\n  }\n  async retryRequest(options, retries) { await sleep(500); return this.makeRequest(options, retries - 1); }\n}",
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 11,
          column: 61,
          data: { name: 'idempotencyKey', source: 'this.defaultIdempotencyKey()', ...ANY_RERUN },
          suggestions: [],
        },
      ],
      output: null,
    },
    {
      // The key lives in a ref filled only when empty, but the mutate wrapper clears the ref before
      // each start: every retry after a failure mints a new key.
      code: "import { useRef, useCallback } from 'react';\nimport { useMutation } from '@tanstack/react-query';\nexport function useSafeMutation(mutationFn) {\n  const keyRef = useRef(null);\n  const run = useCallback(async (variables) => {\n    if (!keyRef.current) keyRef.current = crypto.randomUUID();\n    apiClient.defaults.headers.common['Idempotency-Key'] = keyRef.current;\n    const result = await mutationFn(variables);\n    keyRef.current = null;\n    return result;\n  }, [mutationFn]);\n  const mutation = useMutation({ mutationFn: run });\n  const safeMutate = useCallback((variables) => {\n    keyRef.current = null;\n    mutation.mutate(variables);\n  }, [mutation]);\n  return { safeMutate };\n}",
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 7,
          column: 60,
          data: { name: 'Idempotency-Key', source: 'crypto.randomUUID()', ...ANY_RERUN },
          suggestions: [],
        },
      ],
      output: null,
    },
  ],
});

typedRuleTester().run('no-per-attempt-key (typed)', rule, {
  valid: [
    `import Stripe from 'stripe';
import { Worker } from 'bullmq';
const stripe = new Stripe('sk_test');
new Worker('charges', async (job) => {
  await stripe.paymentIntents.create({ amount: job.data.amount, currency: 'gbp' }, { idempotencyKey: \`charge:\${job.id}\` });
});`,
    `import { SQSClient, SendMessageCommand } from '@aws-sdk/client-sqs';
const sqs = new SQSClient({});
export async function send(orderId: string) {
  await sqs.send(new SendMessageCommand({ QueueUrl: 'q', MessageBody: orderId, MessageGroupId: 'g', MessageDeduplicationId: \`order:\${orderId}\` }));
}`,
  ],
  invalid: [
    {
      code: `import Stripe from 'stripe';
import { Worker } from 'bullmq';
import { randomUUID } from 'node:crypto';
const stripe = new Stripe('sk_test');
new Worker('charges', async (job) => {
  await stripe.paymentIntents.create({ amount: job.data.amount, currency: 'gbp' }, { idempotencyKey: randomUUID() });
});`,
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 6,
          column: 102,
          suggestions: [
            {
              messageId: DERIVE,
              output: `import Stripe from 'stripe';
import { Worker } from 'bullmq';
import { randomUUID } from 'node:crypto';
const stripe = new Stripe('sk_test');
new Worker('charges', async (job) => {
  await stripe.paymentIntents.create({ amount: job.data.amount, currency: 'gbp' }, { idempotencyKey: \`msg:\${job.id}\` });
});`,
            },
          ],
        },
      ],
      output: null,
    },
    {
      code: `import { SQSClient, SendMessageCommand } from '@aws-sdk/client-sqs';
const sqs = new SQSClient({});
export async function send(body: string) {
  await sqs.send(new SendMessageCommand({ QueueUrl: 'q', MessageBody: body, MessageGroupId: 'g', MessageDeduplicationId: String(Date.now()) }));
}`,
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 4,
          column: 122,
          data: { name: 'MessageDeduplicationId', source: 'Date.now()', ...ANY_RERUN },
          suggestions: [],
        },
      ],
      output: null,
    },
    {
      code: `import { Queue } from 'bullmq';
const queue = new Queue('emails');
export async function enqueue(orderId: string) {
  await queue.add('send-receipt', { orderId }, { jobId: crypto.randomUUID() });
}`,
      errors: [
        {
          messageId: KEY_MESSAGE,
          line: 4,
          column: 57,
          data: { name: 'jobId', source: 'crypto.randomUUID()', ...ANY_RERUN },
          suggestions: [],
        },
      ],
      output: null,
    },
  ],
});
