import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { contains, enclosingFunction, outermost, unwrap } from '../ast/nodes.js';
import { findVariable, staticString } from '../ast/values.js';
import { memberName, memberPath, propertyKeyName } from '../ast/names.js';
import { type AnyRuleContext } from '../ast/context.js';
import { isIdempotencyHeaderName, isIdempotencyOptionName } from './sinks.js';
import { getOutgoingRequest } from '../http/request.js';
import { getSdkWrite } from '../sdk.js';
import { type PerAttemptValue, findClockWindow, findPerAttemptValue, MAX_DEPTH } from './per-attempt.js';
import { isSend } from './carriers.js';
import { sendsKeyedRequest } from './keyed-send.js';
import { isInTestCallback } from '../roles.js';
import { replaysWithoutComparing } from './key-replay.js';
import { isMintedEveryTime } from './fresh-keys.js';
import { isMadeBeforeRetry } from '../attempts/retry-scope.js';
import { createdRecordValue } from './created-records.js';

const { DefinitionType } = TSESLint.Scope;

/** A per-attempt value inside the body of a request that carries an idempotency key. */
export interface PerAttemptBodyValue {
  value: PerAttemptValue;
  /** Where to point: the minting expression when it sits in the call, else the body. */
  node: TSESTree.Node;
  /** The key the request carries. */
  key: TSESTree.Node;
  /** The retry helper or loop that re-sends the request, when the key was made before it (`backOff`). */
  retry?: string;
}

/**
 * A per-attempt value in the body or params of a keyed request: an HTTP request with an
 * `Idempotency-Key` header (or a key field in its body), or an SDK call passing `idempotencyKey`
 * (Stripe's options, or Square / Circle params). Quiet when the key itself is per-attempt
 * (`perAttemptKeyAt` reports that), when the request has no key, and when the call stores the
 * key with a message or row instead of sending it.
 */
export function perAttemptInKeyedBody(
  call: TSESTree.CallExpression,
  context: AnyRuleContext,
): PerAttemptBodyValue | undefined {
  if (isInTestCallback(call)) return undefined;
  const request = getOutgoingRequest(call, context);
  if (request) {
    if (!request.body) return undefined;
    const header = request.headers.entries.find((entry) => isIdempotencyHeaderName(entry.name));
    const inBody = header ? undefined : keyFieldIn(request.body, context);
    const key = header?.value ?? inBody?.value;
    if (!key || isNewOnEveryAttempt(key, call, context)) return undefined;
    return locate(call, findInBody(request.body, inBody?.property, key, context), request.body, key, context);
  }
  // A provider that replays the first result for a key never sees a differing body.
  if (replaysWithoutComparing(call, context)) return undefined;
  // `const event = removeNullish({ idempotency_key, request_start_time: Date.now() })`: a value
  // built and kept, not a request sent (an awaited or returned call is one).
  if (isKeptValue(call, context)) return undefined;
  for (const [index, argument] of call.arguments.entries()) {
    const field = keyFieldIn(argument, context);
    if (!field) continue;
    // Server code keeping a record of a key a client sent (`expiresAt: now + ttl`): nothing goes
    // out, unless the key is forwarded to a provider's write (Stripe) that compares the body.
    if (readsIncomingKey(field.value, context) && !getSdkWrite(call, context)) return undefined;
    if (
      !isSend({ call, index, via: field.via }, true, context) ||
      !sendsKeyedRequest(call, context) ||
      isNewOnEveryAttempt(field.value, call, context)
    )
      return undefined;
    for (const other of call.arguments) {
      // A key in a trailing options argument (`create(params, { idempotencyKey, correlationId })`)
      // sits among the request's options; the body is the arguments before it.
      if (other === argument && index > 0 && field.via.length === 1) continue;
      // In the options that carry the key, `headers` are the request's; in a payload (an
      // email's `headers`), they are content the receiver compares.
      const found = locate(
        call,
        findInBody(other, field.property, field.value, context, other !== argument),
        other,
        field.value,
        context,
      );
      if (found) return found;
    }
    return undefined;
  }
  return undefined;
}

/**
 * A key minted anew each time the request is built is never the same twice, so the body beside
 * it cannot differ under one key (`no-per-attempt-key` reports such a key), unless it was minted
 * before the retry that re-sends the request: then every attempt sends it, and the body the
 * attempt builds is compared against the first (a key made before `backOff(() => fetch(...))`).
 */
function isNewOnEveryAttempt(key: TSESTree.Node, call: TSESTree.CallExpression, context: AnyRuleContext): boolean {
  return isMintedEveryTime(key, context) && !isMadeBeforeRetry(key, call, context);
}

