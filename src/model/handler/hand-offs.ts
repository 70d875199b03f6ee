import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext, type Scope } from '../ast/context.js';
import { methodKeyName } from '../ast/call-index.js';
import { enclosingClassBody, topLevelClasses } from '../ast/class-fields.js';
import { isFunction, localClass, parameterName, resolveFunction, returnedFunction } from '../ast/function.js';
import { fileMemo } from '../ast/memo.js';
import { memberName, propertyKeyName } from '../ast/names.js';
import { unwrap } from '../ast/nodes.js';
import { findVariable, singleInit, staticValue } from '../ast/values.js';
import { forEachNode } from '../ast/walk.js';
import { injectedCallee } from '../class-members.js';
import { importSource, requiredModule } from '../modules.js';
import { resolveHandlerFunction } from './methods.js';
import { handedParameters, importedPick, type HandedOnParameter, type ImportedFunctionValue } from '../effects.js';
import { isDelivery, type ConsumerHandler } from './consumer-handler.js';
import { slotCallOf, slotOfFunction, type TypeRef } from './slots.js';
import { storedParameters } from './stored-handlers.js';
import { worksOnDeliveries } from './workers.js';

/**
 * Hand-offs: where a file hands a function on to another function, the facts a program graph
 * needs to find registrars however many calls deep. A registrar is a function that hands one of
 * its parameters to a broker as the handler (`new Worker(queue, processor)`), or to another
 * registrar: `initWorker(processor)` → `this.createWorker(processor)` →
 * `this.instance.createWorker(topic, processor)` → `new Worker(topic, processor)`, each step in
 * its own class, module or package. A file says three things, and the graph joins them to a
 * fixpoint:
 * - {@link Forward}: a named function hands its parameters, as arguments, to a call;
 * - {@link HandOff}: a call is given one of the file's own functions (an inline processor, a
 *   method, what `this.getWorkerProcessor()` returns): if the callee is a registrar, that
 *   function runs per delivery;
 * - {@link ClassShape}: its classes' methods and what each extends, to find an inherited method.
 */

/** Who a call calls, as its file can name it. */
export type CalleeRef =
  /** A top-level function (`name`) or a class method (`Class.method`, `Class.constructor`) of this file. */
  | { local: string }
  /** `this.member(...)` in a method of the class `this`: its own method or one it inherits. */
  | { this: string; member: string }
  /** `super.member(...)` or `super(...)` (`member: 'constructor'`) in the class `super`. */
  | { super: string; member: string }
  /** An imported function, or a method or the constructor (`member`) of an imported class. */
  | { specifier: string; imported: string; member?: string }
  /** `value.member(...)` on a value declared a `slot` (an interface or object type), whichever object implements it. */
  | { slot: TypeRef; member: string };

/** A call in a named function that is given some of that function's parameters. */
export interface Forward {
  /** The function: a top-level function's name, or `Class.method`. */
  from: string;
  to: CalleeRef;
  /** Per argument of the call, the parameter of `from` it is, or null. */
  params: (number | null)[];
  /**
   * Functions of the call's arguments that run a parameter of `from`: an inline function given at
   * `argument` (`createQueue(name, (job) => processor(job.data))`), or one under `key` of an object
   * literal there (`createJob(queue, { perform: async (id) => perform(await load(id)) })`), or the
   * parameter itself under that key (`createJob(queue, { perform })`). Where the callee registers
   * what it is handed there, `from` registers parameter `index` (its function `property`).
   */
  wrapped?: WrappedParameter[];
}

interface WrappedParameter {
  argument: number;
  key?: string;
  index: number;
  property?: string;
}

/** A call given functions of this file, and the static strings among its arguments (a queue's name). */
export interface HandOff<Fn> {
  to: CalleeRef;
  functions: (Fn | null)[];
  strings: (string | null)[];
  /** Per argument, the functions of an object literal there by their keys (`{ create: fn }`), or null. */
  tables?: ({ key: string; fn: Fn }[] | null)[];
  /**
   * Per argument, a function of another module handed there (`createWorker('mail', sendMail)`
   * with `sendMail` imported), or null: the graph resolves it.
   */
  imported?: (ImportedFunctionValue | null)[];
}

/** A class of this file: the methods it declares and the class it extends. */
export interface ClassShape {
  name: string;
  methods: string[];
  extends?: { local: string } | { specifier: string; imported: string };
  /** It declares a work method typed with a broker's delivery (workers.ts `worksOnDeliveries`): a base worker. */
  worksOnDeliveries?: true;
}

