import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';

import {
  getClaim,
  hasReturning,
  isClaimStatement,
  isMarkerClaim,
  writeAfterClaim,
  type Claim,
} from '../../src/model/sql/claims.js';
import { lintSnippet } from '../rule-tester.js';

/** Runs `getClaim` on every call in `code` and returns the claims found. */
function claimsIn(code: string): Claim[] {
  const found: Claim[] = [];
  lintSnippet(code, (context) => ({
    CallExpression(node: TSESTree.CallExpression) {
      const claim = getClaim(node, context);
      if (claim) found.push(claim);
    },
  }));
  return found;
}

function readOf(code: string): Claim['resultRead'] | undefined {
  const claims = claimsIn(code);
  expect(claims.length).toBeLessThanOrEqual(1);
  return claims[0]?.resultRead;
}

const CLAIM = "'INSERT INTO processed_jobs (job_id) VALUES ($1) ON CONFLICT DO NOTHING'";

describe('isClaimStatement', () => {
  it.each([
    'INSERT INTO processed_jobs (job_id) VALUES ($1) ON CONFLICT DO NOTHING',
    'insert into processed_events (event_id) values ($1)\n  on conflict (event_id) do nothing',
    'INSERT INTO idempotency_keys (key) VALUES ($1) ON CONFLICT ON CONSTRAINT idempotency_keys_pkey DO NOTHING RETURNING key',
    'INSERT INTO t (a) VALUES ($1) ON CONFLICT (a) WHERE a IS NOT NULL DO NOTHING',
    'INSERT IGNORE INTO processed_jobs (job_id) VALUES (?)',
    'INSERT INTO processed_jobs (job_id) VALUES (?) ON DUPLICATE KEY UPDATE job_id = job_id',
    'INSERT INTO processed_jobs (job_id) VALUES (?) ON DUPLICATE KEY UPDATE `job_id`=`job_id`',
    'INSERT OR IGNORE INTO processed (id) VALUES (?)',
    'WITH x AS (SELECT 1) INSERT INTO t (a) VALUES (1) ON CONFLICT DO NOTHING',
    '-- claim the job\nINSERT INTO processed_jobs (job_id) VALUES ($1) /* first wins */ ON CONFLICT DO NOTHING',
  ])('is a claim: %s', (text) => {
    expect(isClaimStatement(text)).toBe(true);
  });

  it.each([
    'INSERT INTO accounts (id, credits) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET credits = accounts.credits + $2',
    'INSERT INTO processed_jobs (job_id) VALUES ($1)',
    'SELECT 1 FROM processed_jobs WHERE job_id = $1',
    "SELECT 'ON CONFLICT DO NOTHING'",
    'UPDATE jobs SET state = $1 WHERE id = $2',
    'INSERT INTO t (a, n) VALUES (?, 1) ON DUPLICATE KEY UPDATE n = n + 1',
    'INSERT INTO t (a, b) VALUES (?, ?) ON DUPLICATE KEY UPDATE b = VALUES(b)',
    'DELETE FROM processed_jobs WHERE job_id = $1',
  ])('is not a claim: %s', (text) => {
    expect(isClaimStatement(text)).toBe(false);
  });
});

describe('hasReturning', () => {
  it('sees RETURNING', () => {
    expect(hasReturning('INSERT INTO t (a) VALUES ($1) ON CONFLICT DO NOTHING RETURNING a')).toBe(true);
    expect(hasReturning('INSERT INTO t (a) VALUES ($1) ON CONFLICT DO NOTHING')).toBe(false);
  });
});

