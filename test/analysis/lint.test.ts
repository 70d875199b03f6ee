import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { RuleRunner, toFindings } from '../../src/analysis/lint.js';

const root = path.resolve('/repo');
const keyed = "import { randomUUID } from 'node:crypto';\nawait fetch('https://api.test/charge', { method: 'POST', headers: { 'Idempotency-Key': randomUUID() }, signal: AbortSignal.timeout(5000) });\n";

describe('RuleRunner', () => {
  it("runs the plugin's rules on a file under the root", () => {
    const result = new RuleRunner(root).run(path.join(root, 'src/charge.ts'), keyed, {});
    expect(result.fatal).toBeUndefined();
    expect(toFindings(result, 'src/charge.ts', true).map((finding) => finding.ruleId)).toEqual(['idempotency/no-per-attempt-key']);
  });

  it('reports a file no configuration applies to as not linted, instead of as clean', () => {
    const result = new RuleRunner(root).run(path.resolve('/elsewhere/charge.ts'), keyed, {});
    expect(result.fatal).toMatch(/^not linted: No matching configuration/);
    expect(result.messages).toEqual([]);
  });

  it('reports a parse error with its position', () => {
    const result = new RuleRunner(root).run(path.join(root, 'broken.ts'), 'const = ;', {});
    expect(result.fatal).toMatch(/\(1:\d+\)$/);
  });
});
