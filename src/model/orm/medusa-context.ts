import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext } from '../ast/context.js';
import { calleeName } from '../ast/names.js';
import { unwrap } from '../ast/nodes.js';
import { importSource } from '../modules.js';

/**
 * Medusa's module services (over MikroORM): a method decorated `@InjectTransactionManager()`
 * runs in a transaction that travels in its shared context, the parameter decorated
 * `@MedusaContext()` (`sharedContext.transactionManager`). Another service's method is decorated
 * the same way, so called without that context it finds no transaction manager in it and opens
 * a transaction of its own on a fresh fork of the manager: its write commits apart from this
 * method's transaction and stays when that rolls back.
 */

/** The method `decorator` decorates and its shared-context parameter, when it is Medusa's `@InjectTransactionManager()`. */
export function medusaTransactionMethod(
  decorator: TSESTree.CallExpression,
  context: AnyRuleContext,
): { fn: TSESTree.FunctionExpression; sharedContext: TSESTree.Identifier } | undefined {
  const callee = unwrap(decorator.callee);
  if (callee.type !== AST_NODE_TYPES.Identifier || callee.name !== 'InjectTransactionManager') return undefined;
  const source = importSource(callee, context.sourceCode.getScope(callee));
  if (!source?.module.startsWith('@medusajs/')) return undefined;
  const parent = decorator.parent;
  const method = parent.type === AST_NODE_TYPES.Decorator ? parent.parent : undefined;
  if (method?.type !== AST_NODE_TYPES.MethodDefinition || method.value.type !== AST_NODE_TYPES.FunctionExpression)
    return undefined;
  const fn = method.value;
  for (const param of fn.params) {
    const name = param.type === AST_NODE_TYPES.AssignmentPattern ? param.left : param;
    if (name.type !== AST_NODE_TYPES.Identifier) continue;
    const decorators = [...param.decorators, ...name.decorators];
    if (decorators.some((item) => calleeName(unwrap(item.expression)) === 'MedusaContext'))
      return { fn, sharedContext: name };
  }
  return undefined;
}
