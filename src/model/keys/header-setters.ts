import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';

import { unwrap } from '../ast/nodes.js';
import { findVariable, staticString } from '../ast/values.js';
import { memberName } from '../ast/names.js';
import { type AnyRuleContext } from '../ast/context.js';
import { returnedValues } from '../ast/function.js';
import { walk } from '../ast/walk.js';
import { resolveHandlerFunction } from '../handler/methods.js';
import { findPerAttemptValue, type PerAttemptValue } from './per-attempt.js';
import { testsMethodOnTheWay } from './interceptors.js';
import { isIdempotencyHeaderName } from './sinks.js';

const { DefinitionType } = TSESLint.Scope;

/**
 * Header-setting helpers of this file that take the header's name and its value from their caller:
 * `this.updateHeaderValue(headers, 'idempotency-key', this.generateKey)` whose body writes
 * `record[name] = makeValue()` (or `headers.set(name, value)`) into headers built from one of its
 * parameters. The call writes the key its caller names, onto the headers its caller hands in.
 */
export interface KeyWriteThroughHelper {
  /** The header's name, as the caller spells it. */
  name: string;
  /** The argument whose headers the helper writes into. */
  headers: TSESTree.Node;
  /** Where the written value is minted per call, when it is. */
  minted: PerAttemptValue | undefined;
}

/**
 * The idempotency header `call` writes through a local helper (a function of this file or a method
 * of the same class) that sets a header named by one of its parameters, with no test of the method
 * on the way inside the helper; undefined otherwise.
 */
export function keyWriteThroughHelper(
  call: TSESTree.CallExpression,
  context: AnyRuleContext,
): KeyWriteThroughHelper | undefined {
  const scope = context.sourceCode.getScope(call);
  // Cheap first: the caller names an idempotency header.
  const named = call.arguments.some((_, index) => {
    const name = argumentAt(call, index, scope);
    return name !== undefined && isIdempotencyHeaderName(name);
  });
  if (!named) return undefined;
  const helper = resolveHandlerFunction(call.callee, scope);
  if (!helper?.body || helper.params.length < 2) return undefined;
  const indexOf = (node: TSESTree.Node): number => parameterIndex(node, helper, context);
  let found: KeyWriteThroughHelper | undefined;
  walk(
    helper.body,
    context,
    (node) => {
      const write = headerWrite(node);
      if (!write) return undefined;
      const nameAt = indexOf(write.name);
      const name = nameAt < 0 ? undefined : argumentAt(call, nameAt, scope);
      if (name === undefined || !isIdempotencyHeaderName(name)) return undefined;
      const headersAt = sourceParameter(write.target, helper, context);
      const headers = headersAt < 0 ? undefined : call.arguments[headersAt];
      if (!headers || testsMethodOnTheWay(node, helper, context)) return undefined;
      found = { name, headers, minted: mintedValue(write.value, call, helper, context) };
      return 'stop';
    },
    { enterFunctions: false },
  );
  return found;
}

/** `target[name] = value`, `target.set(name, value)` or `target.append(name, value)`. */
function headerWrite(
  node: TSESTree.Node,
): { target: TSESTree.Node; name: TSESTree.Node; value: TSESTree.Node } | undefined {
  if (
    node.type === AST_NODE_TYPES.AssignmentExpression &&
    node.left.type === AST_NODE_TYPES.MemberExpression &&
    node.left.computed
  )
    return { target: node.left.object, name: node.left.property, value: node.right };
  if (node.type !== AST_NODE_TYPES.CallExpression || node.callee.type !== AST_NODE_TYPES.MemberExpression)
    return undefined;
  const method = memberName(node.callee);
  const [name, value] = node.arguments;
  if ((method !== 'set' && method !== 'append') || !name || !value) return undefined;
  return { target: node.callee.object, name, value };
}

/** The static string the caller passes at `index` (a literal, or a constant holding one). */
function argumentAt(call: TSESTree.CallExpression, index: number, scope: TSESLint.Scope.Scope): string | undefined {
  const argument = call.arguments[index];
  return argument && argument.type !== AST_NODE_TYPES.SpreadElement ? staticString(argument, scope) : undefined;
}

/** The position of the helper's parameter `node` names, or -1. */
function parameterIndex(node: TSESTree.Node, helper: TSESTree.FunctionLike, context: AnyRuleContext): number {
  const target = unwrap(node);
  if (target.type !== AST_NODE_TYPES.Identifier) return -1;
  const def = findVariable(context.sourceCode.getScope(target), target)?.defs[0];
  if (def?.type !== DefinitionType.Parameter || def.node !== helper) return -1;
  return helper.params.findIndex(
    (parameter) => parameter.type === AST_NODE_TYPES.Identifier && parameter.name === target.name,
  );
}

/**
 * The parameter the written headers come from: the parameter itself, or a local built from it
 * (`const record = this.convertToRecord(headers)`, `new Headers(headers)`, `{ ...headers }`).
 */
function sourceParameter(target: TSESTree.Node, helper: TSESTree.FunctionLike, context: AnyRuleContext): number {
  const object = unwrap(target);
  const direct = parameterIndex(object, helper, context);
  if (direct >= 0 || object.type !== AST_NODE_TYPES.Identifier) return direct;
  const def = findVariable(context.sourceCode.getScope(object), object)?.defs[0];
  if (def?.type !== DefinitionType.Variable || !def.node.init) return -1;
  let index = -1;
  walk(
    def.node.init,
    context,
    (node) => {
      if (node.type !== AST_NODE_TYPES.Identifier) return undefined;
      index = parameterIndex(node, helper, context);
      return index >= 0 ? 'stop' : undefined;
    },
    { enterFunctions: false },
  );
  return index;
}

/**
 * Where the value written is minted per call: the caller's argument for a value parameter, the
 * function the caller hands in for a parameter the helper calls (`defaultValue()`), or the helper's
 * own value.
 */
function mintedValue(
  value: TSESTree.Node,
  call: TSESTree.CallExpression,
  helper: TSESTree.FunctionLike,
  context: AnyRuleContext,
): PerAttemptValue | undefined {
  const target = unwrap(value);
  const passed = parameterIndex(target, helper, context);
  if (passed >= 0) {
    const argument = call.arguments[passed];
    return argument && findPerAttemptValue(argument, context);
  }
  if (target.type === AST_NODE_TYPES.CallExpression && target.arguments.length === 0) {
    const called = parameterIndex(target.callee, helper, context);
    if (called >= 0) {
      const argument = call.arguments[called];
      const fn = argument && resolveHandlerFunction(argument, context.sourceCode.getScope(call));
      if (!fn?.body) return undefined;
      const returned = fn.body.type === AST_NODE_TYPES.BlockStatement ? returnedValues(fn.body) : [fn.body];
      return returned.map((node) => findPerAttemptValue(node, context)).find((mint) => mint !== undefined);
    }
  }
  return findPerAttemptValue(target, context);
}
