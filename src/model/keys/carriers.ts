import { isAddGuardedByQueueLookup } from './queue-guard.js';
import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { contains, enclosingFunction, outermost, unwrap } from '../ast/nodes.js';
import { findVariable } from '../ast/values.js';
import { memberName, memberPath, propertyKeyName } from '../ast/names.js';
import { type AnyRuleContext } from '../ast/context.js';
import { mapCallReturning, type KeySink } from './sinks.js';
import { type PerAttemptValue, findPerAttemptValue } from './per-attempt.js';
import { rootIdentifier } from './minting.js';
import { isInTestCallback } from '../roles.js';
import { isFunction, resolveFunction } from '../ast/function.js';
import { callSitesOf } from './call-sites.js';
import { isInRetryingInterceptor } from './interceptors.js';
import { isRotationAfterRefusal } from './rotation.js';
import { defaultKeyLifetime, givenBeforeFallback, isMintedBeforeRetryingCall } from './logical-request.js';
import { isRowWriteArgument } from './row-write-arguments.js';
import { isInstanceSetup } from './instance-setup.js';
import { mintInResetHolder } from './reset-holders.js';
import { attemptScopeOf } from '../attempts/attempt-scope.js';

const { DefinitionType } = TSESLint.Scope;

// ---------------------------------------------------------------------------------------------
// Where a per-attempt key or body value is sent

/** A call (or `new`) an object literal ends up in, with the property path from that argument down. */
interface Carrier {
  /** Undefined when the value is returned from a function whose callers are in other modules. */
  call?: TSESTree.CallExpression | TSESTree.NewExpression;
  index: number;
  /** Property names from the argument down to the value (`['MessageBody', 'idempotencyKey']`). */
  via: string[];
}

/** Calls that keep a value as component or form state: minted once, reused by every attempt. */
const STATE_HOLDERS = new Set([
  'reactive',
  'ref',
  'shallowRef',
  'shallowReactive',
  'useState',
  'useRef',
  'useMemo',
  'useReducer',
  'signal',
  'createSignal',
  'writable',
  'observable',
  'makeAutoObservable',
  'atom',
  'createStore',
  'structuredClone',
]);

/** Calls that only log, answer or assert: nothing is sent onward. */
/** `JSON.stringify`, `Object.assign`, ...: they build values, the call around them sends. */
const BUILT_IN_OBJECTS = new Set(['JSON', 'Object', 'Array', 'Promise', 'Buffer', 'String', 'Math']);

const NON_SENDING_RECEIVERS = new Set([
  'console',
  'logger',
  'log',
  'res',
  'reply',
  'response',
  'ctx',
  'assert',
  'expect',
]);

/** Calls that pass their argument through to where the result goes. */
const WRAPPER_CALLS = new Set(['JSON.stringify', 'Buffer.from', 'String']);

const WRAPPER_CONSTRUCTORS = new Set(['Headers', 'URLSearchParams', 'Blob']);

/** Writes that store the value in a row, where later deliveries read it back. */
const ROW_WRITES = new Set(['insert', 'insertOne', 'insertMany', 'values', 'createMany', 'bulkCreate']);

/** Document and repository writes (Mongoose, TypeORM): the key is kept on a stored record. */
const DOCUMENT_WRITES = new Set(['save', 'updateOne', 'findOneAndUpdate', 'findByIdAndUpdate', 'replaceOne']);

const PRISMA_WRITES = new Set(['create', 'upsert', 'update', 'createMany', 'updateMany']);

const PRISMA_DATA = new Set(['data', 'create', 'update']);

/** Message fields whose content travels with the message (SQS, SNS, EventBridge). */
const MESSAGE_FIELDS = new Set(['MessageBody', 'Message', 'Detail']);

/**
 * Calls that put a message on a queue or topic (Pub/Sub and SNS `publish`, amqplib's
 * `sendToQueue`, SQS's `sendMessage` and Azure Service Bus's `sendMessages`, and the project
 * wrappers named after them): what they are given is the message its consumer reads.
 */
