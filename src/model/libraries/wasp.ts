import type { DeliveryLibrary } from './library.js';

/**
 * Wasp's jobs (https://wasp.sh/docs/advanced/jobs): a job's worker function runs on pg-boss, and
 * "Jobs can be retried if they fail". The app's spec names the function, in the Wasp language
 * (`job j { executor: PgBoss, perform: { fn: import { foo } from "@src/workers/bar" } }`) or in
 * TypeScript (`job(foo, { executor: "PgBoss" })` of `@wasp.sh/spec`, with `foo` a reference import);
 * the function is declared with the type Wasp generates for that job, which `wasp/server/jobs`
 * exports (`export const foo: MySpecialJob<Input, Output> = async (args, context) => …`).
 */
export const wasp: DeliveryLibrary<'wasp-job'> = {
  broker: 'wasp-job',
  modules: ['@wasp.sh/spec', 'wasp/server/jobs'],
  registrations: [{ call: { function: ['job'] }, handler: { argument: 0 } }],
  taskTypeModules: ['wasp/server/jobs'],
};

/**
 * Wasp's HTTP APIs (https://wasp.sh/docs/advanced/apis): each declared `api` gets a handler type of
 * its own name in `wasp/server/api` (`export const fooBar: FooBar = (req, res, context) => …`), an
 * Express handler Wasp mounts on the API's route.
 */
export const WASP_API_TYPE_MODULES: readonly string[] = ['wasp/server/api'];
