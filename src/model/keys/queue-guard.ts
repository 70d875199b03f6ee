import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext } from '../ast/context.js';
import { isFunction } from '../ast/function.js';
import { memberName, memberPath } from '../ast/names.js';
import { unwrap } from '../ast/nodes.js';
import { singleInit } from '../ast/values.js';
import { forEachNode } from '../ast/walk.js';
import { type KeySink } from './sinks.js';

/**
 * BullMQ's queue methods that return the jobs it holds in some states (`getJobs(types)`,
 * `getWaiting()`, `getActive()`, `getDelayed()`, `getPrioritized()`) or one of them by id
 * (`getJob(id)`): https://api.docs.bullmq.io/classes/v5.Queue.html.
 */
const JOB_LOOKUPS: ReadonlySet<string> = new Set([
  'getJobs',
  'getJob',
  'getWaiting',
  'getActive',
  'getDelayed',
  'getPrioritized',
  'getWaitingChildren',
]);

/** How many bindings the condition is followed through to the lookup it is made from. */
const BINDING_HOPS = 3;

/**
 * A job id written into `queue.add(name, data, { jobId })` whose add runs only when a lookup of the
 * same queue's jobs found none for it (`const existing = await queue.getJobs(['waiting', 'active']);
 * if (!existing.some((j) => j.data.id === id)) await queue.add(name, data, { jobId: `${id}-${Date.now()}` })`):
 * a re-run finds the first job and adds none, the protection a stable job id gives (BullMQ ignores
 * an add whose id it holds, also only while it holds the job), so the id need not be stable.
 */
export function isAddGuardedByQueueLookup(sink: KeySink, context: AnyRuleContext): boolean {
  if (sink.kind !== 'bullmq-job-id') return false;
  const add = addCallOf(sink.node);
  const callee = add && unwrap(add.callee);
  if (!add || callee?.type !== AST_NODE_TYPES.MemberExpression) return false;
  const queue = memberPath(callee.object)?.join('.');
  if (queue === undefined) return false;
  for (let current: TSESTree.Node = add; !isFunction(current) && current.parent; current = current.parent) {
    const parent: TSESTree.Node = current.parent;
    if (parent.type === AST_NODE_TYPES.IfStatement && parent.consequent === current) {
      if (looksUpQueue(parent.test, queue, context)) return true;
    }
  }
  return false;
}

/** The `add(name, data, opts)` call whose options object holds the sink. */
function addCallOf(node: TSESTree.Node): TSESTree.CallExpression | undefined {
  const object = node.parent;
  const call = object?.parent;
  if (object?.type !== AST_NODE_TYPES.ObjectExpression || call?.type !== AST_NODE_TYPES.CallExpression)
    return undefined;
  const callee = unwrap(call.callee);
  return callee.type === AST_NODE_TYPES.MemberExpression && memberName(callee) === 'add' && call.arguments[2] === object
    ? call
    : undefined;
}

/** Whether `test`, or a binding it reads (through a few), is made from a lookup of `queue`'s jobs. */
function looksUpQueue(test: TSESTree.Node, queue: string, context: AnyRuleContext, hops = 0): boolean {
  let found = false;
  forEachNode(test, context, (node) => {
    if (found) return;
    if (node.type === AST_NODE_TYPES.CallExpression) {
      const callee = unwrap(node.callee);
      if (
        callee.type === AST_NODE_TYPES.MemberExpression &&
        JOB_LOOKUPS.has(memberName(callee) ?? '') &&
        memberPath(callee.object)?.join('.') === queue
      )
        found = true;
    } else if (node.type === AST_NODE_TYPES.Identifier && hops < BINDING_HOPS) {
      const init = singleInit(node, context.sourceCode.getScope(node));
      if (init && looksUpQueue(init, queue, context, hops + 1)) found = true;
    }
  });
  return found;
}
