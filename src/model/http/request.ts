import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { unwrap } from '../ast/nodes.js';
import { type AnyRuleContext, type Scope } from '../ast/context.js';
import { resolveValue } from '../ast/values.js';
import { timeoutOf } from './timeout.js';
import { methodOf, bodyOf, headersOf } from './headers.js';
import { callerObjects, resolveOptions } from './clients.js';
import { callShape } from './call-shape.js';
import { isFunction } from '../ast/function.js';
import { urlTarget } from './url.js';
import { boundsNodeRequest } from './node-http.js';
import { requestObjectTimeout } from './request-object.js';
import { boundsSuperagentRequest } from './superagent.js';

/**
 * Outgoing HTTP requests: which client makes them, with which method, headers, body, and
 * whether anything bounds how long they may take. Everything here answers "don't know"
 * (`undefined`, `'unknown'`, `complete: false`) rather than guess, so rules built on it
 * can stay quiet where the code does not show the answer.
 */

/** `node-http`: Node's `http`/`https` `request`/`get`, and follow-redirects' copies of them. */
export type HttpClient =
  | 'fetch'
  | 'axios'
  | 'got'
  | 'ky'
  | 'undici'
  | 'request'
  | 'node-http'
  | 'superagent'
  | 'needle'
  | 'ofetch'
  | 'graphql-request';

export interface HeaderEntry {
  /** The header name as written. */
  name: string;
  value: TSESTree.Node;
  /**
   * The Property, the `headers.set/append` call, or the `headers[name] = v` assignment; for headers
   * from a key-header source in another module, the use that brings them into the request.
   */
  node: TSESTree.Node;
  /** The headers of a key-header source in another module (`settings.idempotency.keyHeaderSources`). */
  imported?: true;
}

export interface RequestHeaders {
  entries: HeaderEntry[];
  /** False when a spread, an unresolved object, an instance default or an interceptor may add more. */
  complete: boolean;
}

export type RequestTimeout = 'bounded' | 'unbounded' | 'unknown';

export interface OutgoingRequest {
  call: TSESTree.CallExpression;
  client: HttpClient;
  /** Upper case; undefined when not static. */
  method: string | undefined;
  /** The options/config object literal (inline or through a const). */
  options: TSESTree.ObjectExpression | undefined;
  /**
   * Index of the argument that holds the options; `call.arguments.length` or more when the
   * call has none yet (axios `post(url)` puts them after the data argument); -1 for a call that
   * takes none (a superagent chain, graphql-request's positional form).
   */
  optionsIndex: number;
  headers: RequestHeaders;
  /** body / json / data / form expression (also axios.post's second argument). */
  body: TSESTree.Node | undefined;
  timeout: RequestTimeout;
  /** The property that makes the request unbounded on purpose (`timeout: 0`, `timeout: Infinity`, ky `timeout: false`). */
  disabledTimeout: TSESTree.Property | undefined;
}

export interface RequestModelOptions {
  /** Callee names (`fetchWithRetry`, `this.http.fetch`) to treat as fetch-compatible wrappers. */
  additionalClients?: readonly string[];
  /** Identifiers or dotted receivers (`api`, `this.http`) known to carry a timeout. */
  boundedClients?: readonly string[];
}

export const FETCH_MODULES: Readonly<Record<string, readonly string[]>> = {
  'node-fetch': ['default', 'fetch'],
  'cross-fetch': ['default', 'fetch'],
  'isomorphic-fetch': ['default'],
  'isomorphic-unfetch': ['default'],
  undici: ['fetch'],
  '@whatwg-node/fetch': ['fetch'],
};
export const FETCH_PARAMETERS = new Set(['fetch', 'fetchImpl', 'fetchFn']);
export const GLOBAL_OBJECTS = new Set(['globalThis', 'window', 'self', 'global']);
export const AXIOS_METHODS = new Set([
  'get',
  'delete',
  'head',
  'options',
  'post',
  'put',
  'patch',
  'postForm',
  'putForm',
  'patchForm',
]);
export const AXIOS_DATA_METHODS = new Set(['post', 'put', 'patch', 'postForm', 'putForm', 'patchForm']);
export const VERB_METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'head']);
/** Every method name through which some client sends a request. */
export const REQUEST_METHOD_NAMES: ReadonlySet<string> = new Set([
  ...AXIOS_METHODS,
  ...VERB_METHODS,
  'request',
  'del',
  // superagent's OPTIONS, ofetch's `raw`, graphql-request's other senders.
  'raw',
  'rawRequest',
  'batchRequests',
]);
export const REQUEST_MODULES = new Set(['request', 'request-promise', 'request-promise-native', 'postman-request']);
/** superagent's verb methods (`del` is its alias of `delete`). */
export const SUPERAGENT_METHODS = new Set([...VERB_METHODS, 'del', 'options']);
/** needle's verb methods: `get`/`head` take `(url, options, cb)`, the others `(url, data, options, cb)`. */
export const NEEDLE_METHODS = new Set([...VERB_METHODS, 'delete']);
/** graphql-request's sending functions and `GraphQLClient` methods. */
export const GRAPHQL_METHODS = new Set(['request', 'rawRequest', 'batchRequests']);

