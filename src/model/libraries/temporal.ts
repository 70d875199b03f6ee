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

/**
 * Workflow code is replayed from its history and must be deterministic, so Temporal makes its
 * randomness and clock so: `uuid4()` of `@temporalio/workflow` "uses the workflow's deterministic
 * PRNG and is therefore safe for use within a workflow"
 * (https://typescript.temporal.io/api/namespaces/workflow#uuid4), and the workflow sandbox
 * replaces `Math.random()` with that PRNG and `Date` with the time of the current workflow task
 * (https://docs.temporal.io/develop/typescript/core-application#workflow-logic-requirements). A key
 * a workflow makes is the same on every replay, and the activity it is handed to is retried with it.
 */
export const TEMPORAL_WORKFLOW_MODULE = '@temporalio/workflow';

/** The functions of the workflow module that return the same value on every replay. */
export const REPLAY_STABLE_FUNCTIONS: Readonly<Record<string, readonly string[]>> = {
  [TEMPORAL_WORKFLOW_MODULE]: ['uuid4'],
};
