import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { unwrap } from './ast/nodes.js';
import { memberName, memberPath, moduleExportName } from './ast/names.js';
import { type Scope } from './ast/context.js';
import { isFunction } from './ast/function.js';
import { importSource, isProjectModule } from './modules.js';
import { findVariable, resolveValue } from './ast/values.js';
import { enclosingClassBody } from './ast/class-fields.js';
import { declaredTypeOf } from './ast/declared-types.js';

/**
 * Methods of classes across modules: a service injected into a class (`constructor(private
 * readonly orders: OrdersService)`, `@Inject() orders: OrdersService`, as NestJS writes it) is
 * another module's class, so `this.orders.settle(id)` runs that class's `settle`; and the
 * methods a module's exported classes declare, by `Class.method`, for the whole-program pass.
 */

/** A method of an imported class: the module, the class as that module exports it, the method. */
export interface ImportedMember {
  specifier: string;
  imported: string;
  member: string;
}

/**
 * `this.field.method(...)` where `field` is declared with an imported class as its type (a
 * constructor parameter property or a class property): that class's method. Only a class
 * imported by name counts; an interface or a token leads nowhere the analysis can follow,
 * which the whole-program pass finds out when the module exports no such class.
 */
export function injectedCallee(callee: TSESTree.Node, scope: Scope): ImportedMember | undefined {
  const target = unwrap(callee);
  if (target.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const method = memberName(target);
  const object = unwrap(target.object);
  const self = object.type === AST_NODE_TYPES.MemberExpression ? thisOf(object.object, scope) : undefined;
  if (method === undefined || object.type !== AST_NODE_TYPES.MemberExpression || !self) return undefined;
  const field = memberName(object);
  const body = enclosingClassBody(self);
  const type = field === undefined || !body ? undefined : fieldType(body, field);
  if (!type) return undefined;
  const source = importSource(type, scope);
  if (!source || source.imported === '*') return undefined;
  return { specifier: source.module, imported: source.imported, member: method };
}

/**
 * `receiver.method(...)` where what the code declares the receiver to be (ast/declared-types.ts) is
 * a class imported by name: `billing.charge()` with `billing: BillingService`, `opts.billing.charge()`
 * with `opts: { billing: BillingService }`, a plugin's options typed by its declared plugin type.
 * Like {@link injectedCallee}, the whole-program pass finds out when the module has no such class.
 */
export function declaredCallee(callee: TSESTree.Node, scope: Scope): ImportedMember | undefined {
  const target = unwrap(callee);
  if (target.type !== AST_NODE_TYPES.MemberExpression || target.computed) return undefined;
  const method = memberName(target);
  const receiver = unwrap(target.object);
  if (method === undefined || receiver.type === AST_NODE_TYPES.ThisExpression) return undefined;
  const type = declaredTypeOf(receiver, scope);
  if (type?.type !== AST_NODE_TYPES.TSTypeReference || type.typeName.type !== AST_NODE_TYPES.Identifier)
    return undefined;
  const source = importSource(type.typeName, scope);
  if (!source || source.imported === '*') return undefined;
  return { specifier: source.module, imported: source.imported, member: method };
}

/**
 * The static accessor by which a singleton class hands out its one instance (`getInstance()`,
 * the name the pattern gives it): what it returns is an instance of the class. Other static
 * methods may return anything (a service of another class, a `Result`).
 */
const SINGLETON_ACCESSOR = /^(?:get|shared|default)?Instance$|^instance$/;

/**
 * `handler.upsertProduct(obj)` on a constant the function makes of an imported class (`const
 * handler = new StripeHandler(stripe, prisma)`): that class's method, as on an injected instance.
 * Likewise on the instance a singleton's accessor returns, in place or held
 * (`SendEmailProcessor.getInstance(logger).processRequest(body)`).
 */
export function madeInstanceCallee(callee: TSESTree.Node, scope: Scope): ImportedMember | undefined {
  const target = unwrap(callee);
  if (target.type !== AST_NODE_TYPES.MemberExpression || target.computed) return undefined;
  const method = memberName(target);
  const receiver = unwrap(target.object);
  if (method === undefined) return undefined;
  const made = receiver.type === AST_NODE_TYPES.Identifier ? unwrap(resolveValue(receiver, scope)) : unwrap(receiver);
  const factory =
    made.type === AST_NODE_TYPES.CallExpression &&
    made.callee.type === AST_NODE_TYPES.MemberExpression &&
    SINGLETON_ACCESSOR.test(memberName(made.callee) ?? '')
      ? unwrap(made.callee.object)
      : undefined;
  const cls = made.type === AST_NODE_TYPES.NewExpression ? unwrap(made.callee) : factory;
  if (cls?.type !== AST_NODE_TYPES.Identifier) return undefined;
  const source = importSource(cls, scope);
  if (!source || source.imported === '*') return undefined;
  return { specifier: source.module, imported: source.imported, member: method };
}

/** {@link madeInstanceCallee} of a class of the project: a package's client (`new Pool()`) is no call of the program's. */
export function projectInstanceCallee(
  callee: TSESTree.Node,
  scope: Scope,
  filename: string,
): ImportedMember | undefined {
  const made = madeInstanceCallee(callee, scope);
  return made && isProjectModule(made.specifier, filename) ? made : undefined;
}

/**
 * The `this` a value is: `this` itself, or the `this` a constant was bound to (`const _this = this`
 * before a plain function callback, whose own `this` is another).
 */
function thisOf(node: TSESTree.Node, scope: Scope): TSESTree.ThisExpression | undefined {
  const value = unwrap(node);
  if (value.type === AST_NODE_TYPES.ThisExpression) return value;
  if (value.type !== AST_NODE_TYPES.Identifier) return undefined;
  const def = findVariable(scope, value)?.defs[0];
  if (def?.node.type !== AST_NODE_TYPES.VariableDeclarator || def.node.parent.kind !== 'const' || !def.node.init)
    return undefined;
  const init = unwrap(def.node.init);
  return init.type === AST_NODE_TYPES.ThisExpression ? init : undefined;
}

/**
 * `this.method(...)` of a method the class does not declare, or `super.method(...)`, in a class
 * that extends an imported class (`class JobRepository extends BaseRepository`): the imported
 * class's method, which the whole-program pass looks up there and up its own `extends` chain.
 */
export function inheritedCallee(callee: TSESTree.Node, scope: Scope): ImportedMember | undefined {
  const target = unwrap(callee);
  if (target.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const object = unwrap(target.object);
  if (object.type !== AST_NODE_TYPES.ThisExpression && object.type !== AST_NODE_TYPES.Super) return undefined;
  const method = memberName(target);
  const body = enclosingClassBody(target);
  const base = body?.parent.superClass && unwrap(body.parent.superClass);
  if (method === undefined || !body || base?.type !== AST_NODE_TYPES.Identifier) return undefined;
  if (
    object.type === AST_NODE_TYPES.ThisExpression &&
    body.body.some(
      (member) =>
        (member.type === AST_NODE_TYPES.MethodDefinition || member.type === AST_NODE_TYPES.PropertyDefinition) &&
        !member.computed &&
        member.key.type === AST_NODE_TYPES.Identifier &&
        member.key.name === method,
    )
  )
    return undefined;
  const source = importSource(base, scope);
  if (!source || source.imported === '*') return undefined;
  return { specifier: source.module, imported: source.imported, member: method };
}

/** The class a field is declared with (`orders: OrdersService`, `Repository<Order>` gives `Repository`). */
function fieldType(body: TSESTree.ClassBody, field: string): TSESTree.Identifier | undefined {
  for (const member of body.body) {
    if (
      member.type === AST_NODE_TYPES.PropertyDefinition &&
      !member.computed &&
      member.key.type === AST_NODE_TYPES.Identifier &&
      member.key.name === field
    )
      return typeName(member.typeAnnotation);
    if (member.type === AST_NODE_TYPES.MethodDefinition && member.kind === 'constructor') {
      for (const param of member.value.params) {
        if (param.type !== AST_NODE_TYPES.TSParameterProperty) continue;
        const inner = param.parameter;
        if (inner.type === AST_NODE_TYPES.Identifier && inner.name === field) return typeName(inner.typeAnnotation);
      }
    }
  }
  return undefined;
}

function typeName(annotation: TSESTree.TSTypeAnnotation | undefined): TSESTree.Identifier | undefined {
  const type = annotation?.typeAnnotation;
  return type?.type === AST_NODE_TYPES.TSTypeReference && type.typeName.type === AST_NODE_TYPES.Identifier
    ? type.typeName
    : undefined;
}

/**
 * The methods of the classes a module exports (`export class`, `export default class`,
 * `export { Service }`), named `Class.method` by the name the class is exported under: the
 * instance methods, or with `statics` the static ones (`WorkerManager.register(...)`). An instance
 * the module exports (`export const queue = new OrchestrationQueue()`, `export default new
 * Mailer()`) has its class's instance methods under its own name (`queue.enqueue`).
 */
export function exportedClassMethods(program: TSESTree.Program, statics = false): [string, TSESTree.FunctionLike][] {
  const found: [string, TSESTree.FunctionLike][] = [];
  const add = (exported: string, cls: TSESTree.ClassDeclaration | TSESTree.ClassExpression): void => {
    for (const member of cls.body.body) {
      if (
        (member.type !== AST_NODE_TYPES.MethodDefinition && member.type !== AST_NODE_TYPES.PropertyDefinition) ||
        member.computed ||
        member.static !== statics ||
        member.key.type !== AST_NODE_TYPES.Identifier ||
        (member.type === AST_NODE_TYPES.MethodDefinition && member.kind !== 'method')
      )
        continue;
      const value = member.value && unwrap(member.value);
      if (value && isFunction(value)) found.push([`${exported}.${member.key.name}`, value]);
    }
  };
  // What a top-level name of this file holds: a class (exported by a later `export { Service }`),
  // or an instance of one made once (`const queue = new OrchestrationQueue()`), whose importers call
  // the class's instance methods on it by the instance's name.
  const declaredClass = (name: string, instances: boolean): TSESTree.ClassDeclaration | undefined => {
    for (const statement of program.body) {
      const declaration =
        statement.type === AST_NODE_TYPES.ExportNamedDeclaration ? (statement.declaration ?? statement) : statement;
      if (declaration.type === AST_NODE_TYPES.ClassDeclaration && declaration.id?.name === name) return declaration;
      if (!instances || declaration.type !== AST_NODE_TYPES.VariableDeclaration || declaration.kind !== 'const')
        continue;
      for (const declarator of declaration.declarations)
        if (declarator.id.type === AST_NODE_TYPES.Identifier && declarator.id.name === name)
          return instanceClass(declarator.init);
    }
    return undefined;
  };
  const instanceClass = (init: TSESTree.Node | null | undefined): TSESTree.ClassDeclaration | undefined => {
    const value = init && unwrap(init);
    return !statics && value?.type === AST_NODE_TYPES.NewExpression && value.callee.type === AST_NODE_TYPES.Identifier
      ? declaredClass(value.callee.name, false)
      : undefined;
  };
  const localClass = (name: string): TSESTree.ClassDeclaration | undefined => declaredClass(name, !statics);
  for (const statement of program.body) {
    if (statement.type === AST_NODE_TYPES.ExportNamedDeclaration && !statement.source) {
      const declaration = statement.declaration;
      if (declaration?.type === AST_NODE_TYPES.ClassDeclaration && declaration.id)
        add(declaration.id.name, declaration);
      if (declaration?.type === AST_NODE_TYPES.VariableDeclaration && declaration.kind === 'const')
        for (const declarator of declaration.declarations) {
          const cls = instanceClass(declarator.init);
          if (cls && declarator.id.type === AST_NODE_TYPES.Identifier) add(declarator.id.name, cls);
        }
      for (const specifier of statement.specifiers) {
        const cls = localClass(specifier.local.name);
        if (cls) add(moduleExportName(specifier.exported), cls);
      }
    } else if (statement.type === AST_NODE_TYPES.ExportDefaultDeclaration) {
      const declaration = statement.declaration;
      if (declaration.type === AST_NODE_TYPES.ClassDeclaration || declaration.type === AST_NODE_TYPES.ClassExpression)
        add('default', declaration);
      else if (declaration.type === AST_NODE_TYPES.Identifier) {
        const cls = localClass(declaration.name);
        if (cls) add('default', cls);
      } else {
        const cls = instanceClass(declaration);
        if (cls) add('default', cls);
      }
    } else if (
      statement.type === AST_NODE_TYPES.ExpressionStatement &&
      statement.expression.type === AST_NODE_TYPES.AssignmentExpression
    ) {
      // CommonJS: `module.exports = QuotingHandler` (the module's default), `exports.Queue = Queue`.
      const { left, right } = statement.expression;
      const path = memberPath(left);
      const name =
        path?.length === 2 && path[0] === 'module' && path[1] === 'exports'
          ? 'default'
          : path?.length === 2 && path[0] === 'exports'
            ? path[1]
            : path?.length === 3 && path[0] === 'module' && path[1] === 'exports'
              ? path[2]
              : undefined;
      const value = unwrap(right);
      const cls =
        value.type === AST_NODE_TYPES.ClassExpression
          ? value
          : value.type === AST_NODE_TYPES.Identifier
            ? localClass(value.name)
            : instanceClass(value);
      if (name !== undefined && cls) add(name, cls);
    }
  }
  return found;
}
