import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';

import { enclosingConsumerHandler } from '../../src/model/handler/consumer-handler.js';
import { asyncCallKind } from '../../src/model/handler/async-call.js';
import { messageIdentity, messageIdentityAt } from '../../src/model/handler/identity.js';
import { lintSnippet, type SnippetOptions } from '../rule-tester.js';
import { consumerHandlersIn } from './consumer-handlers.js';

interface Found {
  broker: string;
  queue: string | undefined;
  line: number;
  param: string | undefined;
}

/** Runs `findConsumerHandlers` over `code` inside a throwaway rule. */
function handlersIn(code: string, options: SnippetOptions = {}): Found[] {
  const found = consumerHandlersIn(code, options);
  return found.map((handler) => ({
    broker: handler.broker,
    queue: handler.queue,
    line: handler.fn.loc.start.line,
    param:
      handler.messageParam?.type === AST_NODE_TYPES.Identifier ? handler.messageParam.name : handler.messageParam?.type,
  }));
}

/** The broker of the handler around the marker call `here()`. */
function enclosingBroker(code: string): string | undefined {
  let broker: string | undefined;
  lintSnippet(code, (context) => ({
    'CallExpression[callee.name="here"]'(node: TSESTree.CallExpression) {
      broker = enclosingConsumerHandler(node, context)?.broker;
    },
  }));
  return broker;
}

