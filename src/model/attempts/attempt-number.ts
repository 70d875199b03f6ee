import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext } from '../ast/context.js';
import { isFunction } from '../ast/function.js';
import { memberPath, propertyKeyName } from '../ast/names.js';
import { contains, unwrap } from '../ast/nodes.js';
import { findVariable, staticString } from '../ast/values.js';
import { DELIVERY_ATTEMPT_COUNTERS, HANDLER_ATTEMPT_PROPERTIES } from '../libraries/delivery-attempts.js';
import { isInLoopHeader, isRetryLoop, retryCallbackOf, type Loop } from './retry-scope.js';

const { DefinitionType } = TSESLint.Scope;

/**
 * The number of the current attempt: it differs on every retry of the same work by construction,
 * so a key built from it is a new key on every attempt (`` `${id}-${attempt}` ``), and a body
 * holding it differs under one key. Three sources:
 * - a broker's or job runner's count of deliveries (`job.attemptsMade`, SQS's
 *   `ApproximateReceiveCount`, Temporal's `info.attempt`, Inngest's `attempt`), from
 *   libraries/delivery-attempts.ts;
 * - the attempt number a retry helper hands its callback (async-retry's `(bail, attempt)`);
 * - the counter of a loop that retries (`for (let attempt = 1; attempt <= max; attempt++)`).
 * A count the application stores and reads back (a row's `failedAttempts`) is none of these: it
 * changes only when the code decides that a new request is wanted.
 */
export function isAttemptNumber(node: TSESTree.Node, context: AnyRuleContext): boolean {
  const target = unwrap(node);
  if (target.type === AST_NODE_TYPES.MemberExpression) return isDeliveryCounter(target, context);
  if (target.type !== AST_NODE_TYPES.Identifier) return false;
  const variable = findVariable(context.sourceCode.getScope(target), target);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (!variable || !def) return false;
  if (def.type === DefinitionType.Parameter) return isAttemptParameter(def.name, context);
  if (def.type !== DefinitionType.Variable) return false;
  return isRetryLoopCounter(variable, def.node, context);
}

/** `job.attemptsMade`, `record.attributes.ApproximateReceiveCount`, `Context.current().info.attempt`. */
function isDeliveryCounter(member: TSESTree.MemberExpression, context: AnyRuleContext): boolean {
  const names = trailingNames(member, context);
  return DELIVERY_ATTEMPT_COUNTERS.some(
    ({ path }) =>
      names.length >= path.length && path.every((name, i) => names[names.length - path.length + i] === name),
  );
}

/** The property names at the end of a member chain, through calls in it (`Context.current().info.attempt`). */
function trailingNames(member: TSESTree.MemberExpression, context: AnyRuleContext): string[] {
  const names: string[] = [];
  let current: TSESTree.Node = member;
  while (current.type === AST_NODE_TYPES.MemberExpression) {
    const name = current.computed
      ? staticString(current.property, context.sourceCode.getScope(current))
      : current.property.type === AST_NODE_TYPES.Identifier
        ? current.property.name
        : undefined;
    if (name === undefined) break;
    names.unshift(name);
    current = unwrap(current.object);
    if (current.type === AST_NODE_TYPES.CallExpression) current = unwrap(current.callee);
  }
  return names;
}

/**
 * A parameter a retry helper fills with the attempt number (async-retry's second), or the
 * `attempt` property destructured from a handler context that carries it (Inngest's
 * `async ({ event, step, attempt }) => ...`, cockatiel's `({ attempt }) => ...`).
 */
function isAttemptParameter(name: TSESTree.Node, context: AnyRuleContext): boolean {
  for (let current: TSESTree.Node | undefined = name.parent; current; current = current.parent) {
    if (!isFunction(current)) continue;
    const fn = current;
    const index = fn.params.findIndex((parameter) => contains(parameter, name));
    if (index < 0) return false;
    const parameter = fn.params[index];
    const property = parameter && destructuredProperty(parameter, name);
    const scope = retryCallbackOf(fn, context);
    if (scope?.helper) {
      const { attemptParameter, attemptProperty } = scope.helper;
      if (property === undefined) return attemptParameter === index && isBinding(parameter, name);
      return index === 0 && property === attemptProperty;
    }
    return index === 0 && property !== undefined && isHandlerAttemptProperty(fn, property);
  }
  return false;
}

function isBinding(parameter: TSESTree.Parameter | undefined, name: TSESTree.Node): boolean {
  const pattern = parameter?.type === AST_NODE_TYPES.AssignmentPattern ? parameter.left : parameter;
  return pattern === name;
}

/** The property of an object pattern that binds `name` (`{ attempt }`, `{ attempt: n }`). */
function destructuredProperty(parameter: TSESTree.Parameter, name: TSESTree.Node): string | undefined {
  const pattern = parameter.type === AST_NODE_TYPES.AssignmentPattern ? parameter.left : parameter;
  if (pattern.type !== AST_NODE_TYPES.ObjectPattern) return undefined;
  for (const property of pattern.properties) {
    if (property.type !== AST_NODE_TYPES.Property) continue;
    const value = property.value.type === AST_NODE_TYPES.AssignmentPattern ? property.value.left : property.value;
    if (value === name) return propertyKeyName(property);
  }
  return undefined;
}

function isHandlerAttemptProperty(fn: TSESTree.FunctionLike, property: string): boolean {
  const call = fn.parent;
  if (call.type !== AST_NODE_TYPES.CallExpression) return false;
  const registrar = memberPath(call.callee)?.at(-1);
  const index = call.arguments.indexOf(fn as TSESTree.CallExpressionArgument);
  return HANDLER_ATTEMPT_PROPERTIES.some(
    (row) => row.registrar === registrar && row.handler === index && row.property === property,
  );
}

/**
 * The counter of a retry loop: declared in the loop's header (`for (let attempt = 0; ...)`), or
 * declared before a loop whose header reads it and stepped inside it (`while (tries < 3) { tries++ }`).
 */
function isRetryLoopCounter(
  variable: TSESLint.Scope.Variable,
  declarator: TSESTree.VariableDeclarator,
  context: AnyRuleContext,
): boolean {
  const declaration = declarator.parent;
  const loop = declaration.parent;
  if (loop.type === AST_NODE_TYPES.ForStatement && loop.init === declaration) return isRetryLoop(loop, context);
  return variable.references.some((reference) => {
    if (!reference.isWrite() || reference.init === true) return false;
    for (let current: TSESTree.Node | undefined = reference.identifier.parent; current; current = current.parent) {
      if (isFunction(current)) return false;
      if (isRetryLoop(current, context) && readsInHeader(current, variable)) return true;
    }
    return false;
  });
}

function readsInHeader(loop: Loop, variable: TSESLint.Scope.Variable): boolean {
  return variable.references.some((reference) => isInLoopHeader(reference.identifier, loop));
}
