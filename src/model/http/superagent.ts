import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { type Scope } from '../ast/context.js';
import { memberName } from '../ast/names.js';
import { staticValue } from '../ast/values.js';

/**
 * superagent sets no timeout unless told (`lib/request-base.js`: `timeout(options)` is the only
 * writer of `_timeout` / `_responseTimeout`; "Value of 0 or false means no timeout"). It is
 * bounded through the request's own chain, `superagent.post(url).timeout(10_000)`, or an agent's
 * defaults, `superagent.agent().timeout(10_000)` (`lib/agent-base.js` replays `timeout` on
 * every request the agent makes).
 */
export function boundsSuperagentRequest(call: TSESTree.CallExpression, scope: Scope): 'bounded' | undefined {
  if (call.callee.type !== AST_NODE_TYPES.MemberExpression || memberName(call.callee, scope) !== 'timeout')
    return undefined;
  const argument = call.arguments[0];
  if (!argument) return undefined;
  const value = staticValue(argument, scope);
  if (value && (value.value === 0 || value.value === false || value.value === undefined || value.value === null))
    return undefined;
  return 'bounded';
}

/** Methods of a superagent agent that set a default for its requests and return the agent (`lib/agent-base.js`). */
export const SUPERAGENT_AGENT_DEFAULTS = new Set([
  'use',
  'on',
  'once',
  'set',
  'query',
  'type',
  'accept',
  'auth',
  'withCredentials',
  'sortQuery',
  'retry',
  'ok',
  'redirects',
  'timeout',
  'buffer',
  'serialize',
  'parse',
  'ca',
  'key',
  'pfx',
  'cert',
  'disableTLSCerts',
]);
