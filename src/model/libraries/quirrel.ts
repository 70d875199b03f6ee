import type { DeliveryLibrary } from './library.js';

/**
 * Quirrel: `Queue(route, worker, options?)` and `CronJob(route, schedule, worker)` from a
 * framework's adapter (`quirrel/next`, `quirrel/next-app`, `quirrel/blitz`, …) make the module an
 * HTTP route that the Quirrel server calls with each job when it is due
 * (https://docs.quirrel.dev/getting-started/next-js); a job whose call fails is run again on the
 * schedule of its `retry` option (https://docs.quirrel.dev/api/queue), so the worker runs once per
 * attempt. The queue is the route the first argument names.
 */
const ADAPTERS = [
  'next',
  'next-app',
  'next-pages',
  'blitz',
  'redwood',
  'nuxt',
  'remix',
  'sveltekit',
  'connect',
  'express',
  'netlify',
  'vercel',
];

export const quirrel: DeliveryLibrary<'quirrel'> = {
  broker: 'quirrel',
  modules: ADAPTERS.map((adapter) => `quirrel/${adapter}`),
  registrations: [
    { call: { function: ['Queue'] }, arguments: { min: 2 }, handler: { argument: 1 }, queue: [{ argument: 0 }] },
    { call: { function: ['CronJob'] }, arguments: { min: 3 }, handler: { argument: 2 }, queue: [{ argument: 0 }] },
  ],
};
