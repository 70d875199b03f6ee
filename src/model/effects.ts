import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';

import { contains, unwrap } from './ast/nodes.js';
import { findVariable, resolveValue, singleInit, staticString, staticValue } from './ast/values.js';
import { memberName, propertyKeyName } from './ast/names.js';
import { forEachNode } from './ast/walk.js';
import { importSource, importedModules } from './modules.js';
import { declaredTypeOf } from './ast/declared-types.js';
import { libraryHandlerValues } from './handler/library-registrations.js';
import { tableCells } from './handler/handler-tables.js';
import { componentsFrom } from './ast/components.js';
import { type AnyRuleContext, type Scope } from './ast/context.js';
import { getClaim, isClaimStatement } from './sql/claims.js';
import { caughtDuplicate, getOrmClaim } from './orm/claims.js';
import { isIdempotencyHeaderName } from './keys/sinks.js';
import { isKeyHeaderName, suppliesKeyHeaders } from './keys/imported.js';
import { findPerAttemptValue } from './keys/per-attempt.js';
import { poolEvidence } from './sql/pools.js';
import { getOutgoingRequest, isReadMethod, type OutgoingRequest } from './http/request.js';
import { isBoundedClientFactory, isTimeoutlessClient } from './http/timeout.js';
import { getQueryCall, transactionStep } from './sql/statements.js';
import { effectOf, getWrite, HTTP_WRITE_EFFECT } from './writes.js';
import { isFunction, returnedValues } from './ast/function.js';
import { walk } from './ast/walk.js';
import { registryDispatch, registryEntries } from './handler/registries.js';
import { type Dispatched, forwardPicks, typeDispatches } from './handler/type-dispatch.js';
import { type ConsumerHandler, isDelivery, ownDispatches } from './handler/consumer-handler.js';
import { resolveHandlerFunction } from './handler/methods.js';
import {
  declaredCallee,
  inheritedCallee,
  injectedCallee,
  madeInstanceCallee,
  projectInstanceCallee,
} from './class-members.js';
import { acksInside } from './handler/ack.js';
import { checksSender, registrationChecksSender, routeNamesWebhook } from './handler/webhooks.js';
import { postRouteOf } from './handler/registrations.js';
import { workerEntries } from './libraries/cloudflare-workers.js';
import { aliasesHandlerDecorator } from './handler/nestjs.js';
import { mergeSlotCalls, slotCallOf, type SlotCall } from './handler/slots.js';
import { durableStepCall, enclosingDurableStep } from './attempts/durable-steps.js';

/**
 * What a function does that a second run repeats (its effects) and what makes the repeat
 * harmless (its protections), for the handler inventory of `idempotency-check`; and what an
 * exported binding is, for the cross-file settings. Built on the other model modules, so the
 * inventory and the rules agree on what a query, a request or a claim is.
 */

/** A call to a function imported from another module, which the whole-program pass follows. */
export interface ImportedCall {
  specifier: string;
  imported: string;
  /** A method of the imported class (`this.orders.settle()` with `orders: OrdersService`). */
  member?: string;
  /**
   * A method called on a binding imported by name (`manager.handleBroadcast()`), which may be an
   * instance of a class made once in its module or any other object: followed only to the former.
   */
  bound?: true;
  /**
   * Arguments that are request options with a method that changes state (`{ method: 'POST' }`):
   * a callee that sends its caller's options makes a write of that call.
   */
  writeOptions?: number[];
  /**
   * For a call a delivery waits for: the keys of each argument that is an object literal
   * (`updateTransaction(db, { id, taxRate })`), null for any other argument.
   */
  argumentKeys?: (string[] | null)[];
  /**
   * A call of what the imported function returns (`stripeWebhookHandler(stripe, prisma)(req, res)`):
   * the function a factory makes, which runs here.
   */
  returned?: true;
}

/** One key per slot call, for sets of them. */
function slotKey(slot: SlotCall): string {
  return `${slot.exportedValue ? '=' : ''}${slot.type.specifier ?? ''}\0${slot.type.name}\0${slot.path.join('.')}`;
}

/** One key per imported function or method, for sets of calls. */
export function callKey(call: ImportedCall): string {
  return `${call.specifier}\0${call.imported}\0${call.member ?? ''}${call.returned ? '\0()' : ''}`;
}

export interface FunctionSummary {
  /** `sql-write`, `http-write`, or an SDK name such as `stripe`. */
  effects: string[];
  /** For each effect made in this file (by the function or a function of the file it calls), the line of the first call that makes it. */
  effectLines?: Record<string, number>;
  /** `claim` (a claim whose row count is checked), `transaction`, `idempotency-key`, `timeout`. */
  protections: string[];
  calls: ImportedCall[];
  /**
   * Parameters whose value is the options of a request the function sends, with no method of its
   * own (`fetch(url, { ...defaults, ...options })`): the request writes when a caller's options say so.
   */
  requestOptions?: number[];
  /**
   * Calls through a function-valued property of a value of a declared type (handler/slots.ts):
   * the whole-program pass runs every function stored in that property of such a value.
   */
  slots?: SlotCall[];
  /**
   * What it does inside the callbacks of durable steps (`step.run`, `io.runTask`): the engine
   * records each finished step and does not run it again when the function runs again.
   */
  memoised?: { effects: string[]; calls: ImportedCall[]; /** The step calls, as `step.run`. */ steps: string[] };
  /** Functions it calls that a function around it was handed: their callers say what they do. */
  handed?: string[];
}

/** What an exported binding is, as far as the settings of importing files care. */
export type ExportKind =
  | 'pool'
  | 'perAttemptFunction'
  | 'boundedClient'
  | 'timeoutlessClient'
  | 'timeoutlessClientFactory'
  | 'keyHeaderSource'
  | 'keyHeaderName'
  | 'ackFunction'
  | 'senderCheck'
  | 'handlerDecorator';

