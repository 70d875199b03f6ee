import type { DeliveryLibrary } from './library.js';

/**
 * trigger.dev: `task({ id, run })`, `schemaTask({ id, schema, run })`, `schedules.task({ id, cron,
 * run })`; a run that fails is retried by the task's `retry` settings
 * (https://trigger.dev/docs/tasks/overview, https://trigger.dev/docs/errors-retrying).
 */
export const triggerDev: DeliveryLibrary<'trigger.dev'> = {
  broker: 'trigger.dev',
  modules: ['@trigger.dev/sdk', '@trigger.dev/sdk/v3'],
  registrations: [
    {
      call: { function: ['task', 'schemaTask'] },
      handler: { argument: 0, property: ['run'] },
      queue: [{ argument: 0, property: 'id' }],
    },
    {
      call: { method: ['task'], on: 'module' },
      handler: { argument: 0, property: ['run'] },
      queue: [{ argument: 0, property: 'id' }],
    },
  ],
};
