import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { unwrap } from '../ast/nodes.js';
import { findProperty, resolveValue } from '../ast/values.js';
import { memberName } from '../ast/names.js';
import { type AnyRuleContext } from '../ast/context.js';
import { forEachNode } from '../ast/walk.js';
import { importSource } from '../modules.js';

/**
 * Temporal activities defined in other modules: every function an activities module exports
 * runs once per scheduled activity, retried on failure. A module is one when a workflow proxies
 * it (`proxyActivities<typeof activities>()` over `import * as activities from './activities'`)
 * or a worker registers it (`Worker.create({ activities })`, `{ ...activities }`).
 */
export function activityModuleSpecifiers(program: TSESTree.Program, context: AnyRuleContext): string[] {
  const found = new Set<string>();
  const namespace = (node: TSESTree.Node | undefined): void => {
    const target = node && unwrap(node);
    if (target?.type !== AST_NODE_TYPES.Identifier) return;
    const source = importSource(target, context.sourceCode.getScope(target));
    if (source?.imported === '*') found.add(source.module);
  };
  forEachNode(program, context, (node) => {
    if (node.type !== AST_NODE_TYPES.CallExpression) return;
    const callee = unwrap(node.callee);
    const scope = context.sourceCode.getScope(node);
    // proxyActivities<typeof activities>(options)
    if (callee.type === AST_NODE_TYPES.Identifier) {
      const source = importSource(callee, scope);
      if (source?.module !== '@temporalio/workflow' || source.imported !== 'proxyActivities') return;
      const type = node.typeArguments?.params[0];
      if (type?.type === AST_NODE_TYPES.TSTypeQuery && type.exprName.type === AST_NODE_TYPES.Identifier)
        namespace(type.exprName);
      return;
    }
    // Worker.create({ activities }) / { activities: { ...a, ...b } }
    if (callee.type !== AST_NODE_TYPES.MemberExpression || memberName(callee) !== 'create') return;
    const object = unwrap(callee.object);
    if (object.type !== AST_NODE_TYPES.Identifier || importSource(object, scope)?.module !== '@temporalio/worker')
      return;
    const options = node.arguments[0] && resolveValue(node.arguments[0], scope);
    if (options?.type !== AST_NODE_TYPES.ObjectExpression) return;
    const property = findProperty(options, (key) => key === 'activities', scope);
    if (!property || property === 'unknown') return;
    const value = resolveValue(property.value, scope);
    if (value.type !== AST_NODE_TYPES.ObjectExpression) {
      namespace(property.value);
      return;
    }
    for (const item of value.properties) if (item.type === AST_NODE_TYPES.SpreadElement) namespace(item.argument);
  });
  return [...found].sort();
}