/** What one function does itself, and the functions of its file (and class) it calls. */
interface OwnSummary {
  effects: Set<string>;
  /** The line of the first call that makes each effect (outside durable steps). */
  effectLines: Map<string, number>;
  protections: Set<string>;
  calls: Map<string, ImportedCall>;
  locals: TSESTree.FunctionLike[];
  /** Parameters of this function that are the options of a request it sends without a method. */
  requestOptions: Set<number>;
  slots: Map<string, SlotCall>;
  /**
   * Functions it calls that a function around it was handed (`processor` in `addJob(name,
   * processor) { agenda.define(name, async (job) => { await processor(job) }) }`): what they do
   * is its callers' to say, so what running it does is unknown here.
   */
  handed: Set<string>;
  /** The same calls, as the parameter of the function around it that holds each. */
  handedParameters: HandedParameter[];
  /** What it does inside durable steps (attempts/durable-steps.ts), which a redelivery does not run again. */
  memoised: {
    effects: Set<string>;
    calls: Map<string, ImportedCall>;
    locals: TSESTree.FunctionLike[];
    steps: Set<string>;
  };
}

/** An effect a call makes; the first call outside durable steps to make it is where it is made. */
function recordEffect(own: OwnSummary, effect: string, call: TSESTree.CallExpression, memoised: boolean): void {
  (memoised ? own.memoised.effects : own.effects).add(effect);
  if (!memoised && !own.effectLines.has(effect)) own.effectLines.set(effect, call.loc.start.line);
}

/** Each function's own summary, once: a file's many methods call the same helpers. */
const ownSummaries = new WeakMap<TSESTree.FunctionLike, OwnSummary>();

/** What calling a function does: its own summary joined with those of the functions of its file it calls. */
interface ComposedSummary {
  effects: Set<string>;
  effectLines: Map<string, number>;
  protections: Set<string>;
  calls: Map<string, ImportedCall>;
  slots: Map<string, SlotCall>;
  handed: Set<string>;
  memoised: { effects: Set<string>; calls: Map<string, ImportedCall>; steps: Set<string> };
}

/** Each function's composed summary, once. */
const composedSummaries = new WeakMap<TSESTree.FunctionLike, ComposedSummary>();

/**
 * Effects and protections of `fn`, with those of the functions of the same file and methods of its
 * class it calls, to the end of every chain, and the calls into imported functions and injected
 * services' methods it makes on the way, for the whole-program pass.
 */
export function summariseFunction(fn: TSESTree.FunctionLike, context: AnyRuleContext): FunctionSummary {
  const composed = composedSummary(fn, context);
  const byKey = <T>(entries: Map<string, T>): T[] =>
    [...entries.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, value]) => value);
  const summary: FunctionSummary = {
    effects: [...composed.effects].sort(),
    protections: [...composed.protections].sort(),
    calls: byKey(composed.calls),
  };
  if (composed.effectLines.size > 0)
    summary.effectLines = Object.fromEntries(
      [...composed.effectLines].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    );
  const requestOptions = [...ownSummary(fn, context).requestOptions].sort((a, b) => a - b);
  if (requestOptions.length > 0) summary.requestOptions = requestOptions;
  if (composed.slots.size > 0) summary.slots = byKey(composed.slots);
  if (composed.handed.size > 0) summary.handed = [...composed.handed].sort();
  if (composed.memoised.steps.size > 0)
    summary.memoised = {
      effects: [...composed.memoised.effects].sort(),
      calls: byKey(composed.memoised.calls),
      steps: [...composed.memoised.steps].sort(),
    };
  return summary;
}

/**
 * The composed summary of `fn`, built bottom-up over the calls between the functions of its file:
 * each strongly connected component after those it calls, a recursion solved by rounds until no
 * summary of it grows. What a durable step's callback reaches is memoised, however it is reached.
 */
function composedSummary(fn: TSESTree.FunctionLike, context: AnyRuleContext): ComposedSummary {
  const cached = composedSummaries.get(fn);
  if (cached) return cached;
  const callees = (target: TSESTree.FunctionLike): TSESTree.FunctionLike[] => {
    if (composedSummaries.has(target)) return [];
    const own = ownSummary(target, context);
    return [...own.locals, ...own.memoised.locals];
  };
  componentsFrom(fn, callees, (component) => {
    const members = component.filter((member) => !composedSummaries.has(member));
    for (const member of members) composedSummaries.set(member, startingFrom(ownSummary(member, context)));
    // A single function does not call itself here (ownSummary leaves self-calls out): one round.
    for (let grown = true; grown;) {
      grown = false;
      for (const member of members) if (absorbCallees(member, context)) grown = true;
      if (members.length === 1) break;
    }
  });
  return composedSummaries.get(fn) ?? startingFrom(ownSummary(fn, context));
}

/** A composed summary that holds only what `own` does itself. */
function startingFrom(own: OwnSummary): ComposedSummary {
  return {
    effects: new Set(own.effects),
    effectLines: new Map(own.effectLines),
    protections: new Set(own.protections),
    calls: new Map(own.calls),
    slots: new Map(own.slots),
    handed: new Set(own.handed),
    memoised: {
      effects: new Set(own.memoised.effects),
      calls: new Map(own.memoised.calls),
      steps: new Set(own.memoised.steps),
    },
  };
}

