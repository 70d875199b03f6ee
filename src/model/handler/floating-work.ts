import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { unwrap } from '../ast/nodes.js';
import { memberName, propertyKeyName } from '../ast/names.js';
import { type AnyRuleContext } from '../ast/context.js';
import { isFunction, resolveFunction, returnedValues } from '../ast/function.js';
import { findVariable, isModuleScoped } from '../ast/values.js';
import { type ConsumerHandler } from './consumer-handler.js';
import { asyncCallKind } from './async-call.js';
import { getAck } from './ack.js';
import { ITERATION_METHODS } from '../ast/iteration.js';
import { enclosingFunction } from '../ast/nodes.js';
import { walk } from '../ast/walk.js';
import { callKey, importedCallee, mergedArgumentKeys, type ImportedCall } from '../effects.js';
import { exportedClassMethods, injectedCallee } from '../class-members.js';
import { resolveHandlerFunction } from './methods.js';
import { ownSummary, hasSummaryFact } from '../settings.js';
import { exportedFunctions, exportedName } from './exports.js';

type FloatingKind = 'floating' | 'voided' | 'asyncCallback';

export interface FloatingWork {
  /** The call whose promise nobody waits for (for `asyncCallback`, the `forEach`/`map` call). */
  node: TSESTree.CallExpression;
  kind: FloatingKind;
  /** What the call is (see {@link asyncCallKind}); the iteration method for `asyncCallback`. */
  what: string;
}

/**
 * The promises a handler starts and neither awaits, returns nor hands to something that
 * does: work that may still be running (or may never finish) when the broker has already
 * counted the message as handled. Looks at the handler's own body and the callbacks of
 * array methods it calls synchronously; other nested functions run on their own schedule.
 */
function floatingWork(handler: ConsumerHandler, context: AnyRuleContext): FloatingWork[] {
  const found: FloatingWork[] = [];
  const body = handler.fn.body;
  if (!body) return found;
  walk(body, context, (node) => {
    if (isFunction(node) && node !== handler.fn) {
      if (!isIterationCallback(node)) return 'skip';
      // Its own awaits are fine; the iteration call is checked below. An async callback that
      // waits for nothing runs to its end inline, so its calls are read as the handler's own.
      if (waitsInside(node, context)) return 'skip';
    }
    if (node.type === AST_NODE_TYPES.CallExpression) {
      const iteration = asyncIteration(node, context);
      if (iteration !== undefined && isDropped(node, handler, context) !== undefined) {
        found.push({ node, kind: 'asyncCallback', what: iteration });
      } else {
        // Whether the result is dropped is syntax; only then is the call's type worth asking for.
        const dropped = isDropped(node, handler, context);
        const what = dropped === undefined ? undefined : asyncCallKind(node, context);
        if (
          what !== undefined &&
          dropped !== undefined &&
          !respondsWhenSettled(node, handler, context) &&
          !acksWhenSettled(node, context) &&
          !startsSharedWork(node, context)
        )
          found.push({ node, kind: dropped, what });
      }
    }
    return undefined;
  });
  return found;
}

/**
 * The functions of this file a handler's delivery waits for: those it calls and awaits,
 * returns or otherwise does not drop, and theirs in turn, to the end of every chain (each function
 * once). A call the handler drops is floating work itself, so it is not followed.
 */
function deliveryPath(handler: ConsumerHandler, context: AnyRuleContext): TSESTree.FunctionLike[] {
  const path: TSESTree.FunctionLike[] = [];
  const seen = new Set<TSESTree.FunctionLike>([handler.fn]);
  for (let index = -1; index < path.length; index++) {
    const fn = index < 0 ? handler.fn : path[index];
    if (fn === undefined) break;
    for (const callee of waitedCalls(fn, context).locals) {
      if (seen.has(callee)) continue;
      seen.add(callee);
      path.push(callee);
    }
  }
  return path;
}

interface WaitedCalls {
  /** Functions of this file and methods of its class. */
  locals: TSESTree.FunctionLike[];
  /** Imported functions and injected services' methods. */
  imports: ImportedCall[];
}

/** Each function's waited calls, once: a class's many methods share their helpers. */
const waited = new WeakMap<TSESTree.FunctionLike, WaitedCalls>();