const PUBLISH_METHODS = new Set(['publish', 'publishMessage', 'sendToQueue', 'enqueue', 'sendMessage', 'sendMessages']);

const HTTP_LIBRARIES = new Set(['axios', 'ky', 'got']);

/**
 * The per-attempt value written into an idempotency-key sink by the invocation that sends it,
 * or undefined when the key is stable or minted once and reused: kept in component or form
 * state (`useState`, `reactive`, a class field, a module-level `const`), returned by a builder,
 * stored in the message or row that later deliveries carry (BullMQ job data, an SQS body, an
 * insert), set on an object only when it has none yet, written after the receiver refused the
 * previous key (`src/model/keys/rotation.ts`), written into a job added only when its queue holds
 * none for it (`src/model/keys/queue-guard.ts`), or written inside a test callback (test files get
 * no listeners at all: `src/model/roles.ts`).
 */
export function perAttemptKeyAt(sink: KeySink, context: AnyRuleContext): PerAttemptValue | undefined {
  if (isInTestCallback(sink.node) || isRotationAfterRefusal(sink.node, context)) return undefined;
  // A job added only when the queue holds none for it: a re-run adds nothing (queue-guard.ts).
  if (isAddGuardedByQueueLookup(sink, context)) return undefined;
  // A ref cleared before each start of the action: its guarded mint runs per start (reset-holders.ts).
  const value = findPerAttemptValue(sink.value, context) ?? mintInResetHolder(sink.value, context);
  if (!value || isStoredBinding(value, sink, context) || isMintedBeforeRetryingCall(sink, value, context))
    return undefined;
  // A default an SDK's request function fills in for its caller: the retry decides (logical-request.ts).
  const lifetime = defaultKeyLifetime(sink, value, context);
  if (lifetime !== undefined) return lifetime === 'attempt' ? value : undefined;
  return isSentByThisInvocation(sink, context) ? value : undefined;
}

/** `const [x, setX] = useState()`'s setter, by React's naming. */
const STATE_SETTER = /^set[A-Z]/;

/** SQL text that writes a row: `INSERT INTO ...`, `UPDATE ... SET`. */
const ROW_WRITE_SQL = /^\s*(?:insert|update|upsert|replace)\b/i;

/**
 * `const key = mint()` whose binding is also written where later attempts read it back: into a
 * row (`db.run('INSERT ...', [..., key])`, an ORM insert), a message or an outbox command
 * (`outbox.enqueue(buildCommand(data, key))`). The stored key is the one every retry sends. A
 * store written only after the send, later in the same function (a job's cursor saved once its
 * window is billed), keeps nothing for an attempt that fails before it: the re-run mints anew.
 */
function isStoredBinding(value: PerAttemptValue, sink: KeySink, context: AnyRuleContext): boolean {
  let declarator: TSESTree.Node | undefined = value.source.parent;
  while (
    declarator &&
    (declarator.type === AST_NODE_TYPES.TemplateLiteral ||
      declarator.type === AST_NODE_TYPES.BinaryExpression ||
      declarator.type === AST_NODE_TYPES.ConditionalExpression ||
      declarator.type === AST_NODE_TYPES.LogicalExpression ||
      declarator.type === AST_NODE_TYPES.ChainExpression ||
      declarator.type === AST_NODE_TYPES.CallExpression ||
      declarator.type === AST_NODE_TYPES.MemberExpression)
  )
    declarator = declarator.parent;
  if (declarator?.type !== AST_NODE_TYPES.VariableDeclarator || declarator.id.type !== AST_NODE_TYPES.Identifier)
    return false;
  const variable = findVariable(context.sourceCode.getScope(declarator.id), declarator.id);
  const uses = (variable?.references ?? []).filter((reference) => reference.init !== true).map((r) => r.identifier);
  const readBack = declarator.init ? fieldsReadFirst(unwrap(declarator.init), value) : new Set<string>();
  return uses.some((use) =>
    storedCarriers(use, context, 0).some(
      (carrier) =>
        carrier.call === undefined ||
        // `const key = payout.idempotencyKey ?? mint()`, then `update({ data: { idempotencyKey: key } })`:
        // the row's key is read before one is minted, so a re-run reads back the one stored.
        (isRowWrite(carrier, carrier.call) && readBack.has(carrier.via.at(-1) ?? '')) ||
        keepsForRerun(carrier, carrier.call, sink, uses, context),
    ),
  );
}

