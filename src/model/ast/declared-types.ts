import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';

import { type Scope } from './context.js';
import { enclosingClassBody, thisFieldDeclarations } from './class-fields.js';
import { ITERATION_METHODS } from './iteration.js';
import { memberName } from './names.js';
import { unwrap } from './nodes.js';
import { findVariable } from './values.js';
import { CALLBACK_PARAMETER_TYPES } from '../libraries/plugin-options.js';

/**
 * Declared types read from the code's own annotations, without the type checker: the type a
 * parameter, a variable or a class field is declared with, and the element type of the arrays,
 * records and maps of it (`jobs: Array<Job>` → `jobs.find(…)` is a `Job`; `defs: Record<string,
 * JobDefinition>` → `defs[id]` is a `JobDefinition`). What TypeScript infers and nobody wrote is
 * not seen: this answers only where the code spells a type out.
 */

/** Generic containers whose last type argument is their element: what indexing, `get`, `find` and `for…of` give. */
export const CONTAINERS: ReadonlyMap<string, number> = new Map([
  ['Array', 1],
  ['ReadonlyArray', 1],
  ['Set', 1],
  ['ReadonlySet', 1],
  ['Record', 2],
  ['Map', 2],
  ['ReadonlyMap', 2],
  ['WeakMap', 2],
  ['Partial', 1],
]);

/**
 * A dependency-injection container's lookup, whose one type argument the code writes is what it
 * hands back: awilix's `container.resolve<T>(name): T`, inversify's `container.get<T>(id): T`,
 * tsyringe's `container.resolve<T>(token): T`, NestJS's `moduleRef.get<T>(token)` (their
 * declarations: awilix `AwilixContainer.resolve`, inversify `interfaces.Container.get`, tsyringe
 * `DependencyContainer.resolve`, `@nestjs/core` `ModuleRef.get`).
 */
const LOOKUP_METHODS = new Set(['resolve', 'get']);

/** The type a container lookup (`container.resolve<T>(…)`) says it hands back, or undefined for any other call. */
export function containerLookupType(call: TSESTree.CallExpression): TSESTree.TypeNode | undefined {
  const callee = unwrap(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression || !LOOKUP_METHODS.has(memberName(callee) ?? ''))
    return undefined;
  const [only, ...others] = call.typeArguments?.params ?? [];
  return others.length === 0 ? only : undefined;
}

/** Methods of arrays and maps that return one element of the receiver. */
const ELEMENT_METHODS = new Set(['find', 'findLast', 'at', 'get', 'pop', 'shift']);

/** The element type of a container type: `T[]`, `Array<T>`, `Record<K, T>`, `Map<K, T>`, `{ [key: string]: T }`. */
export function elementTypeOf(node: TSESTree.TypeNode): TSESTree.TypeNode | undefined {
  if (node.type === AST_NODE_TYPES.TSArrayType) return node.elementType;
  if (node.type === AST_NODE_TYPES.TSTypeOperator && node.operator === 'readonly' && node.typeAnnotation)
    return elementTypeOf(node.typeAnnotation);
  if (node.type === AST_NODE_TYPES.TSTypeLiteral) {
    const [only] = node.members;
    return node.members.length === 1 && only?.type === AST_NODE_TYPES.TSIndexSignature
      ? only.typeAnnotation?.typeAnnotation
      : undefined;
  }
  if (node.type !== AST_NODE_TYPES.TSTypeReference || node.typeName.type !== AST_NODE_TYPES.Identifier)
    return undefined;
  const name = node.typeName.name;
  const params = node.typeArguments?.params ?? [];
  const count = CONTAINERS.get(name);
  if (count === undefined || params.length !== count) return undefined;
  const last = params[count - 1];
  // `Partial<Record<K, T>>` keeps the record's elements.
  return name === 'Partial' && last ? elementTypeOf(last) : last;
}

/** How a declared type was found: `element` when the value is one element taken out of a container. */
export interface DeclaredTypeTrace {
  element: boolean;
  /**
   * Where no annotation of this file answers because the value comes from an import (`workers` of
   * `import { workers } from './workers'`): that binding, whose module's own declaration may tell.
   */
  imported?: TSESTree.Identifier;
}

/**
 * The type annotation that declares what `expression` is: a parameter's or a variable's own, a
 * class field's (`this.defs`), or the element type of the container it was taken from
 * (`defs[id]`, `jobs.find(…)`, `for (const job of jobs)`, the parameter of `jobs.find((job) => …)`).
 */
