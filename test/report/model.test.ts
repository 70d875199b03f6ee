import { describe, expect, it } from 'vitest';

import { REPORT_SCHEMA_VERSION, activeFindings, createReport } from '../../src/report/model.js';
import { emptyReport, sampleFindings, sampleReport } from './sample.js';

describe('createReport', () => {
  it('sorts findings by file, line, column, then rule', () => {
    const report = sampleReport();
    expect(report.findings.map((finding) => `${finding.file}:${finding.line}:${finding.column}`)).toEqual([
      'src/billing/charge.ts:9:3',
      'src/billing/charge.ts:14:24',
      'src/legacy/import.ts:40:5',
      'src/workers/email.ts:22:11',
    ]);
  });

  it('breaks ties on the same position by rule id', () => {
    const base = sampleFindings[0]!;
    const report = createReport({
      tool: { name: 't', version: '1' },
      findings: [
        { ...base, ruleId: 'idempotency/z' },
        { ...base, ruleId: 'idempotency/a' },
      ],
      files: 1,
    });
    expect(report.findings.map((finding) => finding.ruleId)).toEqual(['idempotency/a', 'idempotency/z']);
  });

  it('sorts handlers and dedupes and sorts their effects and protections', () => {
    const report = sampleReport();
    expect(report.handlers.map((handler) => handler.file)).toEqual([
      'src/billing/worker.ts',
      'src/hooks/routes.ts',
      'src/workers/email.ts',
    ]);
    expect(report.handlers[0]).toMatchObject({
      effects: ['sql-write', 'stripe'],
      protections: ['claim', 'timeout', 'transaction'],
    });
  });

  it('sorts the files not analysed', () => {
    const report = createReport({
      tool: { name: 't', version: '1' },
      findings: [],
      notAnalysed: [
        { file: 'b.ts', reason: 'x' },
        { file: 'a.ts', reason: 'z' },
        { file: 'a.ts', reason: 'y' },
      ],
      files: 0,
    });
    expect(report.notAnalysed).toEqual([
      { file: 'a.ts', reason: 'y' },
      { file: 'a.ts', reason: 'z' },
      { file: 'b.ts', reason: 'x' },
    ]);
  });

  it('does not mutate its input', () => {
    const before = structuredClone(sampleFindings);
    sampleReport();
    expect(sampleFindings).toEqual(before);
  });

  it('counts suppressed findings apart from the ones that fail a run', () => {
    expect(sampleReport().summary).toEqual({
      files: 12,
      findings: 3,
      suppressed: 1,
      handlers: 3,
      protectedHandlers: 1,
    });
    expect(activeFindings(sampleReport())).toHaveLength(3);
  });

  it('versions the report and has no baseline unless one was applied', () => {
    const report = emptyReport();
    expect(report.schemaVersion).toBe(REPORT_SCHEMA_VERSION);
    expect(report).not.toHaveProperty('baseline');
    expect(report.summary).toEqual({ files: 3, findings: 0, suppressed: 0, handlers: 0, protectedHandlers: 0 });
  });
});
