import type { DeliveryLibrary } from './library.js';

/**
 * bee-queue: `queue.process([concurrency,] handler)`; a job whose worker stalls is retried
 * (https://github.com/bee-queue/bee-queue#queueprocessconcurrency-handlerjob-done).
 */
export const beeQueue: DeliveryLibrary<'bee-queue'> = {
  broker: 'bee-queue',
  modules: ['bee-queue'],
  registrations: [
    {
      call: { method: ['process'] },
      receiver: { imports: true },
      arguments: { min: 1, max: 2 },
      handler: { argument: 'last' },
    },
  ],
};
