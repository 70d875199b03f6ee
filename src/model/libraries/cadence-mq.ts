import type { DeliveryLibrary } from './library.js';

/**
 * cadence-mq (`@cadence-mq/core`): `cadence.registerTask({ taskName, handler })` registers the
 * function a worker (`cadence.createWorker(…).start()`) runs for each job scheduled under that
 * name (https://github.com/papra-hq/cadence-mq#usage). The task name and the handler in one
 * options object say what the call is wherever the receiver comes from: applications hand the
 * instance around (`taskServices.registerTask(…)` with `taskServices` a parameter).
 */
export const cadenceMq: DeliveryLibrary<'cadence-mq'> = {
  broker: 'cadence-mq',
  modules: ['@cadence-mq/core'],
  anchors: ['registerTask'],
  registrations: [
    {
      call: { method: ['registerTask'] },
      options: ['taskName'],
      handler: { argument: 0, property: ['handler'] },
      queue: [{ argument: 0, property: 'taskName' }],
    },
  ],
};
