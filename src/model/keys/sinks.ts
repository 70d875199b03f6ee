import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { outermost, unwrap } from '../ast/nodes.js';
import { findProperty, findVariable, resolveValue, staticString } from '../ast/values.js';
import { endName, memberName, memberPath, propertyKeyName } from '../ast/names.js';
import { type AnyRuleContext, type Scope } from '../ast/context.js';
import { hasSummaryFact } from '../settings.js';
import { resolveFunction } from '../ast/function.js';
import { isImportedKeyHeaderName, listedKeyParameters } from './imported-names.js';
import { KEY_FIELD_TEXT, KEY_FIELDS, KEY_HEADERS } from '../libraries/key-fields.js';

/**
 * Where an idempotency key is written: a header, an SDK option, a BullMQ job id or an SQS
 * deduplication id. A rule visits `Property`, `AssignmentExpression` and `CallExpression`
 * nodes and asks `keySinksAt`; only writes count, never reads (`x.idempotencyKey`,
 * destructuring, type members).
 */

type KeySinkKind = 'header' | 'sdk-option' | 'bullmq-job-id' | 'deduplication-id' | 'argument';

export interface KeySink {
  kind: KeySinkKind;
  /** The name as written (`Idempotency-Key`, `idempotencyKey`, `jobId`, `id` for `deduplication.id`). */
  name: string;
  value: TSESTree.Node;
  /** The property, assignment or call that writes it. */
  node: TSESTree.Node;
}

/**
 * `Idempotency-Key` (the IETF draft), its `X-` and `-Token` spellings and the adjective some
 * projects write instead (`X-Idempotent-Key`), PayPal's `PayPal-Request-Id` and Checkout.com's
 * `Cko-Idempotency-Key` (both documented as the provider's idempotency header), and Banco Inter's
 * `x-id-idempotente`, the idempotency header of its Pix banking API (`POST /banking/v2/pix`),
 * sent as such by the integrations that call it.
 */
const HEADER_NAMES = new Set([
  'idempotency-key',
  'x-idempotency-key',
  'idempotency-token',
  'x-idempotency-token',
  'idempotent-key',
  'x-idempotent-key',
  'paypal-request-id',
  'cko-idempotency-key',
  'x-id-idempotente',
]);
/**
 * PayPal's server SDK sends `paypalRequestId` as the `PayPal-Request-Id` header; AWS SDK inputs
 * take `ClientToken` / `ClientRequestToken` / `IdempotencyToken` ("a unique, case-sensitive
 * identifier that you provide to ensure the idempotency of the request").
 */
const SDK_OPTION_NAMES = new Set([
  'idempotencyKey',
  'idempotency_key',
  'IdempotencyKey',
  'idempotencyToken',
  'IdempotencyToken',
  'paypalRequestId',
  'ClientToken',
  'ClientRequestToken',
]);
/**
 * A header-name constant imported from another module (`[IDEMPOTENCY_HEADER]: v`,
 * `headers.set(IDEMPOTENCY_KEY_HEADER, v)`): the value is not in this file, its name says what it holds.
 */
const HEADER_CONSTANT_NAME = /^(?:x_?)?idempotency_?(?:key_?)?header(?:_?name)?$/i;
const SQS_NAMES = new Set(['MessageDeduplicationId']);

/**
 * A deduplication id by its name, separators and case aside: `deduplicationId`, `deduplication_id`,
 * QStash's `Upstash-Deduplication-Id` header. A queue that takes one drops a message whose id it has
 * seen (upstash.com/docs/qstash/features/deduplication: "When a duplicate message is detected, it is
 * accepted by QStash but not enqueued [...] You can simply retry publishing"), as SQS FIFO does; a
 * project's own publisher that takes one hands it to such a queue. A receiver that drops a repeat
 * compares no body, so it is no key for `no-per-attempt-body`.
 */
function isDeduplicationIdName(name: string): boolean {
  return /deduplicationid$/.test(name.replace(/[^A-Za-z]/g, '').toLowerCase());
}

