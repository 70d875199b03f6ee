import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext, type Scope } from '../ast/context.js';
import { CONTAINERS, declaredTypeOf, type DeclaredTypeTrace, elementTypeOf } from '../ast/declared-types.js';
import { elementParameterIndex, iteratedContainer } from '../ast/iteration.js';
import { isFunction, resolveFunction } from '../ast/function.js';
import { memberName, propertyKeyName } from '../ast/names.js';
import { enclosingFunction, unwrap } from '../ast/nodes.js';
import { pickedByDelivery } from './type-dispatch.js';
import { findVariable, staticString } from '../ast/values.js';
import { forEachNode } from '../ast/walk.js';
import { importSource } from '../modules.js';
import { wrappedFunction } from './lambda.js';
import { callSitesOf } from '../keys/call-sites.js';

/**
 * Typed slots: a function kept in a property of a declared type (`handler` of `JobDefinition`,
 * `run` of `JobConfig`) and called through that property wherever a value of the type is at hand
 * (`definition.handler(…)`, `job.config.run(data)`). A project's own job system dispatches this
 * way: each job is an object literal of the type (`{ …, handler } satisfies JobDefinition`,
 * `job({ name, run })` with `job(config: JobConfig)`), and one processor calls the property of the
 * job a delivery names, so every function kept in the slot runs per delivery of its job. In the
 * type checker's terms a call through a property of `T` may run any function stored in that
 * property of a `T`; without it, types are read by name from what the code declares
 * (ast/declared-types.ts), and a slot is the declaration of `T` and the property's name.
 */

/** A named type as the file that uses it sees it: imported from `specifier` as `name`, or declared here as `name`. */
export interface TypeRef {
  name: string;
  specifier?: string;
}

/** `value.a.b.run(…)` where `value` is declared a `T`: the type and the properties followed to the called one. */
export interface SlotCall {
  type: TypeRef;
  path: string[];
  /**
   * The value was picked out of a container (`definitions[job.name]`, `jobs.find(…)`): the call
   * dispatches to one of several stored functions, as a job system does per delivery, rather than
   * calling a dependency it was handed (`deps.fetch()`).
   */
  dispatched?: true;
  /**
   * Picked by a key the function read from what it was handed (`handlers.get(event.type)`): a
   * dispatch by the type of what it handles (type-dispatch.ts), not a walk over every value.
   */
  picked?: true;
  /**
   * `type` names a value, not a type: the value another module exports (`workers` of
   * `import { workers } from './workers'`), whose declared type that module says
   * ({@link exportedValueTypes}); element-wise when `dispatched`.
   */
  exportedValue?: true;
}

/** Two records of one slot's calls as one: dispatched or picked when either is. */
export function mergeSlotCalls(existing: SlotCall | undefined, slot: SlotCall): SlotCall {
  if (!existing) return slot;
  const merged: SlotCall = { ...slot };
  if (existing.dispatched || slot.dispatched) merged.dispatched = true;
  if (existing.picked || slot.picked) merged.picked = true;
  return merged;
}

/** What a declared object type says of its properties: a function (a slot), or a value of a named type. */
export type SlotMember = TypeRef | 'function';

/** A function stored in property `property` of an object literal of a known type, or handed to a parameter of an imported function. */
export interface SlotValue {
  /** The literal's type, when this file declares it (`satisfies T`, `as T`, `const x: T`, a local function's parameter). */
  type?: TypeRef;
  /** The imported function (or `Class.method`) the literal is handed to, and at which argument. */
  argumentOf?: { specifier: string; imported: string; index: number };
  property: string;
  fn: TSESTree.FunctionLike;
  /** `JOB.handler`, `sendEmail.run`: the binding the literal is kept in, when it has one, and the property. */
  name: string;
}

/** The named type a type annotation names (`Job`, `Job<any>`), with where it comes from. */
function typeRefOf(node: TSESTree.TypeNode | undefined, scope: Scope): TypeRef | undefined {
  if (node?.type !== AST_NODE_TYPES.TSTypeReference || node.typeName.type !== AST_NODE_TYPES.Identifier)
    return undefined;
  return typeNamed(node.typeName, scope);
}

