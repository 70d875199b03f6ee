import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { unwrap } from '../ast/nodes.js';
import { findProperty, findVariable, resolveValue, staticString } from '../ast/values.js';
import { memberName, propertyKeyName } from '../ast/names.js';
import { type AnyRuleContext, type Scope } from '../ast/context.js';
import { importedSummary, hasSummaryFact } from '../settings.js';
import { isImportedKeyHeaderName } from '../keys/imported-names.js';
import { variableKey, fileFacts } from './client-config.js';
import { type RequestHeaders, type HeaderEntry } from './request.js';
import { type CallShape } from './call-shape.js';

// ---------------------------------------------------------------------------
// Method, body, headers

export function methodOf(
  shape: CallShape,
  object: TSESTree.ObjectExpression | undefined,
  optionsKnown: boolean,
  scope: Scope,
): string | undefined {
  if (shape.calleeMethod !== undefined) return shape.calleeMethod;
  // A GraphQL query or mutation: the document says which, not the HTTP method.
  if (shape.client === 'graphql-request') return undefined;
  if (shape.opaqueInput || !optionsKnown) return undefined;
  const property = object ? findProperty(object, (name) => name === 'method', scope) : undefined;
  if (property === 'unknown') return undefined;
  if (property === undefined) {
    // An instance default method would be unusual; only trust GET where nothing else can set it.
    if (shape.instanceConfig && findProperty(shape.instanceConfig, (name) => name === 'method', scope) !== undefined)
      return undefined;
    return shape.instanceKnown ? 'GET' : undefined;
  }
  return staticString(property.value, scope)?.toUpperCase();
}

export function bodyOf(object: TSESTree.ObjectExpression, scope: Scope): TSESTree.Node | undefined {
  const property = findProperty(object, (name) => ['body', 'json', 'data', 'form'].includes(name), scope);
  return property === undefined || property === 'unknown' ? undefined : property.value;
}

export function headersOf(
  shape: CallShape,
  object: TSESTree.ObjectExpression | undefined,
  optionsKnown: boolean,
  context: AnyRuleContext,
  scope: Scope,
): RequestHeaders {
  // superagent's headers come from its chain (`.set(name, value)`), graphql-request's from `requestHeaders`
  // or a positional argument; neither is read here.
  const result: RequestHeaders = {
    entries: [],
    complete:
      optionsKnown &&
      !shape.opaqueInput &&
      shape.instanceKnown &&
      shape.client !== 'superagent' &&
      shape.client !== 'graphql-request',
  };
  if (shape.instanceConfig) addHeadersFrom(shape.instanceConfig, result, context, scope);
  if (object) addHeadersFrom(object, result, context, scope);
  if (shape.binding && fileFacts(context).configured.has(variableKey(shape.binding, scope))) result.complete = false;
  return result;
}

function addHeadersFrom(
  object: TSESTree.ObjectExpression,
  result: RequestHeaders,
  context: AnyRuleContext,
  scope: Scope,
): void {
  const property = findProperty(object, (name) => name === 'headers', scope);
  if (property === 'unknown') {
    result.complete = false;
    return;
  }
  if (!property) return;
  const headers = readHeaders(property.value, context, scope);
  result.entries.push(...headers.entries);
  if (!headers.complete) result.complete = false;
}

/**
 * The entries of a headers value: an object literal, `new Headers(init)`, an array of
 * pairs, or a binding holding one of those plus the `set`/`append`/`[name] =` writes made
 * to it in this file.
 */
function readHeaders(node: TSESTree.Node, context: AnyRuleContext, scope: Scope): RequestHeaders {
  const result: RequestHeaders = { entries: [], complete: true };
  const target = unwrap(node);
  const value = resolveValue(target, scope);
  const source =
    keyHeaderSource(target, context, scope) ?? (value === target ? undefined : keyHeaderSource(value, context, scope));
  if (source) {
    result.entries.push(source);
    result.complete = false;
  } else if (value.type === AST_NODE_TYPES.ObjectExpression) {
    addObjectEntries(value, result, context, scope);
  } else if (
    value.type === AST_NODE_TYPES.NewExpression &&
    value.callee.type === AST_NODE_TYPES.Identifier &&
    value.callee.name === 'Headers'
  ) {
    const init = value.arguments[0];
    if (init) {
      const inner = readHeaders(init, context, scope);
      result.entries.push(...inner.entries);
      if (!inner.complete) result.complete = false;
    }
  } else if (value.type === AST_NODE_TYPES.ArrayExpression) {
    for (const element of value.elements) {
      const pair = element && unwrap(element);
      const name =
        pair?.type === AST_NODE_TYPES.ArrayExpression && pair.elements[0]
          ? staticString(pair.elements[0], scope)
          : undefined;
      if (pair?.type !== AST_NODE_TYPES.ArrayExpression || name === undefined || !pair.elements[1]) {
        result.complete = false;
        continue;
      }
      result.entries.push({ name, value: pair.elements[1], node: pair });
    }
  } else {
    result.complete = false;
  }
  if (target.type === AST_NODE_TYPES.Identifier && value !== target) addWrites(target, result, scope);
  return result;
}