/** The object literal spells each of `names` (a spread before one leaves it unknown: not spelled). */
function hasProperties(object: TSESTree.ObjectExpression, names: readonly string[], scope: Scope): boolean {
  return names.every((name) => {
    const property = findProperty(object, (key) => key === name, scope);
    return property !== undefined && property !== 'unknown';
  });
}

/**
 * `name` in `object` is a provider's deduplication key (libraries/key-fields.ts): the payload spells
 * the fields beside it, the literal and the parent property its row asks for.
 */
function isProviderKeyField(object: TSESTree.ObjectExpression, name: string, scope: Scope): boolean {
  return KEY_FIELDS.some(
    (row) =>
      row.field === name &&
      hasProperties(object, row.beside ?? [], scope) &&
      (row.literal === undefined || hasLiteral(object, row.literal.field, row.literal.value, scope)) &&
      (row.under === undefined || row.under.includes(parentPropertyName(object, scope) ?? '')) &&
      (row.handedTo === undefined || isHandedTo(object, row.handedTo, scope)),
  );
}

/** `name` in `object` is a provider's key header (libraries/key-fields.ts): the headers beside it say whose. */
function isProviderKeyHeader(object: TSESTree.ObjectExpression, name: string, scope: Scope): boolean {
  const lower = name.toLowerCase();
  return KEY_HEADERS.some(
    (row) =>
      row.header === lower &&
      row.beside.every((beside) => findProperty(object, (key) => key.toLowerCase() === beside, scope) !== undefined),
  );
}

/** `object` is an argument of a call one of whose callee's names matches `name`. */
function isHandedTo(object: TSESTree.ObjectExpression, name: RegExp, scope: Scope): boolean {
  return argumentUses(object, scope).some(({ call }) =>
    (memberPath(call.callee) ?? []).some((part) => name.test(part)),
  );
}

function hasLiteral(object: TSESTree.ObjectExpression, name: string, value: string, scope: Scope): boolean {
  const property = findProperty(object, (key) => key === name, scope);
  return property !== undefined && property !== 'unknown' && staticString(property.value, scope) === value;
}

/** The name of the property whose value is `object`, directly or as an element of an array literal. */
function parentPropertyName(object: TSESTree.ObjectExpression, scope: Scope): string | undefined {
  const holder = object.parent.type === AST_NODE_TYPES.ArrayExpression ? object.parent.parent : object.parent;
  return holder.type === AST_NODE_TYPES.Property ? propertyKeyName(holder, scope) : undefined;
}

const HEADER_WRITERS = new Set(['set', 'append', 'setHeader', 'header']);
/** Calls that only log or answer: an object with a key passed there sends nothing onward. */
const NON_SINK_RECEIVERS = new Set(['console', 'logger', 'log', 'res', 'reply', 'response', 'ctx', 'assert', 'expect']);

/** Idempotency-Key, X-Idempotency-Key, Idempotency-Token, X-Idempotent-Key (any case), PayPal-Request-Id, Cko-Idempotency-Key. */
export function isIdempotencyHeaderName(name: string): boolean {
  const lower = name.toLowerCase();
  return HEADER_NAMES.has(lower) || PREFIXED_HEADER.test(lower);
}

/**
 * A provider's own prefix before `Idempotency-Key`: Qonto's `X-Qonto-Idempotency-Key`, Solid's
 * `sd-idempotency-key`, trigger.dev's `x-trigger-request-idempotency-key`.
 */
const PREFIXED_HEADER = /^(?:x-)?[a-z0-9]+(?:-[a-z0-9]+)*-idempotency-(?:key|token)$/;

/**
 * The spellings of "idempotency key" in field names, separators and case aside, with a prefix
 * such as Postgres functions' `p_` (`p_idempotency_key`) or a provider's (`cko_idempotency_key`),
 * and the option that carries Banco Inter's `x-id-idempotente` header (`xIdIdempotente`).
 */
const KEY_FIELD_SPELLING = /idempotency(?:key|token)$|ididempotente$/;

