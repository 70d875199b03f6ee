import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';

import { libraryClockIn } from '../../src/model/keys/clock-libraries.js';
import { replaysWithoutComparing } from '../../src/model/keys/key-replay.js';
import { sendsKeyedRequest } from '../../src/model/keys/keyed-send.js';
import { findClockWindow, findPerAttemptValue } from '../../src/model/keys/per-attempt.js';
import { lintSnippet } from '../rule-tester.js';

/** The answer of `probe` for the argument of each `probe(...)` call in `code`. */
function probeAll<T>(
  code: string,
  probe: (node: TSESTree.Node, context: Parameters<typeof findPerAttemptValue>[1]) => T,
): T[] {
  const found: T[] = [];
  lintSnippet(code, (context) => ({
    'CallExpression[callee.name="probe"]'(node: TSESTree.CallExpression) {
      found.push(probe(node.arguments[0]!, context));
    },
  }));
  return found;
}

const clock = (node: TSESTree.Node, context: Parameters<typeof findPerAttemptValue>[1]) =>
  node.type === AST_NODE_TYPES.CallExpression ? (libraryClockIn(node, context) ?? null) : null;

describe('libraryClockIn', () => {
  it("finds pdf-lib's stamping factories and the output of a document they made", () => {
    expect(
      probeAll(
        `import { PDFDocument } from 'pdf-lib';
async function render(template) {
  probe(PDFDocument.load(template));
  probe(PDFDocument.create());
  probe(PDFDocument.load(template, { ignoreEncryption: true }));
  const pdf = await PDFDocument.load(template);
  probe(pdf.save());
  probe(pdf.saveAsBase64());
}`,
        clock,
      ),
    ).toEqual([
      'PDFDocument.load()',
      'PDFDocument.create()',
      'PDFDocument.load()',
      'PDFDocument.load()',
      'PDFDocument.load()',
    ]);
  });

  it('is quiet with updateMetadata: false, on other methods, and on look-alikes of other modules', () => {
    expect(
      probeAll(
        `import { PDFDocument } from 'pdf-lib';
import { PDFDocument as Other } from './pdf';
async function render(template, options) {
  probe(PDFDocument.load(template, { updateMetadata: false }));
  probe(PDFDocument.create({ updateMetadata: false }));
  probe(PDFDocument.load(template, { ...options }));
  probe(Other.load(template));
  const pdf = await PDFDocument.load(template, { updateMetadata: false });
  probe(pdf.save());
  const doc = await PDFDocument.create();
  probe(doc.getPageCount());
}`,
        clock,
      ),
    ).toEqual([null, null, null, null, null, null]);
  });

  it('makes a document rebuilt per call a per-attempt value, also through a later single assignment', () => {
    const [found] = probeAll(
      `import { PDFDocument } from 'pdf-lib';
async function render(template) { const pdf = await PDFDocument.load(template); return pdf.save(); }
async function send(template) {
  let bytes;
  try { bytes = await render(template); } catch { bytes = undefined; }
  let pdf;
  pdf = await render(template);
  probe(Buffer.from(pdf));
}`,
      (node, context) => findPerAttemptValue(node, context)?.kind ?? null,
    );
    expect(found).toBe('time');
  });
});

describe('replaysWithoutComparing', () => {
  it('finds Svix (its SDK, or a wrapper the code names for it) and trigger.dev triggers', () => {
    expect(
      probeAll(
        `import { Svix } from 'svix';
import { sendSvixEvent } from '@/external/svix/helpers';
import { publish } from './webhooks/svix';
const svix = new Svix(token);
probe(svix.message.create(app, message, { idempotencyKey: key }));
probe(sendSvixEvent({ data, idempotencyKey: key }));
probe(publish({ data, idempotencyKey: key }));
probe(task.trigger({ id }, { idempotencyKey: key }));`,
        (node, context) => node.type === AST_NODE_TYPES.CallExpression && replaysWithoutComparing(node, context),
      ),
    ).toEqual([true, true, true, true]);
  });

  it('takes any other provider to compare', () => {
    expect(
      probeAll(
        `import Stripe from 'stripe';
import { sendEmail } from './email';
const stripe = new Stripe(key);
probe(stripe.refunds.create({ charge }, { idempotencyKey: key }));
probe(sendEmail({ to, idempotencyKey: key }));
probe(resend.emails.send({ to }, { idempotencyKey: key }));`,
        (node, context) => node.type === AST_NODE_TYPES.CallExpression && replaysWithoutComparing(node, context),
      ),
    ).toEqual([false, false, false]);
  });
});

describe('findClockWindow', () => {
  it('counts windows of the clock that findPerAttemptValue leaves alone, and reads local helpers per call', () => {
    const code = `const day = (d) => d.toISOString().slice(0, 10);
async function f(job) {
  probe(new Date().toISOString().slice(0, 10));
  probe(Math.floor(Date.now() / 86_400_000));
  probe(day(new Date()));
  probe(day(new Date(job.timestamp)));
  probe(new Date().getTime());
}`;
    expect(probeAll(code, (node, context) => findPerAttemptValue(node, context)?.kind ?? null)).toEqual([
      null,
      null,
      null,
      null,
      'time',
    ]);
    expect(probeAll(code, (node, context) => findClockWindow(node, context)?.kind ?? null)).toEqual([
      'time',
      'time',
      'time',
      null,
      'time',
    ]);
  });
});

describe('sendsKeyedRequest', () => {
  const sends = (node: TSESTree.Node, context: Parameters<typeof findPerAttemptValue>[1]) =>
    node.type === AST_NODE_TYPES.CallExpression && sendsKeyedRequest(node, context);

  it('takes SDK writes, provider and package clients, resource methods and HTTP verbs of a client for sends', () => {
    expect(
      probeAll(
        `import { Resend } from '@unkey/resend';
import { mailer } from 'some-mailer';
const resend = new Resend({ apiKey });
async function f(getStripe, client, apiClient, api) {
  const stripe = getStripe();
  probe(stripe.checkout.sessions.create(params, options));
  probe(resend.sendLeakedKeyEmail(payload));
  probe(mailer.send(payload, options));
  probe(client.payments.create(params));
  probe(apiClient.post('/charges', body, options));
  probe(api.createTransaction(params));
}`,
        sends,
      ),
    ).toEqual([true, true, true, true, true, true]);
  });

  it('leaves local functions, repositories, in-process services and array pushes in this process', () => {
    expect(
      probeAll(
        `import { BatchService } from './batch';
const service = new BatchService();
async function f(deps, row, workflow) {
  probe(runMutation(params));
  probe(deps.deliveryRepo.create(row));
  probe(service.call(body, options));
  probe(workflow.run(input));
  probe(row.webhookLog.push(entry));
}`,
        sends,
      ),
    ).toEqual([false, false, false, false, false]);
  });
});