export function declaredTypeOf(
  expression: TSESTree.Node,
  scope: Scope,
  trace: DeclaredTypeTrace = { element: false },
  seen = new Set<TSESTree.Node>(),
): TSESTree.TypeNode | undefined {
  const target = unwrap(expression);
  if (seen.has(target)) return undefined;
  seen.add(target);
  if (target.type === AST_NODE_TYPES.MemberExpression) {
    if (target.computed) {
      const container = declaredTypeOf(target.object, scope, trace, seen);
      return elementOf(container, trace);
    }
    if (unwrap(target.object).type === AST_NODE_TYPES.ThisExpression) return fieldType(target);
    // A property of an object of a declared type (`opts.billing` with `opts: { billing: BillingService }`).
    const name = memberName(target);
    const container = name === undefined ? undefined : declaredTypeOf(target.object, scope, trace, seen);
    return container && propertyType(container, name ?? '', scope);
  }
  if (target.type === AST_NODE_TYPES.CallExpression) {
    const callee = unwrap(target.callee);
    if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
    const looked = containerLookupType(target);
    if (looked) return looked;
    const method = memberName(callee);
    if (method === undefined || !ELEMENT_METHODS.has(method)) return undefined;
    const container = declaredTypeOf(callee.object, scope, trace, seen);
    return elementOf(container, trace);
  }
  if (target.type !== AST_NODE_TYPES.Identifier) return undefined;
  const variable = findVariable(scope, target);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (!def) return undefined;
  if (def.type === TSESLint.Scope.DefinitionType.ImportBinding) {
    trace.imported = target;
    return undefined;
  }
  if (def.type === TSESLint.Scope.DefinitionType.Parameter) return parameterType(def.name, scope, trace, seen);
  if (def.node.type !== AST_NODE_TYPES.VariableDeclarator || def.node.id.type !== AST_NODE_TYPES.Identifier)
    return undefined;
  const own = def.node.id.typeAnnotation?.typeAnnotation;
  if (own) return own;
  const loop = def.node.parent.parent;
  if (loop.type === AST_NODE_TYPES.ForOfStatement && loop.left === def.node.parent) {
    const container = declaredTypeOf(loop.right, scope, trace, seen);
    return elementOf(container, trace);
  }
  if (variable && variable.references.filter((reference) => reference.isWrite()).length > 1) return undefined;
  return def.node.init ? declaredTypeOf(def.node.init, scope, trace, seen) : undefined;
}

/**
 * The element type of a container, noting on the trace that the value is one element of several
 * (also when the container is an import whose type another module declares).
 */
function elementOf(container: TSESTree.TypeNode | undefined, trace: DeclaredTypeTrace): TSESTree.TypeNode | undefined {
  if (!container) {
    if (trace.imported) trace.element = true;
    return undefined;
  }
  const element = elementTypeOf(container);
  if (element) trace.element = true;
  return element;
}

