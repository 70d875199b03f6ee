import { describe, expect, it } from 'vitest';

import { analyze } from '../../src/analysis/analyze.js';
import { writeRepo } from '../cli/helpers.js';

/** How many times the rules ran over each file, the settings the graph gave it, and the findings. */
function run(files: Record<string, string>) {
  const result = analyze({ root: writeRepo(files), paths: [], ignore: [], types: false, includeSuppressed: false });
  return {
    passes: Object.fromEntries(result.timings.map((timing) => [timing.file, timing.passes])),
    settings: result.settings,
    findings: result.findings.map((finding) => `${finding.file}:${finding.line} ${finding.ruleId}`),
  };
}

const HELPER = `import { randomUUID } from 'node:crypto';
export function newId() {
  return randomUUID();
}
`;

describe('the second pass, with other modules facts', () => {
  it('runs where a per-attempt helper can reach a key, and not where the file spells no key sink', () => {
    const found = run({
      'src/helper.ts': HELPER,
      'src/label.ts': `import { newId } from './helper';
export function label(name: string) {
  return name + newId();
}
`,
      'src/pay.ts': `import { newId } from './helper';
export async function pay(amount: number) {
  const key = newId();
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await fetch('https://pay.example/charges', {
        method: 'POST',
        body: JSON.stringify({ amount }),
        headers: { 'Idempotency-Key': newId() },
        signal: AbortSignal.timeout(5000),
      });
    } catch {}
  }
  return key;
}
`,
    });
    const perAttempt = { summaries: { './helper': { newId: { perAttempt: true } } } };
    // Both get the helper's fact; only the file with a key sink is linted again with it.
    expect(found.settings['src/label.ts']).toEqual(perAttempt);
    expect(found.settings['src/pay.ts']).toEqual(perAttempt);
    expect(found.passes['src/label.ts']).toBe(1);
    expect(found.passes['src/pay.ts']).toBe(2);
    expect(found.findings).toEqual(['src/pay.ts:9 idempotency/no-per-attempt-key']);
  });

  it('runs where a function that writes through its own handle is called inside a transaction', () => {
    const repository = `import { randomUUID } from 'node:crypto';
import { MikroORM } from '@mikro-orm/postgresql';
declare const orm: MikroORM;
export const newOrderId = () => randomUUID();
export async function saveOrder(order: { id: string }) {
  const em = orm.em.fork();
  em.persist(em.create('Order', order));
  await em.flush();
}
`;
    const found = run({
      'src/orders.ts': repository,
      'src/checkout.ts': `import { saveOrder } from './orders';
export async function checkout(em: any, order: { id: string }) {
  await em.transactional(async () => {
    await saveOrder(order);
  });
}
`,
      // No word of the prefilter: read because it imports a fact of a module that exports facts.
      'src/report.ts': `import { saveOrder } from './orders';
export async function copy(order: { id: string }) {
  await saveOrder(order);
}
`,
    });
    const ownHandle = { summaries: { './orders': { saveOrder: { ownHandle: true } } } };
    expect(found.settings['src/checkout.ts']).toEqual(ownHandle);
    expect(found.settings['src/report.ts']).toEqual(ownHandle);
    expect(found.passes['src/checkout.ts']).toBe(2);
    expect(found.passes['src/report.ts']).toBe(1);
  });
});
