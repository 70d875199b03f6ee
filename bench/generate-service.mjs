// Generates a consumer-heavy TypeScript service (BullMQ workers, SQS and Kafka consumers,
// webhooks, pg, fetch, Stripe) of a given size, right and wrong code mixed, so the cost of a
// scan can be compared at 1× and 10×. Written to a folder outside the repository.
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const unit = (i) => ({
  [`src/db/pool-${i}.ts`]: `import { Pool } from 'pg';
export const pool${i} = new Pool({ connectionString: process.env.DATABASE_URL });
`,
  [`src/workers/charge-${i}.ts`]: `import { Worker, type Job } from 'bullmq';
import { randomUUID } from 'node:crypto';

interface ChargeData { amount: number; customerId: string }

export async function charge${i}(job: Job<ChargeData>): Promise<unknown> {
  const res = await fetch('https://api.example-payments.test/v1/charges', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'Idempotency-Key': ${i % 3 === 0 ? 'randomUUID()' : '`charge:${job.id ?? ""}`'} },
    body: JSON.stringify({ amount: job.data.amount, customer: job.data.customerId }),
    ${i % 4 === 0 ? '' : 'signal: AbortSignal.timeout(10_000),'}
  });
  if (!res.ok) throw new Error(\`charge failed: \${res.status}\`);
  return res.json();
}

export const worker${i} = new Worker<ChargeData>('charges-${i}', charge${i}, { connection: { host: 'localhost' } });
`,
  [`src/workers/topup-${i}.ts`]: `import type { Job } from 'bullmq';
import { pool${i} } from '../db/pool-${i}.js';

export async function applyTopUp${i}(job: Job<{ credits: number; accountId: string }>): Promise<string> {
  const client = await pool${i}.connect();
  try {
    await client.query('BEGIN');
    const claim = await client.query('INSERT INTO processed_jobs (job_id) VALUES ($1) ON CONFLICT DO NOTHING', [job.id]);
    if (claim.rowCount === 0) {
      await client.query('ROLLBACK');
      return 'duplicate';
    }
    await client.query('UPDATE accounts SET credits = credits + $1 WHERE id = $2', [job.data.credits, job.data.accountId]);
    await client.query('COMMIT');
    return 'applied';
  } catch (err) {
    await client.query('ROLLBACK');
    throw err;
  } finally {
    client.release();
  }
}
`,
  [`src/workers/ledger-${i}.ts`]: `import { pool${i} } from '../db/pool-${i}.js';

export async function postLedger${i}(entry: { id: string; amount: number }): Promise<void> {
  await pool${i}.query('BEGIN');
  await pool${i}.query('INSERT INTO ledger (id, amount) VALUES ($1, $2)', [entry.id, entry.amount]);
  await pool${i}.query('COMMIT');
}
`,
  [`src/producers/receipt-${i}.ts`]: `import { Queue } from 'bullmq';

const emails = new Queue('emails-${i}', { connection: { host: 'localhost' } });

export async function queueReceipt${i}(order: { id: string }): Promise<void> {
  await emails.add('send-receipt', { orderId: order.id }, { jobId: \`send-receipt:\${order.id}\` });
}
`,
  [`src/consumers/sqs-${i}.ts`]: `interface SQSEvent { Records: { messageId: string; body: string }[] }

const seen${i} = new Map<string, boolean>();

export const handler = async (event: SQSEvent): Promise<void> => {
  for (const record of event.Records) {
    if (seen${i}.has(record.messageId)) continue;
    seen${i}.set(record.messageId, true);
    await fetch('https://mail.example.test/send', {
      method: 'POST',
      headers: { 'Idempotency-Key': \`msg:\${record.messageId}\` },
      body: record.body,
      signal: AbortSignal.timeout(5_000),
    });
  }
};
`,
  [`src/webhooks/stripe-${i}.ts`]: `import { createRouter } from '../http.js';

export const router${i} = createRouter();

router${i}.post('/webhooks/stripe-${i}', async (req, res) => {
  const event = req.body as { id: string; type: string };
  const lookup = await fetch(\`https://api.example.test/events/\${event.id}\`, { method: 'GET' });
  res.json({ received: lookup.ok, type: event.type });
});
`,
  [`src/util/format-${i}.ts`]: `export function formatMoney${i}(amount: number, currency = 'gbp'): string {
  return new Intl.NumberFormat('en-GB', { style: 'currency', currency }).format(amount / 100);
}

export function chunk${i}<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let index = 0; index < items.length; index += size) out.push(items.slice(index, index + size));
  return out;
}
`,
});

/** Writes `units` copies of the unit (8 files each) plus package.json and tsconfig.json; returns the folder. */
export function generateService(folder, units, nodeModules) {
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  mkdirSync(join(folder, 'src'), { recursive: true });
  writeFileSync(
    join(folder, 'src/http.ts'),
    `export interface Req { body: unknown }
export interface Res { json(value: unknown): void }
export interface Router { post(path: string, handler: (req: Req, res: Res) => Promise<void>): void }
export function createRouter(): Router {
  return { post: () => undefined };
}
`,
  );
  for (let i = 0; i < units; i++) {
    for (const [path, text] of Object.entries(unit(i))) {
      mkdirSync(join(folder, path, '..'), { recursive: true });
      writeFileSync(join(folder, path), text);
    }
  }
  writeFileSync(
    join(folder, 'package.json'),
    JSON.stringify({ name: 'generated-service', private: true, type: 'module' }, null, 2),
  );
  writeFileSync(
    join(folder, 'tsconfig.json'),
    JSON.stringify(
      {
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          skipLibCheck: true,
          noEmit: true,
          types: ['node'],
          rootDir: 'src',
          lib: ['ES2023', 'DOM'],
        },
        include: ['src'],
      },
      null,
      2,
    ),
  );
  // Type declarations (pg, bullmq, node) come from the project's own install.
  symlinkSync(nodeModules, join(folder, 'node_modules'), 'dir');
  return folder;
}
