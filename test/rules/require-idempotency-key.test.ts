import rule from '../../rules/require-idempotency-key.js';
import { syntaxRuleTester, typedRuleTester } from '../rule-tester.js';

const STRIPE = "import Stripe from 'stripe';\nconst stripe = new Stripe(process.env.STRIPE_KEY);\n";

syntaxRuleTester().run('require-idempotency-key', rule, {
  valid: [
    // A key derived from the job (the seed's chargeOnce, through Stripe).
    `${STRIPE}import { Worker } from 'bullmq';
new Worker('payments', async (job) => {
  await stripe.charges.create({ amount: job.data.amount, currency: 'gbp' }, { idempotencyKey: \`charge:\${job.id}\` });
});`,
    // A read needs no key.
    `${STRIPE}import { Worker } from 'bullmq';
new Worker('sync', async (job) => { await stripe.customers.retrieve(job.data.customerId); await stripe.charges.list({ customer: job.data.customerId }); });`,
    // A preview is a POST that creates nothing (Invoices.d.ts: "the invoice has not yet been created").
    `${STRIPE}import { Worker } from 'bullmq';
new Worker('alerts', async (job) => { const next = await stripe.invoices.createPreview({ customer: job.data.customerId }); });`,
    // A write outside any handler is out of scope (an HTTP route that is not a POST, a script).
    `${STRIPE}async function backfill() { await stripe.customers.update('cus_1', { metadata: { a: '1' } }); }`,
    `${STRIPE}import express from 'express'; const app = express(); app.get('/portal', async (req, res) => { await stripe.billingPortal.sessions.create({ customer: req.query.c }); });`,
    // Options we cannot see may carry a key.
    `${STRIPE}import { Worker } from 'bullmq'; new Worker('q', async (job) => { await stripe.refunds.create({ charge: job.data.charge }, job.data.requestOptions); });`,
    `${STRIPE}import { Worker } from 'bullmq'; new Worker('q', async (job) => { await stripe.refunds.create({ charge: job.data.charge }, { ...job.data.options }); });`,
    // Not Stripe: a mailer with a create method.
    "import { Worker } from 'bullmq'; new Worker('q', async (job) => { await mailer.messages.create({ to: job.data.to }); });",
    // A generic function whose parameter is not a message.
    `${STRIPE}export async function createCustomer(input) { await stripe.customers.create({ email: input.email }); }`,
    // A Checkout Session, a portal session, an onboarding link: a second one is a second link,
    // and nothing is charged until the customer completes one.
    `${STRIPE}import { Worker } from 'bullmq'; new Worker('q', async (job) => { await stripe.checkout.sessions.create({ customer: job.data.customer, mode: 'payment' }); await stripe.billingPortal.sessions.create({ customer: job.data.customer }); await stripe.accountLinks.create({ account: job.data.account, type: 'account_onboarding' }); });`,
    // A product, a coupon or a plan created with an id of the caller's: a second create with that id is refused.
    `${STRIPE}import { Worker } from 'bullmq'; new Worker('q', async (job) => { await stripe.products.create({ id: job.data.productId, name: job.data.name }); await stripe.coupons.create({ id: \`welcome-\${job.data.user}\`, percent_off: 10 }); });`,
    // The params held in a binding declared bare and given its value once.
    `${STRIPE}import { Worker } from 'bullmq'; new Worker('q', async (job) => { let params; if (job.data.isNew) { params = { id: job.data.productId, name: job.data.name }; await stripe.products.create(params); } });`,
    // An update or a delete sent twice leaves the state as once.
    `${STRIPE}import { Worker } from 'bullmq'; new Worker('q', async (job) => { await stripe.paymentIntents.update(job.data.id, { metadata: { invoice: job.data.invoice } }); await stripe.customers.del(job.data.customer); });`,
    // A trigger.dev run keyed by the message, and a `trigger` that is not a task.
    "import { tasks } from '@trigger.dev/sdk/v3'; import { Worker } from 'bullmq'; new Worker('q', async (job) => { await tasks.trigger('onboard', { id: job.data.id }, { idempotencyKey: `onboard:${job.id}` }); });",
    "import { Worker } from 'bullmq'; new Worker('q', async (job) => { await emitter.trigger('done', job.data); });",
    // trigger.dev: an unkeyed trigger is not reported; whether a second run harms depends on its task (read in another module).
    "import { tasks } from '@trigger.dev/sdk';\nimport { sendReceiptTask } from './trigger/receipt';\nimport { Worker } from 'bullmq';\nnew Worker('q', async (job) => {\n  await tasks.trigger('onboard-team', { userId: job.data.userId });\n  await sendReceiptTask.trigger({ orderId: job.data.orderId });\n});",
  ],
  invalid: [
    {
      // An id made on each attempt is a new product on each attempt.
      code: `${STRIPE}import { Worker } from 'bullmq';
new Worker('catalog', async (job) => {
  await stripe.products.create({ id: crypto.randomUUID(), name: job.data.name });
});`,
      errors: [
        {
          messageId: 'missingKey',
          line: 5,
          column: 9,
          suggestions: [
            {
              messageId: 'addKey',
              output: `${STRIPE}import { Worker } from 'bullmq';
new Worker('catalog', async (job) => {
  await stripe.products.create({ id: crypto.randomUUID(), name: job.data.name }, { idempotencyKey: \`products.create:\${job.id}\` });
});`,
            },
          ],
        },
      ],
    },
    {
      code: `${STRIPE}import { Worker } from 'bullmq';
new Worker('payments', async (job) => {
  await stripe.charges.create({ amount: job.data.amount, currency: 'gbp' });
});`,
      errors: [
        {
          messageId: 'missingKey',
          line: 5,
          column: 9,
          suggestions: [
            {
              messageId: 'addKey',
              output: `${STRIPE}import { Worker } from 'bullmq';
new Worker('payments', async (job) => {
  await stripe.charges.create({ amount: job.data.amount, currency: 'gbp' }, { idempotencyKey: \`charges.create:\${job.id}\` });
});`,
            },
          ],
        },
      ],
      output: null,
    },
    {
      // Options present without a key: the key goes into them.
      code: `${STRIPE}await consumer.run({ eachMessage: async ({ topic, partition, message }) => {
  await stripe.transfers.create({ amount: 1, currency: 'gbp', destination: 'acct' }, { stripeAccount: 'acct_1' });
} });`,
      errors: [
        {
          messageId: 'missingKey',
          line: 4,
          column: 9,
          suggestions: [
            {
              messageId: 'addKey',
              output: `${STRIPE}await consumer.run({ eachMessage: async ({ topic, partition, message }) => {
  await stripe.transfers.create({ amount: 1, currency: 'gbp', destination: 'acct' }, { idempotencyKey: \`transfers.create:\${topic}:\${partition}:\${message.offset}\`, stripeAccount: 'acct_1' });
} });`,
            },
          ],
        },
      ],
      output: null,
    },
    {
      // A Lambda SQS handler: the record's messageId, with an id argument first.
      code: `${STRIPE}export const handler = async (event: SQSEvent) => {
  for (const record of event.Records) await stripe.paymentIntents.capture(JSON.parse(record.body).paymentIntentId);
};`,
      errors: [
        {
          messageId: 'missingKey',
          line: 4,
          column: 45,
          suggestions: [
            {
              messageId: 'addKey',
              output: `${STRIPE}export const handler = async (event: SQSEvent) => {
  for (const record of event.Records) await stripe.paymentIntents.capture(JSON.parse(record.body).paymentIntentId, {}, { idempotencyKey: \`paymentIntents.capture:\${record.messageId}\` });
};`,
            },
          ],
        },
      ],
      output: null,
    },
    {
      // sqs-consumer, one message; and a generic exported handler of an event.
      code: `${STRIPE}import { Consumer } from 'sqs-consumer';
Consumer.create({ queueUrl, handleMessage: async (message) => { await stripe.refunds.create({ charge: message.Body }); } });
export async function onStripeEvent(event) { await stripe.customers.createBalanceTransaction(event.data.object.customer, { amount: 100, currency: 'usd' }); }`,
      errors: [
        {
          messageId: 'missingKey',
          line: 4,
          column: 71,
          suggestions: [
            {
              messageId: 'addKey',
              output: `${STRIPE}import { Consumer } from 'sqs-consumer';
Consumer.create({ queueUrl, handleMessage: async (message) => { await stripe.refunds.create({ charge: message.Body }, { idempotencyKey: \`refunds.create:\${message.MessageId}\` }); } });
export async function onStripeEvent(event) { await stripe.customers.createBalanceTransaction(event.data.object.customer, { amount: 100, currency: 'usd' }); }`,
            },
          ],
        },
        {
          messageId: 'missingKey',
          line: 5,
          column: 52,
          suggestions: [
            {
              messageId: 'addKey',
              output: `${STRIPE}import { Consumer } from 'sqs-consumer';
Consumer.create({ queueUrl, handleMessage: async (message) => { await stripe.refunds.create({ charge: message.Body }); } });
export async function onStripeEvent(event) { await stripe.customers.createBalanceTransaction(event.data.object.customer, { amount: 100, currency: 'usd' }, { idempotencyKey: \`customers.createBalanceTransaction:\${event.id}\` }); }`,
            },
          ],
        },
      ],
      output: null,
    },
  ],
});