/** Joins into `fn`'s composed summary those of the functions it calls; true when it grew. */
function absorbCallees(fn: TSESTree.FunctionLike, context: AnyRuleContext): boolean {
  const into = composedSummaries.get(fn);
  if (!into) return false;
  const own = ownSummary(fn, context);
  const before = weight(into);
  for (const [callees, memo] of [
    [own.locals, false],
    [own.memoised.locals, true],
  ] as const)
    for (const callee of callees) {
      const from = composedSummaries.get(callee);
      if (!from) continue;
      // Reached inside a durable step, everything the callee does is memoised.
      const effects = memo ? into.memoised.effects : into.effects;
      const calls = memo ? into.memoised.calls : into.calls;
      for (const effect of from.effects) effects.add(effect);
      if (!memo)
        for (const [effect, line] of from.effectLines)
          if (!into.effectLines.has(effect)) into.effectLines.set(effect, line);
      for (const [key, call] of from.calls) calls.set(key, mergedCall(calls.get(key), call));
      for (const protection of from.protections) into.protections.add(protection);
      for (const name of from.handed) into.handed.add(name);
      for (const [key, slot] of from.slots) into.slots.set(key, mergeSlotCalls(into.slots.get(key), slot));
      for (const effect of from.memoised.effects) into.memoised.effects.add(effect);
      for (const [key, call] of from.memoised.calls)
        into.memoised.calls.set(key, mergedCall(into.memoised.calls.get(key), call));
      for (const step of from.memoised.steps) into.memoised.steps.add(step);
    }
  return weight(into) !== before;
}

/** A measure that every join which adds something raises: all it does is union sets. */
function weight(summary: ComposedSummary): number {
  let total = summary.effects.size + summary.protections.size + summary.memoised.effects.size;
  total += summary.memoised.steps.size + summary.slots.size + summary.handed.size;
  for (const calls of [summary.calls, summary.memoised.calls])
    for (const call of calls.values()) total += 1 + (call.writeOptions?.length ?? 0);
  for (const slot of summary.slots.values()) total += (slot.dispatched ? 1 : 0) + (slot.picked ? 1 : 0);
  return total;
}

function ownSummary(fn: TSESTree.FunctionLike, context: AnyRuleContext): OwnSummary {
  const cached = ownSummaries.get(fn);
  if (cached) return cached;
  const own: OwnSummary = {
    effects: new Set(),
    effectLines: new Map(),
    protections: new Set(),
    calls: new Map(),
    locals: [],
    requestOptions: new Set(),
    slots: new Map(),
    handed: new Set(),
    handedParameters: [],
    memoised: { effects: new Set(), calls: new Map(), locals: [], steps: new Set() },
  };
  ownSummaries.set(fn, own);
  const { protections, requestOptions, slots } = own;

  const visitCall = (call: TSESTree.CallExpression): void => {
    // Inside a durable step, what the call does is recorded once and not done again on a redelivery.
    const durable = enclosingDurableStep(call, fn, context);
    if (durable) own.memoised.steps.add(durable.call);
    const calls = durable ? own.memoised.calls : own.calls;
    const locals = durable ? own.memoised.locals : own.locals;
    const step = transactionStep(call, context);
    if (step?.kind === 'begin') protections.add('transaction');
    const query = step ? undefined : getQueryCall(call, context);
    // A claim statement is an insert too, but what it protects is what the inventory shows.
    const claim = query?.text !== undefined && isClaimStatement(query.text);
    if (claim && getClaim(call, context)?.resultRead === 'checked') protections.add('claim');
    const ormClaim = step || claim ? undefined : getOrmClaim(call, context);
    if (ormClaim?.resultRead === 'checked') protections.add('claim');
    const write = step || claim || ormClaim ? undefined : getWrite(call, context);
    if (write) recordEffect(own, effectOf(write), call, durable !== undefined);
    // An insert whose unique violation is caught and answered by returning is a claim too.
    if ((write?.kind === 'orm' || write?.kind === 'sql') && caughtDuplicate(call, context)) protections.add('claim');
    const request = write?.kind === 'http' ? write.request : getOutgoingRequest(call, context);
    if (request) {
      if (request.headers.entries.some((entry) => isIdempotencyHeaderName(entry.name)))
        protections.add('idempotency-key');
      if (request.timeout === 'bounded') protections.add('timeout');
    }
    if (write?.kind === 'sdk' && write.sdk.keyed === true) protections.add('idempotency-key');
    if (request && request.method === undefined) {
      const index = optionsParameter(request, fn);
      if (index !== undefined) requestOptions.add(index);
    }
    // A call named like a query whose text is not SQL the model reads (`this.usecase.execute(command)`,
    // a NestJS use case or command bus) may be a function of the program: it is followed as a call.
    if ((query?.text === undefined ? undefined : query) ?? request ?? write ?? step) return;

    const scope = context.sourceCode.getScope(call);
    const callee = unwrap(call.callee);
    const local = resolveHandlerFunction(callee, scope);
    if (local) {
      if (local === fn) return;
      locals.push(local);
      // A local request wrapper: a write when this call's options say so, and this function's
      // own parameter becomes the wrapper's options when it is handed on (`send(url, { ...options })`).
      const wrapped = ownSummary(local, context).requestOptions;
      const writeOptions = writeOptionArguments(call, scope);
      if (writeOptions.some((index) => wrapped.has(index)))
        recordEffect(own, HTTP_WRITE_EFFECT, call, durable !== undefined);
      for (const index of wrapped) {
        const argument = call.arguments[index];
        const from = argument && parameterIn(argument, fn);
        if (from !== undefined) requestOptions.add(from);
      }
      return;
    }
    const imported =
      importedCallee(callee, scope) ??
      injectedCallee(callee, scope) ??
      inheritedCallee(callee, scope) ??
      madeCallee(callee, scope) ??
      projectInstanceCallee(callee, scope, context.filename);
    if (!imported) {
      // A durable step's engine (`io.runTask(key, fn)` through a `JobRunIO`) is not followed into.
      // A method of a value the code declares an imported class (`opts.billing.charge()`) is a slot of that type.
      const slot = durableStepCall(call, context) ? undefined : slotCallOf(call, scope, context);
      if (slot) {
        const key = slotKey(slot);
        slots.set(key, mergeSlotCalls(slots.get(key), slot));
      }
      const handed = slot ? undefined : handedFunction(callee, fn, scope);
      if (handed) {
        // A function it was handed: unknown here, its callers say what it does.
        if (handed.property === undefined) own.handed.add(handed.name);
        // A method of a handed object runs as a registrar's handler when it is handed something to
        // work on (not a logger's constant message, `deps.log('started')`) and is not a hook the
        // registrar calls only if it was given one (`consumer.complete?.(id)`, a job's lifecycle).
        const worksOn =
          handed.property === undefined ||
          (!call.optional && call.arguments.some((argument) => staticValue(argument, scope) === undefined));
        if (handed.index >= 0 && worksOn)
          own.handedParameters.push({
            owner: handed.owner,
            index: handed.index,
            ...(handed.property === undefined ? {} : { property: handed.property }),
          });
      }
      // `manager.handleBroadcast(event)` on a binding imported by name: a method of what that module
      // exports, an instance of a class made once there (the graph tells; anything else it drops).
      const bound = handed ? undefined : boundMemberCall(callee, scope);
      if (bound) calls.set(callKey(bound), mergedCall(calls.get(callKey(bound)), bound));
      return;
    }
    const writeOptions = writeOptionArguments(call, scope);
    const made = writeOptions.length > 0 ? { ...imported, writeOptions } : imported;
    calls.set(callKey(made), mergedCall(calls.get(callKey(made)), made));
  };

  if (fn.body)
    walk(fn.body, context, (node) => {
      if (node.type === AST_NODE_TYPES.CallExpression) visitCall(node);
      else if (
        node.type === AST_NODE_TYPES.TaggedTemplateExpression &&
        transactionStep(node, context)?.kind === 'begin'
      )
        protections.add('transaction');
    });
  return own;
}