/** SDK option names that carry an idempotency key (Stripe `idempotencyKey`, `idempotency_key`, Square/Circle payload fields, an RPC's `p_idempotency_key`, PayPal `paypalRequestId`, AWS `ClientToken`). */
export function isIdempotencyOptionName(name: string): boolean {
  return SDK_OPTION_NAMES.has(name) || KEY_FIELD_SPELLING.test(name.replace(/[^A-Za-z]/g, '').toLowerCase());
}

/**
 * Text every sink name above contains: the header and option names, `MessageDeduplicationId`,
 * BullMQ's `jobId` and `deduplication` / `debounce`; the providers' key fields add their own
 * (libraries/key-fields.ts).
 */
const SINK_NAME_TEXT = /idempoten(?:cy|t)|request-?id|client(?:request)?token|deduplication|debounce|jobid/i;
const sinkNameCache = new WeakMap<object, boolean>();

/** True when `text` spells a name an idempotency-key sink is written with; without one, a file's own text holds no sink. */
export function spellsKeySink(text: string): boolean {
  return SINK_NAME_TEXT.test(text) || KEY_FIELD_TEXT.test(text);
}

/**
 * False when no idempotency-key sink can be in this file: its text spells none of the names a sink
 * is written with (a computed name resolves only through this file's own constants), and no
 * key-header source or header name from another module reaches it (`settings.idempotency.keyHeaderSources`,
 * `keyHeaderNames`).
 * The rules that start from a key return no listeners for such a file.
 */
export function mayHoldIdempotencyKey(context: AnyRuleContext): boolean {
  if (
    hasSummaryFact(context, 'keyHeaderSource') ||
    hasSummaryFact(context, 'keyHeaderName') ||
    hasSummaryFact(context, 'keyParameters') ||
    hasSummaryFact(context, 'writtenAsKey')
  )
    return true;
  const sourceCode = context.sourceCode;
  let spelled = sinkNameCache.get(sourceCode);
  if (spelled === undefined) {
    spelled = spellsKeySink(sourceCode.text);
    sinkNameCache.set(sourceCode, spelled);
  }
  return spelled;
}

/** The idempotency-key sinks a node writes; empty when it writes none. */
export function keySinksAt(
  node: TSESTree.Property | TSESTree.AssignmentExpression | TSESTree.CallExpression,
  context: AnyRuleContext,
): KeySink[] {
  if (!mayHoldIdempotencyKey(context)) return [];
  const scope = context.sourceCode.getScope(node);
  switch (node.type) {
    case AST_NODE_TYPES.Property:
      return propertySinks(node, scope, context);
    case AST_NODE_TYPES.AssignmentExpression:
      return assignmentSinks(node, scope, context);
    case AST_NODE_TYPES.CallExpression:
      return callSinks(node, scope, context);
  }
}

/** A property of an object literal (never a destructuring pattern). */
function propertySinks(property: TSESTree.Property, scope: Scope, context: AnyRuleContext): KeySink[] {
  const object = property.parent;
  if (object.type !== AST_NODE_TYPES.ObjectExpression) return [];
  const name =
    propertyKeyName(property, scope) ?? (property.computed ? headerConstantName(property.key, context) : undefined);
  if (name === undefined) return [];
  const sink = (kind: KeySinkKind): KeySink[] => [{ kind, name, value: property.value, node: property }];

  // These names mean one thing wherever an object literal spells them.
  if (isIdempotencyHeaderName(name)) return sink('header');
  if (isProviderKeyHeader(object, name, scope)) return sink('header');
  if (SQS_NAMES.has(name)) return sink('deduplication-id');
  if (isProviderKeyField(object, name, scope)) return sink('sdk-option');
  if (
    isDeduplicationIdName(name) &&
    (flowsToCall(object, scope) || isNestedPayload(object, scope) || isReturned(object, scope))
  )
    return sink('deduplication-id');

  if (
    isIdempotencyOptionName(name) &&
    (flowsToCall(object, scope) || isNestedPayload(object, scope) || isReturned(object, scope))
  )
    return sink('sdk-option');
  if (name === 'jobId' && (isBullOpts(object, scope) || isEnqueueOptions(object, scope))) return sink('bullmq-job-id');
  if (name === 'id' && isBullDeduplication(object, scope)) return sink('bullmq-job-id');
  return [];
}

