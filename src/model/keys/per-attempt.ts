import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';

import { enclosingFunction, unwrap } from '../ast/nodes.js';
import { findProperty, findVariable, methodCallsOn, staticValue } from '../ast/values.js';
import { iteratedContainer } from '../ast/iteration.js';
import { memberName, memberPath } from '../ast/names.js';
import { type AnyRuleContext } from '../ast/context.js';
import { newSource, mintingCallKind, globalPath, isGlobal } from './minting.js';
import { callSitesOf } from './call-sites.js';
import { isFunction, resolveFunction, returnedValues } from '../ast/function.js';
import { libraryClockIn } from './clock-libraries.js';
import { RecursiveMemo, fileMemo } from '../ast/memo.js';
import { isAttemptNumber } from '../attempts/attempt-number.js';
import { isReusedByRetries } from '../attempts/retry-scope.js';
import { isRerunByRedelivery } from '../attempts/redelivery.js';

/**
 * Per-attempt values: a fresh UUID, randomness or the clock, minted anew every time the code
 * runs. A handler runs once per delivery, so such a value differs on every redelivery; as an
 * idempotency key (or inside a keyed request) it makes the second delivery look like a new
 * request. Deterministic derivations of the message (uuid v5 of an id, a hash of an id,
 * `new Date(job.timestamp)`) are not per-attempt.
 */

/**
 * `attempt`: the number of the attempt itself (a delivery's count, a retry loop's counter);
 * `created`: a field of an object the attempt creates through an unkeyed write (its new id).
 */
export type PerAttemptKind = 'uuid' | 'random' | 'time' | 'attempt' | 'created';

export interface PerAttemptValue {
  kind: PerAttemptKind;
  /** The minting call or `new` expression (`randomUUID()`, `new Date()`, a local `makeKey()`). */
  source: TSESTree.Node;
  /** How the source reads in code, for messages: `randomUUID()`, `new Date()`. */
  description: string;
}

/** Methods whose result still differs per attempt when their receiver does. */
const TRANSFORM_METHODS = new Set([
  'toString',
  'toISOString',
  'toJSON',
  'getTime',
  'valueOf',
  'toUTCString',
  'toLocaleString',
  'toLocaleTimeString',
  'toTimeString',
  'getSeconds',
  'getMilliseconds',
  'getUTCSeconds',
  'getUTCMilliseconds',
  'replace',
  'replaceAll',
  'toUpperCase',
  'toLowerCase',
  'padStart',
  'padEnd',
  'trim',
  'toFixed',
  'toPrecision',
  'concat',
  'slice',
  'substring',
  'substr',
  'split',
  // `[tenant, item, timestamp].join(':')`: a key joined from parts is per attempt when a part is.
  'join',
]);

/** Global functions that pass their first argument's per-attempt nature through. */
const PASS_THROUGH_FUNCTIONS = new Set(['String', 'Number', 'BigInt', 'encodeURIComponent', 'encodeURI', 'btoa']);
const PASS_THROUGH_MEMBERS = new Set(['JSON.stringify', 'Buffer.from', 'Math.abs']);
const ROUNDING = new Set(['Math.floor', 'Math.round', 'Math.ceil', 'Math.trunc']);

/** Operators under which one per-attempt operand makes the result per-attempt. */
const ARITHMETIC = new Set(['+', '-', '*', '/', '%', '**', '|', '^', '&', '<<', '>>', '>>>']);

/** A bucket of at least a minute (in ms) is a deliberate time window, not a per-attempt value. */
const MINUTE_MS = 60_000;
/** `toISOString().slice(0, 16)` keeps the minute; anything shorter is coarser. */
const ISO_MINUTE_LENGTH = 16;

export const MAX_DEPTH = 8;

const { DefinitionType } = TSESLint.Scope;

/**
 * The minting expression itself, when `node` is one: a call to a UUID / random / clock
 * function (also through imports, aliases, `globalThis.crypto`, factories such as nanoid's
 * `customAlphabet`), `new Date()` without arguments, `new ObjectId()`, a call to a small
 * local helper whose return value is per-attempt, or a call to an imported function listed
 * in `settings.idempotency.perAttemptFunctions`.
 */
export function isPerAttemptSource(node: TSESTree.Node, context: AnyRuleContext): PerAttemptValue | undefined {
  return sourceOf(unwrap(node), context, new Walk());
}

