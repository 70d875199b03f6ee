import type { DeliveryLibrary } from './library.js';

/**
 * BullMQ: `new Worker(queueName, processor, opts)` runs `processor` once per job it takes; a job
 * whose processor throws, or whose worker stalls, is run again (https://docs.bullmq.io/guide/workers,
 * https://docs.bullmq.io/guide/jobs/stalled). BullMQ Pro's `WorkerPro` takes the same arguments
 * (https://docs.bullmq.io/bullmq-pro/introduction).
 */
export const bullmq: DeliveryLibrary<'bullmq'> = {
  broker: 'bullmq',
  modules: ['bullmq', '@taskforcesh/bullmq-pro'],
  registrations: [{ call: { new: ['Worker', 'WorkerPro'] }, handler: { argument: 1 }, queue: [{ argument: 0 }] }],
};