/** `x['Idempotency-Key'] = v`, `x.MessageDeduplicationId = v`, `params.idempotencyKey = v`. */
function assignmentSinks(assignment: TSESTree.AssignmentExpression, scope: Scope, context: AnyRuleContext): KeySink[] {
  if (assignment.operator !== '=' || assignment.left.type !== AST_NODE_TYPES.MemberExpression) return [];
  const name =
    memberName(assignment.left, scope) ??
    (assignment.left.computed ? headerConstantName(assignment.left.property, context) : undefined);
  if (name === undefined) return [];
  const sink = (kind: KeySinkKind): KeySink[] => [{ kind, name, value: assignment.right, node: assignment }];
  if (isIdempotencyHeaderName(name)) return sink('header');
  if (SQS_NAMES.has(name)) return sink('deduplication-id');
  // `headers['X-Reference-Id'] = id` on a `const headers = { 'X-Target-Environment': … }`.
  const target = unwrap(assignment.left.object);
  const literal = target.type === AST_NODE_TYPES.Identifier ? resolveValue(target, scope) : undefined;
  if (literal?.type === AST_NODE_TYPES.ObjectExpression && isProviderKeyHeader(literal, name, scope))
    return sink('header');
  // `this.idempotencyKey = …` is object state, not a payload on its way out.
  if (unwrap(assignment.left.object).type === AST_NODE_TYPES.ThisExpression) return [];
  if (isIdempotencyOptionName(name)) return sink('sdk-option');
  if (isDeduplicationIdName(name)) return sink('deduplication-id');
  return [];
}

/**
 * `headers.set('Idempotency-Key', v)`, `.append`, `req.setHeader`, superagent `.set`; and a key
 * handed to a function out of sight by name (`openSession(data, idempotencyKey)` with the function
 * imported, or a method of another object): the parameter it lands in sends it.
 */
function callSinks(call: TSESTree.CallExpression, scope: Scope, context: AnyRuleContext): KeySink[] {
  const callee = unwrap(call.callee);
  const header = headerWrite(call, callee, scope, context);
  // `headers.set(idempotencyKey, v)` with `const idempotencyKey = 'Idempotency-Key'` names the header.
  if (header) return [header];
  return keyArguments(call, scope, context);
}

function headerWrite(
  call: TSESTree.CallExpression,
  callee: TSESTree.Node,
  scope: Scope,
  context: AnyRuleContext,
): KeySink | undefined {
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const method = memberName(callee, scope);
  const [first, second] = call.arguments;
  if (!method || !HEADER_WRITERS.has(method) || !first || !second) return undefined;
  const name = staticString(first, scope) ?? headerConstantName(first, context);
  if (name === undefined || !isIdempotencyHeaderName(name)) return undefined;
  return { kind: 'header', name, value: second, node: call };
}

function keyArguments(call: TSESTree.CallExpression, scope: Scope, context: AnyRuleContext): KeySink[] {
  const callee = unwrap(call.callee);
  // A function of this file is followed from its parameter instead (per-attempt.ts).
  if (callee.type === AST_NODE_TYPES.Identifier && resolveFunction(callee, scope)) return [];
  if (callee.type === AST_NODE_TYPES.MemberExpression && unwrap(callee.object).type === AST_NODE_TYPES.ThisExpression)
    return [];
  const head = memberPath(callee)?.[0];
  if (head !== undefined && NON_SINK_RECEIVERS.has(head)) return [];
  // Another module's function whose parameter there becomes the key (settings.idempotency.keyParameters).
  const listed = listedKeyParameters(call, context);
  return call.arguments.flatMap((argument, index): KeySink[] => {
    const value = unwrap(argument);
    if (argument.type !== AST_NODE_TYPES.SpreadElement) {
      const entries = listed.filter((entry) => entry.index === index);
      const whole = entries.find((entry) => entry.property === undefined);
      if (whole) return [{ kind: 'argument', name: whole.parameter, value: argument, node: call }];
      // `queue.enqueue({ eventId: ... })` where the callee makes its key of `data.eventId`.
      const object = entries.length > 0 ? resolveValue(value, scope) : undefined;
      const fields =
        object?.type === AST_NODE_TYPES.ObjectExpression
          ? entries.flatMap((entry) => {
              const property = findProperty(object, (key) => key === entry.property, scope);
              return property && property !== 'unknown' && entry.property !== undefined
                ? [{ kind: 'argument' as const, name: entry.property, value: property.value, node: call }]
                : [];
            })
          : [];
      if (fields.length > 0) return fields;
    }
    const name = keyArgumentName(value);
    return name !== undefined ? [{ kind: 'argument' as const, name, value, node: call }] : [];
  });
}