/** The calls `fn` makes without dropping their promise (in its body and inline iteration callbacks). */
function waitedCalls(fn: TSESTree.FunctionLike, context: AnyRuleContext): WaitedCalls {
  const cached = waited.get(fn);
  if (cached) return cached;
  const calls: WaitedCalls = { locals: [], imports: [] };
  waited.set(fn, calls);
  if (!fn.body) return calls;
  const caller = onPath(fn);
  walk(fn.body, context, (node) => {
    if (isFunction(node) && node !== fn && !isIterationCallback(node)) return 'skip';
    if (node.type !== AST_NODE_TYPES.CallExpression || isDropped(chainEnd(node), caller, context) !== undefined)
      return undefined;
    const scope = context.sourceCode.getScope(node);
    // A function of this file, or a method of the handler's own class (`this.settle(job)`).
    const callee = resolveHandlerFunction(node.callee, scope);
    if (callee) calls.locals.push(callee);
    const imported = callee
      ? undefined
      : (importedCallee(unwrap(node.callee), scope) ?? injectedCallee(node.callee, scope));
    if (imported) {
      const argumentKeys = node.arguments.map(literalKeys);
      calls.imports.push(argumentKeys.some((keys) => keys !== null) ? { ...imported, argumentKeys } : imported);
    }
    return undefined;
  });
  return calls;
}

/** Promise methods that hand a call's promise on: whoever drops their result drops the call's. */
const PROMISE_CHAIN = new Set(['then', 'catch', 'finally']);

/**
 * The last call of a promise chain a call starts (`f().then(g).catch(log)` for `f()`): the call
 * is waited for only if that is (a `.catch` that is dropped leaves `f()` floating).
 */
function chainEnd(call: TSESTree.CallExpression): TSESTree.CallExpression {
  let end = call;
  for (;;) {
    const member = end.parent;
    const next = member.parent;
    if (
      member.type !== AST_NODE_TYPES.MemberExpression ||
      member.object !== end ||
      next?.type !== AST_NODE_TYPES.CallExpression ||
      next.callee !== member ||
      member.property.type !== AST_NODE_TYPES.Identifier ||
      !PROMISE_CHAIN.has(member.property.name)
    )
      return end;
    end = next;
  }
}

/**
 * Floating work on a handler's delivery path: in the handler and in the functions of this file
 * it waits for ({@link deliveryPath}); an un-awaited write two calls down still outlives the
 * delivery.
 */
export function floatingWorkOnPath(handler: ConsumerHandler, context: AnyRuleContext): FloatingWork[] {
  const found = floatingWork(handler, context);
  for (const fn of deliveryPath(handler, context)) found.push(...floatingWork({ ...handler, fn }, context));
  return found;
}

/** A function on a delivery path, seen without the handler at its start (another module's). */
function onPath(fn: TSESTree.FunctionLike): ConsumerHandler {
  return { fn, broker: 'generic', queue: undefined, registration: fn, messageParam: fn.params[0] };
}

/**
 * The imported functions that `fn`, and the functions of this file on its delivery path, call
 * without dropping the promise, and the methods of imported classes they call on injected
 * services (`await this.orders.settle(id)`): the delivery waits for them, so `idempotency-check`
 * follows them into their modules, where work they drop outlives the delivery as well.
 */
export function awaitedImports(fn: TSESTree.FunctionLike, context: AnyRuleContext): ImportedCall[] {
  const found = new Map<string, ImportedCall>();
  for (const target of [fn, ...deliveryPath(onPath(fn), context)])
    for (const imported of waitedCalls(target, context).imports) {
      const key = callKey(imported);
      const known = found.get(key);
      found.set(
        key,
        known ? withArgumentKeys(known, mergedArgumentKeys(known.argumentKeys, imported.argumentKeys)) : imported,
      );
    }
  return [...found.values()];
}

/** The keys of an object literal argument (`{ id, taxRate }`), or null for anything else or a spread. */
function literalKeys(argument: TSESTree.Node): string[] | null {
  const value = unwrap(argument);
  if (value.type !== AST_NODE_TYPES.ObjectExpression) return null;
  const keys: string[] = [];
  for (const property of value.properties) {
    if (property.type !== AST_NODE_TYPES.Property || property.computed) return null;
    const key = propertyKeyName(property);
    if (key === undefined) return null;
    keys.push(key);
  }
  return keys;
}

