import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext, type Scope } from '../ast/context.js';
import { memberName } from '../ast/names.js';
import { unwrap } from '../ast/nodes.js';
import { findVariable, staticString } from '../ast/values.js';
import { importSource } from '../modules.js';

/**
 * Node's own `http` / `https` clients and follow-redirects' drop-in copies of them:
 * `https.request(url, options, cb)`, `http.get(options, cb)`, `import { request } from 'node:https'`,
 * `import { https } from 'follow-redirects'`. Neither sets a timeout by default (Node's
 * `http.request`: "timeout: A number specifying the socket timeout in milliseconds"; unset, the
 * socket waits for as long as the peer keeps it open).
 */
const NODE_HTTP_MODULES = new Set(['http', 'https', 'node:http', 'node:https']);
const FOLLOW_REDIRECTS = 'follow-redirects';
const SENDING = new Set(['request', 'get']);

/** `'GET'` for `get`, undefined for `request` (the options say), or undefined when the call is not one. */
export function nodeHttpMethod(callee: TSESTree.Node, scope: Scope): { method: 'GET' | undefined } | undefined {
  const target = unwrap(callee);
  if (target.type === AST_NODE_TYPES.Identifier) {
    // `import { request } from 'node:https'`, `const { get } = require('http')`.
    const source = importSource(target, scope);
    if (!source || !NODE_HTTP_MODULES.has(source.module) || !SENDING.has(source.imported)) return undefined;
    return { method: source.imported === 'get' ? 'GET' : undefined };
  }
  if (target.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const name = memberName(target, scope);
  if (name === undefined || !SENDING.has(name) || !isNodeHttpModule(target.object, scope)) return undefined;
  return { method: name === 'get' ? 'GET' : undefined };
}

/** `https` from `import https from 'node:https'` / `import * as https`, follow-redirects' `https`, `followRedirects.https`. */
function isNodeHttpModule(node: TSESTree.Node, scope: Scope): boolean {
  const target = unwrap(node);
  if (target.type === AST_NODE_TYPES.Identifier) {
    const source = importSource(target, scope);
    if (!source) return false;
    if (NODE_HTTP_MODULES.has(source.module)) return source.imported === 'default' || source.imported === '*';
    return source.module === FOLLOW_REDIRECTS && (source.imported === 'http' || source.imported === 'https');
  }
  if (target.type !== AST_NODE_TYPES.MemberExpression || unwrap(target.object).type !== AST_NODE_TYPES.Identifier)
    return false;
  const protocol = memberName(target, scope);
  const source = importSource(unwrap(target.object) as TSESTree.Identifier, scope);
  return (
    (protocol === 'http' || protocol === 'https') &&
    source?.module === FOLLOW_REDIRECTS &&
    (source.imported === 'default' || source.imported === '*')
  );
}

/**
 * What the request object a call returns says about its timeout: `req.setTimeout(ms)` or a
 * `'timeout'` listener on it (chained, or through the `const` it is held in) bounds it; handed
 * anywhere else (returned, passed on, stored), some other code may; otherwise nothing does.
 */
export function returnedRequestTimeout(
  call: TSESTree.CallExpression,
  context: AnyRuleContext,
): 'bounded' | 'unbounded' | 'unknown' {
  // `https.get(url, cb).setTimeout(5000).on('error', reject)`: each link of the chain is the same request.
  let current: TSESTree.Node = call;
  for (;;) {
    const parent: TSESTree.Node = current.parent;
    if (parent.type === AST_NODE_TYPES.TSNonNullExpression || parent.type === AST_NODE_TYPES.TSAsExpression) {
      current = parent;
      continue;
    }
    if (
      parent.type === AST_NODE_TYPES.MemberExpression &&
      parent.object === current &&
      parent.parent.type === AST_NODE_TYPES.CallExpression &&
      parent.parent.callee === parent
    ) {
      if (boundsRequest(parent.parent, context.sourceCode.getScope(parent.parent))) return 'bounded';
      current = parent.parent;
      continue;
    }
    break;
  }
  const parent = current.parent;
  if (parent.type === AST_NODE_TYPES.ExpressionStatement) return 'unbounded';
  if (parent.type !== AST_NODE_TYPES.VariableDeclarator || parent.id.type !== AST_NODE_TYPES.Identifier)
    return 'unknown';
  const variable = findVariable(context.sourceCode.getScope(parent), parent.id);
  if (!variable) return 'unknown';
  let verdict: 'bounded' | 'unbounded' | 'unknown' = 'unbounded';
  for (const reference of variable.references) {
    if (reference.init === true) continue;
    const use = reference.identifier.parent;
    if (
      use.type === AST_NODE_TYPES.MemberExpression &&
      use.object === reference.identifier &&
      use.parent.type === AST_NODE_TYPES.CallExpression &&
      use.parent.callee === use
    ) {
      if (boundsRequest(use.parent, context.sourceCode.getScope(use.parent))) return 'bounded';
      continue;
    }
    verdict = 'unknown';
  }
  return verdict;
}

/** `req.setTimeout(ms)`, `req.on('timeout', ...)` / `once('timeout', ...)`. */
function boundsRequest(call: TSESTree.CallExpression, scope: Scope): boolean {
  if (call.callee.type !== AST_NODE_TYPES.MemberExpression) return false;
  const name = memberName(call.callee, scope);
  if (name === 'setTimeout') return true;
  if (name !== 'on' && name !== 'once' && name !== 'addListener') return false;
  const event = call.arguments[0];
  return event !== undefined && staticString(event, scope) === 'timeout';
}
