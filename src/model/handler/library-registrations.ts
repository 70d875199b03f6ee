import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { type AnyRuleContext, type Scope } from '../ast/context.js';
import { memberName, memberPath } from '../ast/names.js';
import { unwrap } from '../ast/nodes.js';
import { findProperty, findVariable, origin, resolveValue, staticString, writtenProperty } from '../ast/values.js';
import { DELIVERY_LIBRARIES, type LibraryBroker } from '../libraries/index.js';
import type { DeliveryLibrary, QueuePlace, Registration } from '../libraries/library.js';
import { importSource } from '../modules.js';
import type { ConsumerHandler } from './consumer-handler.js';
import { tableHandlers } from './handler-tables.js';
import { resolveHandlerFunction, thisFieldFunction } from './methods.js';
import { resolveFunction, returnedFunction, returnedObject } from '../ast/function.js';

/**
 * The one reader of the libraries' registrations (libraries/index.ts): which library a call hands
 * a handler to, the handler and the queue's name, as the library's rows say. No library is named
 * here; a row says how its call is written and where its handler is.
 */

/** The names a registering call can have, from every library's rows: the cheap gate before the scope work. */
export const REGISTERING_NAMES = (() => {
  const methods = new Set<string>();
  const constructors = new Set<string>();
  const functions = new Set<string>();
  const constructorModules = new Set<string>();
  for (const library of DELIVERY_LIBRARIES) {
    for (const { call } of library.registrations) {
      if ('method' in call) for (const name of call.method) methods.add(name);
      if ('function' in call) for (const name of call.function) functions.add(name);
      if ('new' in call) {
        for (const name of call.new) constructors.add(name);
        for (const module of library.modules) constructorModules.add(module);
      }
    }
  }
  return { methods, constructors, functions, constructorModules: [...constructorModules] };
})();

/** The handlers a call registers with a library, by the first row whose values are functions of this file. */
export function libraryRegistrations(
  call: TSESTree.CallExpression | TSESTree.NewExpression,
  context: AnyRuleContext,
  imports: ReadonlySet<string>,
): ConsumerHandler[] {
  const scope = context.sourceCode.getScope(call);
  for (const { library, registration, receiver, values } of rowMatches(call, context, imports)) {
    const test = registration.handlerTest;
    const handlers = values.flatMap(({ node, queue, entry }) =>
      (entry ? [resolveHandlerFunction(node, scope)].filter((fn) => fn !== undefined) : handlerFunctions(node, context))
        .filter((fn) => !test || (receiver !== undefined && test(fn, receiver, context, imports)))
        .map((fn) => ({ fn, broker: library.broker, queue, registration: call, messageParam: fn.params[0] })),
    );
    if (handlers.length > 0) return handlers;
  }
  return [];
}

/**
 * What a call hands a library as handlers, by the first row that matches and hands something: each
 * value (an argument, an option, an entry of a table of tasks) with its queue's name, unresolved.
 * The whole-program pass reads here the handlers a file imports from another module.
 */
export function libraryHandlerValues(
  call: TSESTree.CallExpression | TSESTree.NewExpression,
  context: AnyRuleContext,
  imports: ReadonlySet<string>,
  resolve: (node: TSESTree.Node) => boolean,
): { broker: LibraryBroker; values: HandedValue[] } | undefined {
  for (const { library, registration, values } of rowMatches(call, context, imports)) {
    // A row that must see the handler itself (Pub/Sub's ack) cannot judge one of another module.
    if (registration.handlerTest) continue;
    const handed = values.filter(({ node }) => resolve(node));
    if (handed.length > 0) return { broker: library.broker, values: handed };
  }
  return undefined;
}

/** A value a registration hands the library, with its queue's name; `entry` for an entry of a table of tasks. */
interface HandedValue {
  node: TSESTree.Node;
  queue: string | undefined;
  entry?: true;
}