/** The call with these argument keys, or with none when they are unknown. */
function withArgumentKeys(call: ImportedCall, argumentKeys: (string[] | null)[] | undefined): ImportedCall {
  const copy = { ...call };
  delete copy.argumentKeys;
  return argumentKeys ? { ...copy, argumentKeys } : copy;
}

/**
 * Floating work in the functions this file exports that a delivery in another module waits
 * for (`settings.idempotency.deliveryFunctions`, which `idempotency-check` computes; a class's
 * method is listed as `Class.method`): an
 * un-awaited write two calls down, in another file, still outlives the delivery.
 */
export function floatingWorkOfDeliveryFunctions(program: TSESTree.Program, context: AnyRuleContext): FloatingWork[] {
  if (!hasSummaryFact(context, 'deliveryFunction')) return [];
  const isListed = (name: string): boolean => ownSummary(name, context)?.deliveryFunction === true;
  const found: FloatingWork[] = [];
  const add = (name: string, fn: TSESTree.FunctionLike): void => {
    const delivered = deliveredFieldsOf(ownSummary(name, context)?.deliveredFields);
    found.push(
      ...floatingWorkOnPath(onPath(fn), context).filter((work) => !guardedByUndelivered(work.node, fn, delivered)),
    );
  };
  for (const statement of program.body) {
    const node = statement.type === AST_NODE_TYPES.ExpressionStatement ? statement.expression : statement;
    for (const [fn, exportNode] of exportedFunctions(node, context)) {
      const name = exportedName(fn, exportNode);
      if (name !== undefined && isListed(name)) add(name, fn);
    }
  }
  // Methods of the classes this file exports (`OrdersService.settle`), called on an injected instance.
  for (const [name, fn] of exportedClassMethods(program)) if (isListed(name)) add(name, fn);
  return found;
}

function deliveredFieldsOf(entries: readonly { index: number; field: string }[] | undefined): Map<number, Set<string>> {
  const fields = new Map<number, Set<string>>();
  for (const { index, field } of entries ?? []) {
    let set = fields.get(index);
    if (!set) fields.set(index, (set = new Set()));
    set.add(field);
  }
  return fields;
}

/**
 * Work in a branch of `fn` that runs only when a field of one of its parameters is set (`if
 * (data.categorySlug)`, also of the rest of a destructured parameter: `const { id, ...data } =
 * params`), where every call a delivery makes hands that parameter an object literal without the
 * field: no delivery takes the branch (the API routes that set it are no deliveries).
 */
function guardedByUndelivered(
  node: TSESTree.Node,
  fn: TSESTree.FunctionLike,
  delivered: ReadonlyMap<number, ReadonlySet<string>>,
): boolean {
  if (delivered.size === 0) return false;
  for (let current: TSESTree.Node = node; current !== fn; current = current.parent) {
    const parent = current.parent;
    if (!parent) return false;
    if (parent.type !== AST_NODE_TYPES.IfStatement || parent.consequent !== current) continue;
    const guard = testedField(parent.test);
    if (!guard) continue;
    const index = parameterIndex(guard.object, fn);
    const fields = index === undefined ? undefined : delivered.get(index);
    if (fields && !fields.has(guard.field)) return true;
  }
  return false;
}

/** `x.field`, `x.field !== undefined`, `x.field != null`, `!!x.field`, `x?.field`: the object and the field tested. */
function testedField(test: TSESTree.Expression): { object: TSESTree.Node; field: string } | undefined {
  let value = unwrap(test);
  if (value.type === AST_NODE_TYPES.UnaryExpression && value.operator === '!') {
    const inner = unwrap(value.argument);
    if (inner.type !== AST_NODE_TYPES.UnaryExpression || inner.operator !== '!') return undefined;
    value = unwrap(inner.argument);
  }
  if (value.type === AST_NODE_TYPES.BinaryExpression && ['!==', '!='].includes(value.operator)) {
    const other = unwrap(value.right);
    const empty =
      (other.type === AST_NODE_TYPES.Identifier && other.name === 'undefined') ||
      (other.type === AST_NODE_TYPES.Literal && other.value === null);
    if (!empty) return undefined;
    value = unwrap(value.left);
  }
  if (value.type === AST_NODE_TYPES.ChainExpression) value = value.expression;
  if (value.type !== AST_NODE_TYPES.MemberExpression || value.computed) return undefined;
  const field = memberName(value);
  return field === undefined ? undefined : { object: unwrap(value.object), field };
}