/** A parameter's annotation, or for the callback of an iteration (`jobs.find((job) => …)`) the receiver's element type. */
function parameterType(
  name: TSESTree.BindingName,
  scope: Scope,
  trace: DeclaredTypeTrace,
  seen: Set<TSESTree.Node>,
): TSESTree.TypeNode | undefined {
  if (name.type !== AST_NODE_TYPES.Identifier) return undefined;
  if (name.typeAnnotation) return name.typeAnnotation.typeAnnotation;
  const destructured = destructuredMemberType(name, scope);
  if (destructured) return destructured;
  const fn = name.parent;
  const contextual = contextualParameterType(fn, name);
  if (contextual) return contextual;
  if (
    (fn.type !== AST_NODE_TYPES.ArrowFunctionExpression && fn.type !== AST_NODE_TYPES.FunctionExpression) ||
    fn.params[0] !== name
  )
    return undefined;
  const call = fn.parent;
  if (call.type !== AST_NODE_TYPES.CallExpression || call.arguments[0] !== fn) return undefined;
  const callee = unwrap(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const method = memberName(callee);
  if (method === undefined || (!ITERATION_METHODS.has(method) && !ELEMENT_METHODS.has(method))) return undefined;
  const container = declaredTypeOf(callee.object, scope, trace, seen);
  return elementOf(container, trace);
}

/**
 * A parameter typed by the function type its function is declared with (libraries/plugin-options.ts):
 * `opts` of `const plugin: FastifyPluginCallback<Options> = function (fastify, opts, done) { … }`.
 */
function contextualParameterType(fn: TSESTree.Node, name: TSESTree.Identifier): TSESTree.TypeNode | undefined {
  if (fn.type !== AST_NODE_TYPES.ArrowFunctionExpression && fn.type !== AST_NODE_TYPES.FunctionExpression)
    return undefined;
  const declarator = fn.parent;
  if (declarator.type !== AST_NODE_TYPES.VariableDeclarator || declarator.init !== fn) return undefined;
  const annotation = declarator.id.typeAnnotation?.typeAnnotation;
  const typed = CALLBACK_PARAMETER_TYPES.get(typeReferenceName(annotation) ?? '');
  if (!typed || annotation?.type !== AST_NODE_TYPES.TSTypeReference || fn.params[typed.parameter] !== name)
    return undefined;
  return annotation.typeArguments?.params[typed.typeArgument];
}

/** The type a property is declared with in an object type literal, or the interface or object type alias a reference names. */
function propertyType(container: TSESTree.TypeNode, name: string, scope: Scope): TSESTree.TypeNode | undefined {
  for (const member of objectTypeMembers(container, scope))
    if (
      member.type === AST_NODE_TYPES.TSPropertySignature &&
      !member.computed &&
      member.key.type === AST_NODE_TYPES.Identifier &&
      member.key.name === name
    )
      return member.typeAnnotation?.typeAnnotation;
  return undefined;
}

/**
 * The type a destructured parameter's property is declared with in the pattern's object type: `consumer`
 * of `({ consumer }: { consumer: QueueConsumer })`, or of `({ consumer }: Deps)` with `Deps` an
 * interface or an object type alias of the file.
 */
function destructuredMemberType(name: TSESTree.Identifier, scope: Scope): TSESTree.TypeNode | undefined {
  const property = name.parent;
  if (property.type !== AST_NODE_TYPES.Property || property.value !== name) return undefined;
  const pattern = property.parent;
  if (pattern.type !== AST_NODE_TYPES.ObjectPattern) return undefined;
  const declared = pattern.typeAnnotation?.typeAnnotation;
  const key = property.key.type === AST_NODE_TYPES.Identifier && !property.computed ? property.key.name : undefined;
  return declared && key !== undefined ? propertyType(declared, key, scope) : undefined;
}

/** The members of an object type literal, or of the interface or object type alias of the file a reference names. */
function objectTypeMembers(node: TSESTree.TypeNode | undefined, scope: Scope): readonly TSESTree.TypeElement[] {
  if (node?.type === AST_NODE_TYPES.TSTypeLiteral) return node.members;
  if (node?.type !== AST_NODE_TYPES.TSTypeReference || node.typeName.type !== AST_NODE_TYPES.Identifier) return [];
  const declaration = findVariable(scope, node.typeName)?.defs[0]?.node;
  if (declaration?.type === AST_NODE_TYPES.TSInterfaceDeclaration) return declaration.body.body;
  if (
    declaration?.type === AST_NODE_TYPES.TSTypeAliasDeclaration &&
    declaration.typeAnnotation.type === AST_NODE_TYPES.TSTypeLiteral
  )
    return declaration.typeAnnotation.members;
  return [];
}

/** The declared type of `this.name`: the class field's annotation, or a constructor parameter property's. */
function fieldType(member: TSESTree.MemberExpression): TSESTree.TypeNode | undefined {
  const name = memberName(member);
  const body = enclosingClassBody(member);
  if (name === undefined || !body) return undefined;
  const [first] = thisFieldDeclarations(body, name);
  return first?.typeAnnotation?.typeAnnotation;
}

/** The last name of a type reference (`Stripe`, `Route.ActionArgs` → `ActionArgs`), or undefined for another type. */
export function typeReferenceName(node: TSESTree.TypeNode | undefined): string | undefined {
  if (node?.type !== AST_NODE_TYPES.TSTypeReference) return undefined;
  const typeName = node.typeName;
  if (typeName.type === AST_NODE_TYPES.TSQualifiedName) return typeName.right.name;
  return typeName.type === AST_NODE_TYPES.Identifier ? typeName.name : undefined;
}
