import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { unwrap } from '../ast/nodes.js';
import { findProperty, resolveValue, staticValue } from '../ast/values.js';
import { type AnyRuleContext, type Scope } from '../ast/context.js';
import { variableKey, fileFacts } from './client-config.js';
import { type RequestTimeout, type HttpClient } from './request.js';
import { type CallShape } from './call-shape.js';
import { instanceFrom, clientBase } from './clients.js';

// ---------------------------------------------------------------------------
// Timeout

interface TimeoutAnswer {
  timeout: RequestTimeout;
  disabled: TSESTree.Property | undefined;
}

export function timeoutOf(
  shape: CallShape,
  candidates: readonly TSESTree.ObjectExpression[] | undefined,
  context: AnyRuleContext,
  scope: Scope,
): TimeoutAnswer {
  if (shape.listedBounded) return { timeout: 'bounded', disabled: undefined };
  if (shape.opaqueInput || !candidates) return { timeout: 'unknown', disabled: undefined };

  // The request's own options decide first; several candidates must agree.
  const own = candidates.map((candidate) => timeoutIn(shape.client, candidate, scope));
  if (own.length === 1 && own[0] !== 'absent' && own[0]) return own[0];
  if (own.length > 1 && !own.every((verdict) => verdict === 'absent')) {
    if (own.every((verdict) => verdict !== 'absent' && verdict.timeout === 'bounded'))
      return { timeout: 'bounded', disabled: undefined };
    return { timeout: 'unknown', disabled: undefined };
  }

  // Then the instance, then the library's file-wide defaults and interceptors.
  if (shape.instanceConfig) {
    const inherited = timeoutIn(shape.client, shape.instanceConfig, scope);
    if (inherited !== 'absent') {
      // The instance disabled it; the report belongs at the instance, this call just inherits.
      return inherited.timeout === 'unbounded' ? { timeout: 'unbounded', disabled: undefined } : inherited;
    }
  }
  if (shape.instanceBounded === true) return { timeout: 'bounded', disabled: undefined };
  if (!shape.instanceKnown) return { timeout: 'unknown', disabled: undefined };
  if (shape.binding && fileFacts(context).bounded.has(variableKey(shape.binding, scope))) {
    return { timeout: 'bounded', disabled: undefined };
  }
  if (shape.binding && fileFacts(context).configured.has(variableKey(shape.binding, scope))) {
    return { timeout: 'unknown', disabled: undefined };
  }
  return { timeout: shape.client === 'ky' ? 'bounded' : 'unbounded', disabled: undefined };
}

/**
 * `axios.create({ timeout: 5000 })`, `got.extend({ timeout: {...} })`, `ky.create({ timeout: 5000 })`
 * (also on an instance of those): an instance whose own config bounds every request made
 * through it. `timeout: 0`, `Infinity` and ky's `false` switch the bound off.
 */
export function isBoundedClientFactory(value: TSESTree.Node, context: AnyRuleContext): boolean {
  const scope = context.sourceCode.getScope(value);
  const instance = instanceFrom(unwrap(value), context, scope, {}, 0);
  if (!instance?.instanceConfig) return false;
  const verdict = timeoutIn(instance.client, instance.instanceConfig, scope);
  return verdict !== 'absent' && verdict.timeout === 'bounded';
}

/**
 * An axios instance built here with no timeout (`axios.create({ baseURL })`, directly or through a
 * `const`), for the importing modules' settings. Quiet when this file mentions a timeout or a
 * signal anywhere: a default, an interceptor or a wrapper may set one, and a wrong fact would
 * make every importer noisy.
 */
export function isTimeoutlessClient(value: TSESTree.Node, context: AnyRuleContext): boolean {
  if (/timeout|signal/i.test(context.sourceCode.text)) return false;
  const scope = context.sourceCode.getScope(value);
  const target = unwrap(value);
  const instance =
    target.type === AST_NODE_TYPES.Identifier
      ? clientBase(target, context, scope, {})
      : instanceFrom(target, context, scope, {}, 0);
  return (
    instance !== undefined &&
    instance.client === 'axios' &&
    instance.instanceConfig !== undefined &&
    instance.instanceKnown &&
    !instance.listedBounded
  );
}

const TIMEOUT_KEYS: Readonly<Record<HttpClient, readonly string[]>> = {
  fetch: ['signal'],
  axios: ['signal', 'timeout', 'cancelToken'],
  got: ['signal', 'timeout'],
  ky: ['signal', 'timeout'],
  undici: ['signal', 'headersTimeout', 'bodyTimeout'],
  request: ['timeout'],
  'node-http': ['signal', 'timeout'],
  // superagent is bounded through its chain (`.timeout(ms)`), not an option.
  superagent: [],
  // needle's `timeout` / `open_timeout` bounds only opening the connection (`lib/needle.js`: the
  // `'response'` timer replaces the `'open'` one once the socket connects).
  needle: ['signal', 'response_timeout', 'read_timeout'],
  ofetch: ['signal', 'timeout'],
  'graphql-request': ['signal'],
};

