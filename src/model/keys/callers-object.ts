import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext } from '../ast/context.js';
import { enclosingFunction, unwrap } from '../ast/nodes.js';
import { findProperty, findVariable } from '../ast/values.js';
import { isFunction } from '../ast/function.js';
import { callSitesOf } from './call-sites.js';

const { DefinitionType } = TSESLint.Scope;

/**
 * Whether the object a parameter binding holds is the one its callers hold, so that a value
 * written onto it (`if (!options.idempotencyKey) options.idempotencyKey = mint()`) is still there
 * when a caller passes that object again on its next attempt. A caller in sight that hands over a
 * copy instead (an object literal, `{ ...options }`, its own parameter rebound to one:
 * `options = { ...options }; this.buildHeaders({ options })`) breaks the chain: the write lands on
 * the copy, and the retry, which passes the original, mints again (the Stainless-generated SDKs
 * before "correctly reuse idempotency key"). Callers out of sight are taken as passing their own.
 */
export function holdsCallersObject(binding: TSESTree.Identifier, context: AnyRuleContext, depth = 0): boolean {
  const variable = findVariable(context.sourceCode.getScope(binding), binding);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (!variable || def?.type !== DefinitionType.Parameter) return true;
  if (variable.references.some((reference) => reference.isWrite())) return false;
  const fn = def.node;
  if (!isFunction(fn)) return true;
  const name = def.name;
  const index = fn.params.findIndex(
    (parameter) => parameter.range[0] <= name.range[0] && name.range[1] <= parameter.range[1],
  );
  const path = index < 0 ? undefined : patternPath(fn.params[index], name);
  const sites = callSitesOf(fn, context);
  if (!path || !sites || depth > 3) return true;
  return sites.calls.every((call) => {
    let given: TSESTree.Node | undefined = call.arguments[index];
    for (const name of path) {
      const object = given && unwrap(given);
      if (object?.type !== AST_NODE_TYPES.ObjectExpression) return true;
      const property = findProperty(object, (key) => key === name, context.sourceCode.getScope(object));
      if (property === undefined || property === 'unknown') return true;
      given = property.value;
    }
    if (!given) return true;
    const value = unwrap(given);
    // A literal made for this call: the write lands on a copy.
    if (value.type === AST_NODE_TYPES.ObjectExpression) return false;
    if (value.type !== AST_NODE_TYPES.Identifier || !enclosingFunction(call)) return true;
    return holdsCallersObject(value, context, depth + 1);
  });
}

/**
 * The property names from a parameter down to a binding it destructures (`{ options }` → `['options']`,
 * a plain `options` → `[]`), or undefined for an array pattern or a rest element.
 */
export function patternPath(parameter: TSESTree.Parameter | undefined, binding: TSESTree.Node): string[] | undefined {
  const path: string[] = [];
  let current: TSESTree.Node = binding;
  while (current !== parameter) {
    const parent: TSESTree.Node | undefined = current.parent;
    if (!parent) return undefined;
    if (parent.type === AST_NODE_TYPES.Property && parent.value === current) {
      if (parent.computed || parent.key.type !== AST_NODE_TYPES.Identifier) return undefined;
      path.unshift(parent.key.name);
    } else if (
      parent.type !== AST_NODE_TYPES.ObjectPattern &&
      !(parent.type === AST_NODE_TYPES.AssignmentPattern && parent.left === current) &&
      parent.type !== AST_NODE_TYPES.TSParameterProperty
    )
      return undefined;
    current = parent;
  }
  return path;
}