/** The fields a key with a fallback reads before it mints one (`payout.idempotencyKey` of `payout.idempotencyKey ?? mint()`). */
function fieldsReadFirst(init: TSESTree.Node, value: PerAttemptValue): Set<string> {
  const fields = new Set<string>();
  const given = givenBeforeFallback(init, value);
  const collect = (node: TSESTree.Node): void => {
    const target = unwrap(node);
    if (target.type === AST_NODE_TYPES.MemberExpression) {
      const name = memberName(target);
      if (name !== undefined) fields.add(name);
      collect(target.object);
    } else if (target.type === AST_NODE_TYPES.CallExpression) collect(target.callee);
  };
  if (given) collect(given);
  return fields;
}

/**
 * Whether what `store` keeps is what a re-run sends. It is when the store is in another function
 * than the one that sends (an outbox's worker), when the sink is part of it (the message itself),
 * or in a `catch` (the failed request queued for its replay). It is not for a row or a document
 * written before its function goes on to use the key (`insertOne({ transactionId })`, then the
 * transfer under it: a re-run mints another and writes another row, and only code that looks the
 * row up first would read it back), nor, in the function that sends, for a store on a branch that
 * stores and leaves, or one made only after every call that carries the key out: a failed attempt
 * never reaches it. Component state, a queued message and a replay store written first still count.
 */
function keepsForRerun(
  carrier: Carrier,
  store: TSESTree.CallExpression | TSESTree.NewExpression,
  sink: KeySink,
  uses: readonly TSESTree.Node[],
  context: AnyRuleContext,
): boolean {
  const owner = enclosingFunction(store);
  const rowWrite = isRowWrite(carrier, store) && !isInCatch(store, owner);
  if (
    rowWrite &&
    uses.some((use) => !contains(store, use) && use.range[0] > store.range[1] && enclosingFunction(use) === owner)
  )
    return false;
  const sender = enclosingFunction(sink.node);
  if (contains(store, sink.node) || owner !== sender || isInCatch(store, sender)) return true;
  const value = sink.node.type === AST_NODE_TYPES.Property ? sink.node.value : sink.value;
  const sends = carriersOf(value, context, 0).flatMap(({ call }) => (call && call !== store ? [call] : []));
  if (sends.length === 0) return true;
  // A branch that stores and leaves (`if (!secret) { await saveCursor(end); return; }`) is not the path that sends.
  for (let node: TSESTree.Node | undefined = store.parent; node && node !== sender; node = node.parent)
    if (
      node.type === AST_NODE_TYPES.BlockStatement &&
      isExit(node.body.at(-1)) &&
      !sends.some((send) => contains(node, send))
    )
      return false;
  return sends.some((send) => send.range[0] > store.range[0]) && !rowWrite;
}

function isInCatch(node: TSESTree.Node, boundary: TSESTree.Node | undefined): boolean {
  for (let current: TSESTree.Node | undefined = node.parent; current && current !== boundary; current = current.parent)
    if (current.type === AST_NODE_TYPES.CatchClause) return true;
  return false;
}

