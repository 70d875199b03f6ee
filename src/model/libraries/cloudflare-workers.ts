import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { propertyKeyName } from '../ast/names.js';
import { unwrap } from '../ast/nodes.js';

/**
 * Cloudflare Workers' module format: the default export is an object of the handlers the platform
 * calls (https://developers.cloudflare.com/workers/runtime-apis/handlers/). Two of them run again
 * when they fail:
 * - `queue(batch, env, ctx)`, a Cloudflare Queues consumer: a batch whose handler throws is
 *   delivered again (https://developers.cloudflare.com/queues/configuration/batching-retries/);
 * - `scheduled(controller, env, ctx)`, a Cron Trigger: an invocation that throws may be retried
 *   unless it calls `controller.noRetry()` (`ScheduledController.noRetry` in
 *   `@cloudflare/workers-types`: "prevents Cloudflare from retrying a failed scheduled invocation").
 */
const WORKER_ENTRIES = [
  { member: 'queue', broker: 'cloudflare-queues' },
  { member: 'scheduled', broker: 'cloudflare-cron' },
] as const;

export type WorkerEntryBroker = (typeof WORKER_ENTRIES)[number]['broker'];

/** The values of the members of a module's default export object that are Workers' retried entries. */
export function workerEntries(node: TSESTree.Node): { value: TSESTree.Node; broker: WorkerEntryBroker }[] {
  if (node.type !== AST_NODE_TYPES.ExportDefaultDeclaration) return [];
  const value = unwrap(node.declaration);
  if (value.type !== AST_NODE_TYPES.ObjectExpression) return [];
  const found: { value: TSESTree.Node; broker: WorkerEntryBroker }[] = [];
  for (const property of value.properties) {
    if (property.type !== AST_NODE_TYPES.Property) continue;
    const entry = WORKER_ENTRIES.find(({ member }) => member === propertyKeyName(property));
    if (entry) found.push({ value: unwrap(property.value), broker: entry.broker });
  }
  return found;
}
