import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { memberPath } from '../ast/names.js';
import { walk } from '../ast/walk.js';
import { callsNamed } from '../ast/call-index.js';
import { unwrap } from '../ast/nodes.js';
import { type AnyRuleContext } from '../ast/context.js';
import { isFunction } from '../ast/function.js';
import { rootIdentifier } from './minting.js';
import { type KeySink } from './sinks.js';

/**
 * A key header written by an axios request interceptor (`api.interceptors.request.use((config) =>
 * { config.headers['Idempotency-Key'] = ...; return config; })`) with no test of the request's
 * method on the way: every request the instance sends carries it, GETs included.
 */
export function isKeyOnEveryRequest(sink: KeySink, context: AnyRuleContext): boolean {
  if (sink.kind !== 'header') return false;
  const node = sink.node;
  const target =
    node.type === AST_NODE_TYPES.AssignmentExpression
      ? node.left
      : node.type === AST_NODE_TYPES.CallExpression
        ? node.callee
        : undefined;
  const root = target && rootIdentifier(target);
  if (!root) return false;
  for (let current: TSESTree.Node = node; current.parent; current = current.parent) {
    const parent = current.parent;
    if (isFunction(parent)) return isRequestInterceptor(parent, root) && !testsMethodOnTheWay(node, parent, context);
  }
  return false;
}

function isRequestInterceptor(fn: TSESTree.FunctionLike, root: TSESTree.Identifier): boolean {
  const [config] = fn.params;
  if (config?.type !== AST_NODE_TYPES.Identifier || config.name !== root.name) return false;
  const call = fn.parent;
  if (call.type !== AST_NODE_TYPES.CallExpression || call.arguments[0] !== fn) return false;
  const path = memberPath(call.callee);
  return path !== undefined && path.slice(-3).join('.') === 'interceptors.request.use';
}

/** An `if`, `?:` or `&&` between the write and the interceptor whose test reads the method. */
export function testsMethodOnTheWay(node: TSESTree.Node, fn: TSESTree.FunctionLike, context: AnyRuleContext): boolean {
  for (let current = node.parent; current && current !== fn; current = current.parent) {
    const test =
      current.type === AST_NODE_TYPES.IfStatement || current.type === AST_NODE_TYPES.ConditionalExpression
        ? current.test
        : current.type === AST_NODE_TYPES.LogicalExpression
          ? current.left
          : undefined;
    if (test && /\bmethod\b/i.test(context.sourceCode.getText(test))) return true;
  }
  // An early `return config` for reads before the write.
  const body = fn.body;
  return (
    body?.type === AST_NODE_TYPES.BlockStatement &&
    body.body.some(
      (statement) =>
        statement.range[1] <= node.range[0] &&
        statement.type === AST_NODE_TYPES.IfStatement &&
        /\bmethod\b/i.test(context.sourceCode.getText(statement.test)),
    )
  );
}

/**
 * True when `node` sits in a request interceptor of an instance that re-sends failed requests
 * itself: a response interceptor of the same instance calling it again (`instance.request(config)`,
 * `instance(config)`) or `axiosRetry(instance, ...)`. Such a retry re-sends the config the request
 * interceptor already keyed; without one, every request (a caller's retry included) is new.
 */
export function isInRetryingInterceptor(node: TSESTree.Node, context: AnyRuleContext): boolean {
  let fn: TSESTree.Node | undefined = node.parent;
  while (fn && !isFunction(fn)) fn = fn.parent;
  const call = fn?.parent;
  if (!fn || call?.type !== AST_NODE_TYPES.CallExpression) return true;
  const path = memberPath(call.callee);
  if (path?.slice(-3).join('.') !== 'interceptors.request.use') return true;
  const instance = path.slice(0, -3).join('.');
  const axiosRetry = [...callsNamed('axiosRetry', context), ...callsNamed('default', context)].some((candidate) => {
    const name = memberPath(candidate.callee)?.join('.');
    return (
      (name === 'axiosRetry' || name === 'axiosRetry.default') &&
      candidate.arguments[0] !== undefined &&
      memberPath(unwrap(candidate.arguments[0]))?.join('.') === instance
    );
  });
  return (
    axiosRetry ||
    callsNamed('use', context).some(
      (candidate) =>
        memberPath(candidate.callee)?.join('.') === `${instance}.interceptors.response.use` &&
        candidate.arguments.some((handler) => resends(handler, instance, context)),
    )
  );
}

function resends(handler: TSESTree.Node, instance: string, context: AnyRuleContext): boolean {
  return walk(handler, context, (current) => {
    if (current.type !== AST_NODE_TYPES.CallExpression) return undefined;
    const path = memberPath(current.callee)?.join('.');
    return path === instance || path === `${instance}.request` ? 'stop' : undefined;
  });
}
