import type { DeliveryLibrary } from './library.js';

/**
 * pg-boss: `boss.work(name, [options,] handler)`; a job that fails or expires is retried up to its
 * `retryLimit` (https://github.com/timgit/pg-boss/blob/master/docs/readme.md#work).
 */
export const pgBoss: DeliveryLibrary<'pg-boss'> = {
  broker: 'pg-boss',
  modules: ['pg-boss'],
  registrations: [
    {
      call: { method: ['work'] },
      receiver: { imports: true, name: /boss/i },
      arguments: { min: 2 },
      handler: { argument: 'last' },
      queue: [{ argument: 0 }],
    },
  ],
};