/** The named type an identifier in type position names, with where it comes from. */
function typeNamed(identifier: TSESTree.Identifier, scope: Scope): TypeRef | undefined {
  if (CONTAINERS.has(identifier.name)) return undefined;
  const source = importSource(identifier, scope);
  if (source) return source.imported === '*' ? undefined : { name: source.imported, specifier: source.module };
  const declared = findVariable(scope, identifier)?.defs[0];
  return declared?.type === TSESLint.Scope.DefinitionType.Type ? { name: identifier.name } : undefined;
}

/** The slot a call goes through: `x.p(…)` or `x.a.p(…)` with `x` of a declared named type. */
export function slotCallOf(
  call: TSESTree.CallExpression,
  scope: Scope,
  context?: AnyRuleContext,
): SlotCall | undefined {
  const path: string[] = [];
  let node = unwrap(call.callee);
  while (node.type === AST_NODE_TYPES.MemberExpression && !node.computed) {
    const name = memberName(node);
    if (name === undefined) return undefined;
    path.unshift(name);
    node = unwrap(node.object);
    // `this.service.run()` is an injected service's method, not a slot.
    if (node.type === AST_NODE_TYPES.ThisExpression) return undefined;
    const trace: DeclaredTypeTrace = { element: false };
    const declared = declaredTypeOf(node, scope, trace);
    const own = typeRefOf(declared, scope);
    const imported = own || declared ? undefined : importedValue(trace, scope);
    const type = own ?? imported;
    if (!type) continue;
    const slot: SlotCall = { type, path };
    if (imported) slot.exportedValue = true;
    if (!trace.element && !isElementParameter(node, scope) && !(context && receivesElements(node, scope, context)))
      return slot;
    // `workload.onStarted?.(ctx)`: a hook the stored value may lack, called around the work, not the
    // work the dispatcher runs for it (`workload.process(ctx)`).
    if (call.optional) return slot;
    // `this.notifiers['gift'].sendEmail(…)`: the one element a fixed key names, not a dispatch over the container's.
    if (
      node.type === AST_NODE_TYPES.MemberExpression &&
      node.computed &&
      staticString(node.property, scope) !== undefined
    )
      return slot;
    slot.dispatched = true;
    const fn = enclosingFunction(call);
    if (fn && pickedByDelivery(node, fn, scope)) slot.picked = true;
    return slot;
  }
  return undefined;
}

/**
 * A parameter of a named function that the code hands to an array's iteration method as its
 * callback (`workers.map(toWorker)` with `function toWorker(worker: NotificationWorker)`): it
 * holds one element of the container each time, as the inline callback's parameter would.
 */
function isElementParameter(node: TSESTree.Node, scope: Scope): boolean {
  if (node.type !== AST_NODE_TYPES.Identifier) return false;
  const def = findVariable(scope, node)?.defs[0];
  if (def?.type !== TSESLint.Scope.DefinitionType.Parameter) return false;
  const fn = def.node;
  const index = fn.params.findIndex((param) => param === def.name);
  const name =
    fn.type === AST_NODE_TYPES.FunctionDeclaration
      ? fn.id
      : fn.parent.type === AST_NODE_TYPES.VariableDeclarator && fn.parent.id.type === AST_NODE_TYPES.Identifier
        ? fn.parent.id
        : undefined;
  if (!name || index < 0) return false;
  const variable = findVariable(scope, name);
  return (variable?.references ?? []).some((reference) => {
    const call = reference.identifier.parent;
    if (call.type !== AST_NODE_TYPES.CallExpression || call.arguments[0] !== reference.identifier) return false;
    const callee = unwrap(call.callee);
    const method = callee.type === AST_NODE_TYPES.MemberExpression ? memberName(callee) : undefined;
    return method !== undefined && elementParameterIndex(method) === index;
  });
}

