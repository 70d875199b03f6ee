import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext, type Scope } from '../ast/context.js';
import { memberName, memberPath } from '../ast/names.js';
import { contains, unwrap } from '../ast/nodes.js';
import { findVariable, singleInit, staticString } from '../ast/values.js';
import { isFunction, returnedValues } from '../ast/function.js';
import { elementParameterIndex, iteratedContainer, iteration } from '../ast/iteration.js';
import { forEachNode, walk } from '../ast/walk.js';
import { isPlainReply } from '../http/reply.js';
import { containerLookupType } from '../ast/declared-types.js';
import { importSource, isProjectModule } from '../modules.js';
import { declaredCallee, injectedCallee, projectInstanceCallee } from '../class-members.js';
import { resolveHandlerFunction } from './methods.js';
import { registryEntries, tableObject } from './registries.js';

/**
 * Dispatch by the delivery's type: one handler picks the function that does the work by a value
 * it read from what was delivered, and each function it can pick runs once per delivery of its
 * type, so each is a handler of that delivery (a redelivery repeats it):
 * - a table: `handlers[job.data.eventType](job)`, or `const handler = map[type]; await
 *   handler(job)`, or `registry.get(event.type)` on a `new Map([[type, fn], …])`, the table an
 *   object literal or a Map made once in the file (pg-boss and BullMQ processors keyed by an
 *   event type, a job name's table);
 * - a `switch` over such a value (`switch (event.type) { case 'invoice.paid': return
 *   handleInvoicePaid(event) }`, a webhook's per-event work), or an `if` chain comparing it with
 *   string literals: each branch's one call of a function of the project;
 * - a resolver: a function of the file that returns the handler for the type it is handed
 *   (`const processor = resolveProcessor(data.content_type); await processor(props)`).
 *
 * "Read from what was delivered" is followed through the handler's own bindings: the value is an
 * expression over one of its parameters, or over a binding it made from one (`const { event } =
 * await constructEvent(request)`). A branch picks a function when its work is one call of a
 * function of this file or of another module of the project (see {@link pickedCall}); `default:`
 * picks nothing. A `switch` or `if` chain is a dispatch from two picked functions up, and so is a
 * `switch` of one type's case beside a `default:`; one guarded call is the handler's own work.
 */

export interface Dispatched {
  /** The picked function's value: a function, a name of one, an imported binding or member. */
  value: TSESTree.Node;
  /** The type it is picked for, when static (a table's key, a case's literal). */
  key: string | undefined;
  /** The node that picks it: the table lookup, the `case` or the `if`. */
  at: TSESTree.Node;
  /**
   * Picked by a field of what was handed (`event.type`, `const { type } = envelope`), not by a
   * parameter that is itself the choice (`send(db, team, type)`): a message's type, rather than
   * a mode its caller names.
   */
  byField?: true;
  /**
   * Picked by what the code computes from the delivery (`switch (planOf(order.productId))`), not by
   * a field it carries: a choice of the code, which a function picked by the delivery's type may
   * make among its own helpers without their becoming handlers.
   */
  computed?: true;
}

/** Each handler's picks, once: the handler index and the checker's facts both ask. */
const dispatches = new WeakMap<TSESTree.FunctionLike, Dispatched[]>();

/** The functions `fn`, a handler, picks by the delivery's type. */
export function typeDispatches(fn: TSESTree.FunctionLike, context: AnyRuleContext): Dispatched[] {
  let found = dispatches.get(fn);
  if (!found) dispatches.set(fn, (found = findDispatches(fn, context)));
  return found;
}

function findDispatches(fn: TSESTree.FunctionLike, context: AnyRuleContext, depth = 0): Dispatched[] {
  // A handler that only hands the delivery on (`(job) => new ReadmeWorker(deps).handler(job)`)
  // picks what the function it hands it to picks.
  const target = depth < FORWARD_DEPTH ? forwardedTo(fn, context) : undefined;
  if (target) return findDispatches(target, context, depth + 1);
  if (!fn.body || fn.body.type !== AST_NODE_TYPES.BlockStatement) return [];
  const found: Dispatched[] = [];
  const seenTables = new Set<TSESTree.Node>();
  // The `if` statements of one block that take one type each are one dispatch, their picks counted
  // together: those that return from each branch (`if (isCheckout(event)) return
  // onCheckout(event); if (event.type === 'invoice.paid') return onInvoice(event)`), and those
  // that compare the same value with another literal each, which no delivery passes twice (`if
  // (body.event_type === 'A') createOrder(body); if (body.event_type === 'B') complete(body)`), or
  // hand it to a guard each (`if (lines.isItemMatching(keys)) …; if (spots.isItemMatching(keys)) …`).
  const groups = new Map<string, Dispatched[]>();
  const blockIds = new Map<TSESTree.Node, number>();
  walk(
    fn.body,
    context,
    (node) => {
      // A function inside runs later or elsewhere, but for the callback that takes each message of
      // the delivery in turn (`event.Records.map(async (record) => …)`), which is the handler's own work.
      if (isFunction(node)) return deliveredElements(node, fn, context) ? undefined : 'skip';
      if (node.type === AST_NODE_TYPES.CallExpression) {
        const table = tableLookup(unwrap(node.callee), fn, context);
        if (table && !seenTables.has(table.table)) {
          seenTables.add(table.table);
          const field = byField(table.key, fn, context.sourceCode.getScope(node));
          for (const { value, key } of table.entries) found.push({ value, key, at: table.lookup, ...field });
        }
        const resolver = resolverCall(unwrap(node.callee), fn, context);
        if (resolver && !seenTables.has(resolver.resolver)) {
          seenTables.add(resolver.resolver);
          found.push(...resolver.picks);
        }
      } else if (node.type === AST_NODE_TYPES.SwitchStatement) {
        found.push(...switchDispatch(node, fn, context));
      } else if (node.type === AST_NODE_TYPES.IfStatement && node.parent.type !== AST_NODE_TYPES.IfStatement) {
        const chain = ifChainPicks(node, fn, context);
        if (!blockIds.has(node.parent)) blockIds.set(node.parent, blockIds.size);
        const group = chain.returns
          ? `${blockIds.get(node.parent)}:returns`
          : chain.single === undefined
            ? undefined
            : `${blockIds.get(node.parent)}:${chain.single}`;
        if (group === undefined) found.push(...distinctPicks(chain.picks));
        else groups.set(group, [...(groups.get(group) ?? []), ...chain.picks]);
      }
      return undefined;
    },
    { enterFunctions: true },
  );
  for (const picks of groups.values()) found.push(...distinctPicks(picks));
  return found;
}

/** A callback an array method hands each element of what `fn` was delivered (`event.Records.forEach((record) => …)`). */
function deliveredElements(
  callback: TSESTree.FunctionLike,
  fn: TSESTree.FunctionLike,
  context: AnyRuleContext,
): boolean {
  const call = callback.parent;
  if (call.type !== AST_NODE_TYPES.CallExpression || call.arguments[0] !== callback) return false;
  const callee = unwrap(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression || elementParameterIndex(memberName(callee) ?? '') === undefined)
    return false;
  return fromDelivery(unwrap(callee.object), fn, context.sourceCode.getScope(call));
}

/** How many handlers that only hand the delivery on are followed to the one that picks. */
const FORWARD_DEPTH = 4;

/**
 * The function of this file that `fn` hands its delivery to when that is all it does: its body is
 * one call (returned, awaited or its expression body) of a local function, a method of its class
 * or of a class of the file made in place, handed part of the delivery.
 */
function forwardedTo(fn: TSESTree.FunctionLike, context: AnyRuleContext): TSESTree.FunctionLike | undefined {
  const call = forwardingCall(fn, context);
  if (!call) return undefined;
  const target = resolveHandlerFunction(unwrap(call.callee), context.sourceCode.getScope(call));
  return target === fn ? undefined : target;
}

