import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext } from '../ast/context.js';
import { methodKeyName } from '../ast/call-index.js';
import { topLevelClasses } from '../ast/class-fields.js';
import { memberName } from '../ast/names.js';
import { unwrap } from '../ast/nodes.js';
import { findVariable, staticString } from '../ast/values.js';
import { walk } from '../ast/walk.js';
import { injectedCallee } from '../class-members.js';

/**
 * Service registries of a project's own: a class that keeps what its register method is handed in
 * a container field (`registerService(vertical, object, service) { this.serviceMap.set(key,
 * service) }`) and hands it back from a getter (`getService(vertical, object) { return
 * this.serviceMap.get(key) }`); services injected with it that register themselves
 * (`this.registry.registerService('crm', 'contact', this)` in their constructor or
 * `onModuleInit`); and a handler that calls a method of what the getter returns
 * (`this.registry.getService(vertical, commonObject).kickstartSync(projectId)`). That method of
 * every class that registers itself runs for the deliveries it is looked up for. NestJS makes one
 * instance of a provider and runs its constructor and `onModuleInit` at startup
 * (docs.nestjs.com/fundamentals/lifecycle-events), so the registry holds each before any delivery.
 */

/** A class of this file that stores parameter `index` of `store` in a field its `getters` read back. */
export interface RegistryClass {
  class: string;
  store: { method: string; index: number };
  getters: string[];
}

/** A class of this file that hands itself to an injected registry's method. */
export interface SelfRegistration {
  /** The registry's class, as this file imports it. */
  specifier: string;
  imported: string;
  /** The registry's method it calls, and where it hands `this`. */
  member: string;
  index: number;
  /** The registering class. */
  class: string;
  /** The static strings it registers under (`crm`, `contact`): the deliveries it is looked up for. */
  keys: string[];
}

/** A call of `member` on what a getter of an injected registry returns. */
export interface RegistryPick {
  specifier: string;
  imported: string;
  getter: string;
  member: string;
}

/** The registries this file's classes are: the field a method stores a parameter in, and the methods that return what it holds. */
export function registryClasses(program: TSESTree.Program, context: AnyRuleContext): RegistryClass[] {
  const found: RegistryClass[] = [];
  for (const declaration of topLevelClasses(program)) {
    if (!declaration.id) continue;
    const stores = new Map<string, { method: string; index: number }>();
    const getters = new Map<string, string[]>();
    for (const member of declaration.body.body) {
      if (member.type !== AST_NODE_TYPES.MethodDefinition || member.kind !== 'method') continue;
      const name = methodKeyName(member);
      if (name === undefined || !member.value.body) continue;
      const fn = member.value;
      for (const statement of fn.body.body) {
        const stored = storedParameter(statement, fn);
        if (stored && !stores.has(stored.field)) stores.set(stored.field, { method: name, index: stored.index });
      }
      const read = returnedField(fn, context);
      if (read !== undefined) getters.set(read, [...(getters.get(read) ?? []), name]);
    }
    for (const [field, store] of stores) {
      const reading = getters.get(field);
      if (reading) found.push({ class: declaration.id.name, store, getters: reading });
    }
  }
  return found;
}

/** `this.field.set(key, param)`, `this.field[key] = param` or `this.field.push(param)`: the field and the parameter's index. */
function storedParameter(
  statement: TSESTree.Statement,
  fn: TSESTree.FunctionExpression,
): { field: string; index: number } | undefined {
  if (statement.type !== AST_NODE_TYPES.ExpressionStatement) return undefined;
  const expression = unwrap(statement.expression);
  let container: TSESTree.Node | undefined;
  let value: TSESTree.Node | undefined;
  if (expression.type === AST_NODE_TYPES.CallExpression) {
    const callee = unwrap(expression.callee);
    const method = callee.type === AST_NODE_TYPES.MemberExpression ? memberName(callee) : undefined;
    if (callee.type !== AST_NODE_TYPES.MemberExpression || (method !== 'set' && method !== 'push')) return undefined;
    container = unwrap(callee.object);
    value = expression.arguments[method === 'set' ? 1 : 0];
  } else if (
    expression.type === AST_NODE_TYPES.AssignmentExpression &&
    expression.operator === '=' &&
    expression.left.type === AST_NODE_TYPES.MemberExpression &&
    expression.left.computed
  ) {
    container = unwrap(expression.left.object);
    value = expression.right;
  }
  const field = container && thisField(container);
  const target = value && unwrap(value);
  if (field === undefined || target?.type !== AST_NODE_TYPES.Identifier) return undefined;
  const index = fn.params.findIndex((param) => param.type === AST_NODE_TYPES.Identifier && param.name === target.name);
  return index < 0 ? undefined : { field, index };
}

