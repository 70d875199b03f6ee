import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';

import { getSdkWrite } from '../../src/model/sdk.js';
import { lintMarkedCalls } from '../rule-tester.js';

type Row = [operation: string, keyed: boolean | 'unknown'] | undefined;

/** `getSdkWrite` for every call marked with a trailing `// <-` comment, in order. */
function writesIn(code: string, typed = false): Row[] {
  const rows: Row[] = [];
  lintMarkedCalls(
    code,
    (node, context) => {
      if (
        node.parent.type !== AST_NODE_TYPES.ExpressionStatement &&
        node.parent.type !== AST_NODE_TYPES.AwaitExpression
      )
        return;
      const write = getSdkWrite(node, context);
      rows.push(write && [write.operation, write.keyed]);
    },
    { typed },
  );
  return rows;
}

const header = `import Stripe from 'stripe';\nconst stripe = new Stripe('sk_test');\n`;

describe('getSdkWrite (syntax)', () => {
  it('finds Stripe writes and reads their key', () => {
    expect(
      writesIn(`${header}
async function f(job: any, opts: any, params: any) {
  await stripe.charges.create({ amount: 1 }); // <-
  await stripe.charges.create({ amount: 1 }, { idempotencyKey: job.id }); // <-
  await stripe.paymentIntents.confirm('pi_1', {}, { idempotencyKey: \`pi:\${job.id}\` }); // <-
  await stripe.refunds.create({ charge: 'ch' }, opts); // <-
  await stripe.refunds.create({ charge: 'ch' }, { ...opts }); // <-
  await stripe.checkout.sessions.create(params); // <-
  await stripe.customers.update(job.customerId, params); // <-
  await stripe.customers.del('cus_1', { idempotencyKey: job.id }); // <-
  await stripe.charges.create(params, opts); // <-
  await stripe.charges.create({ amount: 1 }, { idempotencyKey: undefined }); // <-
  await stripe.charges.create({ amount: 1 }, { idempotency_key: job.key }); // <-
}`),
    ).toEqual([
      ['charges.create', false],
      ['charges.create', true],
      ['paymentIntents.confirm', true],
      ['refunds.create', 'unknown'],
      ['refunds.create', 'unknown'],
      ['checkout.sessions.create', false],
      ['customers.update', false],
      // stripe-node 23 reads arguments by position: this "key" is sent as params.
      ['customers.del', false],
      ['charges.create', 'unknown'],
      ['charges.create', false],
      ['charges.create', true],
    ]);
  });

  it('leaves reads and non-resource calls alone', () => {
    expect(
      writesIn(`${header}
async function f(body: string, sig: string) {
  await stripe.customers.retrieve('cus_1'); // <-
  await stripe.charges.list({ limit: 3 }); // <-
  await stripe.paymentIntents.search({ query: 'x' }); // <-
  stripe.webhooks.constructEvent(body, sig, 'whsec'); // <-
}`),
    ).toEqual([undefined, undefined, undefined, undefined]);
  });

  it('recognises the client by construction, annotation, require and name', () => {
    expect(
      writesIn(`
const stripeA = require('stripe')('sk');
import StripeSdk from 'stripe';
const other = new StripeSdk('sk');
function f(client: Stripe, mailer: Mailer) {
  stripeA.charges.create({ amount: 1 }); // <-
  other.charges.create({ amount: 1 }); // <-
  client.charges.create({ amount: 1 }); // <-
  this.stripe.charges.create({ amount: 1 }); // <-
  mailer.messages.create({ to: 'x' }); // <-
  const twilio = makeTwilio();
  twilio.messages.create({ to: 'x' }); // <-
}`),
    ).toEqual([
      ['charges.create', false],
      ['charges.create', false],
      ['charges.create', false],
      ['charges.create', false],
      undefined,
      undefined,
    ]);
  });
});

describe('getSdkWrite (types)', () => {
  it('uses the real Stripe declarations for the client and the options position', () => {
    expect(
      writesIn(
        `${header}
async function f(client: Stripe, notStripe: { charges: { create(p: object): void } }, id: string, opts: Stripe.RequestOptions, keyed: { idempotencyKey: string }) {
  await client.charges.create({ amount: 1, currency: 'gbp' }); // <-
  await client.charges.create({ amount: 1, currency: 'gbp' }, keyed); // <-
  await client.charges.create({ amount: 1, currency: 'gbp' }, opts); // <-
  await client.customers.update(id, { name: 'n' }); // <-
  notStripe.charges.create({}); // <-
}`,
        true,
      ),
    ).toEqual([
      ['charges.create', false],
      ['charges.create', true],
      ['charges.create', 'unknown'],
      ['customers.update', false],
      undefined,
    ]);
  });
});