/** The one call `fn`'s body is (returned, awaited or its expression body), when it is handed part of the delivery. */
function forwardingCall(fn: TSESTree.FunctionLike, context: AnyRuleContext): TSESTree.CallExpression | undefined {
  if (!fn.body) return undefined;
  let value: TSESTree.Node | undefined;
  if (fn.body.type !== AST_NODE_TYPES.BlockStatement) value = fn.body;
  else {
    // The `try` block a body is (its `catch` answers a failure), with the logging around the call
    // and what it returns after it, when that is a constant status (`return { status: 'processed'
    // }`) or a plain answer to the request (`return res.send(200)`): no work of its own.
    const [only] = fn.body.body;
    const block = fn.body.body.length === 1 && only?.type === AST_NODE_TYPES.TryStatement ? only.block : fn.body;
    const work = beforeClosingAnswer(block.body, fn, block, context).filter((statement) => !isLogging(statement));
    const last = work.at(-1);
    const call = last && dispatchedCall(last);
    // What it calls on a service it looks up first (`const handler =
    // container.resolve<FollowHandler>('followHandler'); return handler.handle(ctx, activity)`):
    // the lookup is how it finds the work, not work of its own.
    const rest = call ? work.slice(0, -1).filter((statement) => !isReceiverLookup(statement, call, context)) : work;
    if (rest.length === 0 && call) value = call;
  }
  let call = value && unwrap(value);
  if (call?.type === AST_NODE_TYPES.AwaitExpression) call = unwrap(call.argument);
  if (call?.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const scope = context.sourceCode.getScope(call);
  return call.arguments.some((argument) => fromDelivery(argument, fn, scope)) ? call : undefined;
}

/**
 * The function a handler that only hands its delivery on hands it to (`message =>
 * processPaymentMessage(message, receiver)`, `(job) => this.service.process(job.data)`): the
 * function that does the work of every delivery, picked whatever the delivery's type (no key). A
 * function of the file, another module's, or an injected service's method; the caller resolves it.
 */
export function forwardPicks(fn: TSESTree.FunctionLike, context: AnyRuleContext): Dispatched[] {
  const call = forwardingCall(fn, context);
  // The delivery, or its payload, is what it is handed first: the work's own input, not a URL or
  // a choice its caller names (`request('/hooks', { body: job.data })`, `send(db, job.data)`).
  const [first, ...rest] = call?.arguments ?? [];
  // What it builds in place beside it (`sendEventToTracking(c, { event: 'org:card_expiring' })`) is
  // the work's content: a helper handed the context and a message of its own does that work.
  const builds = rest.some((argument) => unwrap(argument).type === AST_NODE_TYPES.ObjectExpression);
  if (call && first && !builds && isDeliveryOrPayload(first, fn, context.sourceCode.getScope(call)))
    return [{ value: unwrap(call.callee), key: undefined, at: call }];
  return batchPicks(fn, context);
}

/**
 * The function a batch handler hands each message of its batch to, when that is all it does with
 * it (`for (const record of event.Records) await processRecord(record)`, `await
 * Promise.all(event.Records.map((record) => processMessage(JSON.parse(record.body))))`): the work
 * of every message, a redelivered batch repeats it for each.
 */
function batchPicks(fn: TSESTree.FunctionLike, context: AnyRuleContext): Dispatched[] {
  if (!fn.body || fn.body.type !== AST_NODE_TYPES.BlockStatement) return [];
  const scope = context.sourceCode.getScope(fn);
  const picks: Dispatched[] = [];
  const pick = (element: TSESTree.Node | undefined, body: TSESTree.Node, together = false): void => {
    if (element?.type !== AST_NODE_TYPES.Identifier) return;
    const call = elementCall(body, element, together, context);
    if (call) picks.push({ value: unwrap(call.callee), key: undefined, at: call });
  };
  walk(
    fn.body,
    context,
    (node) => {
      if (node.type === AST_NODE_TYPES.ForOfStatement) {
        const declaration =
          node.left.type === AST_NODE_TYPES.VariableDeclaration ? node.left.declarations[0] : undefined;
        if (carriedByDelivery(node.right, fn, scope)) pick(declaration?.id, node.body);
      } else if (node.type === AST_NODE_TYPES.CallExpression) {
        const callee = unwrap(node.callee);
        const [callback] = node.arguments;
        const method = callee.type === AST_NODE_TYPES.MemberExpression ? memberName(callee) : undefined;
        if (
          callee.type === AST_NODE_TYPES.MemberExpression &&
          (method === 'forEach' || (method === 'map' && isAwaitedTogether(node))) &&
          callback &&
          isFunction(callback) &&
          carriedByDelivery(callee.object, fn, scope)
        )
          pick(callback.params[0], callback.body, method === 'map');
      }
      return undefined;
    },
    { enterFunctions: false },
  );
  return picks;
}

/**
 * Whether `node` is a part of what `fn` was handed, as the delivery carries it: the parameter, its
 * properties, bindings made once from those, decoded (`JSON.parse(msg.body).items`) or awaited; not
 * what a call computes from it (`await hasura.query({ where: { node: data.new.id } })`, rows a
 * query finds by the delivery's fields, which are no batch of deliveries).
 */
function carriedByDelivery(
  node: TSESTree.Node,
  fn: TSESTree.FunctionLike,
  scope: Scope,
  seen = new Set<TSESTree.Node>(),
): boolean {
  const value = unwrap(node);
  if (seen.has(value)) return false;
  seen.add(value);
  switch (value.type) {
    case AST_NODE_TYPES.MemberExpression:
      return carriedByDelivery(value.object, fn, scope, seen);
    case AST_NODE_TYPES.CallExpression: {
      const callee = unwrap(value.callee);
      const [argument] = value.arguments;
      const path = memberPath(callee)?.join('.');
      if (argument && (path === 'JSON.parse' || path === 'Object.values' || path === 'Object.entries'))
        return carriedByDelivery(argument, fn, scope, seen);
      return false;
    }
    case AST_NODE_TYPES.Identifier: {
      // A parameter of `fn`, or a binding of `fn` made once (destructured too: `const { Records } = event`).
      const variable = findVariable(scope, value);
      const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
      if (def?.type === TSESLint.Scope.DefinitionType.Parameter) return def.node === fn;
      if (def?.type !== TSESLint.Scope.DefinitionType.Variable || !contains(fn, def.node)) return false;
      if ((variable?.references.filter((reference) => reference.isWrite()).length ?? 0) > 1) return false;
      return def.node.init !== null && carriedByDelivery(def.node.init, fn, scope, seen);
    }
    default:
      return false;
  }
}

/**
 * `Promise.all(records.map(…))` (or `allSettled`): the calls the map makes are the batch's work,
 * waited for together; a map whose result is kept (`records.map((r) => parseBody(r.body))`)
 * transforms the batch into data.
 */
function isAwaitedTogether(node: TSESTree.Node): boolean {
  const parent = node.parent;
  if (parent?.type !== AST_NODE_TYPES.CallExpression || parent.arguments[0] !== node) return false;
  const path = memberPath(parent.callee);
  return path?.[0] === 'Promise' && ['all', 'allSettled'].includes(path[1] ?? '');
}

/**
 * The one call `body` makes of each element (`element`, or a binding made from it): its expression
 * body, or the one statement of its block besides bindings made from the element and logging.
 */
function elementCall(
  body: TSESTree.Node,
  element: TSESTree.Identifier,
  together: boolean,
  context: AnyRuleContext,
): TSESTree.CallExpression | undefined {
  const statements =
    body.type === AST_NODE_TYPES.BlockStatement
      ? body.body
      : body.type === AST_NODE_TYPES.ExpressionStatement || body.type === AST_NODE_TYPES.ReturnStatement
        ? [body]
        : undefined;
  const work = statements?.filter(
    (statement) =>
      statement.type !== AST_NODE_TYPES.VariableDeclaration &&
      (!isLogging(statement) ||
        (statement.type === AST_NODE_TYPES.ExpressionStatement &&
          pushedTogether(statement.expression, context) !== undefined)),
  );
  let value: TSESTree.Node | null | undefined;
  if (!statements) value = body;
  else if (work?.length === 1 && work[0]?.type === AST_NODE_TYPES.ExpressionStatement) value = work[0].expression;
  else if (work?.length === 1 && work[0]?.type === AST_NODE_TYPES.ReturnStatement) value = work[0].argument;
  // `promises.push(processRecord(record).catch(log))`, the array waited for with `Promise.all`.
  const pushed = value ? pushedTogether(unwrap(value), context) : undefined;
  if (pushed) {
    value = pushed;
    together = true;
  }
  const target = value && unwrap(value);
  // Work the batch waits for: awaited one by one, or each promise handed to `Promise.all` (a
  // call made and dropped, `(log) => summary.info(log)`, is no message's work).
  const awaited = value?.type === AST_NODE_TYPES.AwaitExpression;
  if (target?.type !== AST_NODE_TYPES.CallExpression || (!awaited && !together)) return undefined;
  const scope = context.sourceCode.getScope(target);
  // Each binding's value is read once: one that refers to itself (`const retry = () => retry()`) ends.
  const followed = new Set<TSESTree.Node>();
  const fromElement = (node: TSESTree.Node): boolean => {
    let found = false;
    forEachNode(node, context, (inner) => {
      if (found || inner.type !== AST_NODE_TYPES.Identifier) return;
      if (inner.name === element.name && findVariable(scope, inner)?.defs[0]?.name === element) found = true;
      const init = inner !== element ? singleInit(inner, scope) : undefined;
      if (!init || followed.has(init) || !contains(body, init)) return;
      followed.add(init);
      if (fromElement(init)) found = true;
    });
    return found;
  };
  const [first] = target.arguments;
  return first && fromElement(first) ? target : undefined;
}

/**
 * The call `statement` pushes into an array the same function waits for as a whole
 * (`promises.push(processRecord(record).catch(log))`, then `await Promise.all(promises)` or
 * `Promise.all(promises.map(reflect))`), a rejection handler on it aside.
 */
function pushedTogether(expression: TSESTree.Node, context: AnyRuleContext): TSESTree.Node | undefined {
  if (
    expression.type !== AST_NODE_TYPES.CallExpression ||
    expression.callee.type !== AST_NODE_TYPES.MemberExpression ||
    memberName(expression.callee) !== 'push' ||
    expression.arguments.length !== 1
  )
    return undefined;
  const array = unwrap(expression.callee.object);
  const [argument] = expression.arguments;
  if (array.type !== AST_NODE_TYPES.Identifier || !argument || argument.type === AST_NODE_TYPES.SpreadElement)
    return undefined;
  const variable = findVariable(context.sourceCode.getScope(array), array);
  const awaited = variable?.references.some(({ identifier }) => {
    // `promises.map(reflect)` handed on is the same promises.
    const mapped =
      identifier.parent.type === AST_NODE_TYPES.MemberExpression &&
      identifier.parent.object === identifier &&
      identifier.parent.parent.type === AST_NODE_TYPES.CallExpression
        ? identifier.parent.parent
        : undefined;
    return isAwaitedTogether(mapped ?? identifier);
  });
  if (!awaited) return undefined;
  // `work(record).catch(log)`: the work, its failure logged.
  let work = unwrap(argument);
  while (
    work.type === AST_NODE_TYPES.CallExpression &&
    work.callee.type === AST_NODE_TYPES.MemberExpression &&
    ['catch', 'finally'].includes(memberName(work.callee) ?? '')
  )
    work = unwrap(work.callee.object);
  return work;
}

/**
 * The delivery `fn` is handed (its first parameter, or a binding its pattern makes), one field of
 * it (`job.data`, `message.body`, `event.detail`), or that parsed (`JSON.parse(record.body)`): the
 * work's whole input, not a part that a helper takes for a URL or an id (`send(job.data.url, …)`).
 */
function isDeliveryOrPayload(node: TSESTree.Node, fn: TSESTree.FunctionLike, scope: Scope): boolean {
  let value = unwrap(node);
  if (
    value.type === AST_NODE_TYPES.CallExpression &&
    memberPath(value.callee)?.join('.') === 'JSON.parse' &&
    value.arguments[0]
  )
    value = unwrap(value.arguments[0]);
  if (value.type === AST_NODE_TYPES.MemberExpression && !value.computed) value = unwrap(value.object);
  if (value.type !== AST_NODE_TYPES.Identifier) return false;
  const [parameter] = fn.params;
  const def = findVariable(scope, value)?.defs[0];
  return (
    parameter !== undefined &&
    def?.type === TSESLint.Scope.DefinitionType.Parameter &&
    def.node === fn &&
    contains(parameter, def.name)
  );
}

// ---------------------------------------------------------------------------------------------
// Tables

interface TableLookup {
  table: TSESTree.Node;
  lookup: TSESTree.Node;
  /** What the table is looked up by. */
  key: TSESTree.Node;
  entries: { value: TSESTree.Node; key: string | undefined }[];
}

/** How many bindings a looked-up value is followed through to its lookup. */
const BINDING_HOPS = 3;

/**
 * What a value is, through the bindings made once that hold it and the left of a fallback
 * (`const maybe = handlers[name]; const handler = (maybe ?? fallback) as Fn`, `const processor =
 * await resolveProcessor(type)`); undefined when a binding on the way is written more than once.
 */
function heldValue(node: TSESTree.Node, scope: Scope): TSESTree.Node | undefined {
  let value = unwrap(node);
  for (let hops = 0; value.type === AST_NODE_TYPES.Identifier && hops < BINDING_HOPS; hops++) {
    const init = singleInit(value, scope);
    if (!init) return undefined;
    value = unwrap(init);
    if (value.type === AST_NODE_TYPES.LogicalExpression) value = unwrap(value.left);
  }
  return value;
}

/**
 * A lookup in a container by a key: `table[key]` or `table.get(key)`, written in place or held in a
 * binding made once from one (`const handler = handlers[type] ?? fallback`).
 */
function lookupOf(
  node: TSESTree.Node,
  scope: Scope,
): { container: TSESTree.Node; key: TSESTree.Node; lookup: TSESTree.Node } | undefined {
  const lookup = heldValue(node, scope);
  if (!lookup) return undefined;
  if (lookup.type === AST_NODE_TYPES.MemberExpression && lookup.computed) {
    if (lookup.property.type === AST_NODE_TYPES.Literal) return undefined;
    return { container: unwrap(lookup.object), key: lookup.property, lookup };
  }
  if (
    lookup.type === AST_NODE_TYPES.CallExpression &&
    lookup.callee.type === AST_NODE_TYPES.MemberExpression &&
    memberName(lookup.callee) === 'get' &&
    lookup.arguments[0] &&
    lookup.arguments[0].type !== AST_NODE_TYPES.Literal
  )
    return { container: unwrap(lookup.callee.object), key: lookup.arguments[0], lookup };
  return undefined;
}

/** Whether `receiver` is a value `fn` picks out of a container by a key read from what it was handed. */
export function pickedByDelivery(receiver: TSESTree.Node, fn: TSESTree.FunctionLike, scope: Scope): boolean {
  const found = lookupOf(receiver, scope);
  return found !== undefined && fromDelivery(found.key, fn, scope);
}

/** `table[key]` or `map.get(key)` on a table this file writes, with a key read from the delivery. */
function tableLookup(
  callee: TSESTree.Node,
  fn: TSESTree.FunctionLike,
  context: AnyRuleContext,
): TableLookup | undefined {
  const scope = context.sourceCode.getScope(callee);
  const found = lookupOf(callee, scope);
  if (!found || !fromDelivery(found.key, fn, scope)) return undefined;
  const table = tableObject(found.container, scope, context);
  if (table?.kind === 'object' && found.lookup.type === AST_NODE_TYPES.MemberExpression)
    return { table: table.node, lookup: found.lookup, key: found.key, entries: registryEntries(table.node) };
  // `handlers[type][action](data)`: a table of tables, each looked up by a value delivered.
  const outer = found.container;
  if (
    outer.type === AST_NODE_TYPES.MemberExpression &&
    outer.computed &&
    found.lookup.type === AST_NODE_TYPES.MemberExpression &&
    fromDelivery(outer.property, fn, scope)
  ) {
    const tables = tableObject(unwrap(outer.object), scope, context);
    if (tables?.kind === 'object')
      return {
        table: tables.node,
        lookup: found.lookup,
        key: found.key,
        entries: registryEntries(tables.node).flatMap(({ value, key }) => {
          const inner = unwrap(value);
          return inner.type === AST_NODE_TYPES.ObjectExpression
            ? registryEntries(inner).map((entry) => ({ value: entry.value, key: `${key}.${entry.key}` }))
            : [];
        }),
      };
  }
  if (table?.kind === 'map' && found.lookup.type === AST_NODE_TYPES.CallExpression)
    return { table: table.node, lookup: found.lookup, key: found.key, entries: mapEntries(table.node, scope) };
  return undefined;
}

/** `new Map([[key, fn], …])`'s entries. */
function mapEntries(map: TSESTree.NewExpression, scope: Scope): { value: TSESTree.Node; key: string | undefined }[] {
  const rows = map.arguments[0] && unwrap(map.arguments[0]);
  if (rows?.type !== AST_NODE_TYPES.ArrayExpression) return [];
  return rows.elements.flatMap((row) => {
    if (row?.type !== AST_NODE_TYPES.ArrayExpression) return [];
    const [key, value] = row.elements;
    if (!value || value.type === AST_NODE_TYPES.SpreadElement) return [];
    const name = key && key.type !== AST_NODE_TYPES.SpreadElement ? staticString(key, scope) : undefined;
    return [{ value, key: name }];
  });
}

// ---------------------------------------------------------------------------------------------
// Resolvers

/**
 * A function of this file that returns the handler for a type it is handed, called with a value
 * read from the delivery and its result called (`const processor = resolveProcessor(data.content_type);
 * await processor(props)`, `getJobHandler(job.type)(params)`): each function it can return is picked,
 * under the `case` it is returned from. A resolver returns two functions at least; `default:`
 * counts here, since what it returns is the handler of every other type.
 */
function resolverCall(
  callee: TSESTree.Node,
  fn: TSESTree.FunctionLike,
  context: AnyRuleContext,
): { resolver: TSESTree.FunctionLike; picks: Dispatched[] } | undefined {
  const scope = context.sourceCode.getScope(callee);
  const call = heldValue(callee, scope);
  if (call?.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const argument = call.arguments.find(
    (value) => value.type !== AST_NODE_TYPES.SpreadElement && fromDelivery(value, fn, scope),
  );
  if (!argument) return undefined;
  const resolver = resolveHandlerFunction(unwrap(call.callee), scope);
  if (!resolver?.body || resolver.body.type !== AST_NODE_TYPES.BlockStatement || resolver === fn) return undefined;
  const inner = context.sourceCode.getScope(resolver.body);
  const field = byField(argument, fn, scope);
  const picks = returnedValues(resolver.body).flatMap((value): Dispatched[] => {
    const target = unwrap(value);
    if (target.type !== AST_NODE_TYPES.Identifier && target.type !== AST_NODE_TYPES.MemberExpression) return [];
    if (!resolveHandlerFunction(target, inner) && !isProjectImport(target, inner, context)) return [];
    const branch = enclosingCase(value, resolver.body as TSESTree.BlockStatement);
    const key = branch?.test ? caseKey(branch.test, inner) : undefined;
    return [{ value: target, key, at: branch ?? value, ...field }];
  });
  const distinct = distinctPicks(picks);
  return distinct.length > 0 ? { resolver, picks: distinct } : undefined;
}

/** The `case` a `return` sits in, directly (not in a nested function). */
function enclosingCase(node: TSESTree.Node, body: TSESTree.BlockStatement): TSESTree.SwitchCase | undefined {
  for (let current: TSESTree.Node | undefined = node.parent; current && current !== body; current = current.parent)
    if (current.type === AST_NODE_TYPES.SwitchCase) return current;
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// switch and if chains

function switchDispatch(
  statement: TSESTree.SwitchStatement,
  fn: TSESTree.FunctionLike,
  context: AnyRuleContext,
): Dispatched[] {
  const scope = context.sourceCode.getScope(statement);
  // `switch (true) { case isPurchaseType(PurchaseType.Plus, event): … }`: each case a test of the delivery.
  const predicates = isTrue(statement.discriminant);
  if (
    predicates
      ? !statement.cases.every((branch) => !branch.test || fromDelivery(branch.test, fn, scope))
      : !fromDelivery(statement.discriminant, fn, scope)
  )
    return [];
  const found: Dispatched[] = [];
  // What the cases are told apart by: the discriminant, or for predicates any case's test.
  const tests = predicates
    ? statement.cases.flatMap((branch) => (branch.test ? [branch.test] : []))
    : [statement.discriminant];
  const field = {
    ...(tests.some((test) => readsField(test, fn, scope, 0)) ? { byField: true as const } : {}),
    ...(tests.every((test) => isComputedChoice(test, scope, 0)) ? { computed: true as const } : {}),
  };
  // Cases that fall through to the next share its call (`case 'invoice.voided': case 'invoice.marked_uncollectible':`).
  let pending: string[] = [];
  for (const branch of statement.cases) {
    // `default:` is what no type picked (`assertUnreachable(event)`, a log): not a type's handler.
    if (!branch.test) {
      pending = [];
      continue;
    }
    // `case StepType.START:`: an enum member's name where its value is not in the file.
    const key = predicates ? predicateKey(branch.test, fn, scope) : caseKey(branch.test, scope);
    if (key !== undefined) pending.push(key);
    if (branch.consequent.length === 0) continue;
    const picked = pickedCall(branch.consequent, fn, context);
    if (picked) found.push({ value: picked, key: pending.join(', ') || undefined, at: branch, ...field });
    pending = [];
  }
  // One type's case beside a `default:` for the rest (`default: logger.warn(\`Job "${job.name}" is
  // not handled.\`)`) that hands the delivery to a method of the handler's own class or a
  // function of its file or of another module (`return this.handleStartAllNodes(job)`): a dispatch by the delivery's
  // type all the same, of a queue that has one job name so far. A service's call there
  // (`this.hasura.mutation(…)`) is that type's work, and an `if` that guards one call is the
  // handler's own work.
  const [only] = found;
  if (
    found.length === 1 &&
    only?.key !== undefined &&
    field.byField &&
    statement.cases.some((branch) => !branch.test) &&
    handsToOwnCode(only.value, scope, context)
  )
    return found;
  return distinctPicks(found);
}

/** A method of the handler's own class, a function of its file, or a function another module of the project exports. */
function handsToOwnCode(value: TSESTree.Node, scope: Scope, context: AnyRuleContext): boolean {
  const target = unwrap(value);
  return (
    resolveHandlerFunction(target, scope) !== undefined ||
    (target.type === AST_NODE_TYPES.Identifier && isProjectImport(target, scope, context))
  );
}

/** A value the code computes by a function of the project (`planOf(order.productId)`), directly or through a `const`. */
function isComputedChoice(node: TSESTree.Node, scope: Scope, depth: number): boolean {
  const target = unwrap(node);
  if (target.type === AST_NODE_TYPES.AwaitExpression) return isComputedChoice(target.argument, scope, depth);
  if (target.type === AST_NODE_TYPES.CallExpression) return unwrap(target.callee).type === AST_NODE_TYPES.Identifier;
  if (target.type !== AST_NODE_TYPES.Identifier || depth > BINDING_HOPS) return false;
  const def = findVariable(scope, target)?.defs[0];
  return (
    def?.type === TSESLint.Scope.DefinitionType.Variable &&
    def.node.id.type === AST_NODE_TYPES.Identifier &&
    !!def.node.init &&
    isComputedChoice(def.node.init, scope, depth + 1)
  );
}

/** `case 'invoice.paid':`, or `case StepType.START:` (an enum member's name where its value is not in the file). */
function caseKey(test: TSESTree.Expression, scope: Scope): string | undefined {
  return staticString(test, scope) ?? memberPath(test)?.join('.');
}

/** The type a predicate case names: its first argument that is a constant (`isPurchaseType(PurchaseType.Plus, event)`). */
function predicateKey(test: TSESTree.Expression, fn: TSESTree.FunctionLike, scope: Scope): string | undefined {
  const call = unwrap(test);
  if (call.type !== AST_NODE_TYPES.CallExpression) return undefined;
  for (const argument of call.arguments) {
    const key = argument.type === AST_NODE_TYPES.SpreadElement ? undefined : caseKey(argument, scope);
    if (key !== undefined && !fromDelivery(argument, fn, scope)) return key;
  }
  return undefined;
}

function isTrue(node: TSESTree.Expression): boolean {
  return node.type === AST_NODE_TYPES.Literal && node.value === true;
}

/**
 * The picks of an `if` chain on the delivery's type, before they are counted ({@link
 * distinctPicks}); `returns` when every branch of the chain returns and it has no `else`, so that
 * the next `if` of its block is the chain's continuation, for the types it did not take.
 */
function ifChainPicks(
  statement: TSESTree.IfStatement,
  fn: TSESTree.FunctionLike,
  context: AnyRuleContext,
): { picks: Dispatched[]; returns: boolean; single?: string } {
  const scope = context.sourceCode.getScope(statement);
  const found: Dispatched[] = [];
  let field: { byField?: true; computed?: true } | undefined;
  let last = statement;
  let returns = true;
  let current: TSESTree.Statement | null = statement;
  // The values the chain's branches compare, by path: one, for a chain on one field.
  const values = new Set<string | undefined>();
  for (; current;) {
    if (current.type !== AST_NODE_TYPES.IfStatement) break;
    const compared = comparedType(current.test, fn, scope);
    if (compared === undefined) return { picks: [], returns: false };
    returns &&= endsInReturn(current.consequent);
    const { key, value } = compared;
    values.add(memberPath(value)?.join('.'));
    field ??= {
      ...byField(value, fn, scope),
      ...(isComputedChoice(value, scope, 0) ? { computed: true as const } : {}),
    };
    const picked = pickedCall([current.consequent], fn, context);
    if (picked) found.push({ value: picked, key, at: current, ...field });
    last = current;
    current = current.alternate;
  }
  // `if (data.type === 'block') await blockUser(data) else await unblockUser(data)`: the last
  // `else` is every other type's branch.
  if (current && field !== undefined) {
    returns = false;
    const picked = pickedCall([current], fn, context);
    if (picked) found.push({ value: picked, key: undefined, at: current, ...field });
  }
  // `if (job.data.type === 'cleanup') { await cleanup(job); return } await process(job)`: what
  // follows a chain whose last branch returns is the chain's `else`, for every other type.
  const block = statement.parent;
  if (!last.alternate && endsInReturn(last.consequent) && block.type === AST_NODE_TYPES.BlockStatement) {
    const rest = block.body.slice(block.body.indexOf(statement) + 1);
    const picked = pickedCall(rest, fn, context);
    if (picked) found.push({ value: picked, key: undefined, at: statement, ...field });
  }
  // One `if` without `else` that compares a value with a literal: the value it compares.
  const compared = statement.alternate === null ? comparedType(statement.test, fn, scope) : undefined;
  // Or a guard handed it (`if (isLine(keys)) …; if (isSpot(keys)) …`): each branch runs for the
  // deliveries its guard takes.
  const test = unwrap(statement.test);
  // Or a chain whose branches all compare one value (`if (topic === 'A' || topic === 'B') …
  // else if (topic === 'C') …`, then another such chain on `topic`): the chains of a block that
  // compare it are one dispatch on it.
  const [only] = values;
  const single =
    compared && (test.type === AST_NODE_TYPES.BinaryExpression || test.type === AST_NODE_TYPES.CallExpression)
      ? memberPath(compared.value)?.join('.')
      : statement.alternate !== null && values.size === 1
        ? only
        : undefined;
  return {
    picks: found,
    returns: returns && block.type === AST_NODE_TYPES.BlockStatement,
    ...(single === undefined || block.type !== AST_NODE_TYPES.BlockStatement ? {} : { single }),
  };
}

/** A branch whose last statement returns: nothing after the `if` runs when it is taken. */
function endsInReturn(branch: TSESTree.Statement): boolean {
  const last = branch.type === AST_NODE_TYPES.BlockStatement ? branch.body.at(-1) : branch;
  return last?.type === AST_NODE_TYPES.ReturnStatement;
}

/**
 * `<delivery value> === 'literal'` (either side, `==` too): the literal, and the value compared with
 * it; or a type guard of the project handed the value (`transcriptionOutputIsSuccess(output)`,
 * `isInvoiceEvent(event)`), under the guard's name. A guard tells a value's type from the value
 * itself, at once: an awaited check (`await jobWasSuccessful(jobId)`) looks something up, and what
 * it splits is an outcome, not a type of delivery.
 */
function comparedType(
  test: TSESTree.Node,
  fn: TSESTree.FunctionLike,
  scope: Scope,
  held = false,
): { key: string; value: TSESTree.Node } | undefined {
  const expression = unwrap(test);
  // `const isCheckout = isCheckoutEvent(event); if (isCheckout) …`: the test a binding made once holds.
  if (expression.type === AST_NODE_TYPES.Identifier && !held) {
    const init = singleInit(expression, scope);
    return init ? comparedType(init, fn, scope, true) : undefined;
  }
  if (expression.type === AST_NODE_TYPES.CallExpression) {
    if (test.type === AST_NODE_TYPES.AwaitExpression) return undefined;
    const guard = unwrap(expression.callee);
    const value = expression.arguments.find(
      (argument) => argument.type !== AST_NODE_TYPES.SpreadElement && fromDelivery(argument, fn, scope),
    );
    // A guard is handed the value and constants at most (`isPurchaseType(PurchaseType.Plus,
    // event)`); a check handed something the handler fetched (`verifyRequest(event, body,
    // secret)`) tells a genuine delivery from a forged one, not one type from another.
    const typeOnly = expression.arguments.every(
      (argument) =>
        argument.type !== AST_NODE_TYPES.SpreadElement &&
        (fromDelivery(argument, fn, scope) || isConstant(argument, fn, scope)),
    );
    // `isInvoiceEvent(event)`, or a predicate of a module-level object
    // (`linesTable.converter.isItemMatching(keys)`): a method named for a test, on a receiver
    // bound outside the handler.
    const name =
      guard.type === AST_NODE_TYPES.Identifier
        ? guard.name
        : guard.type === AST_NODE_TYPES.MemberExpression &&
            PREDICATE_NAME.test(memberName(guard) ?? '') &&
            isConstant(guard.object, fn, scope)
          ? memberPath(guard)?.join('.')
          : undefined;
    return name !== undefined && value && typeOnly ? { key: name, value } : undefined;
  }
  // `topic === 'orders/create' || topic === 'orders/updated'`: one branch for several types of
  // the same value, under the first.
  if (expression.type === AST_NODE_TYPES.LogicalExpression && expression.operator === '||') {
    const left = comparedType(expression.left, fn, scope, true);
    const right = comparedType(expression.right, fn, scope, true);
    return left && right && sameValue(left.value, right.value) ? left : undefined;
  }
  // `event.type === 'message' && event.subtype === 'message_deleted'`: the branch of the last
  // type it names, whatever else its test asks.
  if (expression.type === AST_NODE_TYPES.LogicalExpression && expression.operator === '&&')
    return comparedType(expression.right, fn, scope, true) ?? comparedType(expression.left, fn, scope, true);
  if (
    expression.type !== AST_NODE_TYPES.BinaryExpression ||
    (expression.operator !== '===' && expression.operator !== '==')
  )
    return undefined;
  const { left, right } = expression;
  for (const [value, literal] of [
    [left, right],
    [right, left],
  ] as const) {
    // `typeof value === 'string'` tests a JavaScript type, never the type of what was delivered.
    if (value.type === AST_NODE_TYPES.UnaryExpression && value.operator === 'typeof') continue;
    // `const outcome = await persist(event); if (outcome === 'duplicate')`: what a call answered.
    if (isAwaitedOutcome(value, scope)) continue;
    const key =
      literal.type === AST_NODE_TYPES.Literal ? staticString(literal, scope) : enumMemberKey(literal, value, fn, scope);
    // `result.status === 'fulfilled'` tests how a promise of `Promise.allSettled` settled.
    if (
      (key === 'fulfilled' || key === 'rejected') &&
      value.type === AST_NODE_TYPES.MemberExpression &&
      memberName(value) === 'status'
    )
      continue;
    if (key !== undefined && fromDelivery(value, fn, scope)) return { key, value };
  }
  return undefined;
}

/** A name bound, as a whole, to what an awaited call answered (not a field destructured from it). */
function isAwaitedOutcome(value: TSESTree.Node, scope: Scope): boolean {
  const target = unwrap(value);
  if (target.type !== AST_NODE_TYPES.Identifier) return false;
  const def = findVariable(scope, target)?.defs[0];
  if (def?.node.type !== AST_NODE_TYPES.VariableDeclarator || def.node.id !== def.name || !def.node.init) return false;
  // Not `unwrap`ped: it looks through the `await` this asks about.
  const init = def.node.init;
  return init.type === AST_NODE_TYPES.AwaitExpression && unwrap(init.argument).type === AST_NODE_TYPES.CallExpression;
}

/** A method named for a test of its argument (`isItemMatching`, `hasSubscription`). */
const PREDICATE_NAME = /^(?:is|has)[A-Z_]/;

/** The same name or member path (`topic`, `event.type`). */
function sameValue(a: TSESTree.Node, b: TSESTree.Node): boolean {
  const pathA = memberPath(unwrap(a));
  const pathB = memberPath(unwrap(b));
  return pathA !== undefined && pathB !== undefined && pathA.join('.') === pathB.join('.');
}

/** A literal, or a name or member path bound outside `fn` (`PurchaseType.Plus`, `EVENTS.paid`). */
/**
 * `YotiCallbackTopics.FIRST_BRANCH_VISIT`, `JOB_NAMES.SYNC`: a member of an enum or a table of
 * constants (named in capitals, bound outside the handler), compared as a case's literal would be,
 * under its path; not with an element of a collection the loop takes one by one.
 */
function enumMemberKey(
  node: TSESTree.Node,
  compared: TSESTree.Node,
  fn: TSESTree.FunctionLike,
  scope: Scope,
): string | undefined {
  const target = unwrap(node);
  if (target.type !== AST_NODE_TYPES.MemberExpression || target.computed) return undefined;
  // `for (const toolset of toolsets) if (toolset.type === ToolsetType.REGULAR)`: a split of the
  // items a function was handed by their kind, not of deliveries by their type.
  let item = unwrap(compared);
  while (item.type === AST_NODE_TYPES.MemberExpression) item = unwrap(item.object);
  const def = item.type === AST_NODE_TYPES.Identifier ? findVariable(scope, item)?.defs[0] : undefined;
  if (def && iteratedContainer(def)) return undefined;
  const path = memberPath(target);
  const [root] = path ?? [];
  return root !== undefined && /^[A-Z]/.test(root) && isConstant(target, fn, scope) ? path?.join('.') : undefined;
}

function isConstant(node: TSESTree.Node, fn: TSESTree.FunctionLike, scope: Scope): boolean {
  if (staticString(node, scope) !== undefined) return true;
  let root = unwrap(node);
  while (root.type === AST_NODE_TYPES.MemberExpression && !root.computed) root = unwrap(root.object);
  if (root.type !== AST_NODE_TYPES.Identifier) return false;
  const def = findVariable(scope, root)?.defs[0];
  return def !== undefined && !contains(fn, def.name);
}

/**
 * A dispatch picks at least two functions, for two types at least; one guarded call is the
 * handler's own work, and so are two calls for one type (`if (op === 'DELETE') …` twice in a
 * block: two things the handler does on a delete).
 */
function distinctPicks(found: Dispatched[]): Dispatched[] {
  // The same function called in two branches (`log(...)` in an `if` and its `else`) is one.
  const names = new Set(found.map(({ value }) => memberPath(value)?.join('.') ?? value));
  const keys = new Set(found.map(({ key }) => key));
  return names.size >= 2 && keys.size >= 2 ? found : [];
}

/**
 * The function a branch hands its work to: the branch is one call of a function of the project
 * (of this file, imported from a module of the project, or a method of an injected service),
 * whose result is returned, awaited or assigned (`return await handleInvoicePaid(event, user)`,
 * `await Billing.handleCreated(request)`, `({ csv } = await exportVisits(id))`, `await
 * this.subscriptions.cancel('main')`), besides a `break`, logging and a last answer to the
 * request that reports nothing the branch computed (`return res.json({ received: true })`). What
 * it is handed does not matter: the branch runs once per delivery of its type, so its call does
 * too. A branch that does more (another awaited call, a comparison of what a helper extracted, an
 * answer built from its result) does its work itself: no function is picked.
 */
function pickedCall(
  statements: readonly TSESTree.Statement[],
  fn: TSESTree.FunctionLike,
  context: AnyRuleContext,
): TSESTree.Node | undefined {
  const flat =
    statements.length === 1 && statements[0]?.type === AST_NODE_TYPES.BlockStatement ? statements[0].body : statements;
  // A last statement that only answers the request (`return res.json({ received: true })`) ends
  // the branch as a `break` would.
  const within = statements.length === 1 && statements[0] ? statements[0] : fn;
  const answered = beforeClosingAnswer(flat, fn, within, context);
  let work = answered.filter(
    (statement) => !isBranchEnd(statement) && !isLogging(statement) && !isAlias(statement) && !isGuardExit(statement),
  );
  // A branch whose one call floats (`this.paypalService.createOrder(body)`, not awaited) still
  // hands its work to that call when it is no logger's.
  if (work.length === 0) work = answered.filter((statement) => isLogging(statement) && !isLogLevelCall(statement));
  const [only] = work;
  const call = work.length === 1 && only ? dispatchedCall(only) : undefined;
  if (!call) return undefined;
  const scope = context.sourceCode.getScope(call);
  const callee = unwrap(call.callee);
  // A function of the file, of another module of the project, or a method of an injected service
  // (`this.billing.handleInvoicePaid(event)` on a field declared with an imported class).
  return (
    resolveHandlerFunction(callee, scope) ??
    (isProjectImport(callee, scope, context) ||
    injectedCallee(callee, scope) ||
    declaredCallee(callee, scope) ||
    projectInstanceCallee(callee, scope, context.filename)
      ? callee
      : undefined)
  );
}

/**
 * A binding that only names part of what is at hand (`const subscription = event.data.object as
 * Stripe.Subscription`), decodes it (`JSON.parse(msg.content.toString())`) or puts parts of it
 * together (`const buyer = { username, email, purchasedGigs: [] }`): no `await`, no `new`, no call
 * but a decoder's, so no work of its own.
 */
function isAlias(statement: TSESTree.Statement): boolean {
  if (statement.type !== AST_NODE_TYPES.VariableDeclaration) return false;
  return statement.declarations.every((declaration) => declaration.init !== null && isReadOnly(declaration.init));
}

/** Calls that only decode a value: `JSON.parse(text)`, `String(x)`, `Number(x)`, `Boolean(x)`. */
const DECODERS = new Set(['JSON.parse', 'String', 'Number', 'Boolean']);

/**
 * An expression made of names, property reads, literals, type assertions, object, array and
 * template literals of those, and decoders' calls of those only.
 */
function isReadOnly(node: TSESTree.Node): boolean {
  switch (node.type) {
    case AST_NODE_TYPES.Identifier:
    case AST_NODE_TYPES.Literal:
      return true;
    case AST_NODE_TYPES.MemberExpression:
      return isReadOnly(node.object) && (!node.computed || isReadOnly(node.property));
    case AST_NODE_TYPES.TemplateLiteral:
      return node.expressions.every(isReadOnly);
    case AST_NODE_TYPES.ArrayExpression:
      return node.elements.every((element) => element === null || isReadOnly(element));
    case AST_NODE_TYPES.ObjectExpression:
      return node.properties.every((property) =>
        property.type === AST_NODE_TYPES.SpreadElement
          ? isReadOnly(property.argument)
          : (!property.computed || isReadOnly(property.key)) && isReadOnly(property.value),
      );
    case AST_NODE_TYPES.SpreadElement:
      return isReadOnly(node.argument);
    case AST_NODE_TYPES.CallExpression: {
      const callee = unwrap(node.callee);
      // `x.toString()`
      if (callee.type === AST_NODE_TYPES.MemberExpression && memberName(callee) === 'toString')
        return node.arguments.length === 0 && isReadOnly(callee.object);
      const name = memberPath(callee)?.join('.');
      return name !== undefined && DECODERS.has(name) && node.arguments.every(isReadOnly);
    }
    case AST_NODE_TYPES.ChainExpression:
    case AST_NODE_TYPES.TSNonNullExpression:
    case AST_NODE_TYPES.TSAsExpression:
    case AST_NODE_TYPES.TSSatisfiesExpression:
      return isReadOnly(node.expression);
    default:
      return false;
  }
}

/**
 * `statements` without a last one that only closes them with an answer, after some work: a
 * constant status (`return { status: 'processed' }`) or a plain answer to the request that
 * reports nothing computed in `within` (`return res.json({ received: true })`, http/reply.ts).
 */
function beforeClosingAnswer(
  statements: readonly TSESTree.Statement[],
  fn: TSESTree.FunctionLike,
  within: TSESTree.Node,
  context: AnyRuleContext,
): readonly TSESTree.Statement[] {
  const last = statements.at(-1);
  const closes =
    last !== undefined && statements.length > 1 && (isConstantReturn(last) || isPlainReply(last, fn, within, context));
  return closes ? statements.slice(0, -1) : statements;
}

/** `return { status: 'processed' }`, `return true`: a value written in place, of literals only. */
function isConstantReturn(statement: TSESTree.Statement): boolean {
  if (statement.type !== AST_NODE_TYPES.ReturnStatement || !statement.argument) return false;
  const literalOnly = (node: TSESTree.Node): boolean =>
    node.type === AST_NODE_TYPES.Literal ||
    (node.type === AST_NODE_TYPES.ObjectExpression &&
      node.properties.every((property) => property.type === AST_NODE_TYPES.Property && literalOnly(property.value)));
  return literalOnly(unwrap(statement.argument));
}

/** `break;`, or `return;` with nothing to return. */
function isBranchEnd(statement: TSESTree.Statement): boolean {
  return (
    statement.type === AST_NODE_TYPES.BreakStatement ||
    (statement.type === AST_NODE_TYPES.ReturnStatement && statement.argument === null)
  );
}

/**
 * A guard that leaves the branch, logging at most (`if (isPledgeBased(metadata)) { logger.info(…);
 * break }`): the branch skips some deliveries of its type, and what it does for the rest is its work.
 */
function isGuardExit(statement: TSESTree.Statement): boolean {
  if (statement.type !== AST_NODE_TYPES.IfStatement || statement.alternate) return false;
  const body =
    statement.consequent.type === AST_NODE_TYPES.BlockStatement ? statement.consequent.body : [statement.consequent];
  const last = body.at(-1);
  return last !== undefined && isBranchEnd(last) && body.slice(0, -1).every(isLogging);
}

/** A call whose result nobody waits for or uses, on a member (`logger.info(…)`, `console.log(…)`). */
function isLogging(statement: TSESTree.Statement): boolean {
  return (
    statement.type === AST_NODE_TYPES.ExpressionStatement &&
    statement.expression.type === AST_NODE_TYPES.CallExpression &&
    statement.expression.callee.type === AST_NODE_TYPES.MemberExpression
  );
}

/** Logging's own methods (`logger.info`, `console.error`, `this.log.debug`). */
const LOG_METHODS = new Set(['log', 'info', 'warn', 'warning', 'error', 'debug', 'trace', 'verbose', 'fatal', 'silly']);

/** A statement that calls a logger: a log level's method, or anything on `console`. */
function isLogLevelCall(statement: TSESTree.Statement): boolean {
  if (statement.type !== AST_NODE_TYPES.ExpressionStatement) return false;
  const call = statement.expression;
  if (call.type !== AST_NODE_TYPES.CallExpression || call.callee.type !== AST_NODE_TYPES.MemberExpression) return false;
  const path = memberPath(call.callee);
  return LOG_METHODS.has(memberName(call.callee) ?? '') || path?.[0] === 'console';
}

/**
 * `const handler = container.resolve<T>(…)` whose one use is as the receiver of `call`'s callee
 * (`handler.handle(…)`), or the callee itself (`handler(ctx, activity)`): the service or the
 * function the work is done by, looked up.
 */
function isReceiverLookup(
  statement: TSESTree.Statement,
  call: TSESTree.CallExpression,
  context: AnyRuleContext,
): boolean {
  if (statement.type !== AST_NODE_TYPES.VariableDeclaration || statement.declarations.length !== 1) return false;
  const [declarator] = statement.declarations;
  if (declarator.id.type !== AST_NODE_TYPES.Identifier || !declarator.init) return false;
  const init = unwrap(declarator.init);
  if (init.type !== AST_NODE_TYPES.CallExpression || !containerLookupType(init)) return false;
  const callee = unwrap(call.callee);
  const receiver = callee.type === AST_NODE_TYPES.MemberExpression ? unwrap(callee.object) : callee;
  const [variable] = context.sourceCode.getDeclaredVariables(declarator);
  const references = variable?.references.filter((reference) => reference.identifier !== declarator.id) ?? [];
  return references.length === 1 && references[0]?.identifier === receiver;
}

/** The call a statement returns, awaits or assigns the result of. */
function dispatchedCall(statement: TSESTree.Statement): TSESTree.CallExpression | undefined {
  let value: TSESTree.Node | null | undefined;
  if (statement.type === AST_NODE_TYPES.ReturnStatement) value = statement.argument;
  else if (statement.type === AST_NODE_TYPES.ExpressionStatement) {
    value = statement.expression;
    if (value.type === AST_NODE_TYPES.AssignmentExpression) value = value.right;
  } else if (statement.type === AST_NODE_TYPES.VariableDeclaration && statement.declarations.length === 1)
    value = statement.declarations[0].init;
  if (!value) return undefined;
  let target = unwrap(value);
  if (target.type === AST_NODE_TYPES.AwaitExpression) target = unwrap(target.argument);
  return target.type === AST_NODE_TYPES.CallExpression ? target : undefined;
}

/** `f` or `ns.f` (`Billing.webhooks.f`) bound by an import of a module of the project (a relative or aliased path). */
function isProjectImport(callee: TSESTree.Node, scope: Scope, context: AnyRuleContext): boolean {
  let root = callee;
  while (root.type === AST_NODE_TYPES.MemberExpression && !root.computed) root = unwrap(root.object);
  if (root.type !== AST_NODE_TYPES.Identifier) return false;
  const source = importSource(root, scope);
  return source !== undefined && isProjectModule(source.module, context.filename);
}

// ---------------------------------------------------------------------------------------------
// What was delivered

/**
 * Whether `node` reads what `fn` was handed: an expression over one of its parameters, or over a
 * binding of `fn` made (once) from such an expression, followed through destructuring, `await`
 * and calls handed it (`const { event } = await constructEvent(request)`).
 */
function fromDelivery(
  node: TSESTree.Node,
  fn: TSESTree.FunctionLike,
  scope: Scope,
  seen = new Set<TSESLint.Scope.Variable>(),
): boolean {
  const reads = (child: TSESTree.Node | null | undefined): boolean => !!child && fromDelivery(child, fn, scope, seen);
  switch (node.type) {
    case AST_NODE_TYPES.Identifier:
      return bindingFromDelivery(node, fn, scope, seen);
    case AST_NODE_TYPES.MemberExpression:
      return reads(node.object) || (node.computed && reads(node.property));
    case AST_NODE_TYPES.CallExpression:
    case AST_NODE_TYPES.NewExpression:
      return reads(node.callee) || node.arguments.some(reads);
    case AST_NODE_TYPES.AwaitExpression:
    case AST_NODE_TYPES.UnaryExpression:
    case AST_NODE_TYPES.SpreadElement:
      return reads(node.argument);
    case AST_NODE_TYPES.ChainExpression:
    case AST_NODE_TYPES.TSNonNullExpression:
    case AST_NODE_TYPES.TSAsExpression:
    case AST_NODE_TYPES.TSSatisfiesExpression:
    case AST_NODE_TYPES.TSTypeAssertion:
      return reads(node.expression);
    case AST_NODE_TYPES.TemplateLiteral:
      return node.expressions.some(reads);
    case AST_NODE_TYPES.BinaryExpression:
    case AST_NODE_TYPES.LogicalExpression:
      return reads(node.left) || reads(node.right);
    case AST_NODE_TYPES.ConditionalExpression:
      return reads(node.test) || reads(node.consequent) || reads(node.alternate);
    case AST_NODE_TYPES.ArrayExpression:
      return node.elements.some(reads);
    case AST_NODE_TYPES.ObjectExpression:
      return node.properties.some((property) =>
        property.type === AST_NODE_TYPES.Property ? reads(property.value) : reads(property.argument),
      );
    default:
      return false;
  }
}

/**
 * Whether `node` reads a field of what `fn` was handed ({@link Dispatched.byField}): a member of
 * it (`event.type`, `job.data.kind`), a binding destructured from it (`const { type } =
 * envelope`, `({ type }) =>`), or a binding made from either; a method called on a plain
 * parameter (`webhookType.toLowerCase()`) reads no field.
 */
function byField(node: TSESTree.Node, fn: TSESTree.FunctionLike, scope: Scope): { byField?: true } {
  return readsField(node, fn, scope, 0) ? { byField: true } : {};
}

function readsField(node: TSESTree.Node, fn: TSESTree.FunctionLike, scope: Scope, depth: number): boolean {
  if (depth > BINDING_HOPS + 2) return false;
  const target = unwrap(node);
  const next = (child: TSESTree.Node): boolean => readsField(child, fn, scope, depth + 1);
  switch (target.type) {
    case AST_NODE_TYPES.MemberExpression:
      return fromDelivery(target.object, fn, scope);
    case AST_NODE_TYPES.CallExpression: {
      const callee = unwrap(target.callee);
      if (callee.type === AST_NODE_TYPES.MemberExpression) return next(callee.object);
      return target.arguments.some(next);
    }
    case AST_NODE_TYPES.UnaryExpression:
      return next(target.argument);
    case AST_NODE_TYPES.TemplateLiteral:
      return target.expressions.some(next);
    case AST_NODE_TYPES.BinaryExpression:
    case AST_NODE_TYPES.LogicalExpression:
      return next(target.left) || next(target.right);
    case AST_NODE_TYPES.Identifier: {
      const def = findVariable(scope, target)?.defs[0];
      if (!def) return false;
      // `({ type }) => …` or `const { type } = envelope`: a property of what was handed.
      if (def.name.parent.type === AST_NODE_TYPES.Property || def.name.parent.type === AST_NODE_TYPES.AssignmentPattern)
        return def.type === TSESLint.Scope.DefinitionType.Parameter
          ? def.node === fn
          : def.node.type === AST_NODE_TYPES.VariableDeclarator &&
              !!def.node.init &&
              fromDelivery(def.node.init, fn, scope);
      if (def.type !== TSESLint.Scope.DefinitionType.Variable) return false;
      return !!def.node.init && next(def.node.init);
    }
    default:
      return false;
  }
}

/** A parameter of `fn`, or a binding `fn` made once from what it was handed. */
function bindingFromDelivery(
  identifier: TSESTree.Identifier,
  fn: TSESTree.FunctionLike,
  scope: Scope,
  seen: Set<TSESLint.Scope.Variable>,
): boolean {
  const variable = findVariable(scope, identifier);
  if (!variable || seen.has(variable)) return false;
  seen.add(variable);
  const def = variable.defs.length === 1 ? variable.defs[0] : undefined;
  if (!def) return false;
  if (def.type === TSESLint.Scope.DefinitionType.Parameter) {
    if (def.node === fn) return true;
    // Each element of what was delivered, in a callback inside the handler (`event.Records.map(async (record) => …)`).
    const walked = iteration(def);
    return !!walked && contains(fn, def.node) && fromDelivery(unwrap(walked.container), fn, scope, seen);
  }
  if (
    def.type !== TSESLint.Scope.DefinitionType.Variable ||
    def.node.range[0] < fn.range[0] ||
    def.node.range[1] > fn.range[1]
  )
    return false;
  // `parsed = parsed as Payload` narrows the type of the value the binding holds: no new value.
  const writes = variable.references.filter((reference) => {
    if (!reference.isWrite()) return false;
    const written = reference.writeExpr && unwrap(reference.writeExpr);
    return !(written?.type === AST_NODE_TYPES.Identifier && written.name === variable.name);
  });
  if (writes.length > 1) return false;
  // `let event; try { event = stripe.webhooks.constructEvent(body, signature, secret) } catch …`:
  // declared without a value and given one once, which is its value.
  const value = def.node.init ?? writes[0]?.writeExpr;
  return !!value && fromDelivery(value, fn, scope, seen);
}