/** The field a method returns an element of: `return this.field.get(key)`, `this.field[key]`, or a binding of one it returns. */
function returnedField(fn: TSESTree.FunctionExpression, context: AnyRuleContext): string | undefined {
  let field: string | undefined;
  walk(
    fn.body,
    context,
    (node) => {
      if (node.type !== AST_NODE_TYPES.ReturnStatement || !node.argument) return undefined;
      let value = unwrap(node.argument);
      if (value.type === AST_NODE_TYPES.Identifier) {
        // `const service = this.serviceMap.get(key); if (!service) throw …; return service;`
        const name = value.name;
        const declarator = fn.body.body
          .flatMap((statement) => (statement.type === AST_NODE_TYPES.VariableDeclaration ? statement.declarations : []))
          .find((entry) => entry.id.type === AST_NODE_TYPES.Identifier && entry.id.name === name);
        if (declarator?.init) value = unwrap(declarator.init);
      }
      const read = elementOf(value);
      if (read !== undefined) field = read;
      return read === undefined ? undefined : 'stop';
    },
    { enterFunctions: false },
  );
  return field;
}

/** `this.field.get(key)` or `this.field[key]`: the field. */
function elementOf(node: TSESTree.Node): string | undefined {
  if (node.type === AST_NODE_TYPES.CallExpression) {
    const callee = unwrap(node.callee);
    return callee.type === AST_NODE_TYPES.MemberExpression && memberName(callee) === 'get'
      ? thisField(unwrap(callee.object))
      : undefined;
  }
  return node.type === AST_NODE_TYPES.MemberExpression && node.computed ? thisField(unwrap(node.object)) : undefined;
}

/** `this.field` (not computed): the field's name. */
function thisField(node: TSESTree.Node): string | undefined {
  return node.type === AST_NODE_TYPES.MemberExpression &&
    !node.computed &&
    unwrap(node.object).type === AST_NODE_TYPES.ThisExpression
    ? memberName(node)
    : undefined;
}

/** The classes of this file that hand themselves to an injected registry's method. */
export function selfRegistrations(program: TSESTree.Program, context: AnyRuleContext): SelfRegistration[] {
  const found: SelfRegistration[] = [];
  for (const declaration of topLevelClasses(program)) {
    if (!declaration.id) continue;
    const cls = declaration.id.name;
    for (const member of declaration.body.body) {
      if (member.type !== AST_NODE_TYPES.MethodDefinition) continue;
      const name = methodKeyName(member);
      // Where a provider's setup runs once: its constructor, or NestJS's module-init hook.
      if (name !== 'constructor' && name !== 'onModuleInit') continue;
      for (const statement of member.value.body?.body ?? []) {
        if (statement.type !== AST_NODE_TYPES.ExpressionStatement) continue;
        const call = unwrap(statement.expression);
        if (call.type !== AST_NODE_TYPES.CallExpression) continue;
        const index = call.arguments.findIndex((argument) => unwrap(argument).type === AST_NODE_TYPES.ThisExpression);
        if (index < 0) continue;
        const scope = context.sourceCode.getScope(call);
        const registry = injectedCallee(call.callee, scope);
        if (!registry) continue;
        const keys = call.arguments.flatMap((argument) => {
          const key = staticString(argument, scope);
          return key === undefined ? [] : [key];
        });
        found.push({ ...registry, index, class: cls, keys });
      }
    }
  }
  return found;
}

/**
 * The methods `fn` calls on what an injected registry's method returns: `this.registry.get(key).run(x)`,
 * or through a binding made once (`const service = this.registry.getService(a, b); await service.run(x)`).
 */
export function registryPicks(fn: TSESTree.FunctionLike, context: AnyRuleContext): RegistryPick[] {
  if (!fn.body) return [];
  const found: RegistryPick[] = [];
  walk(
    fn.body,
    context,
    (node) => {
      if (node.type !== AST_NODE_TYPES.CallExpression) return undefined;
      const callee = unwrap(node.callee);
      const member = callee.type === AST_NODE_TYPES.MemberExpression ? memberName(callee) : undefined;
      if (callee.type !== AST_NODE_TYPES.MemberExpression || member === undefined) return undefined;
      let receiver = unwrap(callee.object);
      if (receiver.type === AST_NODE_TYPES.AwaitExpression) receiver = unwrap(receiver.argument);
      if (receiver.type === AST_NODE_TYPES.Identifier) {
        const variable = findVariable(context.sourceCode.getScope(node), receiver);
        const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
        const init = def?.node.type === AST_NODE_TYPES.VariableDeclarator ? def.node.init : undefined;
        const writes = variable?.references.filter((reference) => reference.isWrite()).length ?? 0;
        if (!init || writes !== 1) return undefined;
        receiver = unwrap(init);
        if (receiver.type === AST_NODE_TYPES.AwaitExpression) receiver = unwrap(receiver.argument);
      }
      if (receiver.type !== AST_NODE_TYPES.CallExpression || receiver.arguments.length === 0) return undefined;
      const getter = injectedCallee(receiver.callee, context.sourceCode.getScope(receiver));
      if (!getter) return undefined;
      if (
        !found.some(
          (pick) => pick.getter === getter.member && pick.member === member && pick.imported === getter.imported,
        )
      )
        found.push({ specifier: getter.specifier, imported: getter.imported, getter: getter.member, member });
      return undefined;
    },
    { enterFunctions: true },
  );
  return found;
}
