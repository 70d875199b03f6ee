import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { FilePasses } from '../../src/analysis/file-pass.js';
import { writeRepo } from '../cli/helpers.js';

const WORKER = `import { Worker } from 'bullmq';
import { charge } from './billing';

export async function sendReceipt(id: string) {
  await fetch('https://mail.example/send', { method: 'POST', body: id });
}

export const worker = new Worker('payments', async (job) => {
  await charge(job.data.orderId);
  await sendReceipt(job.data.orderId);
});
`;

describe('a pass over one file', () => {
  const root = writeRepo({ 'src/worker.ts': WORKER });
  const task = { path: join(root, 'src/worker.ts'), relative: 'src/worker.ts', text: WORKER };

  it('collects every fact in pass 1, and in pass 2 only the handlers, the same ones', () => {
    const passes = new FilePasses(root, undefined, 0, false);
    const first = passes.run(task).outcome;
    const second = passes.run({
      ...task,
      settings: { summaries: { './billing': { charge: { async: true } } } },
    }).outcome;
    if ('failure' in first || 'failure' in second) throw new Error('a pass failed');
    expect(first.facts.handlers.map((handler) => [handler.line, handler.broker])).toEqual([[8, 'bullmq']]);
    expect(first.facts.exports.has('sendReceipt')).toBe(true);
    expect(first.facts.imports.map((binding) => binding.local)).toEqual(['Worker', 'charge']);
    // Pass 2 keeps only what the settings can change: the handlers, found and summarised as in pass 1.
    expect(second.facts.handlers).toEqual(first.facts.handlers);
    expect(second.facts.exports.size).toBe(0);
    expect(second.facts.handOffs).toEqual([]);
    // And a pass 1 after it collects everything again.
    const third = passes.run(task).outcome;
    if ('failure' in third) throw new Error('a pass failed');
    expect(third.facts.exports.has('sendReceipt')).toBe(true);
  });
});
