import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext, type Scope } from '../ast/context.js';
import { isFunction, parameterName } from '../ast/function.js';
import { memberName } from '../ast/names.js';
import { unwrap } from '../ast/nodes.js';
import { findVariable, singleInit } from '../ast/values.js';
import { walk } from '../ast/walk.js';
import { entriesWalked, iteration } from '../ast/iteration.js';
import { thisMembersIn } from '../ast/call-index.js';
import { enclosingClassBody, thisFieldDeclarations } from '../ast/class-fields.js';

/**
 * Handlers a project's registrar stores: a function that puts what its caller hands it into a
 * container (`subscriptions.set(queue, handlers)`, `this.handlers[name] = handler`,
 * `this.jobs.push(job)`), which a delivery's handler of the same file later takes out and runs
 * (`for (const [queue, handlers] of subscriptions) new Worker(queue, (job) => handlers[job.name](job.data))`,
 * `this.handlers.get(job.name)(job)`). What the caller hands there runs once per delivery: the
 * parameter is a handler, or, when the handler picks from it by a key, a table of handlers, each
 * under its key. A registry in a container is read by what the code does with it, whatever
 * its names say.
 */

/** A parameter of a function of the file that a delivery's handler runs through a container. */
export interface StoredParameter {
  owner: TSESTree.FunctionLike;
  index: number;
  /** The handler picks one function out of what the parameter holds (`handlers[job.name]`): it is a table. */
  table: boolean;
}

/** How many bindings and lookups a called value is followed through. */
const DEPTH = 8;

/** The parameters whose stored values `fn`, a delivery's handler, runs (in its own body and the callbacks in it). */
export function storedParameters(fn: TSESTree.FunctionLike, context: AnyRuleContext): StoredParameter[] {
  if (!fn.body) return [];
  const found: StoredParameter[] = [];
  walk(
    fn.body,
    context,
    (node) => {
      if (node.type !== AST_NODE_TYPES.CallExpression) return undefined;
      const scope = context.sourceCode.getScope(node);
      const source = storedSource(node.callee, scope, context, 0);
      if (
        source &&
        source.lookups <= 1 &&
        !found.some((entry) => entry.owner === source.owner && entry.index === source.index)
      )
        found.push({ owner: source.owner, index: source.index, table: source.lookups === 1 });
      return undefined;
    },
    { enterFunctions: true },
  );
  return found;
}

/** The parameter `node`'s value was stored from, and how many key lookups into it `node` is. */
interface Source {
  owner: TSESTree.FunctionLike;
  index: number;
  lookups: number;
}

function storedSource(node: TSESTree.Node, scope: Scope, context: AnyRuleContext, depth: number): Source | undefined {
  if (depth > DEPTH) return undefined;
  const value = unwrap(node);
  // `container.get(key)`: a value stored there.
  if (
    value.type === AST_NODE_TYPES.CallExpression &&
    value.callee.type === AST_NODE_TYPES.MemberExpression &&
    memberName(value.callee) === 'get'
  )
    return storedIn(unwrap(value.callee.object), scope, context);
  if (value.type === AST_NODE_TYPES.MemberExpression && value.computed) {
    // `container[key]`: a value stored there; `table[key]`, where the table is a stored value: one of its entries.
    const object = unwrap(value.object);
    const stored = storedIn(object, scope, context);
    if (stored) return stored;
    const inner = storedSource(object, scope, context, depth + 1);
    return inner && { ...inner, lookups: inner.lookups + 1 };
  }
  if (value.type !== AST_NODE_TYPES.Identifier) return undefined;
  const init = singleInit(value, scope);
  if (init) return storedSource(init, scope, context, depth + 1);
  return iterated(value, scope, context);
}

/**
 * A loop variable over a container: `for (const handler of handlers)`, `for (const [queue,
 * handlers] of subscriptions.entries())`, `for (const [, h] of Object.entries(map))`: the values
 * stored there.
 */
function iterated(identifier: TSESTree.Identifier, scope: Scope, context: AnyRuleContext): Source | undefined {
  const def = findVariable(scope, identifier)?.defs[0];
  if (def?.type !== TSESLint.Scope.DefinitionType.Variable) return undefined;
  const walk = iteration(def);
  if (!walk) return undefined;
  const { pattern } = walk;
  // A map's entries give `[key, value]`: the binding must be the value.
  const entryValue =
    pattern.type === AST_NODE_TYPES.ArrayPattern && pattern.elements[1]?.type === AST_NODE_TYPES.Identifier
      ? pattern.elements[1].name === identifier.name
      : false;
  const container = unwrap(walk.container);
  if (container.type === AST_NODE_TYPES.CallExpression) {
    // `Object.entries(map)` / `Object.values(map)`, `map.entries()` / `map.values()`.
    const walked = entriesWalked(container);
    if (!walked) return undefined;
    if (walked.gives === 'entries' && !entryValue) return undefined;
    if (walked.gives === 'values' && pattern.type !== AST_NODE_TYPES.Identifier) return undefined;
    return storedIn(walked.walked, scope, context);
  }
  // `for (const [k, v] of map)` or `for (const h of list)`.
  if (pattern.type === AST_NODE_TYPES.ArrayPattern && !entryValue) return undefined;
  return storedIn(container, scope, context);
}