/** Each row that matches the call, in the libraries' order, with the values it hands. */
function* rowMatches(
  call: TSESTree.CallExpression | TSESTree.NewExpression,
  context: AnyRuleContext,
  imports: ReadonlySet<string>,
): Generator<{
  library: DeliveryLibrary<LibraryBroker>;
  registration: Registration;
  receiver: TSESTree.Node | undefined;
  values: HandedValue[];
}> {
  // One scope for every row: the rows ask about the same call.
  const scope = context.sourceCode.getScope(call);
  for (const library of DELIVERY_LIBRARIES as readonly DeliveryLibrary<LibraryBroker>[]) {
    for (const registration of library.registrations) {
      const receiver = matchedReceiver(call, library, registration, scope, context, imports);
      if (receiver === false) continue;
      const values = handedValues(call, registration, receiver, scope);
      if (values.length > 0) yield { library, registration, receiver, values };
    }
  }
}

/** A variable annotated with a library's type of a task table: each function of its initialiser is a handler. */
export function annotatedTaskTable(
  declarator: TSESTree.VariableDeclarator,
  context: AnyRuleContext,
): ConsumerHandler[] {
  const type =
    declarator.id.type === AST_NODE_TYPES.Identifier ? declarator.id.typeAnnotation?.typeAnnotation : undefined;
  if (type?.type !== AST_NODE_TYPES.TSTypeReference || type.typeName.type !== AST_NODE_TYPES.Identifier) return [];
  if (!declarator.init) return [];
  const scope = context.sourceCode.getScope(declarator);
  const source = importSource(type.typeName, scope);
  const library = DELIVERY_LIBRARIES.find(
    (candidate: DeliveryLibrary<LibraryBroker>) =>
      source && candidate.modules.includes(source.module) && candidate.taskTables?.includes(source.imported),
  );
  if (!library) return [];
  return tableEntries(declarator.init, scope).flatMap(({ node, queue }) => {
    const fn = resolveHandlerFunction(node, scope);
    return fn ? [{ fn, broker: library.broker, queue, registration: declarator, messageParam: fn.params[0] }] : [];
  });
}

/**
 * A function declared or cast with a library's type of one task (`const task: Task = async (payload,
 * helpers) => …`, `handler as Task`): a handler of that library.
 */
export function typedTask(
  node: TSESTree.VariableDeclarator | TSESTree.TSAsExpression,
  context: AnyRuleContext,
): ConsumerHandler | undefined {
  const type =
    node.type === AST_NODE_TYPES.TSAsExpression
      ? node.typeAnnotation
      : node.id.type === AST_NODE_TYPES.Identifier
        ? node.id.typeAnnotation?.typeAnnotation
        : undefined;
  const value = node.type === AST_NODE_TYPES.TSAsExpression ? node.expression : node.init;
  if (type?.type !== AST_NODE_TYPES.TSTypeReference || type.typeName.type !== AST_NODE_TYPES.Identifier || !value)
    return undefined;
  const scope = context.sourceCode.getScope(node);
  const source = importSource(type.typeName, scope);
  const library = DELIVERY_LIBRARIES.find(
    (candidate: DeliveryLibrary<LibraryBroker>) =>
      source !== undefined &&
      ((candidate.modules.includes(source.module) && candidate.taskTypes?.includes(source.imported)) ||
        candidate.taskTypeModules?.includes(source.module)),
  );
  const fn = library && resolveHandlerFunction(value, scope);
  return library && fn
    ? { fn, broker: library.broker, queue: undefined, registration: node, messageParam: fn.params[0] }
    : undefined;
}

