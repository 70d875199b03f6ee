import * as parser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';

import plugin from '../../src/index.js';

/**
 * A worker class whose key is minted once, in the handler, and handed down a lattice of n private
 * methods: each calls the next two and sends the key itself. Every one of the n sends asks where
 * its key comes from, through every path of callers. Answered per path and to a fixed depth, the
 * file cost n sends × 2^depth paths × a walk of the class per step; answered once per parameter,
 * it costs n steps.
 */
function lattice(n: number, sends: (index: number) => boolean = () => true): string {
  const methods = Array.from({ length: n }, (_, index) => {
    const send = sends(index)
      ? `    await fetch('https://api.example.com/charges/${index}', { method: 'POST', headers: { 'Idempotency-Key': key }, body: JSON.stringify(data), signal: AbortSignal.timeout(5000) });\n`
      : '';
    const next = index + 1 < n ? `    await this.m${index + 1}(data, key);\n` : '';
    const skip = index + 2 < n ? `    if (data.again) await this.m${index + 2}(data, key);\n` : '';
    return `  private async m${index}(data: { again: boolean }, key: string) {\n` + send + next + skip + `  }\n`;
  });
  return (
    `import { randomUUID } from 'node:crypto';\n` +
    `import { Worker } from 'bullmq';\n` +
    `export class Billing {\n` +
    `  start() { return new Worker('billing', (job) => this.m0(job.data, randomUUID())); }\n` +
    methods.join('') +
    `}\n`
  );
}

const linter = new Linter({ configType: 'flat' });
const config: Linter.Config[] = [
  {
    files: ['**/*.ts'],
    languageOptions: { parser, sourceType: 'module' },
    plugins: { idempotency: plugin as never },
    rules: plugin.configs.all.rules ?? {},
  },
];

/** The reports of every rule over the lattice of n methods, and the fastest of three runs in ms. */
function lint(text: string): { keyLines: number[]; ms: number } {
  let ms = Infinity;
  let messages: Linter.LintMessage[] = [];
  for (let round = 0; round < 3; round++) {
    const started = performance.now();
    messages = linter.verify(text, config, { filename: 'src/billing.ts' });
    ms = Math.min(ms, performance.now() - started);
  }
  expect(messages.filter((message) => message.fatal === true)).toEqual([]);
  return {
    keyLines: messages.filter((message) => message.ruleId === 'idempotency/no-per-attempt-key').map((m) => m.line),
    ms,
  };
}

describe('cost of following a value through long parameter chains', () => {
  it('finds the key minted in the handler at a send however far down the chain it is', () => {
    const n = 120;
    const text = lattice(n, (index) => index === n - 1);
    const { keyLines } = lint(text);
    const sendLine = text.split('\n').findIndex((line) => line.includes(`charges/${String(n - 1)}'`)) + 1;
    expect(keyLines).toEqual([sendLine]);
  });

  it('grows linearly: four times the methods cost well under sixteen times the time', () => {
    lint(lattice(50)); // warm the JIT and ESLint's caches
    const small = lint(lattice(100));
    const large = lint(lattice(400));
    // One key, minted once: reported once, at the first send that carries it.
    expect(small.keyLines).toEqual([6]);
    expect(large.keyLines).toEqual([6]);
    // Linear is 4×; a quadratic search would be 16×. The bound leaves room for a noisy machine.
    expect(large.ms / small.ms).toBeLessThan(9);
  });
});