/** `idempotencyKey`, or `idempotencyKey ?? mint()` / `input.idempotencyKey || mint()`: the caller's key or its fallback. */
function keyArgumentName(value: TSESTree.Node): string | undefined {
  if (value.type === AST_NODE_TYPES.Identifier) return isIdempotencyOptionName(value.name) ? value.name : undefined;
  if (value.type !== AST_NODE_TYPES.LogicalExpression || value.operator === '&&') return undefined;
  const name = endName(unwrap(value.left));
  return name !== undefined && isIdempotencyOptionName(name) ? name : undefined;
}

/**
 * `IDEMPOTENCY_HEADER` / `headers.IDEMPOTENCY_KEY_HEADER` whose value is not in this file, or an
 * imported constant the CLI found to hold a key header name: read as `Idempotency-Key`.
 */
function headerConstantName(node: TSESTree.Node, context: AnyRuleContext): string | undefined {
  const target = unwrap(node);
  if (isImportedKeyHeaderName(target, context)) return 'Idempotency-Key';
  const name =
    target.type === AST_NODE_TYPES.Identifier
      ? target.name
      : target.type === AST_NODE_TYPES.MemberExpression && !target.computed
        ? memberName(target)
        : undefined;
  return name !== undefined && HEADER_CONSTANT_NAME.test(name) ? 'Idempotency-Key' : undefined;
}

// ---------------------------------------------------------------------------
// Where an object literal goes

/** The call arguments an object literal becomes: itself, or a `const` holding it. */
function argumentUses(
  object: TSESTree.ObjectExpression,
  scope: Scope,
): { call: TSESTree.CallExpression | TSESTree.NewExpression; index: number }[] {
  const uses: { call: TSESTree.CallExpression | TSESTree.NewExpression; index: number }[] = [];
  const direct = asArgument(object);
  if (direct) uses.push(direct);
  const parent = outerOf(object);
  if (parent.type === AST_NODE_TYPES.VariableDeclarator && parent.id.type === AST_NODE_TYPES.Identifier) {
    const variable = findVariable(scope, parent.id);
    for (const reference of variable?.references ?? []) {
      if (reference.init === true) continue;
      const use = asArgument(reference.identifier);
      if (use) uses.push(use);
    }
  }
  return uses;
}

/** The node a value hangs from, skipping `as`, `satisfies` and `!`. */
function outerOf(node: TSESTree.Node): TSESTree.Node {
  const current = outermost(node);
  return current.parent ?? current;
}

function asArgument(
  node: TSESTree.Node,
): { call: TSESTree.CallExpression | TSESTree.NewExpression; index: number } | undefined {
  const current = outermost(node);
  const parent = current.parent;
  if (
    (parent?.type === AST_NODE_TYPES.CallExpression || parent?.type === AST_NODE_TYPES.NewExpression) &&
    parent.callee !== current
  ) {
    return { call: parent, index: parent.arguments.indexOf(current as TSESTree.CallExpressionArgument) };
  }
  return undefined;
}

