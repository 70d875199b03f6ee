import type { DeliveryLibrary } from './library.js';

/**
 * Camunda 8 / Zeebe job workers (`@camunda8/sdk`, `zeebe-node`): `zbc.createWorker({ taskType,
 * taskHandler })` activates jobs of that type and runs the handler for each; a job whose handler
 * fails is retried while it has retries left, and one not completed within its `timeout` is made
 * available again to any worker (https://docs.camunda.io/docs/components/concepts/job-workers/,
 * "Timeouts" and "Completing or failing jobs"). The task type and the handler in one options
 * object say what the call is wherever the client comes from (an injected `ZeebeGrpcClient`);
 * the positional form of zeebe-node (`createWorker(taskType, handler)`) needs the file to import it.
 */
export const zeebe: DeliveryLibrary<'zeebe'> = {
  broker: 'zeebe',
  modules: ['@camunda8/sdk', '@camunda8/sdk/dist/zeebe', 'zeebe-node'],
  anchors: ['createWorker'],
  registrations: [
    {
      call: { method: ['createWorker'] },
      options: ['taskType'],
      handler: { argument: 0, property: ['taskHandler'] },
      queue: [{ argument: 0, property: 'taskType' }],
    },
    {
      call: { method: ['createWorker'] },
      receiver: { imports: true },
      arguments: { min: 2 },
      handler: { argument: 'last' },
      queue: [{ argument: 0 }],
    },
  ],
};
