import { describe, expect, it } from 'vitest';

import {
  BASELINE_SCHEMA_VERSION,
  applyBaseline,
  createBaseline,
  formatBaseline,
  normaliseSnippet,
  parseBaseline,
  type Baseline,
} from '../../src/report/baseline.js';
import { createReport, type Finding, type Report } from '../../src/report/model.js';
import { sampleFindings, sampleReport } from './sample.js';

const tool = { name: 'idempotency-check', version: '0.1.0' };
const reportOf = (findings: Finding[]): Report => createReport({ tool, findings, files: 1 });

const key = sampleFindings[1]!; // no-per-attempt-key in chargeCustomer
const begin = sampleFindings[2]!; // no-pool-transaction in chargeCustomer

describe('normaliseSnippet', () => {
  it('collapses whitespace runs and trims', () => {
    expect(normaliseSnippet('\t  const   key =\n    randomUUID(); ')).toBe('const key = randomUUID();');
    expect(normaliseSnippet(undefined)).toBeUndefined();
  });
});

describe('createBaseline', () => {
  it('records unsuppressed findings by rule, file, function and normalised snippet, without lines', () => {
    expect(createBaseline(sampleReport())).toEqual({
      schemaVersion: BASELINE_SCHEMA_VERSION,
      entries: [
        {
          ruleId: 'idempotency/no-per-attempt-key',
          file: 'src/billing/charge.ts',
          enclosingFunction: 'chargeCustomer',
          snippet: 'const key = randomUUID();',
          count: 1,
        },
        {
          ruleId: 'idempotency/no-pool-transaction',
          file: 'src/billing/charge.ts',
          enclosingFunction: 'chargeCustomer',
          snippet: "await pool.query('BEGIN');",
          count: 1,
        },
        {
          ruleId: 'idempotency/require-request-timeout',
          file: 'src/workers/email.ts',
          enclosingFunction: 'sendReceipt',
          snippet: "await fetch('https://mail.example.com/send', { method: 'POST' });",
          count: 1,
        },
      ],
    });
  });

  it('counts identical findings in one entry', () => {
    const baseline = createBaseline(
      reportOf([key, { ...key, line: 30, column: 5, snippet: 'const key   = randomUUID();' }]),
    );
    expect(baseline.entries).toEqual([expect.objectContaining({ ruleId: key.ruleId, count: 2 })]);
  });

  it('leaves out fields a finding does not have', () => {
    const bare: Finding = { ...key };
    delete bare.enclosingFunction;
    delete bare.snippet;
    expect(createBaseline(reportOf([bare])).entries).toEqual([{ ruleId: key.ruleId, file: key.file, count: 1 }]);
  });
});