describe('findConsumerHandlers', () => {
  it('finds a BullMQ processor, inline or by name', () => {
    expect(
      handlersIn(`
import { Worker } from 'bullmq';
new Worker('emails', async (job) => send(job.data));
async function charge(job) {}
const w = new Worker('payments', charge, { connection });
`),
    ).toEqual([
      { broker: 'bullmq', queue: 'emails', line: 3, param: 'job' },
      { broker: 'bullmq', queue: 'payments', line: 4, param: 'job' },
    ]);
  });

  it('still finds registrations the syntactic gate cannot name: computed methods and constructors renamed in a nested require', () => {
    expect(
      handlersIn(`
const PROCESS = 'process';
import Queue from 'bull';
const emails = new Queue('emails');
emails[PROCESS](async (job) => send(job.data));
function start() {
  const { Worker: Processor } = require('bullmq');
  return new Processor('payments', async (job) => charge(job.data));
}
`),
    ).toEqual([
      { broker: 'bull', queue: 'emails', line: 5, param: 'job' },
      { broker: 'bullmq', queue: 'payments', line: 8, param: 'job' },
    ]);
  });

  it("finds a Bull processor on a queue the project's own factory makes, directly or through a wrapper", () => {
    expect(
      handlersIn(`
import newQueue from '../lib/queue';
import wrap from '../workers/wrapper';
const scanQueue = newQueue('scan');
const mailQueue = newQueue('mail');
scanQueue.process(async (job) => scan(job.data.key));
mailQueue.process('digest', wrap(async (job) => send(job.data), 'digest'));
`),
    ).toEqual([
      { broker: 'bull', queue: 'scan', line: 6, param: 'job' },
      { broker: 'bull', queue: 'mail', line: 7, param: 'job' },
    ]);
    // A factory from a package, or a function not named for a queue, says nothing.
    expect(
      handlersIn(`
import { makeQueue } from 'p-queue-helpers';
import build from './build';
const a = makeQueue('a');
const b = build('b');
a.process(async (item) => item);
b.process(async (item) => item);
`),
    ).toEqual([]);
    // The project's own queue class: an instance of it is no Bull queue, whatever it is named.
    expect(
      handlersIn(`
import { InMemoryQueue } from './in-memory-queue';
const queue = new InMemoryQueue({ concurrency: 2 });
queue.process(async (job) => deploy(job.data));
`),
    ).toEqual([]);
  });

  it('finds each handler of a table of rows that an iteration registers', () => {
    expect(
      handlersIn(`
import newQueue from '../lib/queue';
import wrap from '../workers/wrapper';
const notificationQueue = newQueue('notifications');
async function notifyApproved(job) {}
async function notifySubmitted(job) {}
const instant = [
  ['approved', notifyApproved],
  ['submitted', notifySubmitted],
];
instant.forEach(([action, handler]) => {
  notificationQueue.process(action, wrap(handler, action));
});
`),
    ).toEqual([
      { broker: 'bull', queue: 'notifications', line: 5, param: 'job' },
      { broker: 'bull', queue: 'notifications', line: 6, param: 'job' },
    ]);
    // A parameter of any other callback, or rows of a table that can change, say nothing.
    expect(
      handlersIn(`
import newQueue from '../lib/queue';
const q = newQueue('q');
async function a(job) {}
let rows = [['a', a]];
rows.forEach(([name, handler]) => q.process(name, handler));
export function register(handler) { q.process('b', handler); }
`),
    ).toEqual([]);
  });

  it('finds each handler of a table of job definitions a loop registers, by the part of the row it takes', () => {
    const table = `
import PgBoss from 'pg-boss';
const boss = new PgBoss(process.env.DATABASE_URL);
async function sendMail(jobs) {}
const jobs = [
  { name: 'mail', handler: sendMail },
  { name: 'report', handler: async (jobs) => {} },
];
const byName = { mail: sendMail, report: async function report(jobs) {} };
`;
    const rows = [
      { broker: 'pg-boss', queue: undefined, line: 4, param: 'jobs' },
      { broker: 'pg-boss', queue: undefined, line: 7, param: 'jobs' },
    ];
    expect(handlersIn(`${table}for (const job of jobs) await boss.work(job.name, job.handler);`)).toEqual(rows);
    expect(handlersIn(`${table}jobs.forEach(({ name, handler }) => boss.work(name, handler));`)).toEqual(rows);
    expect(
      handlersIn(`${table}for (const [name, handler] of Object.entries(byName)) await boss.work(name, handler);`),
    ).toEqual([rows[0], { broker: 'pg-boss', queue: undefined, line: 9, param: 'jobs' }]);
    // Another part of the row, or a table that can change, says nothing.
    expect(handlersIn(`${table}for (const job of jobs) await boss.work(job.name, job.name);`)).toEqual([]);
    expect(
      handlersIn(
        `${table.replace('const jobs', 'let jobs')}for (const job of jobs) await boss.work(job.name, job.handler);`,
      ),
    ).toEqual([]);
  });

  it('ignores worker_threads workers and processors it cannot see', () => {
    expect(
      handlersIn(`
import { Worker } from 'node:worker_threads';
new Worker('./thread.js', { workerData });
import { processor } from './processor';
import { Worker as QueueWorker } from 'bullmq';
new QueueWorker('q', processor);
`),
    ).toEqual([]);
  });

  it('finds Bull processors in every arity', () => {
    expect(
      handlersIn(`
const Queue = require('bull');
const queue = new Queue('video');
queue.process(async (job) => {});
queue.process('transcode', 5, async (job) => {});
queue.process('thumb', function (job, done) { done(); });
`),
    ).toEqual([
      { broker: 'bull', queue: 'video', line: 4, param: 'job' },
      { broker: 'bull', queue: 'video', line: 5, param: 'job' },
      { broker: 'bull', queue: 'video', line: 6, param: 'job' },
    ]);
  });

  it('does not take any .process() for Bull', () => {
    expect(handlersIn(`const parser = makeParser(); parser.process(async (job) => {});`)).toEqual([]);
  });

  it('finds sqs-consumer handlers', () => {
    expect(
      handlersIn(`
import { Consumer } from 'sqs-consumer';
const handleMessageBatch = async (messages) => {};
Consumer.create({ queueUrl: 'https://sqs/q', handleMessage: async (message) => {} });
new Consumer({ queueUrl, handleMessageBatch });
`),
    ).toEqual([
      { broker: 'sqs-consumer', queue: undefined, line: 3, param: 'messages' },
      { broker: 'sqs-consumer', queue: 'https://sqs/q', line: 4, param: 'message' },
    ]);
  });

  it('finds amqplib consume callbacks', () => {
    expect(
      handlersIn(`
const amqp = require('amqplib');
const ch = await conn.createChannel();
ch.consume('tasks', async (msg) => { ch.ack(msg); });
`),
    ).toEqual([{ broker: 'amqplib', queue: 'tasks', line: 4, param: 'msg' }]);
  });

  it('finds kafkajs eachMessage and eachBatch, including methods and shorthand', () => {
    expect(
      handlersIn(`
const eachBatch = async ({ batch }) => {};
await consumer.run({ async eachMessage({ topic, message }) {} });
await consumer.run({ eachBatch });
`),
    ).toEqual([
      { broker: 'kafkajs', queue: undefined, line: 2, param: 'ObjectPattern' },
      { broker: 'kafkajs', queue: undefined, line: 3, param: 'ObjectPattern' },
    ]);
  });

  it('finds Lambda SQS handlers by type or by their reads of event.Records', () => {
    expect(
      handlersIn(`
import type { SQSEvent, SQSHandler } from 'aws-lambda';
export const typed = async (event: SQSEvent) => {};
export const byHandlerType: SQSHandler = async (event) => {};
exports.untyped = async (event) => { for (const record of event.Records) await work(record.body); };
`),
    ).toEqual([
      { broker: 'lambda-sqs', queue: undefined, line: 3, param: 'event' },
      { broker: 'lambda-sqs', queue: undefined, line: 4, param: 'event' },
      { broker: 'lambda-sqs', queue: undefined, line: 5, param: 'event' },
    ]);
  });

  it("finds untyped EventBridge Lambda handlers by their read of the envelope's detail-type, also in a function of the file they hand the event to", () => {
    expect(
      handlersIn(`
const transform = async (event) => ({ Detail: JSON.stringify({ type: event['detail-type'], data: event.detail }) });
export async function handler(event) { const entry = await transform(event); await client.send(entry); }
export const onEvent = async (event) => { if (event['detail-type'] === 'Order Placed') await work(event.detail); };
export const isDomainEvent = (event) => typeof event['detail-type'] === 'string';
export const onCustom = async (event) => { await work(event.detail); };
`),
    ).toEqual([
      { broker: 'lambda-eventbridge', queue: undefined, line: 3, param: 'event' },
      { broker: 'lambda-eventbridge', queue: undefined, line: 4, param: 'event' },
      // A predicate that returns what it read, and a handler of some other `detail`: only the
      // message-like parameter's generic row, as for any exported function.
      { broker: 'generic', queue: undefined, line: 5, param: 'event' },
      { broker: 'generic', queue: undefined, line: 6, param: 'event' },
    ]);
  });

  it('finds the Lambda handlers a factory of the module makes, and a wrapper callback returns, by their event type', () => {
    expect(
      handlersIn(`
import type { SQSEvent, EventBridgeEvent } from 'aws-lambda';
export const create = ({ stripe }) => async (event: SQSEvent) => { for (const r of event.Records) await stripe.charge(r.body); };
export const handler = metricScope((metrics) => async (event: EventBridgeEvent<'x', unknown>) => { await work(event.detail); });
export const makeClient = (config) => async (request: Request) => fetch(request);
`),
    ).toEqual([
      { broker: 'lambda-sqs', queue: undefined, line: 3, param: 'event' },
      { broker: 'lambda-eventbridge', queue: undefined, line: 4, param: 'event' },
    ]);
  });

  it('does not take an S3 or SNS Lambda for SQS (a typed S3 one is an S3 handler)', () => {
    expect(
      handlersIn(`
export const onUpload = async (ev: S3Event) => {};
export const onNotify = async (input) => { for (const r of input.Records) await work(r.Sns.Message); };
`),
    ).toEqual([{ broker: 'lambda-s3', queue: undefined, line: 2, param: 'ev' }]);
  });

  it('finds Pub/Sub message listeners, but not WebSocket or worker messages', () => {
    expect(
      handlersIn(`
import { PubSub } from '@google-cloud/pubsub';
const subscription = pubsub.subscription('orders-sub');
subscription.on('message', async (message) => { message.ack(); });
ws.on('message', (data) => {});
process.on('message', (data) => {});
sub2.on('message', (m) => { m.ack(); });
`),
    ).toEqual([
      { broker: 'pubsub', queue: 'orders-sub', line: 4, param: 'message' },
      { broker: 'pubsub', queue: undefined, line: 7, param: 'm' },
    ]);
  });

  it('finds POST routes of express, fastify and hono', () => {
    expect(
      handlersIn(`
import express from 'express';
const app = express();
const router = express.Router();
app.post('/webhooks/stripe', express.raw(), async (req, res) => {});
router.post('/hook', verify, onHook);
async function onHook(req, res) {}
function verify(req, res, next) {}
app.get('/health', (req, res) => {});
fastify.route({ method: ['POST'], url: '/events', handler: async (request) => {} });
app.route('/orders').post(async (req, res) => {});
`),
    ).toEqual([
      { broker: 'webhook', queue: '/webhooks/stripe', line: 5, param: 'req' },
      // The middleware in front (verify, line 8) is not a handler of its own.
      { broker: 'webhook', queue: '/hook', line: 7, param: 'req' },
      // Ordinary POST routes: the rules look inside them, but they are not webhooks.
      { broker: 'route', queue: '/events', line: 10, param: 'request' },
      { broker: 'route', queue: '/orders', line: 11, param: 'req' },
    ]);
  });

  it('finds fastify routes registered on the instance a type provider retypes', () => {
    expect(
      handlersIn(`
import Fastify, { type FastifyInstance } from 'fastify';
import { type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
const server = Fastify().withTypeProvider<TypeBoxTypeProvider>();
server.post('/orders', async (request) => {});
export async function webhooks(fastify: FastifyInstance) {
  fastify.withTypeProvider<TypeBoxTypeProvider>().post('/stripe-webhook', { schema: {} }, async (request, reply) => {});
}
`),
    ).toEqual([
      { broker: 'route', queue: '/orders', line: 5, param: 'request' },
      { broker: 'webhook', queue: '/stripe-webhook', line: 7, param: 'request' },
    ]);
  });

  it('finds the handler a fastify shorthand route takes in its options, and the hooks that check the sender', () => {
    expect(
      handlersIn(`
import { type FastifyPluginCallback } from 'fastify';
import { verifyStripeSignature } from './signature';
const plugin: FastifyPluginCallback = function billing(fastify, opts, done) {
  fastify.post('/events', {
    config: { rawBody: true },
    handler: async (req, res) => {
      const event = opts.stripe.webhooks.constructEvent(req.rawBody, req.headers['stripe-signature'], opts.secret);
      await opts.billing.apply(event);
    },
  });
  fastify.post('/payments', { preHandler: [verifyStripeSignature], handler: onPayment });
  fastify.post('/orders', { schema: {}, handler: async (request) => {} });
  fastify.post('/nothing', { schema: {} });
  done();
};
async function onPayment(request, reply) {}
`),
    ).toEqual([
      // Its own signature check makes it a webhook; the hook in front makes the second one.
      { broker: 'webhook', queue: '/events', line: 7, param: 'req' },
      { broker: 'route', queue: '/orders', line: 13, param: 'request' },
      { broker: 'webhook', queue: '/payments', line: 17, param: 'request' },
    ]);
  });

  it('does not take an msw mock or an HTTP client for a route', () => {
    expect(
      handlersIn(`
import { http } from 'msw';
http.post('/api/charge', async ({ request }) => {});
axios.post('/api', () => {});
`),
    ).toEqual([]);
  });

  it('exposes exported functions with a message-like first parameter as generic', () => {
    expect(
      handlersIn(`
export async function applyTopUp(job) {}
export const keyed = (api) => (message) => api.charge(message);
export function format(value) {}
function internal(job) {}
module.exports.onMessage = async function (msg) {};
`),
    ).toEqual([
      { broker: 'generic', queue: undefined, line: 2, param: 'job' },
      { broker: 'generic', queue: undefined, line: 6, param: 'msg' },
    ]);
  });

  it('exposes local functions registered by name as generic, but not iteration or DOM callbacks', () => {
    expect(
      handlersIn(`
async function onMessage(msg) {}
function onClick(event) {}
function each(job) {}
bus.subscribe('orders', onMessage);
button.addEventListener('click', onClick);
jobs.forEach(each);
emitter.on('x', onClick);
`),
    ).toEqual([{ broker: 'generic', queue: undefined, line: 2, param: 'msg' }]);
  });

  it('takes exported functions listed in settings.consumerHandlers', () => {
    expect(
      handlersIn(`export async function chargeCustomer(payload) {}\nexport async function other(payload) {}`, {
        filename: 'src/jobs/charge.ts',
        settings: { idempotency: { consumerHandlers: [{ from: './jobs/charge', name: 'chargeCustomer' }] } },
      }),
    ).toEqual([{ broker: 'generic', queue: undefined, line: 1, param: 'payload' }]);
  });
});

