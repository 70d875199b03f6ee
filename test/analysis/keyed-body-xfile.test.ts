import { describe, expect, it } from 'vitest';

import { analyze } from '../../src/analysis/analyze.js';
import { writeRepo } from '../cli/helpers.js';

/** The body rule's findings and the settings the CLI computes, for a small repository. */
function run(files: Record<string, string>) {
  const result = analyze({ root: writeRepo(files), paths: [], ignore: [], types: false, includeSuppressed: true });
  return {
    settings: result.settings,
    body: result.findings
      .filter((finding) => finding.ruleId === 'idempotency/no-per-attempt-body')
      .map((f) => `${f.file}:${f.line}`),
  };
}

const STRIPE = `import Stripe from 'stripe';
const stripe = new Stripe(process.env.STRIPE_KEY!);
export async function openCheckout({ amount, code }: { amount: number; code: string }) {
  return stripe.checkout.sessions.create(
    { mode: 'payment', amount, expires_at: Math.floor(Date.now() / 1000) + 1800 },
    { idempotencyKey: \`checkout:\${code}\` },
  );
}
`;

describe('keys minted by every caller in another module', () => {
  it('leaves a clock in the body alone when every caller keys the call with a fresh code', () => {
    const found = run({
      'src/stripe.ts': STRIPE,
      'src/route.ts': `import { openCheckout } from './stripe';
export async function POST(req: Request, db: any) {
  const code = crypto.randomUUID().slice(0, 8);
  const order = await db.$transaction(async (tx: any) => tx.order.create({ data: { code, amount: 5 } }));
  return openCheckout({ amount: 5, code: order.code });
}
`,
    });
    expect(found.settings['src/stripe.ts']).toEqual({
      summaries: { './stripe': { openCheckout: { freshKeyArguments: [{ index: 0, property: 'code' }] } } },
    });
    expect(found.body).toEqual([]);
  });

  it('reports it when one caller passes a key it keeps (an order id), or a file it cannot read calls it', () => {
    const stable = run({
      'src/stripe.ts': STRIPE,
      'src/route.ts': `import { openCheckout } from './stripe';
export async function POST() { return openCheckout({ amount: 5, code: crypto.randomUUID() }); }
`,
      'src/retry.ts': `import { openCheckout } from './stripe';
export async function retry(order: { id: string }) { return openCheckout({ amount: 5, code: order.id }); }
`,
    });
    expect(stable.settings['src/stripe.ts']).toBeUndefined();
    expect(stable.body).toEqual(['src/stripe.ts:5']);
    // Nothing in the caller for the prefilter: it is not parsed, and what it passes is unknown.
    const unread = run({
      'src/stripe.ts': STRIPE,
      'src/route.ts': `import { openCheckout } from './stripe';
export async function POST() { return openCheckout({ amount: 5, code: crypto.randomUUID() }); }
`,
      'src/other.ts': `import { openCheckout } from './stripe';
export const again = (order: { ref: string }) => openCheckout({ amount: 1, code: order.ref });
`,
    });
    expect(unread.body).toEqual(['src/stripe.ts:5']);
  });
});

describe('an imported helper whose result carries the clock', () => {
  const PDF = `import { PDFDocument } from 'pdf-lib';
export async function renderContract(template: Uint8Array, name: string) {
  const pdf = await PDFDocument.load(template);
  pdf.setTitle(name);
  return pdf.save();
}
`;
  const MAIL = `import { Resend } from 'resend';
import { renderContract } from './pdf';
const resend = new Resend(process.env.RESEND_KEY);
export async function mail(record: { id: string; email: string; name: string }, template: Uint8Array) {
  const pdf = await renderContract(template, record.name);
  await resend.emails.send(
    { to: record.email, attachments: [{ filename: 'contract.pdf', content: Buffer.from(pdf) }] },
    { idempotencyKey: \`contract-\${record.id}\` },
  );
}
`;

  it('reports the attachment a pdf-lib helper of another module rebuilds under the same key', () => {
    const found = run({ 'src/pdf.ts': PDF, 'src/mail.ts': MAIL });
    expect(found.settings['src/mail.ts']).toEqual({ summaries: { './pdf': { renderContract: { perAttempt: true } } } });
    expect(found.body).toEqual(['src/mail.ts:7']);
  });

  it('leaves a never-stable helper that another module writes as a key to be reported at itself', () => {
    const found = run({
      'src/keys.ts': 'export const keyFor = (id: string) => `${id}-${Date.now()}`;\n',
      'src/charge.ts': `import { keyFor } from './keys';
export async function charge(stripe: any, id: string) {
  return stripe.charges.create({ amount: 1, note: keyFor(id) }, { idempotencyKey: keyFor(id) });
}
`,
    });
    // It is summarised where it is defined (written as a key), not as per attempt where it is called.
    expect(found.settings['src/keys.ts']?.summaries?.['./keys']?.keyFor).toEqual({ writtenAsKey: true });
    expect(found.settings['src/charge.ts']?.summaries?.['./keys']?.keyFor?.perAttempt).toBeUndefined();
  });
});