/** A `for…of` loop's variable, or the element parameter of an iteration method's inline callback. */
function isIterationElement(node: TSESTree.Node, scope: Scope): boolean {
  const def = node.type === AST_NODE_TYPES.Identifier ? findVariable(scope, node)?.defs[0] : undefined;
  return def !== undefined && iteratedContainer(def) !== undefined;
}

/**
 * A parameter of a function every call of which (in this file, the function not called from
 * elsewhere) hands it an element of a container: `for (const workload of this.workloads.values())
 * await this.startWorkload(workload)` with a private `startWorkload(workload: Workload)`. It holds
 * one stored value after another, as an iteration's variable does.
 */
function receivesElements(node: TSESTree.Node, scope: Scope, context: AnyRuleContext): boolean {
  if (node.type !== AST_NODE_TYPES.Identifier) return false;
  const def = findVariable(scope, node)?.defs[0];
  if (def?.type !== TSESLint.Scope.DefinitionType.Parameter) return false;
  const fn = def.node;
  if (!isFunction(fn)) return false;
  const index = fn.params.findIndex((param) => param === def.name);
  const sites = index < 0 ? undefined : callSitesOf(fn, context);
  if (!sites || sites.escapes || sites.calls.length === 0) return false;
  return sites.calls.every((call) => {
    const argument = call.arguments[index];
    return argument !== undefined && isIterationElement(unwrap(argument), context.sourceCode.getScope(call));
  });
}

/** The import a declared type could not be read past, as a value of another module: its declaration says its type. */
function importedValue(trace: DeclaredTypeTrace, scope: Scope): TypeRef | undefined {
  if (!trace.imported) return undefined;
  const source = importSource(trace.imported, scope);
  if (!source || source.imported === '*') return undefined;
  return { name: source.imported, specifier: source.module };
}

/** Utility types whose first argument is the type they make a variant of (`Omit<Job, 'id'>` is still a `Job`'s shape). */
const VARIANT_OF = new Set(['Omit', 'Pick', 'Partial', 'Required', 'Readonly']);

/**
 * The type aliases this file declares, each with the named types its value is made of:
 * `type TypedWorker<T> = Conditional<T>` and `type Conditional<T> = X extends Y ? Omit<Worker<T>,
 * 'p'> & { p: P } : Worker<T>` both lead to `Worker` (through the branches of a conditional type,
 * the members of an intersection or a union, and the type a utility type is a variant of). A value
 * declared with the alias is a value of each of them, so it fills their slots.
 */
export function typeAliasesOf(program: TSESTree.Program, context: AnyRuleContext): Map<string, TypeRef[]> {
  const aliases = new Map<string, TypeRef[]>();
  for (const statement of program.body) {
    const declaration =
      statement.type === AST_NODE_TYPES.ExportNamedDeclaration ? (statement.declaration ?? statement) : statement;
    if (declaration.type !== AST_NODE_TYPES.TSTypeAliasDeclaration) continue;
    const scope = context.sourceCode.getScope(declaration);
    const found: TypeRef[] = [];
    const visit = (node: TSESTree.TypeNode): void => {
      switch (node.type) {
        case AST_NODE_TYPES.TSConditionalType:
          visit(node.trueType);
          visit(node.falseType);
          return;
        case AST_NODE_TYPES.TSIntersectionType:
        case AST_NODE_TYPES.TSUnionType:
          node.types.forEach(visit);
          return;
        case AST_NODE_TYPES.TSTypeReference: {
          if (node.typeName.type !== AST_NODE_TYPES.Identifier) return;
          const [first] = node.typeArguments?.params ?? [];
          if (VARIANT_OF.has(node.typeName.name) && first) {
            visit(first);
            return;
          }
          const type = typeNamed(node.typeName, scope);
          if (type && !found.some((known) => known.name === type.name && known.specifier === type.specifier))
            found.push(type);
          return;
        }
        default:
          return;
      }
    };
    visit(declaration.typeAnnotation);
    if (found.length > 0) aliases.set(declaration.id.name, found);
  }
  return aliases;
}

/**
 * The named types of this file's exported values as their declarations spell them, of each
 * element for a container (`export const workers: Worker[] = [...]` gives `Worker`): what a slot
 * called on a value another module imports ({@link SlotCall.exportedValue}) goes through.
 */
