import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { unwrap } from '../ast/nodes.js';
import { findProperty, resolveValue } from '../ast/values.js';
import { calleeName, memberName } from '../ast/names.js';
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

/** The extensions a module's file may carry in a path (`./workflows.ts`), which a specifier leaves out. */
const SCRIPT_EXTENSION = /\.(?:[cm]?[jt]s|tsx|jsx)$/;

/**
 * The module a path expression names, as a specifier relative to the file:
 * - `require.resolve('m')` → `m`;
 * - `path.join(__dirname, 'workflows')` or `path.resolve(…)` → `./workflows`;
 * - in an ES module, `fileURLToPath(new URL('./workflows.ts', import.meta.url))` and
 *   `new URL('./workflows.ts', import.meta.url).pathname` → `./workflows`: a URL made relative to
 *   `import.meta.url` names a file beside the module, as `require.resolve` does in CommonJS
 *   (https://nodejs.org/api/esm.html#importmetaurl); Temporal's ES-module workers name their
 *   workflows so. The file's extension may be computed (`` `./index${path.extname(import.meta.url)}` ``).
 */
function pathModule(node: TSESTree.Node): string | undefined {
  if (node.type === AST_NODE_TYPES.MemberExpression && memberName(node) === 'pathname')
    return urlModule(unwrap(node.object));
  if (node.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const callee = unwrap(node.callee);
  const [first, second] = node.arguments;
  if (first && calleeName(node) === 'fileURLToPath') return urlModule(unwrap(first));
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
    return relative(second.value);
  return undefined;
}

/** `new URL('./workflows.ts', import.meta.url)` → `./workflows`; any other base names no module here. */
function urlModule(node: TSESTree.Node): string | undefined {
  if (node.type !== AST_NODE_TYPES.NewExpression || node.arguments.length !== 2) return undefined;
  const [spec, base] = node.arguments.map(unwrap);
  if (calleeName(node) !== 'URL') return undefined;
  if (
    base?.type !== AST_NODE_TYPES.MemberExpression ||
    base.object.type !== AST_NODE_TYPES.MetaProperty ||
    memberName(base) !== 'url'
  )
    return undefined;
  const text = pathText(spec);
  return text === undefined || text.startsWith('/') ? undefined : relative(text.replace(SCRIPT_EXTENSION, ''));
}

/** A literal path, or a template of one whose only computed part is its extension (`extname(…)`) at the end. */
function pathText(node: TSESTree.Node | undefined): string | undefined {
  if (node?.type === AST_NODE_TYPES.Literal) return typeof node.value === 'string' ? node.value : undefined;
  if (node?.type !== AST_NODE_TYPES.TemplateLiteral) return undefined;
  const [head, ...rest] = node.quasis;
  const [computed, ...more] = node.expressions;
  const extension =
    computed !== undefined &&
    more.length === 0 &&
    rest.every((quasi) => quasi.value.cooked === '') &&
    calleeName(unwrap(computed)) === 'extname';
  return node.expressions.length === 0 || extension ? (head?.value.cooked ?? undefined) : undefined;
}

/** A path relative to the file as a relative specifier: `workflows` → `./workflows`. */
function relative(path: string): string {
  return path.startsWith('.') ? path : `./${path}`;
}