/**
 * A container made empty in this file (`new Map()`, `{}`, `[]`, as a `const` or a class field),
 * and the one parameter of a function of the file that every write into it stores
 * (`map.set(key, p)`, `object[key] = p`, `list.push(p)`).
 */
function storedIn(container: TSESTree.Node, scope: Scope, context: AnyRuleContext): Source | undefined {
  const writes = containerWrites(container, scope, context);
  if (!writes || writes.length === 0) return undefined;
  let source: Source | undefined;
  for (const written of writes) {
    const value = unwrap(written);
    if (value.type !== AST_NODE_TYPES.Identifier) return undefined;
    const def = findVariable(context.sourceCode.getScope(value), value)?.defs[0];
    if (def?.type !== TSESLint.Scope.DefinitionType.Parameter || !isFunction(def.node)) return undefined;
    const index = def.node.params.findIndex((param) => parameterName(param) === value.name);
    if (index < 0) return undefined;
    if (source && (source.owner !== def.node || source.index !== index)) return undefined;
    source = { owner: def.node, index, lookups: 0 };
  }
  return source;
}

/** The values written into an empty container of this file, or undefined when it is not one or is written otherwise. */
function containerWrites(container: TSESTree.Node, scope: Scope, context: AnyRuleContext): TSESTree.Node[] | undefined {
  const made = emptyContainer(container, scope, context);
  if (!made) return undefined;
  const values: TSESTree.Node[] = [];
  for (const use of made.uses) {
    const parent = use.parent;
    if (!parent) continue;
    // `container.set(key, value)`, `container.push(value)`
    if (
      parent.type === AST_NODE_TYPES.MemberExpression &&
      parent.object === use &&
      parent.parent.type === AST_NODE_TYPES.CallExpression &&
      parent.parent.callee === parent
    ) {
      const method = memberName(parent);
      const args = parent.parent.arguments;
      if (method === 'set' && args[1]) values.push(args[1]);
      else if (method === 'push' || method === 'add') values.push(...args);
    } else if (
      // `container[key] = value`
      parent.type === AST_NODE_TYPES.MemberExpression &&
      parent.object === use &&
      parent.computed &&
      parent.parent.type === AST_NODE_TYPES.AssignmentExpression &&
      parent.parent.left === parent &&
      parent.parent.operator === '='
    )
      values.push(parent.parent.right);
  }
  return values;
}

/** An empty `new Map()` / `new Set()` / `{}` / `[]` held by a `const` or a class field: its uses in the file. */
function emptyContainer(
  container: TSESTree.Node,
  scope: Scope,
  context: AnyRuleContext,
): { uses: readonly TSESTree.Node[] } | undefined {
  const node = unwrap(container);
  if (node.type === AST_NODE_TYPES.Identifier) {
    const variable = findVariable(scope, node);
    const def = variable?.defs[0];
    if (
      variable?.defs.length !== 1 ||
      def?.node.type !== AST_NODE_TYPES.VariableDeclarator ||
      def.node.parent.kind !== 'const' ||
      !isEmpty(def.node.init)
    )
      return undefined;
    return { uses: variable.references.map((reference) => reference.identifier) };
  }
  if (
    node.type === AST_NODE_TYPES.MemberExpression &&
    !node.computed &&
    unwrap(node.object).type === AST_NODE_TYPES.ThisExpression
  ) {
    const name = memberName(node);
    const body = enclosingClassBody(node);
    if (name === undefined || !body) return undefined;
    const declarations = thisFieldDeclarations(body, name);
    const [only] = declarations;
    if (declarations.length !== 1 || only?.type !== AST_NODE_TYPES.PropertyDefinition || !isEmpty(only.value))
      return undefined;
    return { uses: thisMembersIn(body, name, context) };
  }
  return undefined;
}

function isEmpty(init: TSESTree.Node | null | undefined): boolean {
  const value = init && unwrap(init);
  if (!value) return false;
  if (value.type === AST_NODE_TYPES.NewExpression)
    return (
      value.callee.type === AST_NODE_TYPES.Identifier &&
      (value.callee.name === 'Map' || value.callee.name === 'Set') &&
      value.arguments.length === 0
    );
  if (value.type === AST_NODE_TYPES.ObjectExpression) return value.properties.length === 0;
  return value.type === AST_NODE_TYPES.ArrayExpression && value.elements.length === 0;
}