/**
 * `processor(…)` where `processor` is a parameter of a function around `fn` (not of `fn` itself): a
 * function value the enclosing function was handed, which `fn` runs; or `consumer.perform(…)`, the
 * function under `perform` of an object it was handed (`createJob(queue, { perform })`).
 */
function handedFunction(
  callee: TSESTree.Node,
  fn: TSESTree.FunctionLike,
  scope: Scope,
): { name: string; owner: TSESTree.FunctionLike; index: number; property?: string } | undefined {
  const property = callee.type === AST_NODE_TYPES.MemberExpression && !callee.computed ? memberName(callee) : undefined;
  const target = property === undefined ? callee : unwrap((callee as TSESTree.MemberExpression).object);
  if (target.type !== AST_NODE_TYPES.Identifier) return undefined;
  const def = findVariable(scope, target)?.defs[0];
  if (def?.type !== TSESLint.Scope.DefinitionType.Parameter || def.node === fn || !isFunction(def.node))
    return undefined;
  const owner = def.node;
  // `new Promise((resolve, reject) => …)`: the executor is handed the promise's own settle functions
  // (ECMAScript's Promise constructor), which do no work of the program.
  const made = owner.parent;
  if (
    made.type === AST_NODE_TYPES.NewExpression &&
    made.arguments[0] === owner &&
    made.callee.type === AST_NODE_TYPES.Identifier &&
    made.callee.name === 'Promise'
  )
    return undefined;
  const index = owner.params.findIndex(
    (param) => param.type === AST_NODE_TYPES.Identifier && param.name === target.name,
  );
  const name = property === undefined ? target.name : `${target.name}.${property}`;
  for (let current: TSESTree.Node | undefined = fn.parent; current; current = current.parent)
    if (current === owner) return property === undefined ? { name, owner, index } : { name, owner, index, property };
  return undefined;
}

/** A parameter of a function around a handler that the handler runs: the function, or its `property`, it is handed. */
export interface HandedParameter {
  owner: TSESTree.FunctionLike;
  index: number;
  /** What is handed is an object, and its function under this name runs (`consumer.perform(…)`). */
  property?: string;
}

/** Each function's handed parameters, once: hand-offs ask it of every inline function a call is given. */
const handedParametersOf = new WeakMap<TSESTree.FunctionLike, HandedParameter[]>();

/**
 * The parameters of the functions around `fn` that `fn` runs (`processor` of `addJob(name,
 * processor)` in the handler it registers), itself or in the functions of its file it calls
 * (`this.run(id)` of an object whose `run` calls `consumer.perform(id)`), each around `fn` too:
 * when `fn` is a handler, each such function registers what its callers hand it there.
 */
export function handedParameters(fn: TSESTree.FunctionLike, context: AnyRuleContext): readonly HandedParameter[] {
  const known = handedParametersOf.get(fn);
  if (known) return known;
  const found: HandedParameter[] = [];
  handedParametersOf.set(fn, found);
  const seen = new Set<TSESTree.FunctionLike>();
  const visit = (current: TSESTree.FunctionLike): void => {
    if (seen.has(current)) return;
    seen.add(current);
    const own = ownSummary(current, context);
    for (const handed of own.handedParameters)
      if (
        contains(handed.owner, fn) &&
        !found.some(
          (entry) => entry.owner === handed.owner && entry.index === handed.index && entry.property === handed.property,
        )
      )
        found.push(handed);
    for (const local of own.locals) visit(local);
  };
  visit(fn);
  return found;
}

/** One imported callee called in several places: the write options of every call. */
function mergedCall(known: ImportedCall | undefined, call: ImportedCall): ImportedCall {
  if (!known?.writeOptions) return call;
  if (!call.writeOptions) return known;
  return { ...call, writeOptions: [...new Set([...known.writeOptions, ...call.writeOptions])].sort((a, b) => a - b) };
}

/** The arguments of a call that are object literals naming a method that changes state (`{ method: 'POST' }`). */
function writeOptionArguments(call: TSESTree.CallExpression, scope: Scope): number[] {
  return call.arguments.flatMap((argument, index) => {
    if (argument.type !== AST_NODE_TYPES.ObjectExpression) return [];
    const method = argument.properties.find(
      (property) => property.type === AST_NODE_TYPES.Property && propertyKeyName(property) === 'method',
    );
    const value = method?.type === AST_NODE_TYPES.Property ? staticString(method.value, scope) : undefined;
    return value !== undefined && !isReadMethod(value.toUpperCase()) ? [index] : [];
  });
}

