import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext } from '../ast/context.js';
import { isFunction } from '../ast/function.js';
import { memberName } from '../ast/names.js';
import { unwrap } from '../ast/nodes.js';
import { rolesOf } from '../roles.js';

/**
 * Code a developer runs by hand, where a fresh key per run is what the person running it wants:
 * nothing redelivers a message to it or retries it, and running it again means doing it again.
 * - a script (`scripts/`, `bin/`, a program that runs to completion), but not example or sample
 *   code, which integrators copy into their services as it is;
 * - a route on a debug or development path (`app.get('/debug/insights/:id', ...)`).
 */
export function isDeveloperCode(node: TSESTree.Node, context: AnyRuleContext): boolean {
  // A module only scripts and tests load (idempotency-check's reached roles) is theirs too.
  const roles = rolesOf(context);
  const byHand = roles.includes('script') && roles.every((role) => role === 'script' || role === 'test');
  if (byHand && !SAMPLE_PATH.test(context.filename.replace(/\\/g, '/'))) return true;
  return isOnDeveloperRoute(node);
}

/** Examples and samples: code written to be copied. */
const SAMPLE_PATH = /(?:^|\/)(?:examples?|samples?|demos?)\//i;

/** A route path whose first segment is `debug`, `dev` or `__something`. */
const DEVELOPER_ROUTE = /^\/(?:_*debug|dev|__\w+)(?:[/:?]|$)/i;
const ROUTE_METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'all', 'use', 'route']);

function isOnDeveloperRoute(node: TSESTree.Node): boolean {
  for (let current: TSESTree.Node | undefined = node.parent; current; current = current.parent) {
    if (!isFunction(current)) continue;
    const call = current.parent;
    if (call.type !== AST_NODE_TYPES.CallExpression || call.callee === current) continue;
    const callee = unwrap(call.callee);
    if (callee.type !== AST_NODE_TYPES.MemberExpression) continue;
    const method = memberName(callee);
    const [path] = call.arguments;
    if (method === undefined || !ROUTE_METHODS.has(method) || !path) continue;
    const value = unwrap(path);
    if (value.type === AST_NODE_TYPES.Literal && typeof value.value === 'string' && DEVELOPER_ROUTE.test(value.value))
      return true;
  }
  return false;
}
