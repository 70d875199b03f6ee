import type { DeliveryLibrary } from './library.js';

/**
 * job-collection (vsivsi's `meteor-job-collection`, its npm client `meteor-job`, and Reaction
 * Commerce's port `@reactioncommerce/job-queue`): `jobs.processJobs(type, [options,] worker)`, or
 * `Job.processJobs(root, type, [options,] worker)`, polls the collection and calls `worker(job,
 * callback)` for each job it takes; a job whose worker fails, or whose `workTimeout` passes, is
 * run again up to its `retries`
 * (https://github.com/vsivsi/meteor-job-collection#jcprocessjobstype-options-worker---anywhere).
 * The method's name is the library's own, and the collection is usually made in another module
 * (or by Meteor's global `JobCollection`), so the call's shape says it.
 */
export const jobCollection: DeliveryLibrary<'job-collection'> = {
  broker: 'job-collection',
  modules: ['meteor/vsivsi:job-collection', 'meteor-job', '@reactioncommerce/job-queue'],
  anchors: ['processJobs'],
  registrations: [
    {
      call: { method: ['processJobs'] },
      arguments: { min: 2 },
      handler: { argument: 'last' },
      queue: [{ argument: 0 }],
    },
  ],
};