/** The outgoing HTTP request a call makes, or undefined when the call is not one we recognise. */
export function getOutgoingRequest(
  call: TSESTree.CallExpression,
  context: AnyRuleContext,
  options: RequestModelOptions = NO_OPTIONS,
): OutgoingRequest | undefined {
  // Several rules ask about every call of a file; the answer depends on the call, the settings
  // and the options object, so it is kept per settings and per options.
  let bySettings = requestCache.get(context.settings);
  if (!bySettings) requestCache.set(context.settings, (bySettings = new WeakMap()));
  let byCall = bySettings.get(options);
  if (!byCall) bySettings.set(options, (byCall = new WeakMap()));
  let request = byCall.get(call);
  if (request === undefined) {
    request = readOutgoingRequest(call, context, options) ?? null;
    byCall.set(call, request);
  }
  return request ?? undefined;
}

const NO_OPTIONS: RequestModelOptions = Object.freeze({});
const requestCache = new WeakMap<
  object,
  WeakMap<RequestModelOptions, WeakMap<TSESTree.CallExpression, OutgoingRequest | null>>
>();

/** Clients that take a callback where the options would go. */
const CALLBACK_CLIENTS: ReadonlySet<HttpClient> = new Set(['request', 'node-http', 'needle']);

function readOutgoingRequest(
  call: TSESTree.CallExpression,
  context: AnyRuleContext,
  options: RequestModelOptions,
): OutgoingRequest | undefined {
  const scope = context.sourceCode.getScope(call);
  const shape = callShape(call, context, scope, options);
  if (!shape) return undefined;
  // The request package and node's http take a callback where the options would go: `request.get(url, cb)`.
  const slot = call.arguments[shape.optionsIndex];
  const optionsArg = slot && CALLBACK_CLIENTS.has(shape.client) && isCallback(slot, scope) ? undefined : slot;
  const resolved = optionsArg ? resolveOptions(optionsArg, scope) : undefined;
  // `fetch(...args)`: a spread may supply the options.
  const spread = call.arguments
    .slice(0, shape.optionsIndex + 1)
    .some((argument) => argument.type === AST_NODE_TYPES.SpreadElement);
  const optionsKnown = !spread && (optionsArg === undefined || resolved !== undefined);
  const object = resolved;

  const method = methodOf(shape, object, optionsKnown, scope);
  const headers = headersOf(shape, object, optionsKnown, context, scope);
  const body = shape.bodyArg ?? (object ? bodyOf(object, scope) : undefined);
  // Options passed in by a local function's callers: each caller's object literal.
  const candidates = optionsKnown
    ? object
      ? [object]
      : []
    : spread || !optionsArg
      ? undefined
      : callerObjects(optionsArg, context, scope);
  const own = timeoutOf(shape, candidates, context, scope);
  // Node's request and superagent's are bounded through the request object they return.
  const bounds =
    shape.client === 'node-http'
      ? boundsNodeRequest
      : shape.client === 'superagent'
        ? boundsSuperagentRequest
        : undefined;
  const { timeout, disabled } =
    bounds && own.timeout === 'unbounded' && !own.disabled
      ? {
          timeout: requestObjectTimeout(call, context, bounds, shape.client === 'superagent'),
          disabled: undefined,
        }
      : own;
  return {
    call,
    client: shape.client,
    method,
    options: object,
    optionsIndex: shape.optionsIndex,
    headers,
    body,
    timeout,
    disabledTimeout: disabled,
  };
}

/** A function, or a binding that holds one or is named as one (`cb`, `callback`, `onResponse`, `handleResponse`). */
function isCallback(node: TSESTree.Node, scope: Scope): boolean {
  const target = unwrap(node);
  if (isFunction(resolveValue(target, scope))) return true;
  return (
    target.type === AST_NODE_TYPES.Identifier &&
    /^(?:cb|callback|done|resolve|on[A-Z]\w*|handle[A-Z]\w*|\w+(?:Callback|Handler))$/.test(target.name)
  );
}

/** True for GET, HEAD and OPTIONS: requests that only read. */
export function isReadMethod(method: string | undefined): boolean {
  return method === 'GET' || method === 'HEAD' || method === 'OPTIONS';
}

// ---------------------------------------------------------------------------
// Requests no remote server can hold up

/**
 * True for a `fetch` that can only run in a browser: a relative URL (`'/api/x'`,
 * `` `/api/${id}` ``, `'./x'`, or a branch of one), which Node's fetch rejects, or `window.fetch`.
 * No queue worker makes these, and their timeout is the user's patience.
 */
export function isBrowserOnly(request: OutgoingRequest, context: AnyRuleContext): boolean {
  if (request.client !== 'fetch') return false;
  const callee = unwrap(request.call.callee);
  if (
    callee.type === AST_NODE_TYPES.MemberExpression &&
    unwrap(callee.object).type === AST_NODE_TYPES.Identifier &&
    (unwrap(callee.object) as TSESTree.Identifier).name === 'window'
  )
    return true;
  return urlTarget(request.call.arguments[0], context.sourceCode.getScope(request.call)) === 'relative';
}

/**
 * True for a `fetch` of the program's own files: `new URL('./font.ttf', import.meta.url)` (a
 * bundled asset, as edge and Deno code loads them), a `file:`, `data:` or `blob:` URL.
 */
export function fetchesLocalResource(request: OutgoingRequest, context: AnyRuleContext): boolean {
  return (
    request.client === 'fetch' &&
    urlTarget(request.call.arguments[0], context.sourceCode.getScope(request.call)) === 'local'
  );
}