/**
 * The parameter of `fn` an object stands for: the parameter itself, or the rest of it that a
 * destructuring at the top of `fn`'s body keeps (`const { id, teamId, ...data } = params`).
 */
function parameterIndex(object: TSESTree.Node, fn: TSESTree.FunctionLike): number | undefined {
  if (object.type !== AST_NODE_TYPES.Identifier) return undefined;
  const direct = fn.params.findIndex((param) => param.type === AST_NODE_TYPES.Identifier && param.name === object.name);
  if (direct !== -1) return direct;
  if (fn.body?.type !== AST_NODE_TYPES.BlockStatement) return undefined;
  for (const statement of fn.body.body) {
    if (statement.type !== AST_NODE_TYPES.VariableDeclaration) continue;
    for (const declarator of statement.declarations) {
      const init = declarator.init && unwrap(declarator.init);
      if (declarator.id.type !== AST_NODE_TYPES.ObjectPattern || init?.type !== AST_NODE_TYPES.Identifier) continue;
      const rest = declarator.id.properties.find((property) => property.type === AST_NODE_TYPES.RestElement);
      if (rest?.argument.type !== AST_NODE_TYPES.Identifier || rest.argument.name !== object.name) continue;
      const index = fn.params.findIndex(
        (param) => param.type === AST_NODE_TYPES.Identifier && param.name === init.name,
      );
      if (index !== -1) return index;
    }
  }
  return undefined;
}

/**
 * A webhook's delivery ends with its response, not with the handler's return: a chain that
 * sends the response itself (`get(id).then((p) => res.send(p.status))`) answers the sender
 * only after the work.
 */
function respondsWhenSettled(
  call: TSESTree.CallExpression,
  handler: ConsumerHandler,
  context: AnyRuleContext,
): boolean {
  const response = handler.fn.params[1];
  if (handler.broker !== 'webhook' || response?.type !== AST_NODE_TYPES.Identifier) return false;
  return walk(call, context, (node) =>
    node.type === AST_NODE_TYPES.Identifier && node.name === response.name ? 'stop' : undefined,
  );
}

/**
 * A call of a memoised initialiser of this file: a function whose every return hands back one
 * module-level variable that the function itself assigns (`if (initPromise) return initPromise;
 * initPromise = run(); return initPromise;`). The promise belongs to the module, started once and
 * awaited by whoever needs the result; dropping it here loses no delivery's work.
 */
function startsSharedWork(call: TSESTree.CallExpression, context: AnyRuleContext): boolean {
  const fn = resolveFunction(call.callee, context.sourceCode.getScope(call));
  if (fn?.body?.type !== AST_NODE_TYPES.BlockStatement) return false;
  const returned = returnedValues(fn.body);
  const variables = new Set(
    returned.map((value) => {
      const target = unwrap(value);
      return target.type === AST_NODE_TYPES.Identifier
        ? findVariable(context.sourceCode.getScope(target), target)
        : undefined;
    }),
  );
  const [variable] = variables;
  if (variables.size !== 1 || !variable) return false;
  const moduleLevel = isModuleScoped(variable);
  const [start, end] = fn.range;
  return (
    moduleLevel &&
    variable.references.some(
      (reference) =>
        reference.isWrite() && reference.identifier.range[0] > start && reference.identifier.range[1] < end,
    )
  );
}

/**
 * A chain that acks the delivery itself once the work settles
 * (`work(msg).catch(log).finally(() => channel.ack(msg))`): the broker keeps the message until
 * then, so nothing outlives the delivery even though the handler returns first.
 */
function acksWhenSettled(call: TSESTree.CallExpression, context: AnyRuleContext): boolean {
  return walk(call, context, (node) =>
    node.type === AST_NODE_TYPES.CallExpression && node !== call && getAck(node, context) ? 'stop' : undefined,
  );
}

/**
 * True when an async callback waits for something before it ends (an `await`, a `for await`,
 * or an expression body, which returns its value): only then does a caller that drops its
 * promise finish before the callback's work. `xs.forEach(async (x) => { ids.push(x) })` waits
 * for nothing.
 */