function locate(
  call: TSESTree.CallExpression,
  found: { value: PerAttemptValue; at: TSESTree.Node } | undefined,
  body: TSESTree.Node,
  key: TSESTree.Node,
  context: AnyRuleContext,
): PerAttemptBodyValue | undefined {
  if (!found) return undefined;
  // The body field that differs per attempt, when the body is written in this function; the
  // mint may be far above it (`const at = Date.now()` at the top of a long function).
  const fn = enclosingFunction(call);
  const node = contains(fn ?? call, found.at) && !contains(found.at, call) ? found.at : body;
  const retry = isMadeBeforeRetry(key, call, context);
  // The body made before the retry too (`const body = ...` above `backOff`): every try sends it.
  if (retry && !contains(retry.node, found.at)) return undefined;
  return { value: found.value, node, key, retry: retry?.name };
}

/**
 * The key field of an object (through a `const` and `JSON.stringify`), at its top or one level
 * down, or assigned to the object's local binding (`const options = {}; if (key)
 * options.idempotencyKey = key;`); `property` is the literal's own property, when it has one.
 */
function keyFieldIn(
  node: TSESTree.Node,
  context: AnyRuleContext,
): { property?: TSESTree.Property; value: TSESTree.Node; via: string[] } | undefined {
  const object = objectOf(node, context);
  if (!object) return undefined;
  for (const property of object.properties) {
    if (property.type !== AST_NODE_TYPES.Property) continue;
    const name = propertyKeyName(property);
    if (name !== undefined && (isIdempotencyOptionName(name) || isIdempotencyHeaderName(name)))
      return { property, value: property.value, via: [name] };
  }
  const assigned = assignedKeyField(node, context);
  if (assigned) return assigned;
  for (const property of object.properties) {
    if (property.type !== AST_NODE_TYPES.Property) continue;
    const name = propertyKeyName(property);
    const inner = name === 'headers' ? undefined : objectOf(property.value, context);
    for (const candidate of inner?.properties ?? []) {
      if (candidate.type !== AST_NODE_TYPES.Property) continue;
      const innerName = propertyKeyName(candidate);
      if (name !== undefined && innerName !== undefined && isIdempotencyOptionName(innerName))
        return { property: candidate, value: candidate.value, via: [name, innerName] };
    }
  }
  return undefined;
}

/** `options.idempotencyKey = key` on the function-local binding `node` names: the key the object is given later. */
function assignedKeyField(
  node: TSESTree.Node,
  context: AnyRuleContext,
): { value: TSESTree.Node; via: string[] } | undefined {
  const target = unwrap(node);
  if (target.type !== AST_NODE_TYPES.Identifier) return undefined;
  const variable = findVariable(context.sourceCode.getScope(target), target);
  for (const reference of variable?.references ?? []) {
    const member = reference.identifier.parent;
    if (member.type !== AST_NODE_TYPES.MemberExpression || member.object !== reference.identifier) continue;
    const assignment = member.parent;
    if (assignment.type !== AST_NODE_TYPES.AssignmentExpression || assignment.left !== member) continue;
    const name = memberName(member, context.sourceCode.getScope(member));
    if (name !== undefined && (isIdempotencyOptionName(name) || isIdempotencyHeaderName(name)))
      return { value: assignment.right, via: [name] };
  }
  return undefined;
}

/** The object literal an expression is, holds through a function-local `const`, or stringifies. */
function objectOf(node: TSESTree.Node, context: AnyRuleContext): TSESTree.ObjectExpression | undefined {
  let target = unwrap(node);
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    if (target.type === AST_NODE_TYPES.ObjectExpression) return target;
    // `key ? { idempotencyKey: key } : undefined`, `key && { ... }`: the object when there is one.
    if (target.type === AST_NODE_TYPES.ConditionalExpression) {
      const consequent = unwrap(target.consequent);
      target = consequent.type === AST_NODE_TYPES.ObjectExpression ? consequent : unwrap(target.alternate);
      continue;
    }
    if (target.type === AST_NODE_TYPES.LogicalExpression && target.operator === '&&') {
      target = unwrap(target.right);
      continue;
    }
    if (
      target.type === AST_NODE_TYPES.CallExpression &&
      memberPath(target.callee)?.join('.') === 'JSON.stringify' &&
      target.arguments[0]
    ) {
      target = unwrap(target.arguments[0]);
      continue;
    }
    if (target.type !== AST_NODE_TYPES.Identifier) return undefined;
    const variable = findVariable(context.sourceCode.getScope(target), target);
    const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
    if (def?.type !== DefinitionType.Variable || def.node.id.type !== AST_NODE_TYPES.Identifier || !def.node.init)
      return undefined;
    // A module-level object is built once, like a module-level key.
    if (!enclosingFunction(def.node)) return undefined;
    target = unwrap(def.node.init);
  }
  return undefined;
}

