import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { type Scope } from '../ast/context.js';
import { memberName } from '../ast/names.js';
import { unwrap } from '../ast/nodes.js';
import { staticString } from '../ast/values.js';
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

/** `req.setTimeout(ms)`, `req.on('timeout', ...)` / `once('timeout', ...)`. */
export function boundsNodeRequest(call: TSESTree.CallExpression, scope: Scope): 'bounded' | undefined {
  if (call.callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const name = memberName(call.callee, scope);
  if (name === 'setTimeout') return 'bounded';
  if (name !== 'on' && name !== 'once' && name !== 'addListener') return undefined;
  const event = call.arguments[0];
  return event !== undefined && staticString(event, scope) === 'timeout' ? 'bounded' : undefined;
}