/** The values a matched row's call hands the library: its handler argument, options or table entries. */
function handedValues(
  call: TSESTree.CallExpression | TSESTree.NewExpression,
  registration: Registration,
  receiver: TSESTree.Node | undefined,
  scope: Scope,
): HandedValue[] {
  const args = call.arguments;
  const { min = 0, max = Infinity } = registration.arguments ?? {};
  if (args.length < min || args.length > max) return [];
  const event = registration.event;
  const named = event && args[event.index];
  if (event && (!named || staticString(named, scope) !== event.value)) return [];
  const place = registration.handler;
  const node = place.argument === 'last' ? args.at(-1) : args[place.argument];
  if (!node) return [];
  const queue = queueName(registration.queue, call, receiver, scope);
  const take = (value: TSESTree.Node): HandedValue[] =>
    place.table ? tableEntries(value, scope) : [{ node: value, queue }];
  if (!place.property) return take(node);
  const options = resolveValue(node, scope);
  if (options.type !== AST_NODE_TYPES.ObjectExpression) return [];
  // A name may be a path into nested options (`subscription.onSubscriptionDeleted`). An option
  // written in place is the library's, whatever configuration is spread beside it.
  const option = (path: string): TSESTree.Node | undefined => {
    let value: TSESTree.Node | undefined = options;
    for (const name of path.split('.')) {
      const object: TSESTree.Node | undefined = value && resolveValue(value, scope);
      if (object?.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
      value = writtenProperty(object, (key) => key === name, scope)?.value;
    }
    return value;
  };
  if (!(registration.options ?? []).every((name) => option(name) !== undefined)) return [];
  return place.property.flatMap((name) => {
    const value = option(name);
    return value ? take(value) : [];
  });
}

/** The call's receiver when the row's call shape and receiver test match (undefined for a call without one), or false. */
function matchedReceiver(
  call: TSESTree.CallExpression | TSESTree.NewExpression,
  library: DeliveryLibrary,
  { call: shape, receiver: gate }: Registration,
  scope: Scope,
  context: AnyRuleContext,
  imports: ReadonlySet<string>,
): TSESTree.Node | undefined | false {
  const callee = unwrap(call.callee);
  if ('new' in shape) {
    return call.type === AST_NODE_TYPES.NewExpression && isConstructor(callee, shape.new, library.modules, scope)
      ? undefined
      : false;
  }
  if (call.type !== AST_NODE_TYPES.CallExpression) return false;
  if ('function' in shape) {
    if (callee.type !== AST_NODE_TYPES.Identifier) return false;
    const source = importSource(callee, scope);
    return source && library.modules.includes(source.module) && shape.function.includes(source.imported)
      ? undefined
      : false;
  }
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return false;
  const method = memberName(callee, scope);
  if (method === undefined || !shape.method.includes(method)) return false;
  const receiver = unwrap(callee.object);
  if (shape.on) {
    const source = receiver.type === AST_NODE_TYPES.Identifier ? importSource(receiver, scope) : undefined;
    if (!source || !library.modules.includes(source.module)) return false;
    if (shape.on !== 'module' && !shape.on.includes(source.imported)) return false;
  }
  if (!gate) return receiver;
  if (gate.imports && library.modules.some((module) => imports.has(module))) return receiver;
  if (gate.name?.test(memberPath(receiver)?.join('.') ?? '')) return receiver;
  return gate.test?.(receiver, call, context, imports) ? receiver : false;
}

/** The first static queue name the row's places give. */
function queueName(
  places: readonly QueuePlace[] | undefined,
  call: TSESTree.CallExpression | TSESTree.NewExpression,
  receiver: TSESTree.Node | undefined,
  scope: Scope,
): string | undefined {
  for (const place of places ?? []) {
    let node: TSESTree.Node | undefined;
    if ('receiver' in place) {
      const created = receiver && origin(receiver, scope);
      const made = created?.type === AST_NODE_TYPES.CallExpression || created?.type === AST_NODE_TYPES.NewExpression;
      node = made ? created.arguments[0] : undefined;
    } else {
      node = call.arguments[place.argument];
      if (node && place.property) {
        const options = resolveValue(node, scope);
        const property =
          options.type === AST_NODE_TYPES.ObjectExpression
            ? findProperty(options, (key) => key === place.property, scope)
            : undefined;
        node = property && property !== 'unknown' ? property.value : undefined;
      }
    }
    const name = node && staticString(node, scope);
    if (name !== undefined) return name;
  }
  return undefined;
}

/**
 * The entries of an object of named tasks, each with its key: `{ sendEmail, 'resize-image': resize }`,
 * or the object a factory of this file returns (`createActivities({ db })`: Temporal's activity
 * dependency injection, https://docs.temporal.io/design-patterns/activity-dependency-injection).
 */
function tableEntries(node: TSESTree.Node, scope: Scope): HandedValue[] {
  let value = resolveValue(node, scope);
  if (value.type === AST_NODE_TYPES.CallExpression) {
    const factory = resolveFunction(value.callee, scope);
    value = (factory && returnedObject(factory, scope)) ?? value;
  }
  if (value.type !== AST_NODE_TYPES.ObjectExpression) return [];
  return value.properties.flatMap((property): HandedValue[] => {
    if (property.type !== AST_NODE_TYPES.Property) return [];
    const key = property.key;
    const queue =
      key.type === AST_NODE_TYPES.Identifier
        ? key.name
        : key.type === AST_NODE_TYPES.Literal
          ? String(key.value)
          : undefined;
    return [{ node: property.value, queue, entry: true }];
  });
}

/**
 * The functions a registration's handler argument stands for: a function, one a wrapper call is
 * given, a function kept in `this.field`, or the processor of each row of a table of handlers
 * (handler-tables.ts).
 */
export function handlerFunctions(node: TSESTree.Node, context: AnyRuleContext): TSESTree.FunctionLike[] {
  const scope = context.sourceCode.getScope(node);
  const fn = wrappedHandler(node, scope) ?? thisFieldFunction(node, context);
  return fn ? [fn] : tableHandlers(node, scope);
}

/** How many wrapper calls around wrapper calls a handler is followed into. */
const WRAPPER_DEPTH = 4;

/** A handler: a function, or the function a wrapper call is given (`asyncHandler(fn)`, `catchAsync(fn)`, `queueWrapper(fn, name)`). */
export function wrappedHandler(node: TSESTree.Node, scope: Scope): TSESTree.FunctionLike | undefined {
  const direct = resolveHandlerFunction(node, scope);
  if (direct) return direct;
  const value = unwrap(node);
  if (value.type !== AST_NODE_TYPES.CallExpression || !value.arguments[0]) return undefined;
  const wrapped = handedFunction(value, scope, 0);
  if (wrapped === 'several') return undefined;
  if (wrapped) return wrapped;
  // `withLogging(name, withConfig(processor))` with no function of the file handed in: the function
  // a wrapper of this file returns is what the library runs.
  const maker = resolveHandlerFunction(value.callee, scope);
  return maker && returnedFunction(maker, scope);
}

/**
 * The one function of the file handed to a wrapper call, the work a delivery repeats:
 * `asyncHandler(fn)`, `transactionQueueWrapper(fn, 'scan')`, `this.asyncCallback(scope,
 * this.handleMessage.bind(this))`, and through wrappers around wrappers
 * (`withContext(withSpan((ctx, activity) => …))`); `several` when more than one is handed to one call.
 */
function handedFunction(
  call: TSESTree.CallExpression,
  scope: Scope,
  depth: number,
): TSESTree.FunctionLike | 'several' | undefined {
  const handed = call.arguments.flatMap((argument) => resolveHandlerFunction(argument, scope) ?? []);
  if (handed.length > 1) return 'several';
  if (handed[0]) return handed[0];
  const [inner, ...others] = call.arguments
    .map(unwrap)
    .filter((argument): argument is TSESTree.CallExpression => argument.type === AST_NODE_TYPES.CallExpression);
  return inner && others.length === 0 && depth < WRAPPER_DEPTH ? handedFunction(inner, scope, depth + 1) : undefined;
}

/** `new Name(...)` where Name comes from one of `modules`, or is an unresolved global of that name. */
export function isConstructor(
  callee: TSESTree.Node,
  names: readonly string[],
  modules: readonly string[],
  scope: Scope,
): boolean {
  if (callee.type === AST_NODE_TYPES.Identifier) {
    const source = importSource(callee, scope);
    if (source)
      return modules.includes(source.module) && (names.includes(source.imported) || names.includes(callee.name));
    // Not imported in a way we can read: accept only when nothing else in the file binds the name.
    return names.includes(callee.name) && !findVariable(scope, callee)?.defs.length;
  }
  if (callee.type === AST_NODE_TYPES.MemberExpression) {
    // bullmq.Worker, require('bullmq').Worker
    const name = memberName(callee);
    const object = unwrap(callee.object);
    if (name === undefined || !names.includes(name)) return false;
    if (object.type === AST_NODE_TYPES.Identifier) {
      const source = importSource(object, scope);
      return source !== undefined && modules.includes(source.module);
    }
  }
  return false;
}