export function exportedValueTypes(program: TSESTree.Program, context: AnyRuleContext): Map<string, TypeRef> {
  const found = new Map<string, TypeRef>();
  for (const statement of program.body) {
    if (statement.type !== AST_NODE_TYPES.ExportNamedDeclaration) continue;
    const declaration = statement.declaration;
    if (declaration?.type !== AST_NODE_TYPES.VariableDeclaration) continue;
    const scope = context.sourceCode.getScope(declaration);
    for (const declarator of declaration.declarations) {
      const annotation = declarator.id.typeAnnotation?.typeAnnotation;
      if (declarator.id.type !== AST_NODE_TYPES.Identifier || !annotation) continue;
      const type = typeRefOf(elementTypeOf(annotation) ?? annotation, scope);
      if (type) found.set(declarator.id.name, type);
    }
  }
  return found;
}

/**
 * The object types this file declares (`interface T { … }`, `type T = { … }`), each with its
 * function-valued properties and the properties of a named type (`config: JobConfig<P>`).
 */
export function slotTypesOf(program: TSESTree.Program, context: AnyRuleContext): Map<string, Map<string, SlotMember>> {
  const types = new Map<string, Map<string, SlotMember>>();
  for (const statement of program.body) {
    const declaration =
      statement.type === AST_NODE_TYPES.ExportNamedDeclaration ? (statement.declaration ?? statement) : statement;
    let members: readonly TSESTree.TypeElement[] | undefined;
    let id: string | undefined;
    if (declaration.type === AST_NODE_TYPES.TSInterfaceDeclaration) {
      members = declaration.body.body;
      id = declaration.id.name;
    } else if (
      declaration.type === AST_NODE_TYPES.TSTypeAliasDeclaration &&
      declaration.typeAnnotation.type === AST_NODE_TYPES.TSTypeLiteral
    ) {
      members = declaration.typeAnnotation.members;
      id = declaration.id.name;
    }
    if (!members || id === undefined) continue;
    const scope = context.sourceCode.getScope(declaration);
    const found = new Map<string, SlotMember>();
    for (const member of members) {
      if (
        (member.type !== AST_NODE_TYPES.TSPropertySignature && member.type !== AST_NODE_TYPES.TSMethodSignature) ||
        member.computed ||
        member.key.type !== AST_NODE_TYPES.Identifier
      )
        continue;
      const name = member.key.name;
      if (member.type === AST_NODE_TYPES.TSMethodSignature) {
        found.set(name, 'function');
        continue;
      }
      const annotation = member.typeAnnotation?.typeAnnotation;
      if (annotation?.type === AST_NODE_TYPES.TSFunctionType) found.set(name, 'function');
      else {
        const type = typeRefOf(annotation, scope);
        if (type) found.set(name, type);
      }
    }
    if (found.size > 0) types.set(id, found);
  }
  return types;
}

/** The named types of a function's parameters, by position (for callers that hand it object literals). */
export function parameterTypesOf(fn: TSESTree.FunctionLike, scope: Scope): (TypeRef | null)[] | undefined {
  const types = fn.params.map((param) => {
    const target = param.type === AST_NODE_TYPES.AssignmentPattern ? param.left : param;
    return ('typeAnnotation' in target && typeRefOf(target.typeAnnotation?.typeAnnotation, scope)) || null;
  });
  return types.some((type) => type !== null) ? types : undefined;
}

/**
 * The functions this file stores in typed slots: the function properties of object literals
 * whose type it names (`{ … } satisfies T`, `{ … } as T`, `const x: T = { … }`, an argument of a
 * local function whose parameter is a `T`) or that it hands to an imported function, whose
 * parameter's type the whole-program pass looks up.
 */