/**
 * The per-attempt value `node` evaluates to or is built from, following `const` bindings
 * declared in a function (a module-level `const` is minted once per process and reused),
 * parameter defaults, template literals, concatenation and arithmetic, `a || mint()` fallbacks,
 * string and date methods (`.toISOString()`, `.toString('hex')`), `String(x)`,
 * `JSON.stringify(x)`, object and array literals, and local helpers that return one.
 * Deliberate time buckets (`Math.floor(Date.now() / 3_600_000)`, `toISOString().slice(0, 10)`)
 * are not per-attempt.
 */
export function findPerAttemptValue(node: TSESTree.Node, context: AnyRuleContext): PerAttemptValue | undefined {
  return find(node, context, new Walk());
}

/** Guards against cycles and deep chains while following bindings and helpers. */
export class Walk {
  readonly functions = new Set<TSESTree.Node>();
  depth = 0;
  /** Count deliberate windows of the clock (a date, an hour bucket) too: they still change across windows. */
  windows = false;
  /** Parameters of a local helper being read for one call, with the arguments that call passes. */
  readonly bound = new Map<TSESTree.Node, TSESTree.Node>();
  /** How many times the walk met a helper it already had open (a cycle), whose answer it then left out. */
  cuts = 0;
}

/** Date parts that keep a window of the clock (the day, the month): per attempt across windows only. */
const WINDOW_METHODS = new Set([
  'getFullYear',
  'getMonth',
  'getDate',
  'getDay',
  'getHours',
  'getMinutes',
  'getUTCFullYear',
  'getUTCMonth',
  'getUTCDate',
  'getUTCDay',
  'getUTCHours',
  'getUTCMinutes',
  'toDateString',
  'toLocaleDateString',
]);

/**
 * The clock in `node`, deliberate windows included (`toISOString().slice(0, 10)`, `d.getDate()`,
 * `Math.floor(Date.now() / 86_400_000)`): a value that a retry in a later window sends differently.
 */
export function findClockWindow(node: TSESTree.Node, context: AnyRuleContext): PerAttemptValue | undefined {
  const walk = new Walk();
  walk.windows = true;
  const found = find(node, context, walk);
  return found?.kind === 'time' ? found : undefined;
}

export function find(node: TSESTree.Node, context: AnyRuleContext, walk: Walk): PerAttemptValue | undefined {
  const target = unwrap(node);
  const source = sourceOf(target, context, walk);
  if (source) return source;
  switch (target.type) {
    case AST_NODE_TYPES.Identifier:
      if (isAttemptNumber(target, context)) return attemptValue(target, context);
      return findThroughBinding(target, context, walk);
    case AST_NODE_TYPES.TemplateLiteral:
      return ofParts(target.expressions, context, walk);
    case AST_NODE_TYPES.BinaryExpression:
      if (!ARITHMETIC.has(target.operator)) return undefined;
      return ofParts([target.left, target.right], context, walk);
    case AST_NODE_TYPES.LogicalExpression:
      // `given || mint()`: whenever the fallback runs, the value is minted per attempt; but a
      // fallback behind a key joined from several parts runs only when every part is empty.
      if (target.operator === '&&') return find(target.right, context, walk);
      if (isJoinedFromParts(target.left, context, walk)) return find(target.left, context, walk);
      return find(target.left, context, walk) ?? find(target.right, context, walk);
    case AST_NODE_TYPES.ConditionalExpression:
      return find(target.consequent, context, walk) ?? find(target.alternate, context, walk);
    case AST_NODE_TYPES.SequenceExpression:
      return find(target.expressions.at(-1) ?? target, context, walk);
    case AST_NODE_TYPES.ObjectExpression:
      return firstOf(
        target.properties.map((property) =>
          property.type === AST_NODE_TYPES.Property ? property.value : property.argument,
        ),
        context,
        walk,
      );
    case AST_NODE_TYPES.ArrayExpression:
      return firstOf(
        target.elements.flatMap((element) =>
          element === null ? [] : [element.type === AST_NODE_TYPES.SpreadElement ? element.argument : element],
        ),
        context,
        walk,
      );
    case AST_NODE_TYPES.MemberExpression:
      if (isAttemptNumber(target, context)) return attemptValue(target, context);
      return findThroughIndex(target, context, walk) ?? findThroughProperty(target, context, walk);
    case AST_NODE_TYPES.CallExpression:
      return findThroughCall(target, context, walk);
    case AST_NODE_TYPES.NewExpression:
      return findThroughNew(target, context, walk);
    default:
      return undefined;
  }
}