describe('route handlers and webhook factories', () => {
  it("takes a route that verifies Paddle's signature for a webhook", () => {
    expect(
      handlersIn(`
export async function POST(request) {
  const event = await paddle.webhooks.unmarshal(await request.text(), secret, request.headers.get('paddle-signature'));
}
`),
    ).toEqual([{ broker: 'webhook', queue: undefined, line: 2, param: 'request' }]);
    // Another library's `unmarshal` checks no sender.
    expect(
      handlersIn(`
export async function POST(request) {
  const record = await store.unmarshal(await request.text());
}
`),
    ).toEqual([{ broker: 'route', queue: undefined, line: 2, param: 'request' }]);
  });

  it('finds Next.js POST exports, Vercel handlers that check for POST, and webhook factory callbacks', () => {
    expect(
      handlersIn(`
export async function POST(request) {}
export async function GET(request) {}
export default async function handler(req, res) { if (req.method !== 'POST') return res.status(405).end(); }
const onGitHub = makeGitHubWebhookHandler({ secret, onPush: async (push) => {}, log: (line) => {} });
webhooks.on('push', async ({ payload }) => {});
WebhookQueue.instance?.on('error', (err) => logger.error('WebhookQueue error', err));
webhookWorker.once('failed', async (job, err) => {});
`),
    ).toEqual([
      // Outside a file that says webhook, without a signature check: ordinary routes.
      { broker: 'route', queue: undefined, line: 2, param: 'request' },
      { broker: 'route', queue: undefined, line: 4, param: 'req' },
      { broker: 'webhook', queue: undefined, line: 5, param: 'push' },
      { broker: 'webhook', queue: undefined, line: 6, param: 'ObjectPattern' },
      // A queue's own error and failure events are not deliveries.
    ]);
  });

  it('tells deliveries from the routes of signed-in users and the routes that manage webhooks', () => {
    // A team's webhook settings, read with the user's session: not a receiver.
    expect(
      handlersIn(
        `export default async function handle(req, res) { const session = await getServerSession(req, res, authOptions); if (req.method === 'POST') {} }`,
        { filename: 'pages/api/teams/[teamId]/webhooks/index.ts' },
      ),
    ).toEqual([{ broker: 'route', queue: undefined, line: 1, param: 'req' }]);
    // A pages API route that checks no method is still a webhook when its file says so or it
    // reads a sender's delivery headers.
    expect(
      handlersIn(`export default async function handler(req, res) { res.end(); }`, {
        filename: 'pages/api/stripe/webhook.ts',
      }),
    ).toEqual([{ broker: 'webhook', queue: undefined, line: 1, param: 'req' }]);
    expect(
      handlersIn(
        `export default async function handler(req, res) { if (req.headers['x-github-event'] === 'ping') return res.end(); }`,
        { filename: 'pages/api/deploy/[refreshToken].ts' },
      ),
    ).toEqual([{ broker: 'webhook', queue: undefined, line: 1, param: 'req' }]);
    // OAuth redirects and a signed-in user's setup page are not deliveries.
    expect(
      handlersIn(`export default async function handler(req, res) { const { code } = req.query; res.redirect('/'); }`, {
        filename: 'pages/api/providers/gitea/callback.ts',
      }),
    ).toEqual([]);
    expect(
      handlersIn(
        `export default async function handler(req, res) { const { user, session } = await validateRequest(req); if (req.method === 'POST') {} }`,
        { filename: 'pages/api/providers/github/setup.ts' },
      ).map((found) => found.broker),
    ).toEqual(['route']);
    // A route that hands its request to a function named for handling webhooks receives them; one
    // that hands it to a function that manages webhooks, or hands it nothing, does not.
    expect(
      handlersIn(
        `import { handleMessagingWebhookRoute, createWebhook } from '@/utils/webhooks';
export const POST = withError('teams/events', async (request) => handleMessagingWebhookRoute({ request, platform: 'teams' }));
export async function PUT(request) { return createWebhook(request); }`,
        { filename: 'app/api/teams/events/route.ts' },
      ).map((found) => [found.line, found.broker]),
    ).toEqual([[2, 'webhook']]);
    expect(
      handlersIn(
        `import { createWebhook } from '@/utils/webhooks';
export async function POST(request) { return createWebhook(await request.json()); }
export const PUT = withError('x', async (request) => handleWebhookRoute({ platform: 'teams' }));
export const PATCH = async (request) => Response.json(await checkWebhooksExistForIntegration(request.body.integrationId));`,
        { filename: 'app/api/teams/settings/route.ts' },
      ).map((found) => [found.line, found.broker]),
    ).toEqual([[2, 'route']]);
    // A default-exported helper that checks a sender's token is not the route that receives it.
    expect(
      handlersIn(
        `export default function verifyGitlabWebhook(ctx, headers) { if (headers['x-gitlab-token'] !== ctx.token) throw new Error('no'); }`,
        { filename: 'src/integrations/gitlab/utils/verifyWebhook.ts' },
      ),
    ).toEqual([]);
    // A bearer API key compared in constant time is not a sender's signature.
    expect(
      handlersIn(
        `import { timingSafeEqual } from 'crypto'; export async function POST(req) { if (!timingSafeEqual(Buffer.from(token), Buffer.from(key))) return new Response(null, { status: 401 }); }`,
        { filename: 'app/api/internal/unpause/route.ts' },
      ),
    ).toEqual([{ broker: 'route', queue: undefined, line: 1, param: 'req' }]);
    // A router file of webhooks: the route that serves the sender's configuration, and one whose
    // path a helper builds from a word that says it sets them, manage webhooks.
    expect(
      handlersIn(
        `import express from 'express';
const router = express.Router();
router.post('/mailgun', async (req, res) => {});
router.post('/zone-mta/sender-config/:cid', async (req, res) => {});
router.post(this.routerPath('set'), async (req, res) => {});
router.post('/order-created', async (req, res) => {});`,
        { filename: 'server/routes/webhooks.ts' },
      ).map((found) => [found.line, found.broker]),
    ).toEqual([
      [3, 'webhook'],
      [4, 'route'],
      [5, 'route'],
      [6, 'webhook'],
    ]);
  });

  it('reads a guard mounted on the router, not any `use` before a signature word', () => {
    expect(
      handlersIn(`import express from 'express';
const app = express()
app.use(session(options))
app.post('/api/v1/auth/login', async (req, res) => {})
const signature = req.headers.sig
app.post('/in', async (req, res) => {})
app.use(verifySignature)
`).map((found) => [found.line, found.broker]),
    ).toEqual([
      [4, 'webhook'],
      [6, 'webhook'],
    ]);
    expect(
      handlersIn(`import express from 'express';
const app = express()
app.use(session(options))
app.post('/api/v1/auth/login', async (req, res) => {})
const signature = req.headers.sig
`).map((found) => [found.line, found.broker]),
    ).toEqual([[4, 'route']]);
  });

  it('finds wrapped webhook handlers: a Saleor definition, a composed export, an API Gateway Lambda', () => {
    expect(
      handlersIn(
        `const handler = chargeRequestedWebhookDefinition.createHandler(withRecipientVerification(async (req, ctx) => {}));
const StripeWebhookHandler = async (request) => {};
export const POST = compose(withLoggerContext)(StripeWebhookHandler);`,
        { filename: 'src/app/api/webhooks/stripe/route.ts' },
      ).map((found) => [found.line, found.broker]),
    ).toEqual([
      [1, 'webhook'],
      [2, 'webhook'],
    ]);
    expect(
      handlersIn(
        `export const handler = async (event: APIGatewayProxyEvent) => { if (await isSignatureInvalid(event.headers, event.body)) return { statusCode: 400 }; return { statusCode: 200 }; };`,
        { filename: 'src/lambdas/initiateDataRequest/handler.ts' },
      ),
    ).toEqual([{ broker: 'webhook', queue: undefined, line: 1, param: 'event' }]);
    // An inbound query answered in the response is not a delivery a sender retries.
    expect(
      handlersIn(
        `export const handler = async (event: APIGatewayProxyEventV2) => { if (!event.body) return { statusCode: 400 }; return { statusCode: 200, body: await answer(event.body) }; };`,
        { filename: 'src/ihe-gateway-inbound-patient-discovery.ts' },
      ).filter((found) => found.broker !== 'generic'),
    ).toEqual([]);
    // An API Gateway Lambda that nothing says receives deliveries answers its caller: only the
    // generic shape of an exported `event` handler, which the inventory does not list.
    expect(
      handlersIn(`export const handler = async (event: APIGatewayProxyEvent) => ({ statusCode: 200 });`, {
        filename: 'src/lambdas/status.ts',
      }).map((found) => found.broker),
    ).toEqual(['generic']);
    expect(
      handlersIn(
        `import { ApiHandler } from 'sst/node/api';
export const handler = ApiHandler(async (event) => { stripe.webhooks.constructEvent(event.body, sig, secret); });`,
      ),
    ).toEqual([{ broker: 'webhook', queue: undefined, line: 2, param: 'event' }]);
  });

  it('reads NestJS guards: a signature guard makes a webhook, a JWT guard or a manager class does not', () => {
    expect(
      handlersIn(`import { Controller, Post, UseGuards } from '@nestjs/common';
@Controller('alerts')
export class AlertsController {
  @UseGuards(TenderlySignatureGuard)
  @Post()
  postAlert(body) {}
}
@Controller('v1/webhook')
@UseGuards(JwtAuthGuard)
export class WebhookManagementController {
  @Post('enable')
  enableWebhook(dto, @LoginedUser() user) {}
}
@Controller('v1/webhook')
export class InboundController {
  @Post('receive')
  receive(@CurrentUser() user, body) {}
}`).map((found) => [found.line, found.broker]),
    ).toEqual([[6, 'webhook']]);
  });

  it('does not take a GET-only default export for a webhook', () => {
    expect(handlersIn(`export default function handler(req, res) { if (req.method === 'GET') res.json({}); }`)).toEqual(
      [],
    );
  });
});

