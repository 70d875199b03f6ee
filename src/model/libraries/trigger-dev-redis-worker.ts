import type { DeliveryLibrary } from './library.js';

/**
 * `@trigger.dev/redis-worker`, trigger.dev's published Redis job queue: `new Worker({ name,
 * catalog, jobs: { [job]: handler } })` runs `jobs[job]` for each item it dequeues; an item whose
 * handler throws is enqueued again with its attempt counted, up to the catalog's
 * `retry.maxAttempts`, and an item not acked within its `visibilityTimeoutMs` is dequeued again
 * (packages/redis-worker/src/worker.ts, `processItem`; https://www.npmjs.com/package/@trigger.dev/redis-worker).
 */
export const triggerDevRedisWorker: DeliveryLibrary<'trigger.dev-redis-worker'> = {
  broker: 'trigger.dev-redis-worker',
  modules: ['@trigger.dev/redis-worker'],
  registrations: [{ call: { new: ['Worker'] }, handler: { argument: 0, property: ['jobs'], table: true } }],
};