/**
 * `[a, b, c].filter(Boolean).join(':')`, `` `${a}:${b}` ``, or a `const` holding one (or a
 * `given || joined` of one): a key built from several parts, empty only when all of them are,
 * a case the fallback after it exists for and the callers do not reach.
 */
function isJoinedFromParts(node: TSESTree.Node, context: AnyRuleContext, walk: Walk, depth = 0): boolean {
  const target = unwrap(node);
  if (depth > 3) return false;
  if (target.type === AST_NODE_TYPES.TemplateLiteral)
    return target.expressions.length > 0 && target.quasis.some((quasi) => quasi.value.cooked !== '');
  if (target.type === AST_NODE_TYPES.LogicalExpression && target.operator !== '&&')
    return isJoinedFromParts(target.right, context, walk, depth + 1);
  if (target.type === AST_NODE_TYPES.Identifier) {
    const variable = findVariable(context.sourceCode.getScope(target), target);
    const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
    if (def?.type !== DefinitionType.Variable || !def.node.init) return false;
    if (variable && variable.references.filter((reference) => reference.isWrite()).length > 1) return false;
    return isJoinedFromParts(def.node.init, context, walk, depth + 1);
  }
  if (target.type !== AST_NODE_TYPES.CallExpression) return false;
  const callee = unwrap(target.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression || memberName(callee) !== 'join') return false;
  let array = unwrap(callee.object);
  // `.filter(...)` / `.map(...)` between the parts and the join keep it a join of those parts.
  while (
    array.type === AST_NODE_TYPES.CallExpression &&
    array.callee.type === AST_NODE_TYPES.MemberExpression &&
    (memberName(array.callee) === 'filter' || memberName(array.callee) === 'map')
  )
    array = unwrap(array.callee.object);
  return array.type === AST_NODE_TYPES.ArrayExpression && array.elements.length >= 2;
}

/**
 * The per-attempt value of a key joined from parts: the attempt number when a part is one (`${key}-${attempt}`
 * is new on every attempt whatever the other parts are), else the first part's.
 */
function ofParts(parts: readonly TSESTree.Node[], context: AnyRuleContext, walk: Walk): PerAttemptValue | undefined {
  for (const part of parts) {
    const attempt = attemptIn(part, context);
    if (attempt) return attemptValue(attempt, context);
  }
  return firstOf(parts, context, walk);
}

/** The attempt number in a part, through arithmetic on it (`attempt + 1`). */
function attemptIn(node: TSESTree.Node, context: AnyRuleContext): TSESTree.Node | undefined {
  const target = unwrap(node);
  if (isAttemptNumber(target, context)) return target;
  if (target.type !== AST_NODE_TYPES.BinaryExpression || !ARITHMETIC.has(target.operator)) return undefined;
  return attemptIn(target.left, context) ?? attemptIn(target.right, context);
}

function firstOf(nodes: readonly TSESTree.Node[], context: AnyRuleContext, walk: Walk): PerAttemptValue | undefined {
  for (const node of nodes) {
    const found = find(node, context, walk);
    if (found) return found;
  }
  return undefined;
}