export interface HandOffs {
  forwards: Forward[];
  handOffs: HandOff<TSESTree.FunctionLike>[];
  classes: ClassShape[];
}

/** The file's hand-offs, once per file. */
export function handOffsOf(program: TSESTree.Program, context: AnyRuleContext): HandOffs {
  return fileMemo(context, 'handler/hand-offs', () => {
    const found: HandOffs = { forwards: [], handOffs: [], classes: classShapes(program, context) };
    forEachNode(program, context, (node) => {
      if (node.type !== AST_NODE_TYPES.CallExpression && node.type !== AST_NODE_TYPES.NewExpression) return;
      if (node.arguments.length === 0) return;
      const scope = context.sourceCode.getScope(node);
      const to = calleeRef(node, scope);
      if (!to) return;
      let from: string | undefined;
      const params = node.arguments.map((argument) => {
        const parameter = handedParameter(argument, scope, context);
        if (!parameter) return null;
        from ??= parameter.owner;
        return parameter.owner === from ? parameter.index : null;
      });
      const wrapped = wrappedParameters(node, scope, context).filter((entry) => {
        from ??= entry.from;
        return entry.from === from;
      });
      if (from !== undefined)
        found.forwards.push({
          from,
          to,
          params,
          ...(wrapped.length > 0 ? { wrapped: wrapped.map(withoutOwner) } : {}),
        });
      // An argument that hands on a parameter (`withMetrics(processor)`) is the caller's function, not this file's.
      const functions = node.arguments.map((argument, index) =>
        params[index] === null ? (handedFunction(argument, scope) ?? null) : null,
      );
      const tables = node.arguments.map((argument, index) =>
        params[index] === null && functions[index] === null ? handedTable(argument, scope) : null,
      );
      const imported = node.arguments.map((argument, index) =>
        params[index] === null && functions[index] === null && tables[index] === null
          ? (importedPick(argument, scope) ?? null)
          : null,
      );
      const hasImported = imported.some((value) => value !== null);
      if (functions.some((fn) => fn !== null) || tables.some((table) => table !== null) || hasImported) {
        const strings = node.arguments.map((argument) => {
          const value = staticValue(argument, scope)?.value;
          return typeof value === 'string' ? value : null;
        });
        found.handOffs.push({
          to,
          functions,
          strings,
          ...(tables.some((table) => table !== null) ? { tables } : {}),
          ...(hasImported ? { imported } : {}),
        });
      }
    });
    return found;
  });
}

/** A named function of this file that registers the function its callers hand it at `index` as a handler of `broker`. */
export interface ParameterRegistrar {
  /** The function's key in its file (`name`, `Class.method`), or, with `slot`, the member of that type it implements. */
  from: string;
  index: number;
  broker: string;
  /** What is handed there is a table of handlers, each run for deliveries of its key. */
  table?: true;
  /** What is handed there is an object, whose function under this name runs per delivery (`consumer.perform(id)`). */
  property?: string;
  /** The function is the `from` member of an object of this type (an interface's implementation). */
  slot?: TypeRef;
}

/**
 * The file's own registrars by what its handlers run: a delivery's handler that calls a function
 * the named function around it was handed (`addJob(name, processor) { agenda.define(name, async
 * (job) => processor(job.attrs.data)) }`, `createQueue(ctx, name, options, processorFn) {
 * queue.process((job) => processorFn(job.data)) }`) registers that parameter: what the
 * wrapper's callers hand it there runs once per delivery.
 */
export function parameterRegistrars(
  handlers: readonly ConsumerHandler[],
  handedOn: readonly HandedOnParameter[],
  context: AnyRuleContext,
): ParameterRegistrar[] {
  // A parameter handed to a library's registration as it is (effects.ts `handedOnParameters`).
  const direct = handedOn.flatMap(({ owner, index, broker }): ParameterRegistrar[] => {
    const from = isDelivery(broker) ? functionKey(owner) : undefined;
    return from === undefined ? [] : [{ from, index, broker }];
  });
  return [
    ...direct,
    ...handlers.flatMap((handler) => {
      if (!isDelivery(handler.broker)) return [];
      const handed = handedParameters(handler.fn, context).flatMap(
        ({ owner, index, property }): ParameterRegistrar[] => {
          const from = functionKey(owner);
          return from === undefined
            ? []
            : [{ from, index, broker: handler.broker, ...(property === undefined ? {} : { property }) }];
        },
      );
      // A registrar that stores what it is handed, which the handler takes out and runs (stored-handlers.ts).
      const stored = storedParameters(handler.fn, context).flatMap(({ owner, index, table }): ParameterRegistrar[] => {
        const extra = table ? { table: true as const } : {};
        const from = functionKey(owner);
        if (from !== undefined) return [{ from, index, broker: handler.broker, ...extra }];
        const slot = slotOfFunction(owner, context);
        return slot ? [{ from: slot.member, index, broker: handler.broker, slot: slot.type, ...extra }] : [];
      });
      return [...handed, ...stored];
    }),
  ];
}

