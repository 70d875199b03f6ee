import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';

import { enclosingFunction, outermost, unwrap } from '../ast/nodes.js';
import { findVariable, resolveValue, staticString } from '../ast/values.js';
import { memberName, propertyKeyName } from '../ast/names.js';
import { type AnyRuleContext } from '../ast/context.js';
import { resolveFunction, returnedValues } from '../ast/function.js';
import { walk } from '../ast/walk.js';
import { getOutgoingRequest, isReadMethod } from '../http/request.js';
import { writtenProperty } from '../http/held-headers.js';
import { findPerAttemptValue } from './per-attempt.js';
import { testsMethodOnTheWay } from './interceptors.js';
import { rootIdentifier } from './minting.js';
import { isIdempotencyHeaderName, type KeySink } from './sinks.js';
import { keyWriteThroughHelper } from './header-setters.js';

const { DefinitionType } = TSESLint.Scope;

/**
 * Requests handed from one function to another: the headers of a request a caller passes in
 * (a request hook's `input.options.headers`, a fetch helper's `requestInit`), and the options a
 * function hands to a local send helper (`sendPayGateRequest(url, { method: 'GET', headers })`).
 */

/**
 * True when `sink` writes a key minted here into headers of a request its caller hands in (a
 * `headers` parameter, `new Headers(init?.headers)` returned in `{ ...init, headers }`) with no
 * test of the method on the way and no request of its own in the function: whatever request the
 * caller passes gets a key, its reads too.
 */
export function keysHandedRequest(sink: KeySink, context: AnyRuleContext): boolean {
  if (sink.kind !== 'header') return false;
  const node = sink.node;
  const target =
    node.type === AST_NODE_TYPES.AssignmentExpression
      ? node.left.type === AST_NODE_TYPES.MemberExpression
        ? node.left.object
        : undefined
      : node.type === AST_NODE_TYPES.CallExpression && node.callee.type === AST_NODE_TYPES.MemberExpression
        ? node.callee.object
        : undefined;
  const fn = enclosingFunction(node);
  if (!target || !fn?.body || !isCallersHeaders(target, fn, context)) return false;
  if (!findPerAttemptValue(sink.value, context) || testsMethodOnTheWay(node, fn, context)) return false;
  // A request of its own decides by its method (`no-key-on-read` reports a read there).
  return !walk(fn.body, context, (inner) =>
    inner.type === AST_NODE_TYPES.CallExpression && getOutgoingRequest(inner, context) ? 'stop' : undefined,
  );
}

/**
 * The idempotency header `call` writes, through a header-setting helper, into headers of a request
 * its caller hands in (`this.updateHeaderValue(input.options.headers, 'idempotency-key',
 * this.generateKey)` in a create-request hook that returns the request): a key minted for every
 * request, with no test of the method on the way and no request of the function's own. Undefined
 * otherwise.
 */
export function keyWrittenIntoHandedRequest(
  call: TSESTree.CallExpression,
  context: AnyRuleContext,
): string | undefined {
  const fn = enclosingFunction(call);
  if (!fn?.body || fn.body.type !== AST_NODE_TYPES.BlockStatement) return undefined;
  const write = keyWriteThroughHelper(call, context);
  if (!write?.minted || !isHandedHeaders(write.headers, fn, context)) return undefined;
  if (testsMethodOnTheWay(call, fn, context) || !returnsWritten(call, write.headers, fn.body, context))
    return undefined;
  const sends = walk(fn.body, context, (inner) =>
    inner.type === AST_NODE_TYPES.CallExpression && getOutgoingRequest(inner, context) ? 'stop' : undefined,
  );
  return sends ? undefined : write.name;
}

/** A caller's headers (`init.headers`, a `headers` parameter) or a local taken from them. */
function isHandedHeaders(node: TSESTree.Node, fn: TSESTree.FunctionLike, context: AnyRuleContext): boolean {
  const target = unwrap(node);
  if (target.type === AST_NODE_TYPES.MemberExpression) return fromParameterHeaders(target, fn, context);
  if (target.type !== AST_NODE_TYPES.Identifier) return false;
  const def = findVariable(context.sourceCode.getScope(target), target)?.defs[0];
  if (def?.type === DefinitionType.Parameter) return def.node === fn && isHeadersParameter(def.name);
  return def?.type === DefinitionType.Variable && !!def.node.init && fromParameterHeaders(def.node.init, fn, context);
}

/** The function returns what was written: the call's result, the headers, or a local bound to either. */
function returnsWritten(
  call: TSESTree.CallExpression,
  headers: TSESTree.Node,
  body: TSESTree.BlockStatement,
  context: AnyRuleContext,
): boolean {
  const names = new Set<string>();
  const held = unwrap(headers);
  if (held.type === AST_NODE_TYPES.Identifier) names.add(held.name);
  const parent = outermost(call).parent;
  if (parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.id.type === AST_NODE_TYPES.Identifier)
    names.add(parent.id.name);
  if (parent?.type === AST_NODE_TYPES.AssignmentExpression && parent.left.type === AST_NODE_TYPES.Identifier)
    names.add(parent.left.name);
  return returnedValues(body).some((value) =>
    walk(value, context, (inner) =>
      inner === call || (inner.type === AST_NODE_TYPES.Identifier && names.has(inner.name)) ? 'stop' : undefined,
    ),
  );
}

