import { describe, expect, it } from 'vitest';

import { inventoryOf } from './helpers.js';

/** A Next.js app whose tsconfig maps `@/*` to its own folder. */
const APP = {
  'package.json': '{ "name": "web", "dependencies": { "next": "15.0.0", "@upstash/qstash": "2.0.0" } }',
  'tsconfig.json': '{ "compilerOptions": { "baseUrl": ".", "paths": { "@/*": ["./*"] } } }',
  'lib/prisma.ts': "import { PrismaClient } from '@prisma/client';\nexport const prisma = new PrismaClient();\n",
};

/** QStash's signature check behind a wrapper of the app's own, in a module of its own. */
const WITH_CRON = [
  "import { Receiver } from '@upstash/qstash';",
  '',
  'const receiver = new Receiver();',
  '',
  'export const withCron = (handler: (body: string) => Promise<Response>) => async (req: Request) => {',
  '  const body = await req.text();',
  "  const ok = await receiver.verify({ signature: req.headers.get('Upstash-Signature') ?? '', body });",
  "  if (!ok) return new Response('unauthorized', { status: 401 });",
  '  return handler(body);',
  '};',
  '',
].join('\n');

/** A route that writes what the body says, wrapped by `wrapper` (imported from `from`). */
const route = (wrapper: string, from: string): string =>
  [
    `import { ${wrapper} } from '${from}';`,
    "import { prisma } from '@/lib/prisma';",
    '',
    `export const POST = ${wrapper}(async (body) => {`,
    '  await prisma.payout.create({ data: JSON.parse(body) });',
    "  return new Response('ok');",
    '});',
    '',
  ].join('\n');