/**
 * The parameter of `fn` a request without a method of its own takes its options from: the
 * options are that parameter, or an object literal that spreads it (`{ signal, ...options }`).
 */
function optionsParameter(request: OutgoingRequest, fn: TSESTree.FunctionLike): number | undefined {
  const argument = request.call.arguments[request.optionsIndex];
  return argument && parameterIn(argument, fn);
}

/** The parameter of `fn` that `node` is, or that an object literal `node` spreads. */
function parameterIn(node: TSESTree.Node, fn: TSESTree.FunctionLike): number | undefined {
  const target = unwrap(node);
  const candidates =
    target.type === AST_NODE_TYPES.ObjectExpression
      ? target.properties.flatMap((property) =>
          property.type === AST_NODE_TYPES.SpreadElement ? [unwrap(property.argument)] : [],
        )
      : [target];
  for (const candidate of candidates) {
    if (candidate.type !== AST_NODE_TYPES.Identifier) continue;
    const index = fn.params.findIndex((parameter) => {
      const pattern = parameter.type === AST_NODE_TYPES.AssignmentPattern ? parameter.left : parameter;
      return pattern.type === AST_NODE_TYPES.Identifier && pattern.name === candidate.name;
    });
    if (index >= 0) return index;
  }
  return undefined;
}

/** `x.method()` with `x` imported by name: a call the graph follows only where `x` is an instance made once. */
function boundMemberCall(callee: TSESTree.Node, scope: Scope): ImportedCall | undefined {
  if (callee.type !== AST_NODE_TYPES.MemberExpression || callee.object.type !== AST_NODE_TYPES.Identifier)
    return undefined;
  const source = importSource(callee.object, scope);
  const member = memberName(callee);
  if (!source || member === undefined || source.imported === '*' || source.imported === 'default') return undefined;
  return { specifier: source.module, imported: source.imported, member, bound: true };
}

