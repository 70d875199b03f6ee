import { parentPort, workerData } from 'node:worker_threads';

import { FilePasses } from './file-pass.js';
import type { FileRuleConfig } from './lint.js';
import type { LintWorkerData, LintWorkerResult, LintWorkerTask } from './lint-pool.js';

/**
 * A worker of the lint pool (`lint-pool.ts`): its own Linter and facts rule, one file per message,
 * each result posted on the pool's port and counted, so the calling thread, blocked in
 * `Atomics.wait`, wakes up.
 */

const data = workerData as LintWorkerData;
const posted = new Int32Array(data.posted);
const configs = new Map<number, FileRuleConfig>();
let current: FileRuleConfig | undefined;
const passes = new FilePasses(data.root, () => current, data.budgetMs, data.includeSuppressed);

parentPort?.on('message', (message: LintWorkerTask) => {
  if (message.configId !== undefined && message.config !== undefined) configs.set(message.configId, message.config);
  current = message.configId === undefined ? undefined : configs.get(message.configId);
  const { outcome, ms } = passes.run(message.task);
  const result: LintWorkerResult = { id: message.id, outcome, ms };
  data.port.postMessage(result);
  Atomics.add(posted, 0, 1);
  Atomics.notify(posted, 0);
});