export function slotValuesOf(program: TSESTree.Program, context: AnyRuleContext): SlotValue[] {
  const values: SlotValue[] = [];
  forEachNode(program, context, (node) => {
    if (node.type === AST_NODE_TYPES.ClassDeclaration || node.type === AST_NODE_TYPES.ClassExpression) {
      values.push(...implementedSlots(node, context));
      return;
    }
    if (node.type !== AST_NODE_TYPES.ObjectExpression) return;
    const typing = typingOf(node, context);
    if (!typing) return;
    const holder = holderName(node);
    for (const property of node.properties) {
      if (property.type !== AST_NODE_TYPES.Property || property.kind !== 'init') continue;
      const name = propertyKeyName(property);
      const scope = context.sourceCode.getScope(property.value);
      const fn = resolveFunction(property.value, scope) ?? wrappedFunction(property.value, context);
      if (name === undefined || !fn) continue;
      values.push({ ...typing, property: name, fn, name: holder === undefined ? name : `${holder}.${name}` });
    }
  });
  return values;
}

/**
 * A class that implements a named type keeps its methods in that type's slots: an instance is a
 * value of the type, so a call through the type's method (`handler.handle(event)` on a
 * `DomainEventHandlerInterface` picked from a `Map` by the event's type) may run the method of
 * any class that implements it (TypeScript's structural typing allows more; what the code
 * declares with `implements` is what is read here).
 */
function implementedSlots(
  node: TSESTree.ClassDeclaration | TSESTree.ClassExpression,
  context: AnyRuleContext,
): SlotValue[] {
  const implemented = node.implements;
  if (implemented.length === 0) return [];
  const scope = context.sourceCode.getScope(node);
  const types = implemented.flatMap((clause) => {
    const type = clause.expression.type === AST_NODE_TYPES.Identifier ? typeNamed(clause.expression, scope) : undefined;
    return type ? [type] : [];
  });
  const className = node.id?.name;
  return types.flatMap((type) =>
    node.body.body.flatMap((member) => {
      if (member.type !== AST_NODE_TYPES.MethodDefinition || member.kind !== 'method' || member.static) return [];
      const name = propertyKeyName(member);
      if (name === undefined) return [];
      return [
        { type, property: name, fn: member.value, name: className === undefined ? name : `${className}.${name}` },
      ];
    }),
  );
}

/** How many functions a returned literal's type is looked for through (`Effect.gen(function* () { return { … } })`). */
const RETURN_DEPTH = 3;

/**
 * The type a function declares it returns, for the object literal it returns: `(): QueueConsumer
 * => ({ … })`, `(): Promise<QueueConsumer>`, and through a callback whose result the function
 * returns (`(): Effect.Effect<QueueConsumer> => Effect.gen(function* () { return { … } })`, a
 * generator a library runs for it). The first named type of the project in the annotation, its
 * wrappers' type arguments read in order.
 */
function returnedType(node: TSESTree.Node, context: AnyRuleContext): TypeRef | undefined {
  let value: TSESTree.Node = node;
  for (let depth = 0; depth < RETURN_DEPTH; depth++) {
    const parent = value.parent;
    let fn: TSESTree.FunctionLike | undefined;
    if (parent?.type === AST_NODE_TYPES.ReturnStatement) fn = enclosingFunction(parent);
    else if (parent?.type === AST_NODE_TYPES.ArrowFunctionExpression && parent.body === value) fn = parent;
    if (!fn) return undefined;
    const annotation = fn.returnType?.typeAnnotation;
    if (annotation) return namedTypeIn(annotation, context.sourceCode.getScope(fn));
    // The function is a callback whose result the call around it gives back: follow that call.
    const call = fn.parent;
    if (call.type !== AST_NODE_TYPES.CallExpression || !call.arguments.some((argument) => argument === fn))
      return undefined;
    value = call;
  }
  return undefined;
}

/** `T`, or the first such name among a wrapper's type arguments (`Promise<T>`, `Effect.Effect<T, E>`). */
function namedTypeIn(node: TSESTree.TypeNode, scope: Scope, depth = 0): TypeRef | undefined {
  if (node.type !== AST_NODE_TYPES.TSTypeReference || depth > 2) return undefined;
  const named = typeRefOf(node, scope);
  if (named) return named;
  for (const argument of node.typeArguments?.params ?? []) {
    const inner = namedTypeIn(argument, scope, depth + 1);
    if (inner) return inner;
  }
  return undefined;
}

