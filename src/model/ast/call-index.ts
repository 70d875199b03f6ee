import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext } from './context.js';
import { memberName } from './names.js';
import { unwrap } from './nodes.js';
import { forEachNode } from './walk.js';

/**
 * The calls of a file, indexed once: `this.name(...)` calls by the class bodies around them and
 * the method name. Built from ESLint's own recorded traversal on the first question and kept for
 * the file, so "who calls this method" is a lookup, not a walk of the class for every question
 * (a value followed through a chain of methods asked it once per step and per path).
 */
interface CallIndex {
  /** Class body → method name → the `this.name(...)` calls anywhere under that body, in source order. */
  thisCalls: Map<TSESTree.ClassBody, Map<string, TSESTree.CallExpression[]>>;
  /** Class body → member name → every `this.name` read or written in that class (not in a nested one). */
  thisMembers: Map<TSESTree.ClassBody, Map<string, TSESTree.MemberExpression[]>>;
  /** The last name of a call's callee (`update` for `qb.update()`, `axiosRetry` for `axiosRetry(x)`) → the calls, in source order. */
  byName: Map<string, TSESTree.CallExpression[]>;
}

const indexes = new WeakMap<object, CallIndex>();

function indexOf(context: AnyRuleContext): CallIndex {
  const ast = context.sourceCode.ast;
  let index = indexes.get(ast);
  if (index) return index;
  index = { thisCalls: new Map(), thisMembers: new Map(), byName: new Map() };
  const { thisCalls, thisMembers, byName: callsByName } = index;
  forEachNode(ast, context, (node) => {
    if (node.type === AST_NODE_TYPES.CallExpression) {
      const name = calleeName(node.callee);
      if (name !== undefined) {
        let calls = callsByName.get(name);
        if (!calls) callsByName.set(name, (calls = []));
        calls.push(node);
      }
    }
    if (
      node.type === AST_NODE_TYPES.MemberExpression &&
      !node.computed &&
      node.object.type === AST_NODE_TYPES.ThisExpression
    ) {
      const body = nearestClassBody(node);
      const name = memberName(node);
      if (body && name !== undefined) {
        let byName = thisMembers.get(body);
        if (!byName) thisMembers.set(body, (byName = new Map<string, TSESTree.MemberExpression[]>()));
        let uses = byName.get(name);
        if (!uses) byName.set(name, (uses = []));
        uses.push(node);
      }
    }
    if (
      node.type !== AST_NODE_TYPES.CallExpression ||
      node.callee.type !== AST_NODE_TYPES.MemberExpression ||
      node.callee.object.type !== AST_NODE_TYPES.ThisExpression
    )
      return;
    const name = calledName(node.callee);
    if (name === undefined) return;
    // Every class body around the call: a nested class's calls are under the outer body too.
    for (let current: TSESTree.Node | undefined = node.parent; current; current = current.parent) {
      if (current.type !== AST_NODE_TYPES.ClassBody) continue;
      let byName = thisCalls.get(current);
      if (!byName) thisCalls.set(current, (byName = new Map<string, TSESTree.CallExpression[]>()));
      let calls = byName.get(name);
      if (!calls) byName.set(name, (calls = []));
      calls.push(node);
    }
  });
  indexes.set(ast, index);
  return index;
}

function nearestClassBody(node: TSESTree.Node): TSESTree.ClassBody | undefined {
  for (let current: TSESTree.Node | undefined = node.parent; current; current = current.parent)
    if (current.type === AST_NODE_TYPES.ClassBody) return current;
  return undefined;
}

/** `f(...)` → `f`, `a.b.f(...)` → `f` (through `!`, casts and parentheses); undefined for a computed callee. */
function calleeName(callee: TSESTree.Expression): string | undefined {
  const target = unwrap(callee);
  if (target.type === AST_NODE_TYPES.Identifier) return target.name;
  return target.type === AST_NODE_TYPES.MemberExpression ? memberName(target) : undefined;
}

/** `this.name` → `name`, `this.#name` → `#name`, `this['name']` → `name`. */
function calledName(callee: TSESTree.MemberExpression): string | undefined {
  return callee.property.type === AST_NODE_TYPES.PrivateIdentifier ? `#${callee.property.name}` : memberName(callee);
}

/** The name a method is called by through `this`: `name`, `#name` or a literal key's value. */
export function methodKeyName(method: TSESTree.MethodDefinition): string | undefined {
  if (method.computed) return undefined;
  const key = method.key;
  if (key.type === AST_NODE_TYPES.Identifier) return key.name;
  if (key.type === AST_NODE_TYPES.PrivateIdentifier) return `#${key.name}`;
  return String(key.value);
}

/** The file's calls whose callee ends in `name` (`name(...)`, `x.y.name(...)`), in source order: a lookup, not a walk. */
export function callsNamed(name: string, context: AnyRuleContext): readonly TSESTree.CallExpression[] {
  return indexOf(context).byName.get(name) ?? [];
}

/** The `this.name(...)` calls under a class body (nested classes included), in source order. */
export function thisCallsIn(
  body: TSESTree.ClassBody,
  name: string,
  context: AnyRuleContext,
): readonly TSESTree.CallExpression[] {
  return indexOf(context).thisCalls.get(body)?.get(name) ?? [];
}

/** Every `this.name` of the class whose body this is (a nested class's own excluded), in source order. */
export function thisMembersIn(
  body: TSESTree.ClassBody,
  name: string,
  context: AnyRuleContext,
): readonly TSESTree.MemberExpression[] {
  return indexOf(context).thisMembers.get(body)?.get(name) ?? [];
}