describe('sender checks in other modules: a route behind one receives deliveries', () => {
  it('lists a route wrapped by an imported function that verifies the sender (QStash) as a webhook', () => {
    expect(
      inventoryOf({
        ...APP,
        'lib/cron/with-cron.ts': WITH_CRON,
        'app/api/cron/payouts/route.ts': route('withCron', '@/lib/cron/with-cron'),
        // The scheduler calls GET, QStash POSTs the same handler.
        'app/api/cron/summary/route.ts': route('withCron', '@/lib/cron/with-cron')
          .replace('export const POST', 'export const GET')
          .concat('export const POST = GET;\n'),
      }),
    ).toEqual([
      { file: 'app/api/cron/payouts/route.ts', line: 4, broker: 'webhook' },
      { file: 'app/api/cron/summary/route.ts', line: 4, broker: 'webhook' },
    ]);
  });

  it('lists a route that hands its request to an imported check of the sender', () => {
    expect(
      inventoryOf({
        ...APP,
        'lib/slack/verify.ts': [
          "import { createHmac, timingSafeEqual } from 'node:crypto';",
          '',
          'export async function checkSlack(req: Request, body: string) {',
          "  const sent = req.headers.get('x-slack-request-timestamp') ?? '';",
          "  const mac = createHmac('sha256', process.env.SLACK_SECRET ?? '').update(`v0:${sent}:${body}`).digest('hex');",
          "  if (!timingSafeEqual(Buffer.from(`v0=${mac}`), Buffer.from(req.headers.get('x-slack-sig') ?? ''))) throw new Error('bad signature');",
          '}',
          '',
        ].join('\n'),
        'app/api/slack/commands/route.ts': [
          "import { checkSlack } from '@/lib/slack/verify';",
          "import { prisma } from '@/lib/prisma';",
          '',
          'export async function POST(req: Request) {',
          '  const body = await req.text();',
          '  await checkSlack(req, body);',
          '  await prisma.command.create({ data: { body } });',
          "  return new Response('ok');",
          '}',
          '',
        ].join('\n'),
      }),
    ).toEqual([{ file: 'app/api/slack/commands/route.ts', line: 4, name: 'POST', broker: 'webhook' }]);
  });

  it("lists a NestJS route that hands its request to an injected service's method that checks the sender", () => {
    expect(
      inventoryOf({
        'package.json': '{ "name": "api", "dependencies": { "@nestjs/common": "10.0.0", "svix": "1.0.0" } }',
        'src/webhooks/webhooks.service.ts': [
          "import { Injectable } from '@nestjs/common';",
          "import { Webhook } from 'svix';",
          '',
          '@Injectable()',
          'export class WebhooksService {',
          '  async processResendData(request: { rawBody: string; headers: Record<string, string> }, body: unknown) {',
          "    const webhook = new Webhook(process.env.RESEND_SECRET ?? '');",
          '    webhook.verify(request.rawBody, request.headers);',
          "    await fetch('https://api.example.com/events', { method: 'POST', body: JSON.stringify(body), signal: AbortSignal.timeout(5000) });",
          '  }',
          '}',
          '',
        ].join('\n'),
        'src/webhooks/webhooks.controller.ts': [
          "import { Body, Controller, Post, Req } from '@nestjs/common';",
          "import { WebhooksService } from './webhooks.service';",
          '',
          "@Controller('events')",
          'export class EventsController {',
          '  constructor(private readonly webhooksService: WebhooksService) {}',
          '',
          "  @Post('resend')",
          '  async processResendData(@Req() request: { rawBody: string; headers: Record<string, string> }, @Body() body: unknown) {',
          '    await this.webhooksService.processResendData(request, body);',
          '  }',
          '}',
          '',
        ].join('\n'),
      }),
    ).toEqual([{ file: 'src/webhooks/webhooks.controller.ts', line: 9, broker: 'webhook' }]);
  });

  it("does not list a route whose imported helper signs a user's link or validates a webhook URL", () => {
    expect(
      inventoryOf({
        ...APP,
        // An HMAC over the token of the link the user followed: it proves the link, not a sender.
        'lib/email/unsubscribe-token.ts': [
          "import { createHmac } from 'node:crypto';",
          '',
          'export function verifyUnsubscribeToken(req: Request): string | null {',
          "  const [email, signature] = (new URL(req.url).searchParams.get('token') ?? '').split('.');",
          "  const expected = createHmac('sha256', process.env.TOKEN_SECRET ?? '').update(email).digest('hex');",
          '  return signature === expected ? email : null;',
          '}',
          '',
        ].join('\n'),
        'app/api/user/preferences/route.ts': [
          "import { verifyUnsubscribeToken } from '@/lib/email/unsubscribe-token';",
          "import { prisma } from '@/lib/prisma';",
          '',
          'export async function POST(req: Request) {',
          '  const email = verifyUnsubscribeToken(req);',
          "  await prisma.user.update({ where: { email: email ?? '' }, data: { subscribed: false } });",
          "  return new Response('ok');",
          '}',
          '',
        ].join('\n'),
        // Checks the URLs a user's rule will call, not who is calling.
        'lib/rules.ts': [
          "import { prisma } from '@/lib/prisma';",
          '',
          'function validateWebhookUrlsInActions(actions: { url: string }[]) {',
          "  for (const action of actions) if (!action.url.startsWith('https://')) throw new Error('bad url');",
          '}',
          '',
          'export async function createRule(actions: { url: string }[]) {',
          '  validateWebhookUrlsInActions(actions);',
          '  return prisma.rule.create({ data: { actions: { createMany: { data: actions } } } });',
          '}',
          '',
        ].join('\n'),
        'app/api/v1/rules/route.ts': [
          "import { createRule } from '@/lib/rules';",
          '',
          'export async function POST(req: Request) {',
          '  const rule = await createRule(await req.json());',
          '  return Response.json(rule);',
          '}',
          '',
        ].join('\n'),
      }),
    ).toEqual([]);
  });
});

describe('each file is read with the nearest tsconfig that includes it', () => {
  it("resolves a workspace app's `paths` alias though a root tsconfig without `include` covers the file too", () => {
    expect(
      inventoryOf({
        'package.json': '{ "name": "monorepo", "private": true, "workspaces": ["apps/*"] }',
        'tsconfig.json': '{ "compilerOptions": { "strictNullChecks": true } }',
        'apps/web/package.json': '{ "name": "web", "dependencies": { "next": "15.0.0" } }',
        'apps/web/tsconfig.json': '{ "compilerOptions": { "baseUrl": ".", "paths": { "@/*": ["./*"] } } }',
        'apps/web/lib/prisma.ts': APP['lib/prisma.ts'],
        'apps/web/lib/cron/with-cron.ts': WITH_CRON,
        'apps/web/app/api/cron/payouts/route.ts': route('withCron', '@/lib/cron/with-cron'),
      }),
    ).toEqual([{ file: 'apps/web/app/api/cron/payouts/route.ts', line: 4, broker: 'webhook' }]);
  });
});