/**
 * A per-attempt value in the body; or, under a key that holds no window of the clock (a row id),
 * a window of it (today's date as an invoice's issue date): a retry in a later window sends a
 * different body under the same key. A key that holds the same window (`report-${month}`) changes
 * with it.
 */
function findInBody(
  node: TSESTree.Node,
  skip: TSESTree.Property | undefined,
  key: TSESTree.Node,
  context: AnyRuleContext,
  headersAreContent = false,
): { value: PerAttemptValue; at: TSESTree.Node } | undefined {
  return (
    findOutside(node, skip, context, headersAreContent) ??
    (findClockWindow(key, context) ? undefined : findOutside(node, skip, context, headersAreContent, findClockWindow))
  );
}

/** A value made per attempt: a mint, a clock, or the id of an object the attempt creates. */
function findMadePerAttempt(node: TSESTree.Node, context: AnyRuleContext): PerAttemptValue | undefined {
  return findPerAttemptValue(node, context) ?? createdRecordValue(node, context);
}

/**
 * A per-attempt value anywhere in `node` except inside `skip` (the key itself) and `headers`,
 * with the body field (or spread) that holds it.
 */
function findOutside(
  node: TSESTree.Node,
  skip: TSESTree.Property | undefined,
  context: AnyRuleContext,
  headersAreContent = false,
  finder: (node: TSESTree.Node, context: AnyRuleContext) => PerAttemptValue | undefined = findMadePerAttempt,
): { value: PerAttemptValue; at: TSESTree.Node } | undefined {
  const object = objectOf(node, context);
  if (!object) {
    const value = finder(node, context);
    return value && { value, at: node };
  }
  for (const property of object.properties) {
    if (property === skip) continue;
    if (property.type === AST_NODE_TYPES.SpreadElement) {
      const value = finder(property.argument, context);
      if (value) return { value, at: property };
      continue;
    }
    if (!headersAreContent && propertyKeyName(property) === 'headers') continue;
    const inner = objectOf(property.value, context);
    const found = inner
      ? findOutside(inner, skip, context, headersAreContent, finder)
      : finder(property.value, context);
    if (found) return 'at' in found ? found : { value: found, at: property.value };
  }
  return undefined;
}

/** Reads of a request header or field: `req.headers['idempotency-key']`, `c.req.header('Idempotency-Key')`. */
const HEADER_READERS = new Set(['get', 'header', 'getHeader']);

/** The key is read from an incoming request's headers (directly or through a function-local `const`). */
function readsIncomingKey(node: TSESTree.Node, context: AnyRuleContext): boolean {
  let target = unwrap(node);
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    if (target.type === AST_NODE_TYPES.LogicalExpression) target = unwrap(target.left);
    if (target.type === AST_NODE_TYPES.MemberExpression) {
      const scope = context.sourceCode.getScope(target);
      const name = target.computed ? staticString(target.property, scope) : undefined;
      return name !== undefined && isIdempotencyHeaderName(name);
    }
    if (target.type === AST_NODE_TYPES.CallExpression && target.callee.type === AST_NODE_TYPES.MemberExpression) {
      const scope = context.sourceCode.getScope(target);
      const method = memberPath(target.callee)?.at(-1);
      const name = target.arguments[0] ? staticString(target.arguments[0], scope) : undefined;
      return method !== undefined && HEADER_READERS.has(method) && name !== undefined && isIdempotencyHeaderName(name);
    }
    if (target.type !== AST_NODE_TYPES.Identifier) return false;
    const variable = findVariable(context.sourceCode.getScope(target), target);
    const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
    if (def?.type !== DefinitionType.Variable || def.node.id.type !== AST_NODE_TYPES.Identifier || !def.node.init)
      return false;
    target = unwrap(def.node.init);
  }
  return false;
}

/** The call's result is bound to a variable that is never awaited: it builds a value, it sends nothing. */
function isKeptValue(call: TSESTree.CallExpression, context: AnyRuleContext): boolean {
  const declarator = outermost(call).parent;
  if (declarator?.type !== AST_NODE_TYPES.VariableDeclarator || declarator.id.type !== AST_NODE_TYPES.Identifier)
    return false;
  const variable = findVariable(context.sourceCode.getScope(declarator), declarator.id);
  return (variable?.references ?? []).every((reference) => {
    const use = outermost(reference.identifier).parent;
    if (!use || reference.init === true) return true;
    if (use.type === AST_NODE_TYPES.AwaitExpression || use.type === AST_NODE_TYPES.ReturnStatement) return false;
    return !(
      use.type === AST_NODE_TYPES.MemberExpression &&
      (memberName(use) === 'then' || memberName(use) === 'catch' || memberName(use) === 'finally')
    );
  });
}
