import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';

import { contains, unwrap } from '../ast/nodes.js';
import { findProperty, findVariable, resolveValue, staticString } from '../ast/values.js';
import { walk } from '../ast/walk.js';
import { propertyKeyName } from '../ast/names.js';
import { type AnyRuleContext, type Scope } from '../ast/context.js';
import { isFunction, resolveFunction, returnedValues } from '../ast/function.js';
import { ownMethodOf } from '../handler/methods.js';
import { patternPath } from './callers-object.js';
import { isIdempotencyHeaderName, isIdempotencyOptionName, keySinksAt, mayHoldIdempotencyKey } from './sinks.js';

const { DefinitionType } = TSESLint.Scope;

/**
 * What one module's exports tell other modules about idempotency keys, for `idempotency-check`'s
 * cross-file settings: which exports supply headers that carry a key (a header factory, a shared
 * headers object), which constants name the key header, and which parameters of an exported
 * function become a key when it sends. Each is answered on the exporting module's own AST.
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

/** A parameter of a function that the function writes as an idempotency key. */
export interface KeyParameterFact {
  index: number;
  /** The parameter's name, for messages at the callers. */
  name: string;
  /**
   * The parameter's property that becomes the key, when the key is a field of the object the
   * parameter holds (`jobId: \`orch-${data.eventId}\``, or `({ eventId })` destructured): the
   * caller's object literal writes it there.
   */
  property?: string;
}

/** How many local functions a parameter is followed through on its way to a key sink. */
const MAX_FORWARDS = 3;

/**
 * The parameters of `fn` that it writes into an idempotency-key sink (`[KEY_HEADER]: key`,
 * `{ idempotencyKey: key }`, `` `order-${key}` ``), or whose property it writes there
 * (`` `orch-${data.eventId}` ``), directly or by passing them on to a function of this file that
 * does: a caller in another module decides whether the key is stable.
 */
export function keyParametersOf(fn: TSESTree.FunctionLike, context: AnyRuleContext): KeyParameterFact[] {
  if (!mayHoldIdempotencyKey(context)) return [];
  return [...keyParameterMap(fn, context, 0, new Set()).values()].sort(
    (a, b) => a.index - b.index || (a.property ?? '').localeCompare(b.property ?? ''),
  );
}

function keyParameterMap(
  fn: TSESTree.FunctionLike,
  context: AnyRuleContext,
  depth: number,
  seen: Set<TSESTree.FunctionLike>,
): Map<string, KeyParameterFact> {
  const found = new Map<string, KeyParameterFact>();
  if (!fn.body || depth > MAX_FORWARDS || seen.has(fn)) return found;
  seen.add(fn);
  const add = (fact: KeyParameterFact): void => {
    found.set(`${String(fact.index)}.${fact.property ?? ''}`, fact);
  };
  // The parameter an expression reads: itself (`key`), one of its properties (`data.eventId`), or a
  // property it destructures (`({ eventId }) => ...`).
  const parameterOf = (node: TSESTree.Node): KeyParameterFact | undefined => {
    const target = unwrap(node);
    if (
      target.type === AST_NODE_TYPES.MemberExpression &&
      !target.computed &&
      target.property.type === AST_NODE_TYPES.Identifier
    ) {
      const whole = parameterOf(target.object);
      return whole && whole.property === undefined ? { ...whole, property: target.property.name } : undefined;
    }
    if (target.type !== AST_NODE_TYPES.Identifier) return undefined;
    const variable = findVariable(context.sourceCode.getScope(target), target);
    const def = variable?.defs[0];
    if (def?.type !== DefinitionType.Parameter || def.node !== fn) return undefined;
    const index = fn.params.findIndex((parameter) => contains(parameter, def.name));
    // `key`, or `({ eventId }) => ...`: a property the caller's object gives, named as written there.
    const path = index < 0 ? undefined : patternPath(fn.params[index], def.name);
    if (path?.length === 0) return { index, name: target.name };
    const [property] = path ?? [];
    return path?.length === 1 && property !== undefined ? { index, name: property, property } : undefined;
  };
  const record = (value: TSESTree.Node): void => {
    for (const part of keyParts(value)) {
      const fact = parameterOf(part);
      if (fact) add(fact);
    }
  };
  walk(fn.body, context, (node) => {
    if (
      node.type === AST_NODE_TYPES.Property ||
      node.type === AST_NODE_TYPES.AssignmentExpression ||
      node.type === AST_NODE_TYPES.CallExpression
    )
      for (const sink of keySinksAt(node, context)) record(sink.value);
    if (node.type !== AST_NODE_TYPES.CallExpression) return undefined;
    // `send(body, key)` with `send` defined here, or `this.send(body, key)` with `send` a method of
    // this class: its key parameters are this one's too.
    const callee = unwrap(node.callee);
    const local =
      callee.type === AST_NODE_TYPES.MemberExpression
        ? ownMethodOf(callee)
        : resolveFunction(callee, context.sourceCode.getScope(node));
    if (!local || local === fn) return undefined;
    for (const forwarded of keyParameterMap(local, context, depth + 1, seen).values()) {
      const argument = node.arguments[forwarded.index];
      if (!argument || argument.type === AST_NODE_TYPES.SpreadElement) continue;
      if (forwarded.property === undefined) {
        record(argument);
        continue;
      }
      // `send({ key: data.eventId })`: the property of the literal; `send(data)`: this one's own.
      const object = unwrap(argument);
      if (object.type === AST_NODE_TYPES.ObjectExpression) {
        const property = findProperty(object, (key) => key === forwarded.property);
        if (property && property !== 'unknown') record(property.value);
        continue;
      }
      const whole = parameterOf(object);
      if (whole && whole.property === undefined) add({ ...whole, property: forwarded.property });
    }
    return undefined;
  });
  seen.delete(fn);
  return found;
}

/** The expressions a key is built from: itself, the parts of a template or a `+`, the sides of `??` / `||`. */
export function keyParts(node: TSESTree.Node): TSESTree.Node[] {
  const target = unwrap(node);
  if (target.type === AST_NODE_TYPES.TemplateLiteral) return target.expressions.flatMap(keyParts);
  if (target.type === AST_NODE_TYPES.BinaryExpression && target.operator === '+')
    return [...keyParts(target.left), ...keyParts(target.right)];
  if (target.type === AST_NODE_TYPES.LogicalExpression) return [...keyParts(target.left), ...keyParts(target.right)];
  return [target];
}