/** `f()` with `f` imported, or `ns.f()` with `ns` a namespace import. */
/** `factory(deps)(req, res)`: a call of the function an imported factory returns, made in place. */
function madeCallee(callee: TSESTree.Node, scope: Scope): ImportedCall | undefined {
  if (callee.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const factory = importedCallee(unwrap(callee.callee), scope);
  return factory && { ...factory, returned: true };
}

export function importedCallee(callee: TSESTree.Node, scope: Scope): ImportedCall | undefined {
  if (callee.type === AST_NODE_TYPES.Identifier) {
    const source = importSource(callee, scope);
    return source && source.imported !== '*' ? { specifier: source.module, imported: source.imported } : undefined;
  }
  if (callee.type === AST_NODE_TYPES.MemberExpression && callee.object.type === AST_NODE_TYPES.Identifier) {
    const source = importSource(callee.object, scope);
    const name = memberName(callee);
    if (source && name !== undefined && (source.imported === '*' || source.imported === 'default')) {
      return { specifier: source.module, imported: source.imported === '*' ? name : `default.${name}` };
    }
  }
  return undefined;
}

/**
 * What an exported binding is: `node` is the exported function, the declarator id of an
 * exported `const`, or the value of a CommonJS export.
 */
export function exportKinds(node: TSESTree.Node, context: AnyRuleContext): ExportKind[] {
  const kinds: ExportKind[] = [];
  const scope = context.sourceCode.getScope(node);
  const value = node.type === AST_NODE_TYPES.Identifier ? resolveValue(node, scope) : unwrap(node);
  // Pools: judged by construction, annotation or type, never by the exported name alone.
  const evidence = poolEvidence(node, context);
  if (evidence !== undefined && evidence !== 'name' && evidence !== 'settings') kinds.push('pool');
  if (isBoundedClientFactory(value, context)) kinds.push('boundedClient');
  if (isTimeoutlessClient(value, context)) kinds.push('timeoutlessClient');
  if (suppliesKeyHeaders(value, context)) kinds.push('keyHeaderSource');
  if (isKeyHeaderName(value, context)) kinds.push('keyHeaderName');
  const fn = isFunction(value) ? value : undefined;
  if (fn && acksInside(fn, context)) kinds.push('ackFunction');
  if (fn && checksSender(fn, context)) kinds.push('senderCheck');
  if (fn && aliasesHandlerDecorator(fn, context)) kinds.push('handlerDecorator');
  if (fn) {
    const returned = !fn.body
      ? []
      : fn.body.type === AST_NODE_TYPES.BlockStatement
        ? returnedValues(fn.body)
        : [fn.body];
    if (returned.some((value) => findPerAttemptValue(value, context) !== undefined)) kinds.push('perAttemptFunction');
    if (returned.some((value) => isTimeoutlessClient(value, context))) kinds.push('timeoutlessClientFactory');
  }
  return [...new Set(kinds)];
}

/**
 * A function value from another module, as a registration hands it on: an imported function
 * (`processJob`), a static method of an imported class (`DlqRetryService.retry`), or the function
 * an imported factory returns (`buildProcessor(deps)`, with `returned`).
 */
export interface ImportedFunctionValue extends ImportedCall {
  /** The value is what calling the imported function returns, not the function itself. */
  returned?: true;
  /** `member` is a static method of the imported class, not a method of its instances. */
  static?: true;
}

/**
 * The imported function value `node` is: an imported identifier, `Imported.member` (a static
 * method, or a function of a namespace import), or a call of an imported function (its result:
 * the function the factory returns, when its summary says it returns one).
 */
function importedFunctionValue(
  node: TSESTree.Node,
  scope: Scope,
  seen = new Set<TSESTree.Node>(),
): ImportedFunctionValue | undefined {
  const value = unwrap(node);
  // `const processor = buildProcessor(deps)`: a const binding holds what its initialiser made
  // (after the binding's own import: `const handler = require('./handler')` is that module's).
  const direct = value.type === AST_NODE_TYPES.Identifier ? importedValue(value, scope) : undefined;
  if (direct) return direct;
  const held = value.type === AST_NODE_TYPES.Identifier ? constCall(value, scope) : undefined;
  if (held && !seen.has(held)) return importedFunctionValue(held, scope, seen.add(held));
  if (value.type === AST_NODE_TYPES.CallExpression) {
    // A factory handed a function wraps it (`createWorkerHandler(executeEmail)`): the work is the
    // function handed in, imported (followed here) or local (the file's own registrations read it).
    const wrapped = value.arguments.find((argument) => isFunctionValue(argument, scope));
    if (wrapped) return importedValue(unwrap(wrapped), scope);
    const factory = unwrap(value.callee);
    const called = factory.type === AST_NODE_TYPES.Identifier ? importedValue(factory, scope) : undefined;
    return called && called.member === undefined ? { ...called, returned: true } : undefined;
  }
  return importedValue(value, scope);
}

/** The call a `const` binding is initialised with, when it is bound once so. */
function constCall(identifier: TSESTree.Identifier, scope: Scope): TSESTree.CallExpression | undefined {
  const variable = findVariable(scope, identifier);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (def?.node.type !== AST_NODE_TYPES.VariableDeclarator || def.parent?.type !== AST_NODE_TYPES.VariableDeclaration)
    return undefined;
  if (def.parent.kind !== 'const' || def.node.id.type !== AST_NODE_TYPES.Identifier || !def.node.init) return undefined;
  const init = unwrap(def.node.init);
  return init.type === AST_NODE_TYPES.CallExpression ? init : undefined;
}

/** An argument that is a function: inline, a local one by name, or an imported binding used as a value. */
function isFunctionValue(argument: TSESTree.Node, scope: Scope): boolean {
  const value = unwrap(argument);
  if (isFunction(value)) return true;
  if (value.type !== AST_NODE_TYPES.Identifier) return false;
  return resolveHandlerFunction(value, scope) !== undefined || importSource(value, scope) !== undefined;
}

function importedValue(value: TSESTree.Node, scope: Scope): ImportedFunctionValue | undefined {
  if (value.type === AST_NODE_TYPES.Identifier) {
    const source = importSource(value, scope);
    return source && source.imported !== '*' ? { specifier: source.module, imported: source.imported } : undefined;
  }
  if (value.type !== AST_NODE_TYPES.MemberExpression || value.computed) return undefined;
  const object = unwrap(value.object);
  const member = memberName(value);
  if (object.type !== AST_NODE_TYPES.Identifier || member === undefined) return undefined;
  const source = importSource(object, scope);
  // `handler.handleMessages` with `const handler = new QuotingHandler(deps)`: the instance's method.
  if (!source) {
    const made = singleInit(object, scope);
    const instance = made && unwrap(made);
    const cls = instance?.type === AST_NODE_TYPES.NewExpression ? unwrap(instance.callee) : undefined;
    const imported = cls?.type === AST_NODE_TYPES.Identifier ? importSource(cls, scope) : undefined;
    return imported && imported.imported !== '*'
      ? { specifier: imported.module, imported: imported.imported, member }
      : undefined;
  }
  // `ns.f` of a namespace import is the module's export `f`; `Service.method` a static method.
  if (source.imported === '*') return { specifier: source.module, imported: member };
  return { specifier: source.module, imported: source.imported, member, static: true };
}

/** A consumer handler registered in this file with a function value imported from another module. */
export interface ImportedRegistration extends ImportedFunctionValue {
  broker: string;
  queue: string | undefined;
  /** The line of the registering call, in the file that makes it. */
  line?: number;
  /** A POST route that is a webhook only if the function it is handed checks the sender (its fact `senderCheck`). */
  needsSenderCheck?: true;
  /** Picked by a handler of the file (by the delivery's type, or as the one it hands the delivery to), not registered. */
  picked?: true;
}

/**
 * Registrations whose handler is imported: a library's (`new Worker('q', processJob)`,
 * `Consumer.create({ handleMessage })`, `run({ taskList: { sendEmail } })`: every row of
 * libraries/), and a job registry's entries.
 * `handler.ts` resolves handlers within one file only; the whole-program pass uses these to
 * tell the defining file (through `settings.idempotency.consumerHandlers`) and the inventory.
 */
export function findImportedRegistrations(
  program: TSESTree.Program,
  context: AnyRuleContext,
): { imported: ImportedRegistration[]; handedOn: HandedOnParameter[] } {
  const imported: ImportedRegistration[] = [];
  const handedOn: HandedOnParameter[] = [];
  const imports = importedModules(program);
  forEachNode(program, context, (node) => {
    // `export default { fetch, queue: consumeBatch }` with `consumeBatch` another module's: a Cloudflare Worker's entry.
    for (const { value, broker } of workerEntries(node)) {
      const fn = importedFunctionValue(value, context.sourceCode.getScope(value));
      if (fn) imported.push({ ...fn, broker, queue: undefined, line: node.loc.start.line });
    }
    if (node.type !== AST_NODE_TYPES.NewExpression && node.type !== AST_NODE_TYPES.CallExpression) return;
    imported.push(...importedRegistration(node, context, imports));
    handedOn.push(...handedOnParameters(node, context, imports));
  });
  return { imported, handedOn };
}

/**
 * A POST route whose handler is another module's function (`router.post('/payment/webhook',
 * PaymentController.webhook)`, `app.post('/stripe', express.raw(), handleStripe)`): a webhook when
 * its registration or path says so, or else when that function checks the sender itself, which
 * only its own module can tell (`needsSenderCheck`).
 */
function importedWebhookRoute(
  call: TSESTree.CallExpression,
  context: AnyRuleContext,
  imports: ReadonlySet<string>,
): ImportedRegistration[] {
  const scope = context.sourceCode.getScope(call);
  const post = postRouteOf(call, scope, imports);
  const last = post?.handlers.at(-1);
  const fn = last && importedFunctionValue(last, scope);
  // Middleware in front of a later registration of the same path: that one is the route's handler.
  if (!post || !fn || post.continued) return [];
  const said =
    registrationChecksSender(post.path, call, context, post.handlers.slice(0, -1)) ||
    routeNamesWebhook(post.path, call, context);
  return [
    {
      ...fn,
      broker: 'webhook',
      queue: post.path,
      line: call.loc.start.line,
      ...(said ? {} : { needsSenderCheck: true as const }),
    },
  ];
}

/** A parameter of a function of the file that the function hands a library as a handler, as it is. */
export interface HandedOnParameter {
  owner: TSESTree.FunctionLike;
  index: number;
  broker: string;
}

/**
 * A library's registration handed a parameter of the function around it as the handler
 * (`startConsumer(topic, onMessage) { consumer.run({ eachMessage: onMessage }) }`,
 * `createConsumers(onMessageFn) { Consumer.createHandler(topic, config, onMessageFn) }`): that
 * function registers what its callers hand it there, as a worker factory of the project does.
 */
function handedOnParameters(
  call: TSESTree.NewExpression | TSESTree.CallExpression,
  context: AnyRuleContext,
  imports: ReadonlySet<string>,
): HandedOnParameter[] {
  const scope = context.sourceCode.getScope(call);
  const parameterOf = (node: TSESTree.Node): { owner: TSESTree.FunctionLike; index: number } | undefined => {
    const target = unwrap(node);
    if (target.type !== AST_NODE_TYPES.Identifier) return undefined;
    const variable = findVariable(scope, target);
    const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
    if (def?.type !== TSESLint.Scope.DefinitionType.Parameter || !isFunction(def.node)) return undefined;
    if (variable?.references.some((reference) => reference.isWrite() && !reference.init)) return undefined;
    const index = def.node.params.findIndex(
      (param) => param === def.name || (param.type === AST_NODE_TYPES.AssignmentPattern && param.left === def.name),
    );
    return index < 0 ? undefined : { owner: def.node, index };
  };
  const handed = libraryHandlerValues(call, context, imports, (node) => parameterOf(node) !== undefined);
  if (!handed) return [];
  return handed.values.flatMap(({ node }) => {
    const parameter = parameterOf(node);
    return parameter ? [{ ...parameter, broker: handed.broker }] : [];
  });
}

/**
 * The imported functions the file's delivery handlers pick by the delivery's type
 * (handler/type-dispatch.ts): `switch (event.type) { case 'invoice.paid': return
 * handleInvoicePaid(event) }` with `handleInvoicePaid` another module's, each with the handler's broker.
 */
export function importedDispatches(
  handlers: readonly ConsumerHandler[],
  context: AnyRuleContext,
): ImportedRegistration[] {
  return handlers.flatMap((handler) => {
    if (!isDelivery(handler.broker)) return [];
    const picks = [
      ...ownDispatches(handler, context),
      ...forwardPicks(handler.fn, context).map((pick) => ({ ...pick, key: handler.queue })),
    ];
    return picks.flatMap(({ value, key, at }) => {
      const fn = importedPick(value, context.sourceCode.getScope(at));
      return fn ? [{ ...fn, broker: handler.broker, queue: key, line: at.loc.start.line, picked: true as const }] : [];
    });
  });
}

/**
 * A pick of {@link reachedDispatches}: `reached` when a function `fn` calls makes it, by what that
 * function was handed, which need not be what `fn` was handed.
 */
export interface ReachedDispatch extends Dispatched {
  reached?: true;
}

/** Each function's picks with those of the functions of its file it reaches, once. */
const reached = new WeakMap<TSESTree.FunctionLike, ReachedDispatch[]>();

/**
 * What `fn` and the functions of its file (and methods of its class) it calls pick by the type of
 * what each was handed (handler/type-dispatch.ts): a handler that hands its delivery to
 * `this.processEvent(event)`, whose `switch` picks the work, dispatches as much as if it switched
 * itself. The calls are those of its summary (`locals`), followed to the end of every chain.
 */
export function reachedDispatches(fn: TSESTree.FunctionLike, context: AnyRuleContext): ReachedDispatch[] {
  const known = reached.get(fn);
  if (known) return known;
  const found: ReachedDispatch[] = [];
  const seen = new Set<TSESTree.FunctionLike>([fn]);
  const queue = [fn];
  for (let next = queue.shift(); next; next = queue.shift()) {
    const own = next === fn;
    const dispatches = typeDispatches(next, context);
    if (own) found.push(...dispatches);
    // A function it calls picks by what that function was handed: a delivery's type only when it
    // reads a field of it (`event.type`), not when the caller names the choice (`send(db, 'match')`),
    // and names two types at least (one guarded branch and the rest is a helper's own case split).
    else if (isTypeSplit(dispatches))
      found.push(...dispatches.map((dispatch) => ({ ...dispatch, reached: true as const })));
    for (const local of ownSummary(next, context).locals)
      if (!seen.has(local)) {
        seen.add(local);
        queue.push(local);
      }
  }
  reached.set(fn, found);
  return found;
}

/** Picks by a field of what was handed, two of them under a type's name at least. */
export function isTypeSplit(dispatches: readonly { key?: string; byField?: true }[]): boolean {
  const byField = dispatches.filter((dispatch) => dispatch.byField);
  return byField.length === dispatches.length && byField.filter((dispatch) => dispatch.key !== undefined).length >= 2;
}

/** A picked value that is another module's: an imported function, or a method of an injected service. */
export function importedPick(value: TSESTree.Node, scope: Scope): ImportedFunctionValue | undefined {
  return (
    importedFunctionValue(value, scope) ??
    injectedCallee(value, scope) ??
    declaredCallee(value, scope) ??
    madeInstanceCallee(value, scope) ??
    declaredFactoryResult(value, scope)
  );
}

/**
 * A function the code declares to be what an imported factory returns: `const handle =
 * container.resolve<ReturnType<typeof createAcceptHandler>>('acceptHandler')` (or a binding
 * annotated so) is the function `createAcceptHandler` returns, as a DI container's factory
 * registration (`asFunction(createAcceptHandler)`) makes it.
 */
function declaredFactoryResult(value: TSESTree.Node, scope: Scope): ImportedFunctionValue | undefined {
  const target = unwrap(value);
  if (target.type !== AST_NODE_TYPES.Identifier) return undefined;
  const type = declaredTypeOf(target, scope);
  if (
    type?.type !== AST_NODE_TYPES.TSTypeReference ||
    type.typeName.type !== AST_NODE_TYPES.Identifier ||
    type.typeName.name !== 'ReturnType'
  )
    return undefined;
  const [query, ...rest] = type.typeArguments?.params ?? [];
  if (
    query?.type !== AST_NODE_TYPES.TSTypeQuery ||
    query.exprName.type !== AST_NODE_TYPES.Identifier ||
    rest.length > 0
  )
    return undefined;
  const source = importSource(query.exprName, scope);
  if (!source || source.imported === '*') return undefined;
  return { specifier: source.module, imported: source.imported, returned: true };
}

/**
 * A call of an imported function, or of a static method of an imported class
 * (`WorkerManager.register(QueueName.Eval, evalProcessor)`), handed functions imported from other
 * modules: when the callee turns out to be a worker factory (its file's summary says which
 * parameter it registers), the argument there is a handler. Only calls handed an imported function.
 */
export interface ImportedRegistrarCall extends ImportedCall {
  /** Per argument: the imported function value it is, or null. */
  functions: (ImportedFunctionValue | null)[];
  /** Per argument: its string value when static, or null. */
  strings: (string | null)[];
  /** The call's line. */
  line: number;
}

/** The argument shapes {@link importedFunctionValue} may read as an imported function. */
const FUNCTION_VALUE_TYPES: ReadonlySet<string> = new Set([
  AST_NODE_TYPES.Identifier,
  AST_NODE_TYPES.MemberExpression,
  AST_NODE_TYPES.CallExpression,
]);

export function findImportedRegistrarCalls(
  program: TSESTree.Program,
  context: AnyRuleContext,
): ImportedRegistrarCall[] {
  const found: ImportedRegistrarCall[] = [];
  forEachNode(program, context, (node) => {
    if (node.type !== AST_NODE_TYPES.CallExpression || node.arguments.length < 2) return;
    const callee = unwrap(node.callee);
    const target = callee.type === AST_NODE_TYPES.MemberExpression ? unwrap(callee.object) : callee;
    const member = callee.type === AST_NODE_TYPES.MemberExpression ? memberName(callee) : undefined;
    if (target.type !== AST_NODE_TYPES.Identifier || (callee !== target && member === undefined)) return;
    // Only calls handed a name, a member or a call can hand on an imported function: the scope is read for those.
    if (!node.arguments.some((argument) => FUNCTION_VALUE_TYPES.has(unwrap(argument).type))) return;
    const scope = context.sourceCode.getScope(node);
    const source = importSource(target, scope);
    if (!source || source.imported === '*') return;
    const functions = node.arguments.map((argument) => importedFunctionValue(argument, scope) ?? null);
    if (functions.every((fn) => fn === null)) return;
    const strings = node.arguments.map((argument) => {
      const value = staticValue(argument, scope)?.value;
      return typeof value === 'string' ? value : null;
    });
    found.push({
      specifier: source.module,
      imported: source.imported,
      ...(member === undefined ? {} : { member }),
      functions,
      strings,
      line: node.loc.start.line,
    });
  });
  return found;
}

function importedRegistration(
  call: TSESTree.NewExpression | TSESTree.CallExpression,
  context: AnyRuleContext,
  imports: ReadonlySet<string>,
): ImportedRegistration[] {
  const scope = context.sourceCode.getScope(call);
  const importedFunction = (node: TSESTree.Node | undefined): ImportedFunctionValue | undefined =>
    node && importedFunctionValue(node, scope);

  // A job registry's handlers imported from other modules: `const jobMap = { export: exportCampaign }`.
  const dispatch = call.type === AST_NODE_TYPES.CallExpression ? registryDispatch(call, scope) : undefined;
  if (dispatch) {
    return registryEntries(dispatch.registry).flatMap(({ value, key }) => {
      const fn = importedFunction(value);
      return fn ? [{ ...fn, broker: 'job-registry' as const, queue: key, line: call.loc.start.line }] : [];
    });
  }
  // A library's registration handed functions of other modules (handler/library-registrations.ts),
  // in place or in the rows of a table the registration walks (handler/handler-tables.ts).
  const functions = (node: TSESTree.Node): ImportedFunctionValue[] => {
    const fn = importedFunction(node);
    return fn ? [fn] : tableCells(node, scope).flatMap((cell) => importedFunction(cell) ?? []);
  };
  const handed = libraryHandlerValues(call, context, imports, (node) => functions(node).length > 0);
  if (!handed) return call.type === AST_NODE_TYPES.CallExpression ? importedWebhookRoute(call, context, imports) : [];
  return handed.values.flatMap(({ node, queue }) =>
    functions(node).map((fn) => ({ ...fn, broker: handed.broker, queue, line: call.loc.start.line })),
  );
}

/** What two calls of one function hand it together: each argument's keys joined, unknown where either's is. */
export function mergedArgumentKeys(
  a: readonly (string[] | null)[] | undefined,
  b: readonly (string[] | null)[] | undefined,
): (string[] | null)[] | undefined {
  if (!a || !b) return undefined;
  const merged = Array.from({ length: Math.max(a.length, b.length) }, (_, index) => {
    const left = a[index];
    const right = b[index];
    return left && right ? [...new Set([...left, ...right])] : null;
  });
  return merged.some((keys) => keys !== null) ? merged : undefined;
}