function waitsInside(fn: TSESTree.FunctionLike, context: AnyRuleContext): boolean {
  if (!fn.async) return false;
  const body = fn.body;
  if (!body) return false;
  if (body.type !== AST_NODE_TYPES.BlockStatement) return true;
  return walk(
    body,
    context,
    (node) =>
      node.type === AST_NODE_TYPES.AwaitExpression || (node.type === AST_NODE_TYPES.ForOfStatement && node.await)
        ? 'stop'
        : undefined,
    { enterFunctions: false },
  );
}

/** A function passed as the first argument of `xs.forEach(...)`, `xs.map(...)` and the like. */
function isIterationCallback(fn: TSESTree.FunctionLike): boolean {
  const parent = fn.parent;
  if (parent.type !== AST_NODE_TYPES.CallExpression || parent.arguments[0] !== fn) return false;
  const callee = unwrap(parent.callee);
  const method = callee.type === AST_NODE_TYPES.MemberExpression ? memberName(callee) : undefined;
  return method !== undefined && ITERATION_METHODS.has(method);
}

/** `xs.forEach(async ...)` / `xs.map(async ...)`: the iteration method, when its callback is async. */
function asyncIteration(call: TSESTree.CallExpression, context: AnyRuleContext): string | undefined {
  const callee = unwrap(call.callee);
  const method = callee.type === AST_NODE_TYPES.MemberExpression ? memberName(callee) : undefined;
  if (method !== 'forEach' && method !== 'map' && method !== 'flatMap') return undefined;
  const callback = call.arguments[0];
  return callback && isFunction(callback) && waitsInside(callback, context) ? method : undefined;
}

/**
 * How the promise of `call` is dropped, or undefined when something takes it: an `await`, a
 * `return` from the handler, an assignment whose variable is read, an argument.
 */
function isDropped(
  call: TSESTree.CallExpression,
  handler: ConsumerHandler,
  context: AnyRuleContext,
): 'floating' | 'voided' | undefined {
  let node: TSESTree.Node = call;
  let parent: TSESTree.Node | undefined = node.parent;
  for (;;) {
    if (!parent) return undefined;
    const wraps =
      parent.type === AST_NODE_TYPES.ChainExpression ||
      parent.type === AST_NODE_TYPES.TSAsExpression ||
      parent.type === AST_NODE_TYPES.TSNonNullExpression ||
      parent.type === AST_NODE_TYPES.TSSatisfiesExpression ||
      (parent.type === AST_NODE_TYPES.LogicalExpression && parent.right === node) ||
      (parent.type === AST_NODE_TYPES.ConditionalExpression && parent.test !== node) ||
      (parent.type === AST_NODE_TYPES.SequenceExpression && parent.expressions.at(-1) === node);
    if (!wraps) break;
    node = parent;
    parent = parent.parent;
  }
  switch (parent.type) {
    case AST_NODE_TYPES.ExpressionStatement:
      return 'floating';
    case AST_NODE_TYPES.SequenceExpression:
      return 'floating';
    case AST_NODE_TYPES.UnaryExpression:
      return parent.operator === 'void' ? 'voided' : undefined;
    case AST_NODE_TYPES.VariableDeclarator: {
      if (parent.init !== node || parent.id.type !== AST_NODE_TYPES.Identifier) return undefined;
      const variable = context.sourceCode.getDeclaredVariables(parent)[0];
      return variable && variable.references.every((reference) => !reference.isRead()) ? 'floating' : undefined;
    }
    case AST_NODE_TYPES.ArrowFunctionExpression:
      // An expression body returns the promise: dropped only by forEach.
      return parent !== handler.fn && droppedByCaller(parent) ? 'floating' : undefined;
    case AST_NODE_TYPES.ReturnStatement: {
      const fn = enclosingFunction(parent);
      return fn && fn !== handler.fn && droppedByCaller(fn) ? 'floating' : undefined;
    }
    default:
      return undefined;
  }
}

/** A callback whose return value its caller ignores: `forEach`. */
function droppedByCaller(fn: TSESTree.FunctionLike): boolean {
  const parent = fn.parent;
  if (parent.type !== AST_NODE_TYPES.CallExpression || parent.arguments[0] !== fn) return false;
  const callee = unwrap(parent.callee);
  return callee.type === AST_NODE_TYPES.MemberExpression && memberName(callee) === 'forEach';
}