/** Follows `const x = mint()` inside a function, and a parameter default `key = mint()`. */
function findThroughBinding(
  identifier: TSESTree.Identifier,
  context: AnyRuleContext,
  walk: Walk,
): PerAttemptValue | undefined {
  if (walk.depth > MAX_DEPTH) return undefined;
  const variable = findVariable(context.sourceCode.getScope(identifier), identifier);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (!variable || !def) return undefined;
  let value: TSESTree.Node | undefined;
  if (def.type === DefinitionType.Variable) {
    const declarator = def.node;
    const writes = variable.references.filter((reference) => reference.isWrite());
    // `const { tenantId, timestamp = Date.now() } = params`: where the object has no such
    // property (a caller that leaves it out), the default is the value, made on each call (the
    // scope records the default and the destructuring as two writes of the one binding).
    const defaulted =
      declarator.id.type === AST_NODE_TYPES.ObjectPattern &&
      def.name.parent.type === AST_NODE_TYPES.AssignmentPattern &&
      def.name.parent.left === def.name &&
      writes.every((write) => write.identifier === def.name)
        ? def.name.parent.right
        : undefined;
    if (writes.length !== 1 && !defaulted) return undefined;
    if (declarator.id.type !== AST_NODE_TYPES.Identifier && !defaulted) return undefined;
    // `let pdf; try { pdf = await render(); } catch { ... }`: the one assignment is its value.
    const assigned = defaulted ?? declarator.init ?? assignedValue(writes[0]?.identifier);
    if (!assigned) return undefined;
    // Minted once when the module loads and reused by every attempt.
    const owner = enclosingFunction(declarator);
    if (!owner) return undefined;
    // Minted before a retry wrapper runs its callback: every retry sends the same key, but a
    // redelivery of the message runs the minting function again.
    if (isReusedByRetries(identifier, declarator, owner, context) && !isRerunByRedelivery(owner, context))
      return undefined;
    value = assigned;
  } else if (def.type === DefinitionType.Parameter) {
    const bound = walk.bound.get(def.name);
    if (bound) {
      // A recursive call hands the parameter to itself (`f(x)` inside `f(x)`): followed once.
      walk.bound.delete(def.name);
      try {
        return find(bound, context, walk);
      } finally {
        walk.bound.set(def.name, bound);
      }
    }
    const parameter = def.name.parent;
    if (parameter.type !== AST_NODE_TYPES.AssignmentPattern || parameter.left !== def.name)
      return def.name.type === AST_NODE_TYPES.Identifier ? findThroughArguments(def.name, context, walk) : undefined;
    // A default made once per call, before a retry inside the function that re-sends it
    // (`async (id, settlementId = uuid()) => { await retryRequest(() => post(settlementId)) }`).
    const owner = parameter.parent;
    if (
      isFunction(owner) &&
      isReusedByRetries(identifier, parameter, owner, context) &&
      !isRerunByRedelivery(owner, context)
    )
      return undefined;
    value = parameter.right;
  } else {
    return undefined;
  }
  walk.depth++;
  try {
    return find(value, context, walk);
  } finally {
    walk.depth--;
  }
}

/** The right side of `x = value` for the identifier `x` it assigns. */
function assignedValue(identifier: TSESTree.Node | undefined): TSESTree.Node | undefined {
  const parent = identifier?.parent;
  return parent?.type === AST_NODE_TYPES.AssignmentExpression && parent.operator === '=' && parent.left === identifier
    ? parent.right
    : undefined;
}

/** The attempt number as a per-attempt value, named as the code writes it. */
function attemptValue(node: TSESTree.Node, context: AnyRuleContext): PerAttemptValue {
  return { kind: 'attempt', source: node, description: context.sourceCode.getText(node) };
}

/**
 * `openSession(data, idempotencyKey)` called as `openSession(data, v4())` in this file: the
 * parameter holds what the callers pass. Per attempt when a caller passes a per-attempt value.
 * Each parameter is answered once per file (and per reading of the clock): a key handed down a
 * chain of n functions, each called from several places, costs n steps, not a tree of paths, and
 * the chain is followed to its end rather than to a fixed depth.
 */
function findThroughArguments(
  name: TSESTree.Identifier,
  context: AnyRuleContext,
  walk: Walk,
): PerAttemptValue | undefined {
  const fn = name.parent;
  if (!isFunction(fn)) return undefined;
  if (walk.functions.has(fn)) {
    walk.cuts++;
    return undefined;
  }
  const index = fn.params.indexOf(name);
  if (index < 0) return undefined;
  const sites = callSitesOf(fn, context);
  if (!sites) return undefined;
  // A helper read with its parameters bound to one call's arguments answers for that call only.
  if (walk.bound.size > 0) return fromCallers(fn, index, sites.calls, context, walk);
  const memo = fileMemo(
    context,
    walk.windows ? 'per-attempt/parameters/windows' : 'per-attempt/parameters',
    () =>
      new RecursiveMemo<TSESTree.Identifier, PerAttemptValue | undefined>(undefined, (found) => found !== undefined),
  );
  return memo.get(name, () => {
    const fresh = new Walk();
    fresh.windows = walk.windows;
    return fromCallers(fn, index, sites.calls, context, fresh);
  });
}