/** A request builder's result: the object (or a `const` holding it) is what a function returns. */
function isReturned(object: TSESTree.ObjectExpression, scope: Scope): boolean {
  const returns = (node: TSESTree.Node): boolean => {
    const parent = outerOf(node);
    return (
      parent.type === AST_NODE_TYPES.ReturnStatement ||
      (parent.type === AST_NODE_TYPES.ArrowFunctionExpression && parent.body === outermost(node))
    );
  };
  if (returns(object)) return true;
  const parent = outerOf(object);
  if (parent.type !== AST_NODE_TYPES.VariableDeclarator || parent.id.type !== AST_NODE_TYPES.Identifier) return false;
  const variable = findVariable(scope, parent.id);
  return (variable?.references ?? []).some((reference) => reference.init !== true && returns(reference.identifier));
}

/** An object with a key field passed to a call that sends it on (not a logger or a response). */
function flowsToCall(object: TSESTree.ObjectExpression, scope: Scope): boolean {
  return argumentUses(object, scope).some(({ call }) => {
    const head = memberPath(call.callee)?.[0];
    return head === undefined || !NON_SINK_RECEIVERS.has(head);
  });
}

/**
 * Call-argument fields whose object an SDK sends as the request payload, and GraphQL's: a client's
 * `variables` (Apollo's `mutate({ mutation, variables })`) and the `input` object a mutation takes
 * by convention (graphql.org/learn/mutations: "a single input object type as its argument").
 */
const PAYLOAD_FIELDS = new Set(['data', 'body', 'params', 'payload', 'variables', 'input']);
/** ORM writes (`prisma.x.create({ data })`): their `data` is a row later deliveries read back, not a request. */
const ROW_WRITES = new Set(['create', 'createMany', 'update', 'updateMany', 'upsert', 'insert', 'insertMany']);
/** How many payload fields deep a key may sit below a call's argument (`variables: { input: { idempotencyKey } }`). */
const PAYLOAD_DEPTH = 2;

/**
 * `sdk.createTransaction({ accountId, data: { amount, idempotencyKey } })`: the key in the `data` /
 * `body` / `params` / `payload` object of a call argument, or in GraphQL's `variables: { input }`.
 * Prisma-style row writes (`prisma.payment.create({ data: { idempotencyKey } })`) store the key
 * instead and do not count.
 */
function isNestedPayload(object: TSESTree.ObjectExpression, scope: Scope, depth = 0): boolean {
  if (depth >= PAYLOAD_DEPTH) return false;
  return placesOf(object, scope).some((place) => {
    const holder = outerOf(place);
    if (holder.type !== AST_NODE_TYPES.Property || (holder.value !== place && unwrap(holder.value) !== place))
      return false;
    const field = propertyKeyName(holder, scope);
    if (field === undefined || !PAYLOAD_FIELDS.has(field) || holder.parent.type !== AST_NODE_TYPES.ObjectExpression)
      return false;
    const sent = argumentUses(holder.parent, scope).some(({ call }) => {
      const head = memberPath(call.callee)?.[0];
      if (head !== undefined && NON_SINK_RECEIVERS.has(head)) return false;
      const method = calledMethod(call);
      return !(field === 'data' && method !== undefined && ROW_WRITES.has(method));
    });
    return sent || isNestedPayload(holder.parent, scope, depth + 1);
  });
}

/** Where an object literal's value is used: in place, or where the `const` it initialises is read. */
function placesOf(object: TSESTree.ObjectExpression, scope: Scope): TSESTree.Node[] {
  const parent = outerOf(object);
  if (parent.type !== AST_NODE_TYPES.VariableDeclarator || parent.id.type !== AST_NODE_TYPES.Identifier)
    return [object];
  const references = findVariable(scope, parent.id)?.references ?? [];
  return [
    object,
    ...references.filter((reference) => reference.init !== true).map((reference) => reference.identifier),
  ];
}

/** What a queue wrapper is called: `triggerJob`, `enqueue`, `addJob`, `scheduleTask`, `dispatch`. */
const ENQUEUE_NAME = /job|queue|enqueue|dispatch|schedule/i;