/** The key a named function goes by in its file: `name`, or `Class.method`; undefined for others. */
function functionKey(fn: TSESTree.FunctionLike): string | undefined {
  const parent = fn.parent;
  if (fn.type === AST_NODE_TYPES.FunctionDeclaration) return atTopLevel(fn) ? fn.id?.name : undefined;
  if (parent.type === AST_NODE_TYPES.VariableDeclarator)
    return parent.id.type === AST_NODE_TYPES.Identifier && atTopLevel(parent.parent) ? parent.id.name : undefined;
  if (parent.type === AST_NODE_TYPES.MethodDefinition) {
    const owner = className(parent.parent);
    const method = methodKeyName(parent);
    return owner === undefined || method === undefined ? undefined : `${owner}.${method}`;
  }
  return undefined;
}

function atTopLevel(node: TSESTree.Node): boolean {
  const parent = node.parent;
  return (
    parent?.type === AST_NODE_TYPES.Program ||
    ((parent?.type === AST_NODE_TYPES.ExportNamedDeclaration ||
      parent?.type === AST_NODE_TYPES.ExportDefaultDeclaration) &&
      parent.parent.type === AST_NODE_TYPES.Program)
  );
}

function className(body: TSESTree.ClassBody): string | undefined {
  const cls = body.parent;
  if (cls.id) return cls.id.name;
  // `const Service = class { … }`
  return cls.parent.type === AST_NODE_TYPES.VariableDeclarator && cls.parent.id.type === AST_NODE_TYPES.Identifier
    ? cls.parent.id.name
    : undefined;
}

/** What a call calls, as the file names it; undefined for a callee no other file can declare as a registrar. */
function calleeRef(call: TSESTree.CallExpression | TSESTree.NewExpression, scope: Scope): CalleeRef | undefined {
  const callee = unwrap(call.callee);
  if (callee.type === AST_NODE_TYPES.Super) {
    const body = enclosingClassBody(call);
    const owner = body && className(body);
    return owner === undefined ? undefined : { super: owner, member: 'constructor' };
  }
  const isNew = call.type === AST_NODE_TYPES.NewExpression;
  if (callee.type === AST_NODE_TYPES.Identifier) {
    const imported = importedBinding(callee, scope);
    if (imported) return isNew ? { ...imported, member: 'constructor' } : imported;
    const def = findVariable(scope, callee)?.defs[0];
    if (!def) return undefined;
    if (isNew)
      return def.node.type === AST_NODE_TYPES.ClassDeclaration || def.node.type === AST_NODE_TYPES.ClassExpression
        ? { local: `${callee.name}.constructor` }
        : undefined;
    return resolveFunction(callee, scope) ? { local: callee.name } : undefined;
  }
  if (callee.type !== AST_NODE_TYPES.MemberExpression || isNew) return undefined;
  const member =
    callee.property.type === AST_NODE_TYPES.PrivateIdentifier ? `#${callee.property.name}` : memberName(callee);
  if (member === undefined) return undefined;
  const object = unwrap(callee.object);
  if (object.type === AST_NODE_TYPES.ThisExpression || object.type === AST_NODE_TYPES.Super) {
    const body = enclosingClassBody(callee);
    const owner = body && className(body);
    if (owner === undefined) return undefined;
    return object.type === AST_NODE_TYPES.Super ? { super: owner, member } : { this: owner, member };
  }
  // `this.instance.createWorker(...)`: a method of the class the field is declared with.
  const injected = injectedCallee(callee, scope);
  if (injected) return injected;
  if (object.type !== AST_NODE_TYPES.Identifier) return undefined;
  const source = importSource(object, scope);
  if (!source) {
    // `registry.register(…)` on `const registry = new JobRegistry()`: the method of that class.
    const made = singleInit(object, scope);
    const madeBy = made && unwrap(made);
    const cls = madeBy?.type === AST_NODE_TYPES.NewExpression ? unwrap(madeBy.callee) : undefined;
    if (cls?.type === AST_NODE_TYPES.Identifier) {
      const imported = importSource(cls, scope);
      if (imported)
        return imported.imported === '*'
          ? undefined
          : { specifier: imported.module, imported: imported.imported, member };
      return localClass(cls, scope) ? { local: `${cls.name}.${member}` } : undefined;
    }
    // `consumer.subscribe(…)` on a `consumer: QueueConsumer`: the member of the declared type.
    const slot = slotCallOf(call, scope);
    const [only] = slot?.path ?? [];
    return slot && !slot.dispatched && slot.path.length === 1 && only !== undefined
      ? { slot: slot.type, member: only }
      : undefined;
  }
  // `ns.register(...)` of `import * as ns`, or `Manager.register(...)` of an imported class.
  return source.imported === '*'
    ? { specifier: source.module, imported: member }
    : { specifier: source.module, imported: source.imported, member };
}