/** The first per-attempt value a call of `fn` passes in parameter `index`. */
function fromCallers(
  fn: TSESTree.FunctionLike,
  index: number,
  calls: readonly TSESTree.CallExpression[],
  context: AnyRuleContext,
  walk: Walk,
): PerAttemptValue | undefined {
  walk.functions.add(fn);
  walk.depth++;
  try {
    for (const call of calls) {
      const argument = call.arguments[index];
      if (!argument || argument.type === AST_NODE_TYPES.SpreadElement) continue;
      const found = find(argument, context, walk);
      if (found) return found;
    }
    return undefined;
  } finally {
    walk.depth--;
    walk.functions.delete(fn);
  }
}

/**
 * A function out of sight that turns its input into a key or a digest
 * (`createTriggerIdempotencyKey(\`export-${Date.now()}\`)`, trigger.dev's `idempotencyKeys.create(x)`,
 * `sha256(x)`): the same input gives the same key, so a per-attempt input gives a per-attempt key.
 */
const KEY_DERIVATION = /(?:key|hash|digest|sha\d*|md5|uuidv5|v5)$/i;

function isKeyDerivation(call: TSESTree.CallExpression, context: AnyRuleContext): boolean {
  if (call.arguments.length === 0) return false;
  const callee = unwrap(call.callee);
  const path = memberPath(callee);
  const name = path?.at(-1);
  if (name === undefined) return false;
  const derives = KEY_DERIVATION.test(name) || (path?.at(-2) === 'idempotencyKeys' && name === 'create');
  if (!derives) return false;
  // A helper defined here is read for what it returns instead.
  return !(callee.type === AST_NODE_TYPES.Identifier && resolveFunction(callee, context.sourceCode.getScope(callee)));
}

/**
 * `event.timestamp`, where `event` holds an object literal made here (`const event = { timestamp:
 * Date.now() }`) or is an element of a local array such objects go into (`events.push({ ... })`,
 * `[{ ... }]`), read in an iteration callback (`events.map((event) => …)`) or a `for…of` over it:
 * the named property's own value, not the object's other fields.
 */
function findThroughProperty(
  member: TSESTree.MemberExpression,
  context: AnyRuleContext,
  walk: Walk,
): PerAttemptValue | undefined {
  if (walk.depth > MAX_DEPTH) return undefined;
  const scope = context.sourceCode.getScope(member);
  const name = memberName(member, scope);
  if (name === undefined) return undefined;
  walk.depth++;
  try {
    for (const object of objectLiteralsOf(boundArgument(member.object, context, walk) ?? member.object, context)) {
      const property = findProperty(object, (key) => key === name, context.sourceCode.getScope(object));
      if (property === undefined || property === 'unknown') continue;
      const found = find(property.value, context, walk);
      if (found) return found;
    }
    return undefined;
  } finally {
    walk.depth--;
  }
}

/**
 * The argument a helper being read for one call was given for the parameter `node` names
 * (`render({ builtAt: new Date() })` read into `(props) => \`…${props.builtAt}\``).
 */
function boundArgument(node: TSESTree.Node, context: AnyRuleContext, walk: Walk): TSESTree.Node | undefined {
  const target = unwrap(node);
  if (target.type !== AST_NODE_TYPES.Identifier || walk.bound.size === 0) return undefined;
  const variable = findVariable(context.sourceCode.getScope(target), target);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  return def?.type === DefinitionType.Parameter ? walk.bound.get(def.name) : undefined;
}

/**
 * The object literals `node` may hold: a `const` initialised with one inside a function, or the
 * elements of a local array when `node` is an iteration callback's element or a `for…of`
 * variable. A value made before a retry and read inside it is reused by every retry (as for
 * `const` bindings in `findThroughBinding`): none then.
 */
function objectLiteralsOf(node: TSESTree.Node, context: AnyRuleContext, depth = 0): TSESTree.ObjectExpression[] {
  const target = unwrap(node);
  if (target.type === AST_NODE_TYPES.ObjectExpression) return [target];
  if (target.type !== AST_NODE_TYPES.Identifier || depth > 2) return [];
  const variable = findVariable(context.sourceCode.getScope(target), target);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (!variable || !def || variable.references.filter((reference) => reference.isWrite()).length > 1) return [];
  const container = iteratedContainer(def);
  if (container) return elementLiteralsOf(container, context, depth);
  if (def.type !== DefinitionType.Variable) return [];
  const init = def.node.init;
  if (!init || !isFreshHere(target, def.node, context)) return [];
  const value = unwrap(init);
  return value.type === AST_NODE_TYPES.ObjectExpression ? [value] : [];
}