describe('getClaim', () => {
  it('finds no claim in other queries', () => {
    expect(
      claimsIn("async function f(pool) { await pool.query('SELECT 1'); await pool.query(sql); foo('x'); }"),
    ).toEqual([]);
  });

  it.each([
    [
      'destructured rowCount tested',
      `async function f(pool, job) { const { rowCount } = await pool.query(${CLAIM}, [job.id]); if (rowCount === 0) return; }`,
    ],
    [
      'result.rowCount tested',
      `async function f(pool, job) { const r = await pool.query(${CLAIM}, [job.id]); if (r.rowCount === 0) return; }`,
    ],
    [
      'result.rowCount returned',
      `async function f(pool, job) { const r = await pool.query(${CLAIM}, [job.id]); return r.rowCount > 0; }`,
    ],
    [
      'inline member',
      `async function f(pool, job) { if ((await pool.query(${CLAIM}, [job.id])).rowCount === 0) return; }`,
    ],
    [
      'later destructuring',
      `async function f(pool, job) { const r = await pool.query(${CLAIM}, [job.id]); const { rowCount } = r; if (!rowCount) return; }`,
    ],
    ['then callback', `function f(pool, job) { return pool.query(${CLAIM}, [job.id]).then((r) => r.rowCount === 1); }`],
    [
      'RETURNING rows',
      `async function f(pool, job) { const r = await pool.query('INSERT INTO t (id) VALUES ($1) ON CONFLICT DO NOTHING RETURNING id', [job.id]); return r.rows.length > 0; }`,
    ],
    [
      'RETURNING rows destructured',
      `async function f(pool, job) { const { rows } = await pool.query('INSERT INTO t (id) VALUES ($1) ON CONFLICT DO NOTHING RETURNING id', [job.id]); if (!rows[0]) return; }`,
    ],
    [
      'mysql2 header',
      "async function f(pool, job) { const [result] = await pool.execute('INSERT IGNORE INTO processed (id) VALUES (?)', [job.id]); if (result.affectedRows === 0) return; }",
    ],
    [
      'mysql2 header destructured',
      "async function f(pool, job) { const [{ affectedRows }] = await pool.execute('INSERT IGNORE INTO processed (id) VALUES (?)', [job.id]); if (!affectedRows) return; }",
    ],
    [
      'mysql2 result[0]',
      "async function f(pool, job) { const result = await pool.query('INSERT IGNORE INTO processed (id) VALUES (?)', [job.id]); if (result[0].affectedRows === 0) return; }",
    ],
    [
      'pg-promise oneOrNone',
      "async function f(db, job) { const row = await db.oneOrNone('INSERT INTO t (id) VALUES ($1) ON CONFLICT DO NOTHING RETURNING id', [job.id]); if (!row) return; }",
    ],
    [
      'pg config object',
      `async function f(pool, job) { const { rowCount } = await pool.query({ text: ${CLAIM}, values: [job.id] }); return rowCount === 1; }`,
    ],
    [
      'const sql',
      `const SQL = ${CLAIM}; async function f(pool, job) { const { rowCount } = await pool.query(SQL, [job.id]); return rowCount === 1; }`,
    ],
  ])('checked: %s', (_name, code) => {
    expect(readOf(code)).toBe('checked');
  });

  it.each([
    ['discarded', `async function f(pool, job) { await pool.query(${CLAIM}, [job.id]); }`],
    ['voided', `function f(pool, job) { void pool.query(${CLAIM}, [job.id]); }`],
    ['assigned, never read', `async function f(pool, job) { const r = await pool.query(${CLAIM}, [job.id]); }`],
    [
      'assigned, other property read',
      `async function f(pool, job) { const r = await pool.query(${CLAIM}, [job.id]); console.log(r.command); }`,
    ],
    [
      'destructured, never read',
      `async function f(pool, job) { const { rowCount } = await pool.query(${CLAIM}, [job.id]); }`,
    ],
    [
      'rows without RETURNING',
      `async function f(pool, job) { const { rows } = await pool.query(${CLAIM}, [job.id]); return rows; }`,
    ],
    [
      'template text',
      'async function f(pool, job) { await pool.query(`INSERT INTO ${table} (id) VALUES ($1) ON CONFLICT DO NOTHING`, [job.id]); }',
    ],
    [
      'pg-promise none',
      "async function f(db, job) { await db.none('INSERT INTO t (id) VALUES ($1) ON CONFLICT DO NOTHING', [job.id]); }",
    ],
    ['then without parameter', `function f(pool, job) { return pool.query(${CLAIM}, [job.id]).then(() => 'ok'); }`],
  ])('unchecked: %s', (_name, code) => {
    expect(readOf(code)).toBe('unchecked');
  });

  it.each([
    ['returned', `function f(pool, job) { return pool.query(${CLAIM}, [job.id]); }`],
    ['arrow body', `const f = (pool, job) => pool.query(${CLAIM}, [job.id]);`],
    ['passed to a helper', `async function f(pool, job) { assertClaimed(await pool.query(${CLAIM}, [job.id])); }`],
    ['result returned', `async function f(pool, job) { const r = await pool.query(${CLAIM}, [job.id]); return r; }`],
    [
      'pg-promise none returned',
      "function f(db, job) { return db.none('INSERT INTO t (id) VALUES ($1) ON CONFLICT DO NOTHING', [job.id]); }",
    ],
  ])('unknown: %s', (_name, code) => {
    expect(readOf(code)).toBe('unknown');
  });

  it('ignores an upsert', () => {
    expect(
      claimsIn(
        "async function f(pool) { await pool.query('INSERT INTO t (id) VALUES ($1) ON CONFLICT (id) DO UPDATE SET n = t.n + 1'); }",
      ),
    ).toEqual([]);
  });

  it('tells a claim on a pool from one on a client', () => {
    const [onPool] = claimsIn(
      `import { Pool } from 'pg'; const db = new Pool(); async function f(job) { await db.query(${CLAIM}, [job.id]); }`,
    );
    expect(onPool?.onPool).toBe(true);
    const [onClient] = claimsIn(
      `async function f(pool, job) { const client = await pool.connect(); await client.query(${CLAIM}, [job.id]); }`,
    );
    expect(onClient?.onPool).toBe(false);
  });

  it('keeps the call and the text', () => {
    const [claim] = claimsIn(`async function f(pool, job) { await pool.query(${CLAIM}, [job.id]); }`);
    expect(claim?.call.type).toBe(AST_NODE_TYPES.CallExpression);
    expect(claim?.text).toContain('ON CONFLICT DO NOTHING');
  });
});

