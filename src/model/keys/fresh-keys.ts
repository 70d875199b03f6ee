import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';

import { enclosingFunction, unwrap } from '../ast/nodes.js';
import { findVariable } from '../ast/values.js';
import { propertyKeyName } from '../ast/names.js';
import { type AnyRuleContext } from '../ast/context.js';
import { isFunction } from '../ast/function.js';
import { callSitesOf } from './call-sites.js';
import { ownSummary } from '../settings.js';
import { findPerAttemptValue, MAX_DEPTH } from './per-attempt.js';
import { insertedFieldValue } from './inserted-row.js';

const { DefinitionType } = TSESLint.Scope;

/**
 * Keys minted anew on every path to the send: a body beside such a key can never be "different
 * under the same key", because the key is never the same twice (`no-per-attempt-key` reports the
 * key). Read through the function's `const`s, both sides of a branch (`given ?? mint()` keeps the
 * caller's key when there is one), the parts of a template, fields read back from a row the
 * function has just inserted, and a parameter that every caller fills with a fresh key: in this
 * file, or in other modules (`settings.idempotency.freshKeyArguments`, computed by
 * `idempotency-check` from the callers).
 */

/** A parameter, or one property of a destructured parameter (`{ code }: Order`), by position. */
export interface ParameterPath {
  index: number;
  property?: string;
}

export function isMintedEveryTime(key: TSESTree.Node, context: AnyRuleContext, depth = 0): boolean {
  const target = unwrap(key);
  if (depth > MAX_DEPTH) return findPerAttemptValue(target, context) !== undefined;
  const next = (node: TSESTree.Node): boolean => isMintedEveryTime(node, context, depth + 1);
  switch (target.type) {
    case AST_NODE_TYPES.ConditionalExpression:
      return next(target.consequent) && next(target.alternate);
    case AST_NODE_TYPES.LogicalExpression:
      if (target.operator !== '&&') return next(target.left) && next(target.right);
      break;
    case AST_NODE_TYPES.TemplateLiteral:
      if (target.expressions.some(next)) return true;
      break;
    case AST_NODE_TYPES.BinaryExpression:
      if (target.operator === '+' && (next(target.left) || next(target.right))) return true;
      break;
    case AST_NODE_TYPES.MemberExpression: {
      const written = insertedFieldValue(target, context);
      if (written && next(written)) return true;
      break;
    }
    case AST_NODE_TYPES.Identifier: {
      const variable = findVariable(context.sourceCode.getScope(target), target);
      const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
      if (
        def?.type === DefinitionType.Variable &&
        def.node.id.type === AST_NODE_TYPES.Identifier &&
        def.node.init &&
        enclosingFunction(def.node) &&
        variable?.references.filter((reference) => reference.isWrite()).length === 1
      )
        return next(def.node.init);
      if (def?.type === DefinitionType.Parameter && isFreshParameter(def.name, context, depth)) return true;
      break;
    }
    default:
      break;
  }
  return findPerAttemptValue(target, context) !== undefined;
}

/** Where `name`, a parameter's binding, sits among its function's parameters. */
export function parameterPath(name: TSESTree.Node): { fn: TSESTree.FunctionLike; path: ParameterPath } | undefined {
  for (let current: TSESTree.Node | undefined = name.parent; current; current = current.parent) {
    if (!isFunction(current)) continue;
    for (const [index, parameter] of current.params.entries()) {
      const pattern = parameter.type === AST_NODE_TYPES.AssignmentPattern ? parameter.left : parameter;
      if (pattern === name) return { fn: current, path: { index } };
      if (pattern.type !== AST_NODE_TYPES.ObjectPattern) continue;
      for (const property of pattern.properties) {
        if (property.type !== AST_NODE_TYPES.Property || property.computed) continue;
        const value = property.value.type === AST_NODE_TYPES.AssignmentPattern ? property.value.left : property.value;
        const key = propertyKeyName(property);
        if (value === name && key !== undefined) return { fn: current, path: { index, property: key } };
      }
    }
    return undefined;
  }
  return undefined;
}

/** The argument a call passes at `path`: the argument itself, or one property of an object literal. */
function argumentAt(call: TSESTree.CallExpression, path: ParameterPath): TSESTree.Node | undefined {
  const argument = call.arguments[path.index];
  if (!argument || argument.type === AST_NODE_TYPES.SpreadElement) return undefined;
  if (path.property === undefined) return argument;
  const object = unwrap(argument);
  if (object.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
  for (const property of object.properties)
    if (property.type === AST_NODE_TYPES.Property && propertyKeyName(property) === path.property) return property.value;
  return undefined;
}

/**
 * Every caller fills the parameter with a key minted for the call: the callers in other modules
 * as `settings.idempotency.freshKeyArguments` lists them, and those of this file as read here.
 */
function isFreshParameter(name: TSESTree.Node, context: AnyRuleContext, depth: number): boolean {
  const found = parameterPath(name);
  if (!found) return false;
  const binding = functionName(found.fn);
  const elsewhere =
    binding !== undefined &&
    (ownSummary(binding, context)?.freshKeyArguments ?? []).some(
      (entry) => entry.index === found.path.index && entry.property === found.path.property,
    );
  if (!elsewhere) return false;
  const local = callSitesOf(found.fn, context)?.calls ?? [];
  return local.every((call) => {
    const argument = argumentAt(call, found.path);
    return argument !== undefined && isMintedEveryTime(argument, context, depth + 1);
  });
}

/** The name a function is declared or bound under. */
function functionName(fn: TSESTree.FunctionLike): string | undefined {
  if (fn.type === AST_NODE_TYPES.FunctionDeclaration) return fn.id?.name;
  const parent = fn.parent;
  return parent.type === AST_NODE_TYPES.VariableDeclarator && parent.id.type === AST_NODE_TYPES.Identifier
    ? parent.id.name
    : undefined;
}
