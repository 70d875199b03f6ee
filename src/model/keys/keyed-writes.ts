import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext } from '../ast/context.js';
import { memberName, memberPath } from '../ast/names.js';
import { unwrap } from '../ast/nodes.js';
import { importSource } from '../modules.js';
import { keyedAt, type SdkWrite } from '../sdk.js';

/**
 * Provider writes that accept an idempotency key, beyond Stripe's (`src/model/sdk.ts`), and
 * which writes need one at all.
 *
 * trigger.dev: `tasks.trigger(id, payload, options)` (`tasks` from `@trigger.dev/sdk`) and
 * `myTask.trigger(payload, options)` / `batchTrigger(items, options)` on a task the project
 * defines; the options take `idempotencyKey`, and a run triggered again under a key trigger.dev
 * has seen returns the first run instead of starting another
 * (https://trigger.dev/docs/idempotency).
 */
export function triggerDevWrite(call: TSESTree.CallExpression, context: AnyRuleContext): SdkWrite | undefined {
  const callee = unwrap(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const method = memberName(callee);
  if (method !== 'trigger' && method !== 'batchTrigger') return undefined;
  const scope = context.sourceCode.getScope(call);
  const receiver = unwrap(callee.object);
  const path = memberPath(receiver, scope);
  const name = path?.at(-1);
  if (name === undefined) return undefined;
  const root = receiver.type === AST_NODE_TYPES.Identifier ? importSource(receiver, scope) : undefined;
  let optionsIndex: number;
  if (name === 'tasks' && root !== undefined && TRIGGER_MODULE.test(root.module)) optionsIndex = 2;
  else if (TASK_NAME.test(name)) optionsIndex = 1;
  else return undefined;
  if (call.arguments.length < optionsIndex) return undefined;
  return {
    call,
    sdk: 'trigger.dev',
    operation: `${name}.${method}`,
    keyed: keyedAt(call, optionsIndex, context, scope),
    optionsIndex,
  };
}

const TRIGGER_MODULE = /^@trigger\.dev\/sdk(?:\/|$)/;
/** A task the project defines with `task({ id, run })`: `sendEmailTask`, `stripe_payment_task`. */
const TASK_NAME = /task$/i;

/**
 * Stripe's `update` and `del` set or remove state: sent twice, they leave it as once. Only the
 * writes that create something (a charge, a refund, a customer) need a key, and not those that
 * make a short-lived link for a person (a Checkout Session, a portal session: sdk.ts).
 *
 * A trigger.dev run started twice is harmful only when its task is: on 20 real applications 23
 * of 27 unkeyed triggers started tasks that upsert, recompute or check their own state, so a
 * trigger is a keyed write (its key is read by the key rules) but a missing key is not reported
 * until the task's own writes can be read across files.
 */
export function needsKey(write: SdkWrite): boolean {
  const method = write.operation.split('.').at(-1);
  if (write.sdk === 'trigger.dev' || write.ephemeral) return false;
  return !(write.sdk === 'stripe' && (method === 'update' || method === 'del'));
}