/** Options through which code this file does not show may bound the request: a fetch of its own, a hook. */
const OPAQUE_KEYS: Readonly<Partial<Record<HttpClient, readonly string[]>>> = {
  ofetch: ['onRequest'],
  'graphql-request': ['fetch', 'requestMiddleware'],
};

/** What one options object says about the timeout, or 'absent' when it says nothing. */
function timeoutIn(client: HttpClient, object: TSESTree.ObjectExpression, scope: Scope): TimeoutAnswer | 'absent' {
  let sawUnknown = false;
  let disabled: TSESTree.Property | undefined;
  for (const key of TIMEOUT_KEYS[client]) {
    const property = findProperty(object, (name) => name === key, scope);
    if (property === 'unknown') {
      sawUnknown = true;
      continue;
    }
    if (!property) continue;
    const verdict =
      key === 'signal' || key === 'cancelToken'
        ? signalVerdict(property, scope)
        : timeoutVerdict(client, property, scope);
    if (verdict === 'bounded') return { timeout: 'bounded', disabled: undefined };
    if (verdict === 'disabled') disabled = property;
  }
  if (client === 'fetch' || client === 'node-http') {
    // node-fetch v2 honours `timeout`.
    if (client === 'fetch' && findProperty(object, (name) => name === 'timeout', scope) !== undefined)
      sawUnknown = true;
    // An undici `dispatcher` or a node-fetch / node `agent` bounds the request only with timeouts of its own.
    for (const key of ['dispatcher', 'agent']) {
      const property = findProperty(object, (name) => name === key, scope);
      if (property === 'unknown') sawUnknown = true;
      else if (property) {
        const verdict = connectionTimeoutVerdict(property.value, scope);
        if (verdict === 'bounded') return { timeout: 'bounded', disabled: undefined };
        if (verdict === 'unknown') sawUnknown = true;
      }
    }
  }
  for (const key of OPAQUE_KEYS[client] ?? []) {
    if (findProperty(object, (name) => name === key, scope) !== undefined) sawUnknown = true;
  }
  if (disabled) return { timeout: 'unbounded', disabled };
  if (sawUnknown) return { timeout: 'unknown', disabled: undefined };
  return 'absent';
}

/** Timeouts an undici `Agent`/`Pool`/`Client` or a node `http(s).Agent` takes; undici's default 300 s each is no bound. */
const CONNECTION_TIMEOUTS = new Set(['headersTimeout', 'bodyTimeout', 'timeout']);

/**
 * What a `dispatcher`/`agent` value says: `new Agent({ headersTimeout: 10_000 })` bounds the
 * request, `new Agent({ connect: ... })` or `agent: undefined` does not, and a value built
 * elsewhere (a parameter, an import) might.
 */
function connectionTimeoutVerdict(node: TSESTree.Node, scope: Scope): 'bounded' | 'absent' | 'unknown' {
  const value = unwrap(resolveValue(node, scope));
  const literal = staticValue(value, scope);
  if (literal && (literal.value === undefined || literal.value === null)) return 'absent';
  if (value.type !== AST_NODE_TYPES.NewExpression) return 'unknown';
  const options = value.arguments[0] && unwrap(resolveValue(value.arguments[0], scope));
  if (!options) return 'absent';
  if (options.type !== AST_NODE_TYPES.ObjectExpression) return 'unknown';
  let verdict: 'absent' | 'unknown' = 'absent';
  for (const key of CONNECTION_TIMEOUTS) {
    const property = findProperty(options, (name) => name === key, scope);
    if (property === 'unknown') verdict = 'unknown';
    else if (property) {
      const ms = staticValue(property.value, scope)?.value;
      if (ms === undefined && !staticValue(property.value, scope)) return 'bounded';
      if (typeof ms === 'number' && ms > 0 && Number.isFinite(ms)) return 'bounded';
    }
  }
  return verdict;
}

function signalVerdict(property: TSESTree.Property, scope: Scope): 'bounded' | 'absent' {
  const value = staticValue(property.value, scope);
  if (value && (value.value === undefined || value.value === null)) return 'absent';
  return 'bounded';
}

/** `timeout: n`: bounded unless statically 0, Infinity, or (ky) false; undici 0 also disables. */
function timeoutVerdict(
  client: HttpClient,
  property: TSESTree.Property,
  scope: Scope,
): 'bounded' | 'disabled' | 'absent' {
  const value = staticValue(property.value, scope);
  if (!value) return 'bounded';
  if (value.value === undefined || value.value === null) return 'absent';
  if (value.value === 0 || value.value === Infinity || value.value === false) return 'disabled';
  if (client === 'got' && typeof value.value === 'object') {
    // got's per-phase object: only some phase bounding the whole request or its socket counts.
    const phases = Object.entries(value.value as Record<string, unknown>);
    return phases.some(([, ms]) => typeof ms === 'number' && ms > 0 && Number.isFinite(ms)) ? 'bounded' : 'disabled';
  }
  return 'bounded';
}