/** A store into a row or a document (an insert, an ORM or repository write), not state, a message or a replay store. */
function isRowWrite(carrier: Carrier, store: TSESTree.CallExpression | TSESTree.NewExpression): boolean {
  const callee = unwrap(store.callee);
  if (callee.type === AST_NODE_TYPES.Identifier && STATE_SETTER.test(callee.name)) return false;
  const name =
    memberPath(callee)?.at(-1) ?? (callee.type === AST_NODE_TYPES.MemberExpression ? memberName(callee) : undefined);
  if (name === undefined || PUBLISH_METHODS.has(name) || (name === 'add' && carrier.index === 1)) return false;
  if ((name === 'put' || name === 'add') && isObjectStore(callee)) return false;
  if (carrier.via.some((field) => MESSAGE_FIELDS.has(field)) || carrier.via[0] === 'messages') return false;
  return ROW_WRITES.has(name) || DOCUMENT_WRITES.has(name) || PRISMA_WRITES.has(name) || name === 'upsert';
}

function isExit(statement: TSESTree.Statement | undefined): boolean {
  return statement?.type === AST_NODE_TYPES.ReturnStatement || statement?.type === AST_NODE_TYPES.ThrowStatement;
}

/** The carriers of `node` that store it, following a call's result into the call that takes it. */
function storedCarriers(node: TSESTree.Node, context: AnyRuleContext, depth: number): Carrier[] {
  const carriers = carriersOf(node, context, 0);
  return carriers.filter((carrier) => {
    const call = carrier.call;
    if (!call) return false;
    const callee = unwrap(call.callee);
    // `setPendingMessage({ snapshot })`: a React state setter keeps it for the retry action.
    if (callee.type === AST_NODE_TYPES.Identifier && STATE_SETTER.test(callee.name)) return true;
    const name =
      memberPath(callee)?.at(-1) ?? (callee.type === AST_NODE_TYPES.MemberExpression ? memberName(callee) : undefined);
    if (name !== undefined && isStore(carrier, name, callee, context)) return true;
    // `db.run('INSERT INTO t (...) VALUES (?, ?)', [id, key])`
    const [sql] = call.arguments;
    const text =
      sql &&
      (sql.type === AST_NODE_TYPES.TemplateLiteral
        ? sql.quasis[0]?.value.cooked
        : sql.type === AST_NODE_TYPES.Literal
          ? sql.value
          : undefined);
    if (carrier.index > 0 && typeof text === 'string' && ROW_WRITE_SQL.test(text)) return true;
    // `enqueueRequest({ key, ... })` of this file: stored when its parameter is.
    if (depth < 2 && storedInParameter(carrier, context, depth)) return true;
    // A command or row built from the key and then stored; an awaited call's result is its
    // response (what a request answered), not the value it was given.
    return (
      depth < 2 &&
      call.type === AST_NODE_TYPES.CallExpression &&
      !isAwaited(call) &&
      storedCarriers(call, context, depth + 1).length > 0
    );
  });
}

/** The local function a carrier call runs stores the parameter the value lands in. */
function storedInParameter(carrier: Carrier, context: AnyRuleContext, depth: number): boolean {
  const call = carrier.call;
  if (!call || call.type !== AST_NODE_TYPES.CallExpression) return false;
  const fn = resolveFunction(call.callee, context.sourceCode.getScope(call));
  const parameter = fn?.params[carrier.index];
  if (parameter?.type !== AST_NODE_TYPES.Identifier) return false;
  const variable = findVariable(context.sourceCode.getScope(parameter), parameter);
  return (variable?.references ?? []).some(
    (reference) => reference.init !== true && storedCarriers(reference.identifier, context, depth + 1).length > 0,
  );
}

/** `await send(...)`, `send(...).then(...)`: the result is what the call answered. */
function isAwaited(call: TSESTree.CallExpression): boolean {
  const current = outermost(call);
  const parent = current.parent;
  if (!parent) return false;
  if (parent.type === AST_NODE_TYPES.AwaitExpression) return true;
  return (
    parent.type === AST_NODE_TYPES.MemberExpression &&
    parent.object === current &&
    (memberName(parent) === 'then' || memberName(parent) === 'catch')
  );
}