typedRuleTester().run('require-idempotency-key (types)', rule, {
  valid: [
    // Keyed through typed options.
    `
import Stripe from 'stripe';
import { Worker, type Job } from 'bullmq';
export function start(stripe: Stripe, options: { idempotencyKey: string }) {
  return new Worker('q', async (job: Job) => { await stripe.charges.create({ amount: 1, currency: 'gbp' }, options); });
}
`,
  ],
  invalid: [
    {
      // A client only the checker knows is Stripe.
      code: `
import Stripe from 'stripe';
import { Worker, type Job } from 'bullmq';
export function start(payments: Stripe) {
  return new Worker('q', async (job: Job) => { await payments.charges.create({ amount: 1, currency: 'gbp' }); });
}
`,
      errors: [
        {
          messageId: 'missingKey',
          line: 5,
          column: 54,
          suggestions: [
            {
              messageId: 'addKey',
              output: `
import Stripe from 'stripe';
import { Worker, type Job } from 'bullmq';
export function start(payments: Stripe) {
  return new Worker('q', async (job: Job) => { await payments.charges.create({ amount: 1, currency: 'gbp' }, { idempotencyKey: \`charges.create:\${job.id}\` }); });
}
`,
            },
          ],
        },
      ],
      output: null,
    },
  ],
});
