// Code examples from the seed documents that several rule tests share as valid cases.

/**
 * The seed's "marker and effect in one transaction": the claim and the balance change commit
 * together on one checked-out client, ROLLBACK on the duplicate path and in catch, release in
 * finally. Every SQL rule must stay quiet on it.
 */
export const APPLY_TOP_UP = `
import { Pool } from 'pg';
const pool = new Pool({ connectionString: process.env.DATABASE_URL });
export async function applyTopUp(job: any) {
  const client = await pool.connect();
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
`;