function isSentByThisInvocation(sink: KeySink, context: AnyRuleContext): boolean {
  // A key written into the message or row it travels with is that message's identity, made once
  // for it (`sqs.sendMessage({ ..., idempotencyKey: uuid() })` in a producer): its consumer sends
  // it on every redelivery. Unless the code that writes it runs again itself: a handler that each
  // redelivery re-runs, or a retry, writes another message with another key every time.
  const stores =
    (sink.kind === 'header' || sink.kind === 'sdk-option' || sink.kind === 'argument') &&
    attemptScopeOf(sink.node, context) === undefined;
  const node = sink.node;
  const sends = (carrier: Carrier): boolean =>
    isSend(carrier, stores, context) && !(carrier.call && retriesItself(carrier.call, context));
  if (node.type === AST_NODE_TYPES.Property) return carriersOf(node.value, context, 0).some(sends);
  if (sink.kind === 'argument' && node.type === AST_NODE_TYPES.CallExpression) {
    // The argument itself, or a field of the object literal given there (`enqueue({ eventId })`).
    const index = node.arguments.findIndex((argument) => contains(argument, sink.value));
    const via = node.arguments[index] === sink.value ? [] : [sink.name];
    return sends({ call: node, index, via });
  }
  // `target.name = v` / `target.set(name, v)`: only a local object (or a parameter, as in an
  // interceptor) is built per invocation; a module-level, outer or `this` object is state.
  const target =
    node.type === AST_NODE_TYPES.AssignmentExpression && node.left.type === AST_NODE_TYPES.MemberExpression
      ? node.left
      : node.type === AST_NODE_TYPES.CallExpression && node.callee.type === AST_NODE_TYPES.MemberExpression
        ? node.callee.object
        : undefined;
  if (!target) return false;
  // `api.defaults.headers.common['Idempotency-Key'] = mint()` inside a function: the instance's
  // next request (the one this invocation is about to make) carries the fresh key.
  // Written once when the object is built (a constructor), it is one key per instance.
  const writer = enclosingFunction(node);
  if (memberPath(target)?.includes('defaults') && writer && !isGuardedByAbsence(node, target, context))
    return !isInstanceSetup(writer);
  const root = rootIdentifier(target);
  if (!root) return false;
  const variable = findVariable(context.sourceCode.getScope(root), root);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  const owner = def && enclosingFunction(def.name);
  if (!variable || !def || !owner || !contains(owner, node)) return false;
  // Set only when absent: kept when the same config is re-sent, which an interceptor sees only
  // when its instance retries; otherwise every call through it is a new request with a new key.
  if (isGuardedByAbsence(node, target, context) && isInRetryingInterceptor(node, context)) return false;
  if (def.type === DefinitionType.Parameter || isParameterPart(def.node, owner)) return true;
  return variable.references.some(
    (reference) =>
      !contains(node, reference.identifier) &&
      carriersOf(reference.identifier, context, 1).some((carrier) => isSend(carrier, stores, context)),
  );
}

/** `const headers = config.headers || {}` in an interceptor: the parameter's own object, whatever is written to it. */
function isParameterPart(declarator: TSESTree.Node, owner: TSESTree.FunctionLike): boolean {
  if (declarator.type !== AST_NODE_TYPES.VariableDeclarator || !declarator.init) return false;
  let init = unwrap(declarator.init);
  while (init.type === AST_NODE_TYPES.LogicalExpression) init = unwrap(init.left);
  if (init.type !== AST_NODE_TYPES.MemberExpression) return false;
  const root = rootIdentifier(init);
  return (
    root !== undefined &&
    owner.params.some((parameter) => parameter.type === AST_NODE_TYPES.Identifier && parameter.name === root.name)
  );
}