/**
 * The import an identifier is bound to, directly or through a constant choosing between imports
 * (`const WorkerClass = pro ? require('@taskforcesh/bullmq-pro').WorkerPro : Worker`).
 */
function importedBinding(
  identifier: TSESTree.Identifier,
  scope: Scope,
): { specifier: string; imported: string } | undefined {
  const direct = importSource(identifier, scope);
  if (direct) return direct.imported === '*' ? undefined : { specifier: direct.module, imported: direct.imported };
  const variable = findVariable(scope, identifier);
  const def = variable?.defs[0];
  if (
    !variable ||
    variable.defs.length !== 1 ||
    def?.node.type !== AST_NODE_TYPES.VariableDeclarator ||
    def.node.parent.kind !== 'const' ||
    !def.node.init
  )
    return undefined;
  const init = unwrap(def.node.init);
  const choices =
    init.type === AST_NODE_TYPES.ConditionalExpression
      ? [init.consequent, init.alternate]
      : init.type === AST_NODE_TYPES.LogicalExpression
        ? [init.left, init.right]
        : [];
  for (const choice of choices) {
    const value = unwrap(choice);
    if (value.type === AST_NODE_TYPES.Identifier) {
      const source = importSource(value, scope);
      if (source && source.imported !== '*') return { specifier: source.module, imported: source.imported };
    }
    if (value.type === AST_NODE_TYPES.MemberExpression) {
      const module = requiredModule(unwrap(value.object));
      const name = memberName(value);
      if (module !== undefined && name !== undefined) return { specifier: module, imported: name };
    }
  }
  return undefined;
}

/**
 * The parameter of a named function an argument hands on: the parameter itself, bound
 * (`processor.bind(this)`), or given to a wrapper as its first argument (`withMetrics(processor)`),
 * whose work a delivery runs.
 */
function handedParameter(
  argument: TSESTree.Node,
  scope: Scope,
  context: AnyRuleContext,
): { owner: string; index: number } | undefined {
  let value = unwrap(argument);
  // Through wrappers around wrappers (`withLogging(name, withConfig(processor))`).
  for (let depth = 0; value.type === AST_NODE_TYPES.CallExpression && depth < WRAPPER_DEPTH; depth++) {
    const callee = unwrap(value.callee);
    if (callee.type === AST_NODE_TYPES.MemberExpression && memberName(callee) === 'bind') value = unwrap(callee.object);
    else {
      const wrapped = wrappedArgument(value, scope, context);
      if (!wrapped) break;
      value = unwrap(wrapped);
    }
  }
  if (value.type !== AST_NODE_TYPES.Identifier) return undefined;
  const def = findVariable(scope, value)?.defs[0];
  if (def?.type !== TSESLint.Scope.DefinitionType.Parameter || !isFunction(def.node)) return undefined;
  const owner = functionKey(def.node);
  if (owner === undefined) return undefined;
  const name = value.name;
  const index = def.node.params.findIndex((param) => parameterName(param) === name);
  return index < 0 ? undefined : { owner, index };
}