/** messageIdentity and asyncCallKind for every call to the marker \`here(...)\`. */
function atMarkers(code: string): [string[] | undefined, string | undefined][] {
  const rows: [string[] | undefined, string | undefined][] = [];
  lintSnippet(code, (context) => ({
    'CallExpression[callee.name="here"]'(node: TSESTree.CallExpression) {
      const handler = enclosingConsumerHandler(node, context);
      const inner = node.arguments[0];
      rows.push([
        handler && messageIdentity(handler, node, context),
        inner?.type === AST_NODE_TYPES.CallExpression ? asyncCallKind(inner, context) : undefined,
      ]);
    },
  }));
  return rows;
}

describe('messageIdentityAt', () => {
  it('asks the enclosing handler, else a job / message parameter; never a batch array or a DOM event', () => {
    const found: (string[] | undefined)[] = [];
    lintSnippet(
      `import { Worker } from 'bullmq';
import { Consumer } from 'sqs-consumer';
new Worker('q', async (job) => { probe(); });
Consumer.create({ queueUrl: 'q', handleMessage: async (message) => { probe(); } });
Consumer.create({ queueUrl: 'q', handleMessageBatch: async (messages) => { probe(); } });
async function handle(msg) { [1].forEach(() => probe()); }
function onClick(event) { probe(); }
probe();`,
      (context) => ({
        'CallExpression[callee.name="probe"]'(node: TSESTree.CallExpression) {
          found.push(messageIdentityAt(node, context));
        },
      }),
    );
    expect(found).toEqual([['job.id'], ['message.MessageId'], undefined, ['msg.id'], undefined, undefined]);
  });
});

