import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { unwrap } from '../ast/nodes.js';
import { findProperty, resolveValue, staticString } from '../ast/values.js';
import { memberName } from '../ast/names.js';
import { type Scope } from '../ast/context.js';
import { type ConsumerHandler } from './consumer-handler.js';
import { resolveHandlerFunction } from './methods.js';

/**
 * Vendure's job queue (`@vendure/core`): a service or plugin creates a queue with
 * `jobQueueService.createQueue({ name, process })`, and `process` runs once per job the queue's
 * strategy hands a worker (CreateQueueOptions in core/src/job-queue/types.ts). Delivery is at
 * least once: a failed job is retried up to its `retries`, and a job whose worker dies while it
 * runs is picked up again (the SQL strategy's polling, BullMQ's stalled-job check), so `process`
 * may run twice for one job (https://docs.vendure.io/guides/developer-guide/worker-job-queue/).
 */

/** The method that registers a job processor. */
export const VENDURE_CREATE_QUEUE = 'createQueue';

/**
 * The processor a `createQueue({ name, process })` call registers, when the receiver is Vendure's
 * JobQueueService: the file names `JobQueueService` (imported from `@vendure/core`, or inside
 * Vendure, from its own module), which is how a service or plugin is handed one by Nest's injection.
 */
export function vendureJobQueueHandlers(call: TSESTree.CallExpression, scope: Scope): ConsumerHandler[] {
  const callee = unwrap(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression || memberName(callee) !== VENDURE_CREATE_QUEUE) return [];
  if (!call.arguments[0] || !importsBinding(scope, 'JobQueueService')) return [];
  const options = unwrap(resolveValue(call.arguments[0], scope));
  if (options.type !== AST_NODE_TYPES.ObjectExpression) return [];
  const process = findProperty(options, (key) => key === 'process', scope);
  const name = findProperty(options, (key) => key === 'name', scope);
  if (!process || process === 'unknown' || !name || name === 'unknown') return [];
  const fn = resolveHandlerFunction(process.value, scope);
  if (!fn) return [];
  const queue = staticString(name.value, scope);
  return [{ fn, broker: 'vendure-job-queue', queue, registration: call, messageParam: fn.params[0] }];
}

/** The module imports a binding of this name (its scope chain ends in the module's). */
function importsBinding(scope: Scope, name: string): boolean {
  let module: Scope = scope;
  while (module.type !== TSESLint.Scope.ScopeType.module && module.upper) module = module.upper;
  const variable = module.set.get(name);
  return variable?.defs.some((def) => def.type === TSESLint.Scope.DefinitionType.ImportBinding) ?? false;
}