/** An Express app whose routes hand their requests to controllers of other modules. */
const EXPRESS = {
  'package.json': '{ "name": "api", "dependencies": { "express": "4.21.0" } }',
  'src/db.ts': "import { Pool } from 'pg';\nexport const pool = new Pool();\n",
};

/** A controller module: `check` is what the handler does with the request before it writes. */
const controller = (check: string): string =>
  [
    "import crypto from 'node:crypto';",
    "import type { Request, Response } from 'express';",
    "import { pool } from './db';",
    '',
    'export class PaymentController {',
    '  static async webhook(req: Request, res: Response) {',
    `    ${check}`,
    "    await pool.query('INSERT INTO payments (body) VALUES ($1)', [req.body]);",
    '    res.sendStatus(200);',
    '  }',
    '}',
    '',
    'export async function createPayment(req: Request, res: Response) {',
    "  await pool.query('INSERT INTO payments (body) VALUES ($1)', [req.body]);",
    '  res.sendStatus(201);',
    '}',
    '',
  ].join('\n');

const HMAC_CHECK =
  "const hash = crypto.createHmac('sha512', process.env.SECRET ?? '').update(JSON.stringify(req.body)).digest('hex'); if (hash !== req.headers['x-paystack-signature']) return res.sendStatus(401);";

const routes = (path: string): string =>
  [
    "import express from 'express';",
    "import { PaymentController, createPayment } from './controller';",
    '',
    'const router = express.Router();',
    `router.post('${path}', PaymentController.webhook);`,
    "router.post('/payments', createPayment);",
    'export default router;',
    '',
  ].join('\n');

describe('a POST route handed a function of another module', () => {
  it('lists the function as a webhook where the route is registered, when the function checks the sender', () => {
    expect(
      inventoryOf({
        ...EXPRESS,
        'src/controller.ts': controller(HMAC_CHECK),
        'src/routes.ts': routes('/payment/events'),
      }),
    ).toEqual([{ file: 'src/controller.ts', line: 6, name: 'PaymentController.webhook', broker: 'webhook' }]);
  });

  it('lists it when the path says webhook, though the function checks nothing itself', () => {
    expect(
      inventoryOf({ ...EXPRESS, 'src/controller.ts': controller(''), 'src/routes.ts': routes('/payment/webhook') }),
    ).toEqual([{ file: 'src/controller.ts', line: 6, name: 'PaymentController.webhook', broker: 'webhook' }]);
  });

  it('lists the function of a controller object another module exports (`export default { webhook }`)', () => {
    const objectController = [
      "import crypto from 'node:crypto';",
      "import { pool } from './db';",
      '',
      'async function webhook(req, res) {',
      `  ${HMAC_CHECK}`,
      "  await pool.query('INSERT INTO payments (body) VALUES ($1)', [req.body]);",
      '  res.sendStatus(200);',
      '}',
      '',
      'const paymentController = { webhook, list: async (req, res) => res.json([]) };',
      'export default paymentController;',
      '',
    ].join('\n');
    const objectRoutes = [
      "import express from 'express';",
      "import paymentController from './controller.js';",
      '',
      'const router = express.Router();',
      "router.post('/payment/events', paymentController.webhook);",
      "router.post('/payments', paymentController.list);",
      'export default router;',
      '',
    ].join('\n');
    expect(inventoryOf({ ...EXPRESS, 'src/controller.js': objectController, 'src/routes.js': objectRoutes })).toEqual([
      { file: 'src/controller.js', line: 4, name: 'webhook', broker: 'webhook' },
    ]);
  });

  it("lists no route whose path manages a webhook's setting, and one whose webhook path carries a secret parameter", () => {
    expect(
      inventoryOf({
        ...EXPRESS,
        'src/controller.ts': controller(''),
        'src/routes.ts': routes('/flows/:id/webhook-secret'),
      }),
    ).toEqual([]);
    expect(
      inventoryOf({
        ...EXPRESS,
        'src/controller.ts': controller(''),
        'src/routes.ts': routes('/telegram/webhook/:secret'),
      }),
    ).toEqual([{ file: 'src/controller.ts', line: 6, name: 'PaymentController.webhook', broker: 'webhook' }]);
  });

  it('lists neither an ordinary POST route nor one whose function checks no sender and whose path says nothing', () => {
    expect(
      inventoryOf({ ...EXPRESS, 'src/controller.ts': controller(''), 'src/routes.ts': routes('/payment/events') }),
    ).toEqual([]);
  });
});