function addObjectEntries(
  object: TSESTree.ObjectExpression,
  result: RequestHeaders,
  context: AnyRuleContext,
  scope: Scope,
): void {
  for (const property of object.properties) {
    if (property.type === AST_NODE_TYPES.SpreadElement) {
      const source = keyHeaderSource(property.argument, context, scope);
      if (source) result.entries.push(source);
      result.complete = false;
      continue;
    }
    const name =
      propertyKeyName(property, scope) ??
      (property.computed && isImportedKeyHeaderName(property.key, context) ? SHARED_KEY_HEADER : undefined);
    if (name === undefined) {
      result.complete = false;
      continue;
    }
    result.entries.push({ name, value: property.value, node: property });
  }
}

/** The name a key-header source's entry gets: the factory's own header name is in another module. */
const SHARED_KEY_HEADER = 'Idempotency-Key';

/**
 * Headers built by an imported function or object that `settings.idempotency.keyHeaderSources`
 * lists (computed by the CLI across files): `buildHeaders()`, `await authHeaders()`,
 * `commonHeaders`, `api.headers()`, or a `const` holding one (`...requestHeaders`). The entry
 * points at the use that brings them into the request (the call, the spread's argument).
 */
function keyHeaderSource(node: TSESTree.Node, context: AnyRuleContext, scope: Scope): HeaderEntry | undefined {
  if (!hasSummaryFact(context, 'keyHeaderSource')) return undefined;
  let head = unwrap(node);
  if (head.type === AST_NODE_TYPES.Identifier) head = resolveValue(head, scope);
  if (head.type === AST_NODE_TYPES.AwaitExpression) head = unwrap(head.argument);
  if (head.type === AST_NODE_TYPES.CallExpression) head = unwrap(head.callee);
  while (head.type === AST_NODE_TYPES.MemberExpression) head = unwrap(head.object);
  if (head.type !== AST_NODE_TYPES.Identifier || !importedSummary(head, context)?.keyHeaderSource) return undefined;
  return { name: SHARED_KEY_HEADER, value: node, node, imported: true };
}

/** `h.set(name, v)`, `h.append(name, v)`, `h[name] = v` on the binding; other escapes make the set incomplete. */
function addWrites(identifier: TSESTree.Identifier, result: RequestHeaders, scope: Scope): void {
  const variable = findVariable(scope, identifier);
  if (!variable) return;
  for (const reference of variable.references) {
    if (reference.init === true) continue;
    const use = reference.identifier;
    if (use === identifier) continue;
    const parent = use.parent;
    if (parent.type !== AST_NODE_TYPES.MemberExpression || parent.object !== use) {
      // Passed somewhere (a helper may add headers), except into a request's options.
      if (parent.type === AST_NODE_TYPES.Property && parent.value === use) continue;
      result.complete = false;
      continue;
    }
    const grand = parent.parent;
    const member = memberName(parent, scope);
    if (
      grand.type === AST_NODE_TYPES.CallExpression &&
      grand.callee === parent &&
      (member === 'set' || member === 'append')
    ) {
      const name = grand.arguments[0] ? staticString(grand.arguments[0], scope) : undefined;
      const value = grand.arguments[1];
      if (name === undefined || !value) result.complete = false;
      else result.entries.push({ name, value, node: grand });
    } else if (grand.type === AST_NODE_TYPES.AssignmentExpression && grand.left === parent) {
      if (member === undefined) result.complete = false;
      else result.entries.push({ name: member, value: grand.right, node: grand });
    } else if (
      grand.type === AST_NODE_TYPES.CallExpression &&
      grand.callee === parent &&
      member !== 'get' &&
      member !== 'has' &&
      member !== 'delete'
    ) {
      result.complete = false;
    }
  }
}
