import { TSESLint } from '@typescript-eslint/utils';
import type { Scope } from '../ast/context.js';
import type { DeliveryLibrary } from './library.js';

/**
 * Vendure's job queue (`@vendure/core`): a service or plugin creates a queue with
 * `jobQueueService.createQueue({ name, process })`, and `process` runs once per job the queue's
 * strategy hands a worker (CreateQueueOptions in core/src/job-queue/types.ts). Delivery is at
 * least once: a failed job is retried up to its `retries`, and a job whose worker dies while it
 * runs is picked up again (the SQL strategy's polling, BullMQ's stalled-job check), so `process`
 * may run twice for one job (https://docs.vendure.io/guides/developer-guide/worker-job-queue/).
 *
 * The receiver is Vendure's JobQueueService when the file names `JobQueueService` (imported from
 * `@vendure/core`, or inside Vendure, from its own module), which is how a service or plugin is
 * handed one by Nest's injection.
 */
export const vendure: DeliveryLibrary<'vendure-job-queue'> = {
  broker: 'vendure-job-queue',
  modules: ['@vendure/core'],
  registrations: [
    {
      call: { method: ['createQueue'] },
      receiver: {
        test: (receiver, _call, context) => importsBinding(context.sourceCode.getScope(receiver), 'JobQueueService'),
      },
      handler: { argument: 0, property: ['process'] },
      queue: [{ argument: 0, property: 'name' }],
    },
  ],
};

/** The module imports a binding of this name (its scope chain ends in the module's). */
function importsBinding(scope: Scope, name: string): boolean {
  let module: Scope = scope;
  while (module.type !== TSESLint.Scope.ScopeType.module && module.upper) module = module.upper;
  const variable = module.set.get(name);
  return variable?.defs.some((def) => def.type === TSESLint.Scope.DefinitionType.ImportBinding) ?? false;
}
