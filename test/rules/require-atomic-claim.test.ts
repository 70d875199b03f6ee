import rule from '../../rules/require-atomic-claim.js';
import { syntaxRuleTester, typedRuleTester } from '../rule-tester.js';
import { APPLY_TOP_UP } from '../seed-examples.js';

const CLAIM = "'INSERT INTO processed_jobs (job_id) VALUES ($1) ON CONFLICT DO NOTHING'";

syntaxRuleTester().run('require-atomic-claim', rule, {
  valid: [
    APPLY_TOP_UP,
    // A claim with no database write after it: the effect is an HTTP call with an idempotency key.
    `
import { Pool } from 'pg';
const pool = new Pool();
async function chargeOnce(job) {
  const { rowCount } = await pool.query(${CLAIM}, [job.id]);
  if (rowCount === 0) return;
  await fetch('https://api.example-payments.test/v1/charges', {
    method: 'POST',
    headers: { 'Idempotency-Key': job.id },
    body: JSON.stringify({ amount: job.data.amount }),
    signal: AbortSignal.timeout(10_000),
  });
}
`,
    // The claim helper on its own.
    `async function markProcessed(pool, id) { const { rowCount } = await pool.query(${CLAIM}, [id]); return rowCount === 1; }`,
    // Only reads after the claim.
    `async function f(pool, job) { const { rowCount } = await pool.query(${CLAIM}, [job.id]); if (!rowCount) return; const { rows } = await pool.query('SELECT * FROM orders WHERE id = $1', [job.orderId]); return rows; }`,
    // Writes before the claim only.
    `async function f(pool, job) { await pool.query('UPDATE jobs SET seen_at = now() WHERE id = $1', [job.id]); await pool.query(${CLAIM}, [job.id]); }`,
    // An upsert, and an idempotent insert that is not a marker, followed by writes.
    "async function f(pool, id) { await pool.query('INSERT INTO counters (id, n) VALUES ($1, 1) ON CONFLICT (id) DO UPDATE SET n = counters.n + 1', [id]); await pool.query('UPDATE stats SET hits = hits + 1'); }",
    "async function tag(pool, post, name) { await pool.query('INSERT INTO tags (name) VALUES ($1) ON CONFLICT DO NOTHING', [name]); await pool.query('INSERT INTO post_tags (post_id, tag) VALUES ($1, $2)', [post, name]); }",
    // A claim on something that is not known to be a pool (a client handed in by the caller's transaction).
    `async function apply(tx, job) { const { rowCount } = await tx.query(${CLAIM}, [job.id]); if (!rowCount) return; await tx.query('UPDATE accounts SET credits = credits + 1 WHERE id = $1', [job.accountId]); }`,
  ],
  invalid: [
    // Claim on the pool, effect on the pool: two commits.
    {
      code: `
import { Pool } from 'pg';
const pool = new Pool();
async function applyTopUp(job) {
  const { rowCount } = await pool.query(${CLAIM}, [job.id]);
  if (rowCount === 0) return;
  await pool.query('UPDATE accounts SET credits = credits + $1 WHERE id = $2', [job.data.credits, job.data.accountId]);
}
`,
      errors: [{ messageId: 'claimOutsideTransaction', data: { line: 7 }, line: 5, column: 30 }],
      output: null,
    },
    // Claim on the pool, effect in a transaction on a client: still two commits.
    {
      code: `
async function applyTopUp(pool, job) {
  const claim = await pool.query(${CLAIM}, [job.id]);
  if (claim.rowCount === 0) return;
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('UPDATE accounts SET credits = credits + 1 WHERE id = $1', [job.accountId]);
    await client.query('COMMIT');
  } finally {
    client.release();
  }
}
`,
      errors: [{ messageId: 'claimOutsideTransaction', data: { line: 8 }, line: 3, column: 23 }],
      output: null,
    },
    // mysql: INSERT IGNORE on the pool, then an UPDATE.
    {
      code: "async function f(pool, job) { const [r] = await pool.execute('INSERT IGNORE INTO processed_jobs (job_id) VALUES (?)', [job.id]); if (r.affectedRows === 0) return; await pool.execute('UPDATE wallets SET balance = balance + ? WHERE id = ?', [job.amount, job.walletId]); }",
      errors: [{ messageId: 'claimOutsideTransaction', data: { line: 1 }, line: 1, column: 49 }],
      output: null,
    },
  ],
});

typedRuleTester().run('require-atomic-claim (typed)', rule, {
  valid: [APPLY_TOP_UP],
  invalid: [
    {
      code: `import { Pool } from 'pg'; export async function f(db: Pool, id: string) { const { rowCount } = await db.query(${CLAIM}, [id]); if (!rowCount) return; await db.query('DELETE FROM carts WHERE order_id = $1', [id]); }`,
      errors: [{ messageId: 'claimOutsideTransaction', line: 1, column: 103 }],
      output: null,
    },
  ],
});
