import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { unwrap } from '../ast/nodes.js';
import { resolveValue, staticString } from '../ast/values.js';
import { propertyKeyName } from '../ast/names.js';
import { type AnyRuleContext, type Scope } from '../ast/context.js';
import { isFunction, resolveFunction, returnedValues } from '../ast/function.js';
import { isIdempotencyHeaderName, isIdempotencyOptionName } from './sinks.js';

/**
 * What one module's exports tell other modules about idempotency keys, for `idempotency-check`'s
 * cross-file settings: which exports supply headers that carry a key (a header factory, a shared
 * headers object). Each question is answered on the exporting module's own AST.
 */

/** Header names that mark an object as a set of HTTP headers. */
const HEADER_NAMES = /^(?:accept(?:-[a-z]+)?|authorization|content-type|user-agent|cookie|x-[a-z0-9-]+)$/i;

/** How many local helpers a factory's return value is followed through. */
const MAX_HELPERS = 3;

/**
 * True when `value` (an exported object, or a function that returns one) holds headers carrying an
 * idempotency key: `{ 'Idempotency-Key': … }`, `{ headers: { … } }`, a `const headers = { … }`
 * returned, the result of a local helper that builds them, or a spread of such a helper. In a
 * headers object (one that also sets `Accept`, `Content-Type`, `Authorization`, …) a key field
 * spelt as an option (`idempotencyKey`) is that header too.
 */
export function suppliesKeyHeaders(value: TSESTree.Node, context: AnyRuleContext): boolean {
  const target = unwrap(value);
  const fn = isFunction(target) ? target : undefined;
  if (!fn) return holdsKeyHeaders(target, context, 0);
  return returnsKeyHeaders(fn, context, 0);
}

function returnsKeyHeaders(fn: TSESTree.FunctionLike, context: AnyRuleContext, depth: number): boolean {
  if (!fn.body || depth > MAX_HELPERS) return false;
  const returned = fn.body.type === AST_NODE_TYPES.BlockStatement ? returnedValues(fn.body) : [fn.body];
  return returned.some((node) => holdsKeyHeaders(node, context, depth));
}

function holdsKeyHeaders(node: TSESTree.Node, context: AnyRuleContext, depth: number): boolean {
  let target = unwrap(node);
  if (target.type === AST_NODE_TYPES.AwaitExpression) target = unwrap(target.argument);
  const scope = context.sourceCode.getScope(target);
  const value = resolveValue(target, scope);
  if (value.type === AST_NODE_TYPES.CallExpression) {
    // `return buildHeaders(token)` with `buildHeaders` defined here.
    const helper = resolveFunction(value.callee, context.sourceCode.getScope(value));
    return helper !== undefined && returnsKeyHeaders(helper, context, depth + 1);
  }
  if (value.type !== AST_NODE_TYPES.ObjectExpression) return false;
  return isKeyHeaderObject(value, context, scope, depth);
}

function isKeyHeaderObject(
  object: TSESTree.ObjectExpression,
  context: AnyRuleContext,
  scope: Scope,
  depth: number,
): boolean {
  const names: string[] = [];
  for (const property of object.properties) {
    if (property.type === AST_NODE_TYPES.SpreadElement) {
      if (holdsKeyHeaders(property.argument, context, depth)) return true;
      continue;
    }
    const name = propertyKeyName(property, scope);
    if (name === undefined) continue;
    if (isIdempotencyHeaderName(name)) return true;
    if (name === 'headers' && holdsKeyHeaders(property.value, context, depth)) return true;
    names.push(name);
  }
  return names.some((name) => isIdempotencyOptionName(name)) && names.some((name) => HEADER_NAMES.test(name));
}

/** True when an exported constant's value is an idempotency header name (`export const KEY_HEADER = 'Idempotency-Key'`). */
export function isKeyHeaderName(value: TSESTree.Node, context: AnyRuleContext): boolean {
  const target = unwrap(value);
  const name = staticString(target, context.sourceCode.getScope(target));
  return name !== undefined && isIdempotencyHeaderName(name);
}
