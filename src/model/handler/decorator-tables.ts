import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext } from '../ast/context.js';
import { isFunction, returnedValues } from '../ast/function.js';
import { unwrap } from '../ast/nodes.js';
import { findVariable, isModuleScoped } from '../ast/values.js';
import { forEachNode } from '../ast/walk.js';

/**
 * Handler tables that decorators fill: a project's method decorator stores each method it
 * decorates in a module-level table under the method's name (`export const HasuraEvent = () =>
 * (target, propertyKey) => { _events[propertyKey] = { target } }`), and one delivery handler of
 * the same module looks the table up by a field of the delivery (`_events[trigger.name]`). Every
 * method the decorator marks, in any module, then runs for the deliveries that name it: the
 * domain-event handlers a generic consumer dispatches to through a map.
 */

/** The module-level table a decorator factory's decorator writes each decorated member into, by its name. */
export function registeredTable(fn: TSESTree.FunctionLike, context: AnyRuleContext): string | undefined {
  if (!fn.body) return undefined;
  const returned = fn.body.type === AST_NODE_TYPES.BlockStatement ? returnedValues(fn.body) : [fn.body];
  for (const value of returned) {
    const decorator = unwrap(value);
    if (!isFunction(decorator)) continue;
    const key = decorator.params[1];
    if (key?.type !== AST_NODE_TYPES.Identifier) continue;
    let table: string | undefined;
    forEachNode(decorator, context, (node) => {
      if (table !== undefined || node.type !== AST_NODE_TYPES.AssignmentExpression) return;
      const target = unwrap(node.left);
      if (target.type !== AST_NODE_TYPES.MemberExpression || !target.computed) return;
      const property = unwrap(target.property);
      const object = unwrap(target.object);
      if (property.type !== AST_NODE_TYPES.Identifier || property.name !== key.name) return;
      if (object.type === AST_NODE_TYPES.Identifier && isModuleBinding(object, context)) table = object.name;
    });
    if (table !== undefined) return table;
  }
  return undefined;
}

/**
 * The module-level tables `fn` looks up by a value it computes (`_events[trigger.name]`), not by a
 * fixed key: where a delivery handler picks the function the delivery names.
 */
export function tableLookups(fn: TSESTree.FunctionLike, context: AnyRuleContext): string[] {
  if (!fn.body) return [];
  const found = new Set<string>();
  forEachNode(fn.body, context, (node) => {
    if (node.type !== AST_NODE_TYPES.MemberExpression || !node.computed) return;
    const object = unwrap(node.object);
    const property = unwrap(node.property);
    if (property.type === AST_NODE_TYPES.Literal) return;
    if (object.type === AST_NODE_TYPES.Identifier && isModuleBinding(object, context)) found.add(object.name);
  });
  return [...found];
}

/** A binding of the module's own scope (not a parameter, not a local): its top-level `const`/`let`. */
function isModuleBinding(identifier: TSESTree.Identifier, context: AnyRuleContext): boolean {
  const variable = findVariable(context.sourceCode.getScope(identifier), identifier);
  return !!variable && isModuleScoped(variable) && variable.defs[0]?.node.type === AST_NODE_TYPES.VariableDeclarator;
}