/** The object literals a local array is built from: its literal's elements and what is pushed into it. */
function elementLiteralsOf(node: TSESTree.Node, context: AnyRuleContext, depth: number): TSESTree.ObjectExpression[] {
  const target = unwrap(node);
  const values: TSESTree.Node[] = [];
  const literal = (array: TSESTree.Node): void => {
    if (array.type !== AST_NODE_TYPES.ArrayExpression) return;
    for (const element of array.elements)
      if (element && element.type !== AST_NODE_TYPES.SpreadElement) values.push(element);
  };
  literal(target);
  if (target.type !== AST_NODE_TYPES.Identifier)
    return values.flatMap((value) => objectLiteralsOf(value, context, depth + 1));
  const variable = findVariable(context.sourceCode.getScope(target), target);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (!variable || def?.type !== DefinitionType.Variable || !def.node.init || !isFreshHere(target, def.node, context))
    return [];
  literal(unwrap(def.node.init));
  for (const { call, method } of methodCallsOn(target, context))
    if (method === 'push' || method === 'unshift')
      for (const argument of call.arguments) if (argument.type !== AST_NODE_TYPES.SpreadElement) values.push(argument);
  // `events.push(event)` with `const event = { ... }`: the literal the pushed binding holds.
  return values.flatMap((value) => objectLiteralsOf(value, context, depth + 1));
}

/**
 * A binding made inside a function and read at `reference`, not made once before a retry that
 * re-reads it (unless a redelivery runs the function that makes it again).
 */
function isFreshHere(reference: TSESTree.Node, declarator: TSESTree.Node, context: AnyRuleContext): boolean {
  const owner = enclosingFunction(declarator);
  if (!owner) return false;
  return !(isReusedByRetries(reference, declarator, owner, context) && !isRerunByRedelivery(owner, context));
}

/** `uuid().split('-')[0]`: indexing keeps a random value random; a date part of a clock is a bucket. */
function findThroughIndex(
  member: TSESTree.MemberExpression,
  context: AnyRuleContext,
  walk: Walk,
): PerAttemptValue | undefined {
  if (!member.computed || member.property.type !== AST_NODE_TYPES.Literal || typeof member.property.value !== 'number')
    return undefined;
  const found = find(member.object, context, walk);
  return found?.kind === 'time' && !walk.windows ? undefined : found;
}

function findThroughCall(
  call: TSESTree.CallExpression,
  context: AnyRuleContext,
  walk: Walk,
): PerAttemptValue | undefined {
  const callee = unwrap(call.callee);
  const first = call.arguments[0];
  if (isKeyDerivation(call, context)) return firstOf(call.arguments, context, walk);
  if (callee.type === AST_NODE_TYPES.Identifier) {
    if (first && PASS_THROUGH_FUNCTIONS.has(callee.name) && isGlobal(callee, context))
      return find(first, context, walk);
    return throughLocalHelper(call, callee, context, walk);
  }
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const path = globalPath(callee, context);
  if (path !== undefined && first) {
    if (PASS_THROUGH_MEMBERS.has(path)) return find(first, context, walk);
    if (ROUNDING.has(path))
      return !walk.windows && isTimeBucket(first, context, walk) ? undefined : find(first, context, walk);
  }
  const method = memberName(callee);
  if (method === undefined || !(TRANSFORM_METHODS.has(method) || (walk.windows && WINDOW_METHODS.has(method))))
    return undefined;
  const replaced = (method === 'replace' || method === 'replaceAll') && findInReplacement(call, context, walk);
  if (replaced) return replaced;
  const found = find(callee.object, context, walk);
  if (found?.kind === 'time' && !walk.windows && isCoarseTimeSlice(method, call, context)) return undefined;
  return found;
}

/**
 * `'xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx'.replace(/[xy]/g, (c) => ((Math.random() * 16) | 0).toString(16))`,
 * the hand-written UUID v4: what the replacement puts in is per attempt, so the result is.
 */
function findInReplacement(
  call: TSESTree.CallExpression,
  context: AnyRuleContext,
  walk: Walk,
): PerAttemptValue | undefined {
  const replacement = call.arguments[1];
  if (!replacement || replacement.type === AST_NODE_TYPES.SpreadElement) return undefined;
  const callback = unwrap(replacement);
  if (!isFunction(callback)) return find(replacement, context, walk);
  const body = callback.body;
  if (walk.functions.has(callback)) walk.cuts++;
  if (!body || walk.functions.has(callback) || walk.depth > MAX_DEPTH) return undefined;
  walk.functions.add(callback);
  walk.depth++;
  try {
    const returned = body.type === AST_NODE_TYPES.BlockStatement ? returnedValues(body) : [body];
    return firstOf(returned, context, walk);
  } finally {
    walk.depth--;
    walk.functions.delete(callback);
  }
}