/** `triggerJob(name, data, queue, { jobId })`: the options of a project's own enqueue helper. */
function isEnqueueOptions(object: TSESTree.ObjectExpression, scope: Scope): boolean {
  return argumentUses(object, scope).some(({ call, index }) => {
    const name = memberPath(call.callee)?.at(-1);
    return (
      index > 0 &&
      name !== undefined &&
      ENQUEUE_NAME.test(name) &&
      !NON_SINK_RECEIVERS.has(memberPath(call.callee)?.[0] ?? '')
    );
  });
}

/** The third argument of `queue.add(name, data, opts)`, or `opts` of an `addBulk`/flow entry. */
function isBullOpts(object: TSESTree.ObjectExpression, scope: Scope): boolean {
  if (argumentUses(object, scope).some(({ call, index }) => index === 2 && calledMethod(call) === 'add')) return true;
  const holder = outerOf(object);
  if (holder.type !== AST_NODE_TYPES.Property || propertyKeyName(holder, scope) !== 'opts') return false;
  const entry = holder.parent;
  if (entry.type !== AST_NODE_TYPES.ObjectExpression) return false;
  const container = outerOf(entry);
  if (container.type === AST_NODE_TYPES.ArrayExpression) return flowsToAddBulk(container, scope);
  // `queue.addBulk(items.map((item) => ({ name, data, opts: { jobId } })))`, directly or via a `const`.
  const mapped = mapCallReturning(container);
  if (mapped) return flowsToAddBulk(mapped, scope);
  // FlowProducer.add({ name, queueName, data, opts }) and its children.
  return entry.properties.some((p) => p.type === AST_NODE_TYPES.Property && propertyKeyName(p, scope) === 'queueName');
}

/** An array passed as the jobs of `queue.addBulk(jobs)`, itself or through a `const`. */
function flowsToAddBulk(array: TSESTree.Node, scope: Scope): boolean {
  const isBulk = (node: TSESTree.Node): boolean => {
    const use = asArgument(node);
    return use !== undefined && use.index === 0 && calledMethod(use.call) === 'addBulk';
  };
  if (isBulk(array)) return true;
  const holder = outerOf(array);
  if (holder.type !== AST_NODE_TYPES.VariableDeclarator || holder.id.type !== AST_NODE_TYPES.Identifier) return false;
  const variable = findVariable(scope, holder.id);
  return (variable?.references ?? []).some((reference) => reference.init !== true && isBulk(reference.identifier));
}

/**
 * The `.map(...)` call whose callback returns the value `container` holds: the callback itself
 * for an expression body (`(x) => ({ ... })`), or the `return { ... }` of a block body.
 */
export function mapCallReturning(container: TSESTree.Node): TSESTree.CallExpression | undefined {
  let callback: TSESTree.Node | undefined;
  if (container.type === AST_NODE_TYPES.ArrowFunctionExpression) callback = container;
  else if (container.type === AST_NODE_TYPES.ReturnStatement) {
    const block = container.parent;
    const fn = block.parent;
    if (
      block.type === AST_NODE_TYPES.BlockStatement &&
      (fn?.type === AST_NODE_TYPES.ArrowFunctionExpression || fn?.type === AST_NODE_TYPES.FunctionExpression)
    ) {
      callback = fn;
    }
  }
  const call = callback?.parent;
  if (call?.type !== AST_NODE_TYPES.CallExpression || call.arguments[0] !== callback || calledMethod(call) !== 'map')
    return undefined;
  return call;
}

/** `{ id }` as the value of `deduplication` (or the older `debounce`) inside BullMQ add opts. */
function isBullDeduplication(object: TSESTree.ObjectExpression, scope: Scope): boolean {
  const holder = outerOf(object);
  if (holder.type !== AST_NODE_TYPES.Property) return false;
  const key = propertyKeyName(holder, scope);
  if (key !== 'deduplication' && key !== 'debounce') return false;
  return holder.parent.type === AST_NODE_TYPES.ObjectExpression && isBullOpts(holder.parent, scope);
}

function calledMethod(call: TSESTree.CallExpression | TSESTree.NewExpression): string | undefined {
  const callee = unwrap(call.callee);
  return callee.type === AST_NODE_TYPES.MemberExpression ? memberName(callee) : undefined;
}