describe('messageIdentity', () => {
  it('names the stable id of each broker delivery', () => {
    expect(
      atMarkers(`
import { Worker } from 'bullmq';
import { Consumer } from 'sqs-consumer';
new Worker('q', async (job) => here());
Consumer.create({ queueUrl, handleMessage: async (message) => here(), handleMessageBatch: async (messages) => { here(); for (const m of messages) here(); } });
export const handler = async (event: SQSEvent) => { here(); await Promise.all(event.Records.map(async (record) => here())); };
await consumer.run({ eachMessage: async ({ topic, partition, message }) => here() });
await consumer.run({ eachMessage: async (payload) => here() });
await consumer.run({ eachMessage: async ({ message }) => here() });
subscription.on('message', (message) => { here(); message.ack(); });
const ch = await conn.createChannel(); ch.consume('q', (msg) => here());
export async function onEvent(event) { here(); }
`),
    ).toEqual([
      [['job.id'], undefined],
      [['message.MessageId'], undefined],
      [undefined, undefined],
      [['m.MessageId'], undefined],
      [undefined, undefined],
      [['record.messageId'], undefined],
      [['topic', 'partition', 'message.offset'], undefined],
      [['payload.topic', 'payload.partition', 'payload.message.offset'], undefined],
      [undefined, undefined],
      [['message.id'], undefined],
      [undefined, undefined],
      [['event.id'], undefined],
    ]);
  });
});