describe('isMarkerClaim', () => {
  it.each([
    'INSERT INTO processed_jobs (job_id) VALUES ($1) ON CONFLICT DO NOTHING',
    'INSERT INTO "public"."idempotency_keys" (key, created_at) VALUES ($1, now()) ON CONFLICT DO NOTHING',
    'INSERT IGNORE INTO webhook_deliveries (provider, delivery_id) VALUES (?, ?)',
    'INSERT INTO jobs_done (id) VALUES ($1) ON CONFLICT DO NOTHING',
    'INSERT INTO consumer_log (message_id) VALUES ($1) ON CONFLICT DO NOTHING',
    'INSERT INTO log (event_id, at) VALUES ($1, now()) ON CONFLICT DO NOTHING',
    'INSERT INTO processed_jobs (job_id) VALUES (:jobId) ON CONFLICT DO NOTHING',
  ])('is a marker: %s', (text) => {
    expect(isMarkerClaim(text)).toBe(true);
  });

  it.each([
    'INSERT INTO users (id, name, email, password) VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING',
    'INSERT INTO tags (name) VALUES ($1) ON CONFLICT DO NOTHING',
    'INSERT INTO booking_status_history (id, booking_id, from_status, to_status, reason) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING',
    'INSERT INTO events (event_id, type, payload, source) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING',
    'INSERT INTO processed_jobs (job_id) VALUES ($1)',
    "INSERT INTO processed_jobs (job_id) VALUES ('job-1') ON CONFLICT DO NOTHING",
    "INSERT INTO processed_jobs (job_id) VALUES ('job?'::text) ON CONFLICT DO NOTHING",
    'INSERT INTO processed_jobs (job_id) SELECT id FROM jobs WHERE done ON CONFLICT DO NOTHING',
  ])('is not a marker: %s', (text) => {
    expect(isMarkerClaim(text)).toBe(false);
  });
});

describe('writeAfterClaim', () => {
  /** The line of the write found after the first claim in `code`. */
  function writeLine(code: string): number | undefined {
    let line: number | undefined;
    lintSnippet(code, (context) => ({
      CallExpression(node: TSESTree.CallExpression) {
        const claim = getClaim(node, context);
        if (claim && line === undefined) line = writeAfterClaim(claim, context)?.loc.start.line ?? -1;
      },
    }));
    return line;
  }

  it('finds the first write after the claim', () => {
    expect(
      writeLine(
        `async function f(pool, job) {\n  await pool.query(${CLAIM}, [job.id]);\n  await pool.query('SELECT 1');\n  await pool.query('UPDATE a SET b = 1');\n  await pool.query('DELETE FROM c');\n}`,
      ),
    ).toBe(4);
  });

  it('finds writes in nested callbacks and tagged templates', () => {
    expect(
      writeLine(
        `async function f(pool, items) {\n  await pool.query(${CLAIM}, [1]);\n  await Promise.all(items.map((i) => pool.query('INSERT INTO t (a) VALUES ($1)', [i])));\n}`,
      ),
    ).toBe(3);
    expect(
      writeLine(
        `import { sql } from '@vercel/postgres';\nasync function f(pool) {\n  await pool.query(${CLAIM}, [1]);\n  await sql\`UPDATE t SET a = 1\`;\n}`,
      ),
    ).toBe(4);
  });

  it('ignores writes before the claim and reads after it', () => {
    expect(
      writeLine(
        `async function f(pool) {\n  await pool.query('UPDATE a SET b = 1');\n  await pool.query(${CLAIM}, [1]);\n  await pool.query('SELECT 1');\n}`,
      ),
    ).toBe(-1);
  });
});
