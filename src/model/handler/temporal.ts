import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { unwrap } from '../ast/nodes.js';
import { findProperty, resolveValue } from '../ast/values.js';
import { memberName } from '../ast/names.js';
import { type AnyRuleContext } from '../ast/context.js';
import { forEachNode } from '../ast/walk.js';
import { importSource } from '../modules.js';

/** The modules a Temporal worker runs: those whose exports are activities, and those whose exports are workflows. */
export interface TemporalModules {
  activities: string[];
  workflows: string[];
  /** Functions of other modules whose returned object is a worker's activities (`activities: createActivities({ db })`). */
  factories: { specifier: string; imported: string }[];
}

/**
 * Temporal entries defined in other modules, by the specifiers of their modules:
 * - activities: every function an activities module exports runs once per scheduled activity,
 *   retried on failure. A module is one when a workflow proxies it
 *   (`proxyActivities<typeof activities>()` over `import * as activities from './activities'`) or
 *   a worker registers it (`Worker.create({ activities })`, `{ ...activities }`).
 * - workflows: `Worker.create({ workflowsPath: require.resolve('./workflows') })` registers every
 *   function the module at that path exports as a workflow (WorkerOptions.workflowsPath in
 *   `@temporalio/worker`'s worker-options.d.ts), run again from its history on every replay.
 *   `path.join(__dirname, './workflows')` and `path.resolve(...)` name the module too.
 * - factories: `Worker.create({ activities: createActivities({ db }) })` with `createActivities`
 *   imported: the functions of the object it returns are the activities (Temporal's activity
 *   dependency injection, https://docs.temporal.io/design-patterns/activity-dependency-injection).
 */
export function temporalModuleSpecifiers(program: TSESTree.Program, context: AnyRuleContext): TemporalModules {
  const activities = new Set<string>();
  const workflows = new Set<string>();
  const factories = new Map<string, { specifier: string; imported: string }>();
  const namespace = (node: TSESTree.Node | undefined): void => {
    let target = node && unwrap(node);
    const made = target?.type === AST_NODE_TYPES.CallExpression;
    if (target?.type === AST_NODE_TYPES.CallExpression) target = unwrap(target.callee);
    if (target?.type !== AST_NODE_TYPES.Identifier) return;
    const source = importSource(target, context.sourceCode.getScope(target));
    if (!source) return;
    if (made && source.imported !== '*')
      factories.set(`${source.module}\0${source.imported}`, { specifier: source.module, imported: source.imported });
    else if (!made && source.imported === '*') activities.add(source.module);
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
    // Worker.create({ activities, workflowsPath }) / { activities: { ...a, ...b } }
    if (callee.type !== AST_NODE_TYPES.MemberExpression || memberName(callee) !== 'create') return;
    const object = unwrap(callee.object);
    if (object.type !== AST_NODE_TYPES.Identifier || importSource(object, scope)?.module !== '@temporalio/worker')
      return;
    const options = node.arguments[0] && resolveValue(node.arguments[0], scope);
    if (options?.type !== AST_NODE_TYPES.ObjectExpression) return;
    const path = findProperty(options, (key) => key === 'workflowsPath', scope);
    if (path && path !== 'unknown') {
      const module = pathModule(resolveValue(path.value, scope));
      if (module !== undefined) workflows.add(module);
    }
    const property = findProperty(options, (key) => key === 'activities', scope);
    if (!property || property === 'unknown') return;
    const value = resolveValue(property.value, scope);
    if (
      value.type !== AST_NODE_TYPES.ObjectExpression ||
      unwrap(property.value).type === AST_NODE_TYPES.CallExpression
    ) {
      namespace(property.value);
      return;
    }
    for (const item of value.properties) if (item.type === AST_NODE_TYPES.SpreadElement) namespace(item.argument);
  });
  return {
    activities: [...activities].sort(),
    workflows: [...workflows].sort(),
    factories: [...factories.values()],
  };
}

/** `require.resolve('m')` → `m`; `path.join(__dirname, 'workflows')` or `path.resolve(...)` → `./workflows`. */
function pathModule(node: TSESTree.Node): string | undefined {
  if (node.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const callee = unwrap(node.callee);
  const [first, second] = node.arguments;
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const name = memberName(callee);
  const object = unwrap(callee.object);
  if (name === 'resolve' && object.type === AST_NODE_TYPES.Identifier && object.name === 'require')
    return first?.type === AST_NODE_TYPES.Literal && typeof first.value === 'string' ? first.value : undefined;
  if (
    (name === 'join' || name === 'resolve') &&
    first?.type === AST_NODE_TYPES.Identifier &&
    first.name === '__dirname' &&
    second?.type === AST_NODE_TYPES.Literal &&
    typeof second.value === 'string' &&
    node.arguments.length === 2
  )
    return second.value.startsWith('.') ? second.value : `./${second.value}`;
  return undefined;
}
