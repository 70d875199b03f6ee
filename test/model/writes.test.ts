import type { TSESTree } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';

import { effectOf, getWrite, writeTarget } from '../../src/model/writes.js';
import { lintSnippet } from '../rule-tester.js';

const CODE = `
import Stripe from 'stripe';
const stripe = new Stripe('k');
async function f(pool: Pool, id: string) {
  await pool.query('INSERT INTO t VALUES ($1)', [id]);
  await pool.query('SELECT 1');
  await fetch(url, { method: 'POST' });
  await fetch(url);
  await stripe.refunds.create({ charge: id });
  await prisma.order.update({ where: { id }, data: {} });
  await prisma.order.findMany();
  await this.prisma.invoice.create({ data: {} });
}
`;

/** What each awaited call of CODE writes, through `read`. */
function writes(read: (write: NonNullable<ReturnType<typeof getWrite>>) => string): (string | undefined)[] {
  const rows: (string | undefined)[] = [];
  lintSnippet(CODE, (context) => ({
    'BlockStatement > ExpressionStatement > AwaitExpression > CallExpression'(node: TSESTree.CallExpression) {
      const write = getWrite(node, context);
      rows.push(write && read(write));
    },
  }));
  return rows;
}

describe('getWrite', () => {
  it('names SQL, HTTP, Stripe and Prisma writes, and nothing for reads', () => {
    expect(writes(writeTarget)).toEqual(['sql', undefined, 'http', undefined, 'stripe', 'prisma', undefined, 'prisma']);
  });

  it('gives the inventory one effect name per write', () => {
    expect(writes(effectOf)).toEqual([
      'sql-write',
      undefined,
      'http-write',
      undefined,
      'stripe',
      'db-write',
      undefined,
      'db-write',
    ]);
  });
});
