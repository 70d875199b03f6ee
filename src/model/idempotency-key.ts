import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';

import { findVariable, memberName, memberPath, propertyKeyName, staticString, unwrap, type AnyRuleContext } from './ast.js';

/**
 * Where an idempotency key is written: a header, an SDK option, a BullMQ job id or an SQS
 * deduplication id. A rule visits `Property`, `AssignmentExpression` and `CallExpression`
 * nodes and asks `keySinksAt`; only writes count, never reads (`x.idempotencyKey`,
 * destructuring, type members).
 */

type Scope = TSESLint.Scope.Scope;

export type KeySinkKind = 'header' | 'sdk-option' | 'bullmq-job-id' | 'sqs-deduplication-id';

export interface KeySink {
  kind: KeySinkKind;
  /** The name as written (`Idempotency-Key`, `idempotencyKey`, `jobId`, `id` for `deduplication.id`). */
  name: string;
  value: TSESTree.Node;
  /** The property, assignment or call that writes it. */
  node: TSESTree.Node;
}

const HEADER_NAMES = new Set(['idempotency-key', 'x-idempotency-key', 'paypal-request-id']);
const SDK_OPTION_NAMES = new Set(['idempotencyKey', 'idempotency_key', 'IdempotencyKey']);
const SQS_NAMES = new Set(['MessageDeduplicationId']);
const HEADER_WRITERS = new Set(['set', 'append', 'setHeader', 'header']);
/** Calls that only log or answer: an object with a key passed there sends nothing onward. */
const NON_SINK_RECEIVERS = new Set(['console', 'logger', 'log', 'res', 'reply', 'response', 'ctx', 'assert', 'expect']);

/** Idempotency-Key, X-Idempotency-Key (any case), PayPal-Request-Id. */
export function isIdempotencyHeaderName(name: string): boolean {
  return HEADER_NAMES.has(name.toLowerCase());
}

/** SDK option names that carry an idempotency key (Stripe `idempotencyKey`, `idempotency_key`, Square/Circle payload fields). */
export function isIdempotencyOptionName(name: string): boolean {
  return SDK_OPTION_NAMES.has(name);
}

/** The idempotency-key sinks a node writes; empty when it writes none. */
export function keySinksAt(
  node: TSESTree.Property | TSESTree.AssignmentExpression | TSESTree.CallExpression,
  context: AnyRuleContext,
): KeySink[] {
  const scope = context.sourceCode.getScope(node);
  switch (node.type) {
    case AST_NODE_TYPES.Property:
      return propertySinks(node, scope);
    case AST_NODE_TYPES.AssignmentExpression:
      return assignmentSinks(node, scope);
    case AST_NODE_TYPES.CallExpression:
      return callSinks(node, scope);
  }
}

/** A property of an object literal (never a destructuring pattern). */
function propertySinks(property: TSESTree.Property, scope: Scope): KeySink[] {
  const object = property.parent;
  if (object.type !== AST_NODE_TYPES.ObjectExpression) return [];
  const name = propertyKeyName(property, scope);
  if (name === undefined) return [];
  const sink = (kind: KeySinkKind): KeySink[] => [{ kind, name, value: property.value, node: property }];

  // These names mean one thing wherever an object literal spells them.
  if (isIdempotencyHeaderName(name)) return sink('header');
  if (SQS_NAMES.has(name)) return sink('sqs-deduplication-id');

  if (isIdempotencyOptionName(name) && flowsToCall(object, scope)) return sink('sdk-option');
  if (name === 'jobId' && isBullOpts(object, scope)) return sink('bullmq-job-id');
  if (name === 'id' && isBullDeduplication(object, scope)) return sink('bullmq-job-id');
  return [];
}

/** `x['Idempotency-Key'] = v`, `x.MessageDeduplicationId = v`, `params.idempotencyKey = v`. */
function assignmentSinks(assignment: TSESTree.AssignmentExpression, scope: Scope): KeySink[] {
  if (assignment.operator !== '=' || assignment.left.type !== AST_NODE_TYPES.MemberExpression) return [];
  const name = memberName(assignment.left, scope);
  if (name === undefined) return [];
  const sink = (kind: KeySinkKind): KeySink[] => [{ kind, name, value: assignment.right, node: assignment }];
  if (isIdempotencyHeaderName(name)) return sink('header');
  if (SQS_NAMES.has(name)) return sink('sqs-deduplication-id');
  // `this.idempotencyKey = …` is object state, not a payload on its way out.
  if (isIdempotencyOptionName(name) && unwrap(assignment.left.object).type !== AST_NODE_TYPES.ThisExpression) return sink('sdk-option');
  return [];
}

/** `headers.set('Idempotency-Key', v)`, `.append`, `req.setHeader`, superagent `.set`. */
function callSinks(call: TSESTree.CallExpression, scope: Scope): KeySink[] {
  const callee = unwrap(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return [];
  const method = memberName(callee, scope);
  const [first, second] = call.arguments;
  if (!method || !HEADER_WRITERS.has(method) || !first || !second) return [];
  const name = staticString(first, scope);
  if (name === undefined || !isIdempotencyHeaderName(name)) return [];
  return [{ kind: 'header', name, value: second, node: call }];
}

// ---------------------------------------------------------------------------
// Where an object literal goes

/** The call arguments an object literal becomes: itself, or a `const` holding it. */
function argumentUses(object: TSESTree.ObjectExpression, scope: Scope): { call: TSESTree.CallExpression | TSESTree.NewExpression; index: number }[] {
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
  let current = node;
  while (
    current.parent &&
    (current.parent.type === AST_NODE_TYPES.TSAsExpression ||
      current.parent.type === AST_NODE_TYPES.TSSatisfiesExpression ||
      current.parent.type === AST_NODE_TYPES.TSNonNullExpression)
  ) {
    current = current.parent;
  }
  return current.parent ?? current;
}

function asArgument(node: TSESTree.Node): { call: TSESTree.CallExpression | TSESTree.NewExpression; index: number } | undefined {
  let current: TSESTree.Node = node;
  while (
    current.parent &&
    (current.parent.type === AST_NODE_TYPES.TSAsExpression ||
      current.parent.type === AST_NODE_TYPES.TSSatisfiesExpression ||
      current.parent.type === AST_NODE_TYPES.TSNonNullExpression)
  ) {
    current = current.parent;
  }
  const parent = current.parent;
  if (
    (parent?.type === AST_NODE_TYPES.CallExpression || parent?.type === AST_NODE_TYPES.NewExpression) &&
    parent.callee !== current
  ) {
    return { call: parent, index: parent.arguments.indexOf(current as TSESTree.CallExpressionArgument) };
  }
  return undefined;
}

/** An object with a key field passed to a call that sends it on (not a logger or a response). */
function flowsToCall(object: TSESTree.ObjectExpression, scope: Scope): boolean {
  return argumentUses(object, scope).some(({ call }) => {
    const head = memberPath(call.callee)?.[0];
    return head === undefined || !NON_SINK_RECEIVERS.has(head);
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
  if (container.type === AST_NODE_TYPES.ArrayExpression) {
    const bulk = asArgument(container);
    return bulk !== undefined && bulk.index === 0 && calledMethod(bulk.call) === 'addBulk';
  }
  // FlowProducer.add({ name, queueName, data, opts }) and its children.
  return entry.properties.some((p) => p.type === AST_NODE_TYPES.Property && propertyKeyName(p, scope) === 'queueName');
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