/**
 * The member of a declared type a function of the file implements: the function is a property of
 * an object literal whose type is known (`return { start, subscribe }` from a function declared
 * to return a `QueueConsumer`), by itself or through the `const` that holds it.
 */
export function slotOfFunction(
  fn: TSESTree.FunctionLike,
  context: AnyRuleContext,
): { type: TypeRef; member: string } | undefined {
  const holders: TSESTree.Node[] = [fn];
  if (fn.parent.type === AST_NODE_TYPES.VariableDeclarator && fn.parent.id.type === AST_NODE_TYPES.Identifier) {
    const variable = findVariable(context.sourceCode.getScope(fn.parent), fn.parent.id);
    for (const reference of variable?.references ?? []) if (!reference.init) holders.push(reference.identifier);
  }
  for (const holder of holders) {
    const property = holder.parent;
    if (property?.type !== AST_NODE_TYPES.Property || property.value !== holder || property.kind !== 'init') continue;
    const object = property.parent;
    if (object.type !== AST_NODE_TYPES.ObjectExpression) continue;
    const member = propertyKeyName(property);
    const type = typingOf(object, context)?.type;
    if (member !== undefined && type) return { type, member };
  }
  return undefined;
}

/** How an object literal's type is known: named around it, or by the parameter it is handed to. */
function typingOf(
  object: TSESTree.ObjectExpression,
  context: AnyRuleContext,
): Pick<SlotValue, 'type' | 'argumentOf'> | undefined {
  // `{ … } as const satisfies T`: the outermost named type.
  let node: TSESTree.Node = object;
  let type: TypeRef | undefined;
  while (
    node.parent.type === AST_NODE_TYPES.TSSatisfiesExpression ||
    node.parent.type === AST_NODE_TYPES.TSAsExpression
  ) {
    node = node.parent;
    type = typeRefOf(node.typeAnnotation, context.sourceCode.getScope(node)) ?? type;
  }
  if (type) return { type };
  const parent = node.parent;
  if (parent.type === AST_NODE_TYPES.VariableDeclarator && parent.id.type === AST_NODE_TYPES.Identifier) {
    const declared = typeRefOf(parent.id.typeAnnotation?.typeAnnotation, context.sourceCode.getScope(parent));
    return declared && { type: declared };
  }
  const returned = returnedType(node, context);
  if (returned) return { type: returned };
  if (parent.type !== AST_NODE_TYPES.CallExpression && parent.type !== AST_NODE_TYPES.NewExpression) return undefined;
  const index = parent.arguments.findIndex((argument) => argument === node);
  if (index < 0) return undefined;
  const scope = context.sourceCode.getScope(parent);
  const callee = unwrap(parent.callee);
  const local = resolveFunction(callee, scope);
  if (local) {
    const declared = parameterTypesOf(local, context.sourceCode.getScope(local))?.[index];
    return declared ? { type: declared } : undefined;
  }
  if (callee.type !== AST_NODE_TYPES.Identifier) return undefined;
  const source = importSource(callee, scope);
  return source && source.imported !== '*'
    ? { argumentOf: { specifier: source.module, imported: source.imported, index } }
    : undefined;
}

/** The binding an object literal is kept in: `const JOB = { … }`, `export const sendEmail = job({ … })`. */
function holderName(object: TSESTree.ObjectExpression): string | undefined {
  let node: TSESTree.Node = object;
  while (
    node.parent.type === AST_NODE_TYPES.TSSatisfiesExpression ||
    node.parent.type === AST_NODE_TYPES.TSAsExpression ||
    ((node.parent.type === AST_NODE_TYPES.CallExpression || node.parent.type === AST_NODE_TYPES.NewExpression) &&
      node.parent.arguments.some((argument) => argument === node))
  )
    node = node.parent;
  const parent = node.parent;
  return parent.type === AST_NODE_TYPES.VariableDeclarator && parent.id.type === AST_NODE_TYPES.Identifier
    ? parent.id.name
    : undefined;
}
