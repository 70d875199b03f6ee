import type { DeliveryLibrary } from './library.js';

/**
 * Temporal: `Worker.create({ activities: { a, b } })`; an activity that fails or times out is
 * retried by its retry policy (https://docs.temporal.io/activities#activity-execution,
 * https://typescript.temporal.io/api/classes/worker.Worker#create).
 */
export const temporal: DeliveryLibrary<'temporal'> = {
  broker: 'temporal',
  modules: ['@temporalio/worker'],
  registrations: [
    { call: { method: ['create'], on: ['Worker'] }, handler: { argument: 0, property: ['activities'], table: true } },
  ],
};