describe('asyncCallKind (syntax)', () => {
  it('recognises the calls that return promises', () => {
    expect(
      atMarkers(`
import Stripe from 'stripe';
import { Queue } from 'bullmq';
import { Pool } from 'pg';
const stripe = new Stripe('k');
const pool = new Pool();
const emails = new Queue('emails');
const producer = kafka.producer();
const transporter = nodemailer.createTransport({});
async function local() {}
function typed(): Promise<void> { return Promise.resolve(); }
const service = { async run() {} };
class Worker { async step() {} go() { here(this.step()); } }
here(local());
here(typed());
here(service.run());
here(fetch(url));
here(pool.query('SELECT 1'));
here(stripe.customers.retrieve('c'));
here(sqs.send(new SendMessageCommand({})));
here(sqs.sendMessage({}).promise());
here(emails.add('x', {}));
here(producer.send({ topic, messages }));
here(pubsub.topic('t').publishMessage({ data }));
here(transporter.sendMail({}));
here(prisma.order.create({ data }));
here(doWork().then(done));
here(Promise.all([]));
here(console.log('x'));
here(client.release());
here(list.add(1));
here(Promise.resolve());
`).map(([, kind]) => kind),
    ).toEqual([
      'async function',
      'async function',
      'async function',
      'async function',
      'request',
      'query',
      'stripe',
      'aws-sdk',
      'aws-sdk',
      'queue',
      'producer',
      'publish',
      'mail',
      'prisma',
      'promise chain',
      'promise',
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });
});

describe('enclosingConsumerHandler', () => {
  it('returns the handler around nested callbacks', () => {
    expect(
      enclosingBroker(
        `await consumer.run({ eachBatch: async ({ batch }) => { batch.messages.map(async (m) => here()); } });`,
      ),
    ).toBe('kafkajs');
  });

  it('returns undefined outside handlers', () => {
    expect(enclosingBroker(`async function main() { here(); }`)).toBeUndefined();
  });
});