/** The functions among a call's arguments that run a parameter of the named function around them (see {@link Forward}). */
function wrappedParameters(
  call: TSESTree.CallExpression | TSESTree.NewExpression,
  scope: Scope,
  context: AnyRuleContext,
): (WrappedParameter & { from: string })[] {
  const running = (
    fn: TSESTree.FunctionLike,
    argument: number,
    key?: string,
  ): (WrappedParameter & { from: string })[] =>
    handedParameters(fn, context).flatMap(({ owner, index, property }) => {
      const from = functionKey(owner);
      return from === undefined
        ? []
        : [
            {
              from,
              argument,
              index,
              ...(key === undefined ? {} : { key }),
              ...(property === undefined ? {} : { property }),
            },
          ];
    });
  return call.arguments.flatMap((argument, position) => {
    const value = unwrap(argument);
    if (isFunction(value)) return running(value, position);
    if (value.type !== AST_NODE_TYPES.ObjectExpression) return [];
    return value.properties.flatMap((property) => {
      if (property.type !== AST_NODE_TYPES.Property) return [];
      const key = propertyKeyName(property, scope);
      if (key === undefined) return [];
      const inner = unwrap(property.value);
      if (isFunction(inner)) return running(inner, position, key);
      const parameter = handedParameter(inner, scope, context);
      return parameter ? [{ from: parameter.owner, argument: position, key, index: parameter.index }] : [];
    });
  });
}

function withoutOwner(entry: WrappedParameter & { from: string }): WrappedParameter {
  const { argument, key, index, property } = entry;
  return { argument, index, ...(key === undefined ? {} : { key }), ...(property === undefined ? {} : { property }) };
}

/** How many wrappers around wrappers an argument is followed through to the parameter it hands on. */
const WRAPPER_DEPTH = 4;

/**
 * The argument of a wrapper call that the wrapper's work runs: for a wrapper of this file that
 * returns a function (`const withLogging = (name, processor) => async (job) => processor(job)`),
 * the argument at the parameter that function calls; for another, its first argument
 * (`withMetrics(processor)`).
 */
function wrappedArgument(
  call: TSESTree.CallExpression,
  scope: Scope,
  context: AnyRuleContext,
): TSESTree.CallExpressionArgument | undefined {
  const wrapper = resolveHandlerFunction(unwrap(call.callee), scope);
  const returned = wrapper && returnedFunction(wrapper, scope);
  if (!wrapper || !returned) return call.arguments[0];
  const runs = handedParameters(returned, context).find(
    ({ owner, property }) => owner === wrapper && property === undefined,
  );
  return runs ? call.arguments[runs.index] : call.arguments[0];
}

/**
 * The function of this file an argument hands on: an inline function, a function or method it
 * names (`this.process`, `handle.bind(this)`), or the one a call of a local function or method
 * returns (`this.getWorkerProcessor()`).
 */
function handedFunction(argument: TSESTree.Node, scope: Scope): TSESTree.FunctionLike | undefined {
  const direct = resolveHandlerFunction(argument, scope);
  if (direct) return direct;
  const value = unwrap(argument);
  if (value.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const maker = resolveHandlerFunction(value.callee, scope);
  return maker && returnedFunction(maker, scope);
}

/** The functions of an object literal handed as an argument, by their static keys (`{ create: (p) => … }`). */
function handedTable(argument: TSESTree.Node, scope: Scope): { key: string; fn: TSESTree.FunctionLike }[] | null {
  const value = unwrap(argument);
  if (value.type !== AST_NODE_TYPES.ObjectExpression) return null;
  const entries = value.properties.flatMap((property) => {
    // A computed key counts when its value is static (`[TASK]: (payload) => …` with `const TASK = 'report'`).
    if (property.type !== AST_NODE_TYPES.Property) return [];
    const key = propertyKeyName(property, scope);
    const fn = handedFunction(property.value, scope);
    return key !== undefined && fn ? [{ key, fn }] : [];
  });
  return entries.length > 0 ? entries : null;
}

function classShapes(program: TSESTree.Program, context: AnyRuleContext): ClassShape[] {
  const shapes: ClassShape[] = [];
  for (const statement of topLevelClasses(program)) {
    if (!statement.id) continue;
    const methods = statement.body.body.flatMap((member) => {
      if (member.type !== AST_NODE_TYPES.MethodDefinition) return [];
      const name = methodKeyName(member);
      return name === undefined ? [] : [name];
    });
    const shape: ClassShape = { name: statement.id.name, methods };
    const scope = context.sourceCode.getScope(statement);
    if (worksOnDeliveries(statement, scope)) shape.worksOnDeliveries = true;
    const base = statement.superClass && unwrap(statement.superClass);
    if (base?.type === AST_NODE_TYPES.Identifier) {
      const imported = importSource(base, scope);
      if (imported && imported.imported !== '*')
        shape.extends = { specifier: imported.module, imported: imported.imported };
      else if (!imported) shape.extends = { local: base.name };
    }
    shapes.push(shape);
  }
  return shapes;
}