describe('applyBaseline', () => {
  const baseline = createBaseline(reportOf([key, begin]));

  it('tolerates known findings after the code moved and was re-indented', () => {
    const moved = reportOf([
      { ...key, line: key.line + 40, column: 9, endLine: key.line + 40, snippet: '        const key = randomUUID();' },
      { ...begin, line: begin.line + 40 },
    ]);
    const applied = applyBaseline(moved, baseline);
    expect(applied.findings).toEqual([]);
    expect(applied.baseline).toEqual({ tolerated: 2, new: 0, stale: [] });
    expect(applied.summary.findings).toBe(0);
  });

  it('fails new findings: the same rule in another function, another file, or other code', () => {
    const report = reportOf([
      key,
      begin,
      { ...key, enclosingFunction: 'refundCustomer', line: 60 },
      { ...key, file: 'src/billing/refund.ts' },
      { ...key, line: 15, snippet: '  const retryKey = randomUUID();' },
    ]);
    const applied = applyBaseline(report, baseline);
    expect(
      applied.findings.map((finding) => `${finding.file}:${finding.line} ${finding.enclosingFunction ?? ''}`),
    ).toEqual([
      'src/billing/charge.ts:15 chargeCustomer',
      'src/billing/charge.ts:60 refundCustomer',
      'src/billing/refund.ts:14 chargeCustomer',
    ]);
    expect(applied.baseline).toEqual({ tolerated: 2, new: 3, stale: [] });
    expect(applied.summary.findings).toBe(3);
  });

  it('tolerates only as many duplicates as recorded; the extra one is new', () => {
    const twice = createBaseline(reportOf([key, { ...key, line: 20 }]));
    const thrice = reportOf([key, { ...key, line: 20 }, { ...key, line: 26 }]);
    const applied = applyBaseline(thrice, twice);
    expect(applied.findings.map((finding) => finding.line)).toEqual([26]);
    expect(applied.baseline).toEqual({ tolerated: 2, new: 1, stale: [] });
  });

  it('lists stale entries, and the unmatched part of a count', () => {
    const recorded = createBaseline(reportOf([key, { ...key, line: 20 }, { ...key, line: 26 }, begin]));
    const applied = applyBaseline(reportOf([key]), recorded);
    expect(applied.findings).toEqual([]);
    expect(applied.baseline).toEqual({
      tolerated: 1,
      new: 0,
      stale: [
        {
          ruleId: key.ruleId,
          file: key.file,
          enclosingFunction: 'chargeCustomer',
          snippet: 'const key = randomUUID();',
          count: 2,
        },
        {
          ruleId: begin.ruleId,
          file: begin.file,
          enclosingFunction: 'chargeCustomer',
          snippet: "await pool.query('BEGIN');",
          count: 1,
        },
      ],
    });
  });

  it('keeps suppressed findings out of the matching and in the report', () => {
    const suppressed = { ...key, suppressed: { justification: 'replayed by hand' } };
    const applied = applyBaseline(reportOf([suppressed]), createBaseline(reportOf([key])));
    expect(applied.findings).toEqual([suppressed]);
    expect(applied.summary).toMatchObject({ findings: 0, suppressed: 1 });
    expect(applied.baseline).toEqual({
      tolerated: 0,
      new: 0,
      stale: [expect.objectContaining({ ruleId: key.ruleId, count: 1 })],
    });
  });

  it('keeps the handlers, files and not-analysed list', () => {
    const report = sampleReport();
    const applied = applyBaseline(report, createBaseline(report));
    expect(applied.handlers).toEqual(report.handlers);
    expect(applied.notAnalysed).toEqual(report.notAnalysed);
    expect(applied.summary).toEqual({ ...report.summary, findings: 0 });
  });
});

describe('formatBaseline and parseBaseline', () => {
  it('round-trip, with a stable layout', () => {
    const baseline = createBaseline(sampleReport());
    const text = formatBaseline(baseline);
    expect(text.endsWith('}\n')).toBe(true);
    expect(parseBaseline(text)).toEqual(baseline);
    expect(formatBaseline(parseBaseline(text))).toBe(text);
  });

  it('normalises and sorts hand-edited entries and drops unknown fields', () => {
    const text = JSON.stringify({
      schemaVersion: 1,
      entries: [
        { file: 'b.ts', ruleId: 'r', count: 1, line: 3 },
        { file: 'a.ts', ruleId: 'r', snippet: '  x  =  1 ', count: 2 },
      ],
    });
    expect(parseBaseline(text)).toEqual<Baseline>({
      schemaVersion: 1,
      entries: [
        { ruleId: 'r', file: 'a.ts', snippet: 'x = 1', count: 2 },
        { ruleId: 'r', file: 'b.ts', count: 1 },
      ],
    });
  });

  it.each([
    ['not json', /not valid JSON/u],
    ['[]', /schemaVersion undefined is not supported/u],
    ['null', /must be a JSON object/u],
    ['{"schemaVersion":2,"entries":[]}', /schemaVersion 2 is not supported/u],
    ['{"schemaVersion":1}', /entries must be an array/u],
    ['{"schemaVersion":1,"entries":[{"ruleId":"r","file":"a.ts","count":0}]}', /baseline entry 0 needs/u],
    ['{"schemaVersion":1,"entries":[{"ruleId":"r","file":"a.ts","count":1,"snippet":3}]}', /baseline entry 0 needs/u],
  ])('rejects %s with one clear line', (text, message) => {
    expect(() => parseBaseline(text)).toThrow(message);
  });
});