describe('a route that runs the handler an imported factory makes', () => {
  it('lists a pages API route behind a wrapper, the handler the factory returns, and the methods of the class its switch calls', () => {
    const rows = inventoryOf({
      'package.json': '{ "name": "web", "dependencies": { "next": "15.0.0", "stripe": "17.0.0" } }',
      'pages/api/webhook/index.ts': [
        "import type { NextApiHandler } from 'next';",
        "import { withSentry } from '@sentry/nextjs';",
        "import { stripeWebhookHandler } from '../../../lib/stripe-webhooks';",
        '',
        'const webhookHandler: NextApiHandler = async (req, res) => {',
        '  await stripeWebhookHandler(process.env.STRIPE_KEY ?? "")(req, res);',
        '};',
        '',
        'export default withSentry(webhookHandler);',
        '',
      ].join('\n'),
      'lib/stripe-webhooks.ts': [
        "import Stripe from 'stripe';",
        "import type { NextApiHandler } from 'next';",
        "import { StripeHandler } from './stripe-handler';",
        '',
        'export const stripeWebhookHandler = (key: string): NextApiHandler => async (req, res) => {',
        '  const stripe = new Stripe(key);',
        "  const event = stripe.webhooks.constructEvent(req.body, req.headers['stripe-signature'] ?? '', 'whsec');",
        '  const handler = new StripeHandler();',
        '  switch (event.type) {',
        "    case 'invoice.paid':",
        '      await handler.recordInvoice(event.data.object);',
        '      break;',
        "    case 'customer.updated':",
        '      await handler.updateCustomer(event.data.object);',
        '      break;',
        '  }',
        '  res.json({ received: true });',
        '};',
        '',
      ].join('\n'),
      'lib/stripe-handler.ts': [
        "import { Pool } from 'pg';",
        'const pool = new Pool();',
        'export class StripeHandler {',
        '  async recordInvoice(invoice: unknown) {',
        "    await pool.query('INSERT INTO invoices (body) VALUES ($1)', [invoice]);",
        '  }',
        '  async updateCustomer(customer: unknown) {',
        "    await pool.query('UPDATE customers SET body = $1', [customer]);",
        '  }',
        '}',
        '',
      ].join('\n'),
    });
    expect(rows).toEqual([
      { file: 'lib/stripe-handler.ts', line: 4, name: 'StripeHandler.recordInvoice', broker: 'webhook' },
      { file: 'lib/stripe-handler.ts', line: 7, name: 'StripeHandler.updateCustomer', broker: 'webhook' },
      { file: 'lib/stripe-webhooks.ts', line: 5, name: 'stripeWebhookHandler()', broker: 'webhook' },
      { file: 'pages/api/webhook/index.ts', line: 5, name: 'webhookHandler', broker: 'webhook' },
    ]);
  });
});

describe("a server's one handler (a Supabase Edge Function's Deno.serve)", () => {
  const fn = (serve: string, check: string) => ({
    'package.json': '{ "name": "functions" }',
    'supabase/functions/payments/index.ts': [
      "import Stripe from 'npm:stripe';",
      "const stripe = new Stripe(Deno.env.get('STRIPE_SECRET_KEY') ?? '');",
      `${serve}(async (req: Request) => {`,
      '  const body = await req.text();',
      `  const event = ${check};`,
      "  await fetch('https://api.example.com/orders', { method: 'POST', body: JSON.stringify(event), signal: AbortSignal.timeout(5000) });",
      "  return new Response('ok');",
      '});',
      '',
    ].join('\n'),
  });
  const signed =
    "await stripe.webhooks.constructEventAsync(body, req.headers.get('stripe-signature') ?? '', Deno.env.get('STRIPE_WEBHOOK_SECRET') ?? '')";

  it('lists it as a webhook when it checks the sender, and not otherwise', () => {
    expect(inventoryOf(fn('Deno.serve', signed)).map(({ file, line, broker }) => ({ file, line, broker }))).toEqual([
      { file: 'supabase/functions/payments/index.ts', line: 3, broker: 'webhook' },
    ]);
    expect(inventoryOf(fn('Deno.serve', 'JSON.parse(body)'))).toEqual([]);
    // A function of the file's own named serve is no server.
    expect(inventoryOf(fn('const Deno = { serve: (f: unknown) => f };\nDeno.serve', signed))).toEqual([]);
  });
});