/**
 * `fmtDate(today)` with `const fmtDate = (d) => \`${d.getFullYear()}-…\`` here: the helper's
 * result read with its parameters bound to this call's arguments.
 */
function throughLocalHelper(
  call: TSESTree.CallExpression,
  callee: TSESTree.Identifier,
  context: AnyRuleContext,
  walk: Walk,
): PerAttemptValue | undefined {
  const fn = resolveFunction(callee, context.sourceCode.getScope(callee));
  if (fn && walk.functions.has(fn)) walk.cuts++;
  if (!fn?.body || walk.functions.has(fn) || walk.depth > MAX_DEPTH || call.arguments.length === 0) return undefined;
  const bound = fn.params.flatMap((parameter, index) => {
    const argument = call.arguments[index];
    return parameter.type === AST_NODE_TYPES.Identifier && argument && argument.type !== AST_NODE_TYPES.SpreadElement
      ? [[parameter, argument] as const]
      : [];
  });
  if (bound.length === 0) return undefined;
  for (const [parameter, argument] of bound) walk.bound.set(parameter, argument);
  walk.functions.add(fn);
  walk.depth++;
  try {
    const returned = fn.body.type === AST_NODE_TYPES.BlockStatement ? returnedValues(fn.body) : [fn.body];
    return firstOf(returned, context, walk);
  } finally {
    walk.depth--;
    walk.functions.delete(fn);
    for (const [parameter] of bound) walk.bound.delete(parameter);
  }
}

/** `new Date(Date.now() + ttl)`; `new Date(job.timestamp)` is the message's own time. */
function findThroughNew(
  expression: TSESTree.NewExpression,
  context: AnyRuleContext,
  walk: Walk,
): PerAttemptValue | undefined {
  const callee = unwrap(expression.callee);
  const first = expression.arguments[0];
  if (!first || callee.type !== AST_NODE_TYPES.Identifier || !isGlobal(callee, context)) return undefined;
  if (callee.name === 'Date' || callee.name === 'URLSearchParams' || callee.name === 'String')
    return find(first, context, walk);
  return undefined;
}

/** `Math.floor(Date.now() / 3_600_000)`: a window of a minute or more, chosen on purpose. */
function isTimeBucket(argument: TSESTree.Node, context: AnyRuleContext, walk: Walk): boolean {
  const target = unwrap(argument);
  if (target.type !== AST_NODE_TYPES.BinaryExpression || target.operator !== '/') return false;
  if (find(target.left, context, walk)?.kind !== 'time') return false;
  const divisor = staticValue(target.right, context.sourceCode.getScope(target));
  // An unknown divisor is most likely a window size; seconds (1000) are still per attempt.
  return divisor === undefined || typeof divisor.value !== 'number' || divisor.value >= MINUTE_MS;
}

/** `toISOString().slice(0, 10)` / `.split('T')`: the date or the hour, a deliberate window. */
function isCoarseTimeSlice(method: string, call: TSESTree.CallExpression, context: AnyRuleContext): boolean {
  if (method === 'split') return true;
  if (method !== 'slice' && method !== 'substring' && method !== 'substr') return false;
  const scope = context.sourceCode.getScope(call);
  const start = call.arguments[0] ? staticValue(call.arguments[0], scope)?.value : undefined;
  const end = call.arguments[1] ? staticValue(call.arguments[1], scope)?.value : undefined;
  return start === 0 && typeof end === 'number' && end <= ISO_MINUTE_LENGTH;
}

function sourceOf(target: TSESTree.Node, context: AnyRuleContext, walk: Walk): PerAttemptValue | undefined {
  if (target.type === AST_NODE_TYPES.NewExpression) return newSource(target, context);
  if (target.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const kind = mintingCallKind(target, context, walk);
  if (kind === undefined) {
    const clock = libraryClockIn(target, context);
    return clock === undefined ? undefined : { kind: 'time', source: target, description: clock };
  }
  return { kind, source: target, description: `${context.sourceCode.getText(target.callee)}()` };
}
