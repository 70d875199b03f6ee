import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { RuleRunner, loadConfigArrayClass, toFindings } from '../../src/analysis/lint.js';

const root = path.resolve('/repo');
const keyed =
  "import { randomUUID } from 'node:crypto';\nawait fetch('https://api.test/charge', { method: 'POST', headers: { 'Idempotency-Key': randomUUID() }, signal: AbortSignal.timeout(5000) });\n";

describe('RuleRunner', () => {
  it("runs the plugin's rules on a file under the root", () => {
    const result = new RuleRunner(root).run(path.join(root, 'src/charge.ts'), keyed, {});
    expect(result.fatal).toBeUndefined();
    expect(toFindings(result, 'src/charge.ts', true).map((finding) => finding.ruleId)).toEqual([
      'idempotency/no-per-attempt-key',
    ]);
  });

  it('reports a file no configuration applies to as not linted, instead of as clean', () => {
    const result = new RuleRunner(root).run(path.resolve('/elsewhere/charge.ts'), keyed, {});
    expect(result.fatal).toMatch(/^not linted: No matching configuration/);
    expect(result.messages).toEqual([]);
  });

  it("normalises each distinct config once through this ESLint's FlatConfigArray, and settings still reach the rules", () => {
    // Not a public export: if an ESLint release moves it, this fails instead of the scan quietly slowing down.
    expect(loadConfigArrayClass()).toBeTypeOf('function');
    const runner = new RuleRunner(root);
    expect(runner.reusesConfigs).toBe(true);
    const file = path.join(root, 'src/charge.ts');
    const viaHelper =
      "import { keyFor } from './keys';\nawait fetch('https://api.test/charge', { method: 'POST', headers: { 'Idempotency-Key': keyFor() }, signal: AbortSignal.timeout(5000) });\n";
    const settings = { perAttemptFunctions: [{ from: './keys', name: 'keyFor' }] };
    const rulesOf = (options: Parameters<RuleRunner['run']>[2]): (string | null)[] =>
      runner.run(file, viaHelper, options).messages.map((message) => message.ruleId);
    expect(rulesOf({})).toEqual([]);
    expect(rulesOf({ settings })).toEqual(['idempotency/no-per-attempt-key']);
    expect(rulesOf({ settings: { ...settings } })).toEqual(['idempotency/no-per-attempt-key']);
    expect(rulesOf({})).toEqual([]);
    expect(rulesOf({ pluginRules: false, settings })).toEqual([]);
  });

  it('reports a parse error with its position', () => {
    const result = new RuleRunner(root).run(path.join(root, 'broken.ts'), 'const = ;', {});
    expect(result.fatal).toMatch(/\(1:\d+\)$/);
  });
});