/** `if (!config.headers['Idempotency-Key']) config.headers['Idempotency-Key'] = mint()`: set once, kept by retries. */
function isGuardedByAbsence(node: TSESTree.Node, target: TSESTree.Node, context: AnyRuleContext): boolean {
  const text = normalize(context.sourceCode.getText(target));
  const reads = (test: TSESTree.Node): boolean => normalize(context.sourceCode.getText(test)).includes(text);
  let current: TSESTree.Node = node;
  for (let parent = node.parent; parent && !isFunction(parent); current = parent, parent = parent.parent) {
    if (parent.type === AST_NODE_TYPES.IfStatement && reads(parent.test)) return true;
    if (parent.type !== AST_NODE_TYPES.BlockStatement) continue;
    // `const key = config.headers[NAME]; if (key) return config;` before the write.
    const before = parent.body.slice(0, parent.body.indexOf(current as TSESTree.Statement));
    const held = before.flatMap((statement) =>
      statement.type === AST_NODE_TYPES.VariableDeclaration
        ? statement.declarations.flatMap((declarator) =>
            declarator.id.type === AST_NODE_TYPES.Identifier && declarator.init && reads(declarator.init)
              ? [declarator.id.name]
              : [],
          )
        : [],
    );
    const returnsEarly = before.some(
      (statement) =>
        statement.type === AST_NODE_TYPES.IfStatement &&
        (reads(statement.test) ||
          held.some((name) => new RegExp(`\\b${name}\\b`).test(context.sourceCode.getText(statement.test)))) &&
        /^\{?\s*return\b/.test(context.sourceCode.getText(statement.consequent)),
    );
    if (returnsEarly) return true;
  }
  return false;
}

function normalize(text: string): string {
  return text
    .replace(/\?\.(?=[[(])/g, '')
    .replace(/\?\./g, '.')
    .replace(/\s+/g, '');
}

/**
 * The calls a value ends up in: climbing through object and array literals, spreads,
 * conditionals, `JSON.stringify`, `new Headers(...)`, and `const` bindings used later.
 * Empty when it is returned, assigned or stored instead.
 */
function carriersOf(node: TSESTree.Node, context: AnyRuleContext, depth: number): Carrier[] {
  const via: string[] = [];
  let current: TSESTree.Node = node;
  for (;;) {
    const parent = current.parent;
    if (!parent) return [];
    switch (parent.type) {
      case AST_NODE_TYPES.TSAsExpression:
      case AST_NODE_TYPES.TSSatisfiesExpression:
      case AST_NODE_TYPES.TSNonNullExpression:
      case AST_NODE_TYPES.AwaitExpression:
      case AST_NODE_TYPES.ArrayExpression:
      case AST_NODE_TYPES.SpreadElement:
      case AST_NODE_TYPES.ConditionalExpression:
      case AST_NODE_TYPES.LogicalExpression:
      case AST_NODE_TYPES.TemplateLiteral:
        if (parent.type === AST_NODE_TYPES.ConditionalExpression && parent.test === current) return [];
        current = parent;
        continue;
      case AST_NODE_TYPES.ObjectExpression:
        // `{ ...headers() }`: the spread's entries become the object's.
        if (current.type !== AST_NODE_TYPES.SpreadElement) return [];
        current = parent;
        continue;
      case AST_NODE_TYPES.Property:
        if (parent.value !== current || parent.parent.type !== AST_NODE_TYPES.ObjectExpression) return [];
        via.unshift(propertyKeyName(parent) ?? '');
        current = parent.parent;
        continue;
      case AST_NODE_TYPES.CallExpression:
      case AST_NODE_TYPES.NewExpression: {
        if (parent.callee === current) return [];
        const path = memberPath(parent.callee)?.join('.');
        if (
          path !== undefined &&
          (parent.type === AST_NODE_TYPES.CallExpression ? WRAPPER_CALLS : WRAPPER_CONSTRUCTORS).has(path)
        ) {
          current = parent;
          continue;
        }
        return [{ call: parent, index: parent.arguments.indexOf(current as TSESTree.CallExpressionArgument), via }];
      }
      case AST_NODE_TYPES.ArrowFunctionExpression:
      case AST_NODE_TYPES.ReturnStatement: {
        // `items.map((item) => ({ opts: { jobId: v } }))`: the mapped array carries every entry onward.
        if (parent.type === AST_NODE_TYPES.ArrowFunctionExpression && parent.body !== current) return [];
        const mapped = mapCallReturning(parent);
        if (mapped) {
          current = mapped;
          continue;
        }
        return returnedCarriers(parent, via, context, depth);
      }
      case AST_NODE_TYPES.VariableDeclarator: {
        if (parent.init !== current || parent.id.type !== AST_NODE_TYPES.Identifier || depth > 3) return [];
        const variable = findVariable(context.sourceCode.getScope(parent.id), parent.id);
        return (variable?.references ?? [])
          .filter((reference) => reference.init !== true && reference.isRead())
          .flatMap((reference) =>
            carriersOf(reference.identifier, context, depth + 1).map((carrier) => ({
              ...carrier,
              via: [...carrier.via, ...via],
            })),
          );
      }
      default:
        return [];
    }
  }
}

/**
 * A value returned by a header factory or a request builder goes where the function's calls go:
 * each call in this file is followed on; a function exported (or passed around) with no call here
 * hands the value to callers elsewhere, which send what a builder builds.
 */
function returnedCarriers(
  from: TSESTree.ArrowFunctionExpression | TSESTree.ReturnStatement,
  via: string[],
  context: AnyRuleContext,
  depth: number,
): Carrier[] {
  const fn = from.type === AST_NODE_TYPES.ArrowFunctionExpression ? from : enclosingFunction(from);
  if (!fn || depth > 3 || isStateInitialiser(fn)) return [];
  // `new Transport({ headers: () => ({ 'Idempotency-Key': mint() }) })`: a callback option the
  // library calls for every request it sends, each call minting anew.
  const option = fn.parent;
  const name = option.type === AST_NODE_TYPES.Property ? propertyKeyName(option) : undefined;
  if (option.type === AST_NODE_TYPES.Property && option.value === fn && name !== undefined && REQUEST_HOOK.test(name)) {
    return carriersOf(option.parent, context, depth + 1).map((carrier) => ({
      ...carrier,
      via: [...carrier.via, name, ...via],
    }));
  }
  const sites = callSitesOf(fn, context);
  if (!sites) return [];
  const carriers = sites.calls.flatMap((call) =>
    carriersOf(call, context, depth + 1).map((carrier) => ({ ...carrier, via: [...carrier.via, ...via] })),
  );
  if (sites.calls.length === 0 && sites.escapes) carriers.push({ index: 0, via });
  return carriers;
}

/** Option names that ask the callee to retry the request itself: it re-sends what it was given. */
const RETRY_OPTIONS = new Set(['retry', 'retries', 'maxRetries', 'retryCount', 'retryAttempts', 'maxAttempts']);

/**
 * `fetchWithResilience(url, { idempotencyKey: key, retry: { retries: 2 } })`: a call told to retry
 * re-sends the key it was given on every attempt, so a key minted just before it is one per
 * logical request, as stripe-node mints one and keeps it across its own retries.
 */
function retriesItself(call: TSESTree.CallExpression | TSESTree.NewExpression, context: AnyRuleContext): boolean {
  const scope = context.sourceCode.getScope(call);
  return call.arguments.some((argument) => {
    const value = unwrap(argument);
    return (
      value.type === AST_NODE_TYPES.ObjectExpression &&
      value.properties.some((property) => {
        if (property.type !== AST_NODE_TYPES.Property) return false;
        const name = propertyKeyName(property, scope);
        if (name === undefined || !RETRY_OPTIONS.has(name)) return false;
        const option = unwrap(property.value);
        // `retry: false` / `retries: 0` switch it off.
        return !(option.type === AST_NODE_TYPES.Literal && (option.value === false || option.value === 0));
      })
    );
  });
}

/** Callback options a client calls per request (`headers`, `prepareSendMessagesRequest`, `beforeRequest`), not state initialisers (`data`, `setup`). */
const REQUEST_HOOK = /headers|request|prepare|before|fetch|send|body|params/i;

/** `useState(() => ({ key: mint() }))`, `useMemo(() => ...)`: the initialiser runs once. */
function isStateInitialiser(fn: TSESTree.FunctionLike): boolean {
  const parent = fn.parent;
  if (parent.type !== AST_NODE_TYPES.CallExpression || parent.callee === fn) return false;
  const name = memberPath(parent.callee)?.at(-1);
  return name !== undefined && STATE_HOLDERS.has(name);
}

/** A carrier that sends the value onward now, rather than keeping it as state or storing it with the message. */
export function isSend(carrier: Carrier, includeStores: boolean, context: AnyRuleContext): boolean {
  if (!carrier.call) return true;
  const callee = unwrap(carrier.call.callee);
  const path = memberPath(callee, context.sourceCode.getScope(carrier.call));
  // `db.insert(t).values(...)` has no static path, but its method name still tells.
  const name = path?.at(-1) ?? (callee.type === AST_NODE_TYPES.MemberExpression ? memberName(callee) : undefined);
  if (path?.[0] !== undefined && (NON_SENDING_RECEIVERS.has(path[0]) || BUILT_IN_OBJECTS.has(path[0]))) return false;
  if (name !== undefined && STATE_HOLDERS.has(name)) return false;
  // axios.create({ headers }) / ky.extend(...): an instance's defaults, set once where the instance
  // is made once (a module, a constructor); made in a function called for each request
  // (`createAxiosInstance(type, transactionId)`), the instance sends what that call gave it.
  if (path?.length === 2 && HTTP_LIBRARIES.has(path[0] ?? '') && (name === 'create' || name === 'extend')) {
    const maker = enclosingFunction(carrier.call);
    return maker !== undefined && !isInstanceSetup(maker);
  }
  if (!includeStores || name === undefined) return true;
  return !isStore(carrier, name, callee, context);
}

/** `tx.objectStore(name).put(...)`: an IndexedDB store, which the page or worker reads back. */
function isObjectStore(callee: TSESTree.Node): boolean {
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return false;
  const receiver = unwrap(callee.object);
  return (
    receiver.type === AST_NODE_TYPES.CallExpression &&
    receiver.callee.type === AST_NODE_TYPES.MemberExpression &&
    memberName(receiver.callee) === 'objectStore'
  );
}

/** `createIdempotencyKey(key, booking.id)`, `saveIdempotencyKey(...)`: a function named for storing the key itself. */
const KEY_RECORD_WRITE = /^(?:create|save|store|insert|persist|record|put)_?idempotency_?(?:key|token|record)s?$/i;

/** The value is written into the message or row that every later delivery carries. */
function isStore(carrier: Carrier, method: string, callee: TSESTree.Node, context: AnyRuleContext): boolean {
  const [first] = carrier.via;
  if (KEY_RECORD_WRITE.test(method)) return true;
  // `db.update(t).set({ key })`, `knex('t').where(...).update({ key })`, supabase's
  // `from('t').upsert({ key })`: a query builder's row write.
  if (
    (method === 'set' || method === 'update' || method === 'upsert') &&
    callee.type === AST_NODE_TYPES.MemberExpression &&
    unwrap(callee.object).type === AST_NODE_TYPES.CallExpression
  )
    return true;
  if (DOCUMENT_WRITES.has(method) || carrier.via.includes('$set')) return true;
  if ((method === 'put' || method === 'add') && isObjectStore(callee)) return true; // IndexedDB
  if (method === 'add' && carrier.index === 1) return true; // BullMQ / Bull `queue.add(name, data)`
  if (PUBLISH_METHODS.has(method)) return true;
  if (ROW_WRITES.has(method)) return true;
  if (PRISMA_WRITES.has(method) && first !== undefined && PRISMA_DATA.has(first)) return true;
  // `runStore.updateWaitpoint({ where, data: { idempotencyKey } })`: a repository's row write.
  if (isRowWriteArgument(callee, carrier.call?.arguments[carrier.index], carrier.via, context)) return true;
  if (carrier.via.some((name) => MESSAGE_FIELDS.has(name))) return true;
  return first === 'messages' && carrier.via.includes('value'); // kafkajs `send({ messages: [{ value }] })`
}
