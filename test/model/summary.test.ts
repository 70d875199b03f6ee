import { describe, expect, it } from 'vitest';

import {
  LIST_FIELDS,
  SUMMARY_FIELDS,
  mergeSummaries,
  summariesOfLists,
  type Summaries,
  withoutFacts,
} from '../../src/model/summary.js';
import { summariesMayMatter } from '../../src/model/summary-relevance.js';

describe('summaries', () => {
  it('fold every list users write into a fact a summary holds', () => {
    for (const field of Object.values(LIST_FIELDS)) expect(SUMMARY_FIELDS).toContain(field);
    expect(
      summariesOfLists({
        pools: [{ from: './db', name: 'pool' }],
        asyncFunctions: [{ from: './db', name: 'pool' }],
        keyParameters: [
          { from: './ledger', name: 'postEntry', index: 1, parameter: 'key' },
          { from: './ledger', name: 'postEntry', index: 1, parameter: 'key' },
        ],
        transactionWrappers: [{ from: './tx', name: 'Tx.run', index: 0, library: 'typeorm' }],
        roles: { test: ['qa/**'] },
      }),
    ).toEqual({
      './db': { pool: { pool: true, async: true } },
      './ledger': { postEntry: { keyParameters: [{ index: 1, parameter: 'key' }] } },
      './tx': { 'Tx.run': { transactionWrapper: [{ index: 0, library: 'typeorm' }] } },
    });
  });

  it('merge facts of the same name once, and leave their inputs alone', () => {
    const a = { './ledger': { postEntry: { keyParameters: [{ index: 1, parameter: 'key' }] } } };
    const b = {
      './ledger': {
        postEntry: {
          keyParameters: [
            { index: 1, parameter: 'key' },
            { index: 2, parameter: 'id' },
          ],
        },
      },
      './db': { pool: { pool: true as const } },
    };
    expect(mergeSummaries(a, b)).toEqual({
      './ledger': {
        postEntry: {
          keyParameters: [
            { index: 1, parameter: 'key' },
            { index: 2, parameter: 'id' },
          ],
        },
      },
      './db': { pool: { pool: true } },
    });
    expect(a['./ledger'].postEntry.keyParameters).toHaveLength(1);
  });

  it('drop facts, and the names and modules left with none', () => {
    expect(
      withoutFacts({ './a': { f: { async: true } }, './b': { g: { async: true, pool: true } } }, ['async', 'acks']),
    ).toEqual({ './b': { g: { pool: true } } });
  });

  it('keep names that Object.prototype also has as the program’s own', () => {
    const summaries = summariesOfLists({ pools: [{ from: './db', name: 'constructor' }] });
    expect(summaries['./db']?.constructor).toEqual({ pool: true });
    expect(mergeSummaries(summaries, { './db': { toString: { async: true as const } } })['./db']).toEqual({
      constructor: { pool: true },
      toString: { async: true },
    });
  });
});

describe('summariesMayMatter', () => {
  const perAttempt: Summaries = { './ids': { newId: { perAttempt: true } } };
  const ownHandle: Summaries = { './orders': { saveOrder: { ownHandle: true } } };

  it('counts a per-attempt helper only in a file that spells a key sink', () => {
    expect(summariesMayMatter(perAttempt, 'export const label = () => newId();', 'src/a.ts')).toBe(false);
    expect(summariesMayMatter(perAttempt, "headers: { 'Idempotency-Key': newId() }", 'src/a.ts')).toBe(true);
    expect(summariesMayMatter(perAttempt, 'queue.add(name, data, { jobId: newId() })', 'src/a.ts')).toBe(true);
  });

  it('counts a function with its own handle only in a file the prefilter keeps (where a transaction can be)', () => {
    expect(summariesMayMatter(ownHandle, 'export const copy = (o) => saveOrder(o);', 'src/a.ts')).toBe(false);
    expect(summariesMayMatter(ownHandle, 'await em.transactional(async () => saveOrder(o));', 'src/a.ts')).toBe(true);
  });

  it('counts every other fact whatever the text, alone or beside a refining one', () => {
    expect(
      summariesMayMatter({ './pay': { pay: { keyParameters: [{ index: 0, parameter: 'key' }] } } }, '', 'a.ts'),
    ).toBe(true);
    expect(summariesMayMatter({ ...perAttempt, './client': { api: { timeoutlessClient: true } } }, '', 'a.ts')).toBe(
      true,
    );
    expect(summariesMayMatter({}, '', 'a.ts')).toBe(false);
  });
});
