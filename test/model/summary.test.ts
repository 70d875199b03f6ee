import { describe, expect, it } from 'vitest';

import {
  LIST_FIELDS,
  SUMMARY_FIELDS,
  mergeSummaries,
  summariesOfLists,
  withoutFacts,
} from '../../src/model/summary.js';

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
