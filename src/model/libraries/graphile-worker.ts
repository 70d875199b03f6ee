import type { DeliveryLibrary } from './library.js';

/**
 * graphile-worker: `run({ taskList: { name: fn } })` (and `runOnce`); a task that throws is retried
 * with backoff up to `max_attempts` (https://worker.graphile.org/docs/library/run,
 * https://worker.graphile.org/docs/tasks); so does every function of a variable annotated
 * `TaskList` (`const taskList: TaskList = { … }`), and a function declared or cast a `Task`
 * (`const task: Task = async (payload, helpers) => …`), the form of the task files the
 * `graphile-worker` CLI loads from its `tasks/` directory (https://worker.graphile.org/docs/tasks).
 */
export const graphileWorker: DeliveryLibrary<'graphile-worker'> = {
  broker: 'graphile-worker',
  modules: ['graphile-worker'],
  registrations: [
    { call: { function: ['run', 'runOnce'] }, handler: { argument: 0, property: ['taskList'], table: true } },
  ],
  taskTables: ['TaskList'],
  taskTypes: ['Task'],
};
