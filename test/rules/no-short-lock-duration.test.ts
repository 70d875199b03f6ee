import rule from '../../rules/no-short-lock-duration.js';
import { syntaxRuleTester } from '../rule-tester.js';

const header = "import { Worker } from 'bullmq';\n";

syntaxRuleTester().run('no-short-lock-duration', rule, {
  valid: [
    // The lock outlasts the longest timeout the processor awaits.
    `${header}new Worker('q', async () => fetch(u, { signal: AbortSignal.timeout(20_000) }), { lockDuration: 60_000 });`,
    // The default lock (30 s) over a 10 s timeout.
    `${header}new Worker('q', async () => fetch(u, { signal: AbortSignal.timeout(10_000) }));`,
    // Nothing static to compare.
    `${header}new Worker('q', async (job) => fetch(u, { signal: AbortSignal.timeout(job.data.ms) }), { lockDuration: 5_000 });`,
    // A Worker that is not BullMQ's.
    `import { Worker } from 'node:worker_threads';\nnew Worker('q', async () => fetch(u, { signal: AbortSignal.timeout(60_000) }), { lockDuration: 5_000 });`,
  ],
  invalid: [
    {
      code: `${header}new Worker('q', async () => fetch(u, { signal: AbortSignal.timeout(60_000) }), {\n  lockDuration: 10_000,\n});`,
      errors: [{ messageId: 'tooShort', line: 3, column: 3, data: { shorter: '10000', longer: '60000' } }],
      output: null,
    },
    {
      code: `${header}const TIMEOUT = 45_000;\nnew Worker('q', async () => axios.post(u, body, { timeout: TIMEOUT }));`,
      errors: [{ messageId: 'tooShort', line: 3, column: 1, data: { shorter: '30000', longer: '45000' } }],
      output: null,
    },
  ],
});