/**
 * `headers` (a parameter named so, or annotated `Headers`), `init.headers`, or a local built from a
 * parameter's headers (`new Headers(init?.headers)`, `{ ...init.headers }`) that the function returns.
 */
function isCallersHeaders(target: TSESTree.Node, fn: TSESTree.FunctionLike, context: AnyRuleContext): boolean {
  const object = unwrap(target);
  if (object.type === AST_NODE_TYPES.MemberExpression)
    return memberName(object) === 'headers' && isParameter(rootIdentifier(object), fn, context);
  if (object.type !== AST_NODE_TYPES.Identifier) return false;
  const variable = findVariable(context.sourceCode.getScope(object), object);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (def?.type === DefinitionType.Parameter) return def.node === fn && isHeadersParameter(def.name);
  if (def?.type !== DefinitionType.Variable || !def.node.init) return false;
  if (!fromParameterHeaders(def.node.init, fn, context)) return false;
  const body = fn.body;
  const returned = body?.type === AST_NODE_TYPES.BlockStatement ? returnedValues(body) : body ? [body] : [];
  return returned.some((value) =>
    walk(value, context, (inner) =>
      inner.type === AST_NODE_TYPES.Identifier && inner.name === object.name ? 'stop' : undefined,
    ),
  );
}

function isHeadersParameter(name: TSESTree.Node): boolean {
  if (name.type !== AST_NODE_TYPES.Identifier) return false;
  const annotation = name.typeAnnotation?.typeAnnotation;
  const typeName =
    annotation?.type === AST_NODE_TYPES.TSTypeReference && annotation.typeName.type === AST_NODE_TYPES.Identifier
      ? annotation.typeName.name
      : undefined;
  return /headers$/i.test(name.name) || typeName === 'Headers';
}

/** `new Headers(init?.headers)`, `{ ...init.headers }`, `init.headers ?? {}` with `init` a parameter. */
function fromParameterHeaders(init: TSESTree.Node, fn: TSESTree.FunctionLike, context: AnyRuleContext): boolean {
  let value = unwrap(init);
  while (value.type === AST_NODE_TYPES.LogicalExpression) value = unwrap(value.left);
  const sources =
    value.type === AST_NODE_TYPES.NewExpression &&
    value.callee.type === AST_NODE_TYPES.Identifier &&
    value.callee.name === 'Headers'
      ? value.arguments
      : value.type === AST_NODE_TYPES.ObjectExpression
        ? value.properties.flatMap((property) =>
            property.type === AST_NODE_TYPES.SpreadElement ? [property.argument] : [],
          )
        : [value];
  return sources.some((source) => {
    const head = unwrap(source);
    return (
      head.type === AST_NODE_TYPES.MemberExpression &&
      memberName(head) === 'headers' &&
      isParameter(rootIdentifier(head), fn, context)
    );
  });
}

function isParameter(
  identifier: TSESTree.Identifier | undefined,
  fn: TSESTree.FunctionLike,
  context: AnyRuleContext,
): boolean {
  if (!identifier) return false;
  const def = findVariable(context.sourceCode.getScope(identifier), identifier)?.defs[0];
  return def?.type === DefinitionType.Parameter && def.node === fn;
}

/**
 * The key headers of request options with a static read method handed to a call that is not a
 * request the model knows (a local send helper: `send(url, { method: 'GET', headers: {
 * 'Idempotency-Key': … } })`): options spelt as a request's, for a read.
 */
export function keyHeadersOfHandedRead(
  call: TSESTree.CallExpression,
  context: AnyRuleContext,
): { property: TSESTree.Property; name: string; method: string }[] {
  if (getOutgoingRequest(call, context)) return [];
  const scope = context.sourceCode.getScope(call);
  // Only a helper of this file says it hands the options on; a wrapper out of sight may be
  // anything (x402's paying fetch turns a GET into a purchase).
  const helper = resolveFunction(call.callee, scope);
  if (!helper) return [];
  const found: { property: TSESTree.Property; name: string; method: string }[] = [];
  for (const [index, argument] of call.arguments.entries()) {
    if (!handsOn(helper.params[index], context)) continue;
    const options = resolveValue(argument, scope);
    if (options.type !== AST_NODE_TYPES.ObjectExpression) continue;
    const method = writtenProperty(options, 'method');
    const verb = method && staticString(method.value, scope)?.toUpperCase();
    const headers = writtenProperty(options, 'headers');
    if (!isReadMethod(verb) || !headers || verb === undefined) continue;
    const object = resolveValue(headers.value, scope);
    if (object.type !== AST_NODE_TYPES.ObjectExpression) continue;
    for (const property of object.properties) {
      if (property.type !== AST_NODE_TYPES.Property) continue;
      const name = propertyKeyName(property, scope);
      if (name !== undefined && isIdempotencyHeaderName(name)) found.push({ property, name, method: verb });
    }
  }
  return found;
}

/** The parameter is passed on to another call (`config.fetcher(url, init)`, `send(url, init)`). */
function handsOn(parameter: TSESTree.Parameter | undefined, context: AnyRuleContext): boolean {
  if (parameter?.type !== AST_NODE_TYPES.Identifier) return false;
  const variable = findVariable(context.sourceCode.getScope(parameter), parameter);
  return (variable?.references ?? []).some((reference) => {
    const parent = outermost(reference.identifier).parent;
    return (
      parent?.type === AST_NODE_TYPES.CallExpression &&
      parent.arguments.includes(outermost(reference.identifier) as TSESTree.Expression)
    );
  });
}
