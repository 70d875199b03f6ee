import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';

import {
  contains,
  enclosingFunction,
  findVariable,
  importSource,
  memberName,
  memberPath,
  propertyKeyName,
  staticValue,
  unwrap,
  type AnyRuleContext,
} from './ast.js';
import { isIdempotencyHeaderName, isIdempotencyOptionName, mapCallReturning, type KeySink } from './idempotency-key.js';
import { enclosingConsumerHandler } from './handler.js';
import { getOutgoingRequest } from './request.js';
import { settingsOf } from './settings.js';

/**
 * Per-attempt values: a fresh UUID, randomness or the clock, minted anew every time the code
 * runs. A handler runs once per delivery, so such a value differs on every redelivery; as an
 * idempotency key (or inside a keyed request) it makes the second delivery look like a new
 * request. Deterministic derivations of the message (uuid v5 of an id, a hash of an id,
 * `new Date(job.timestamp)`) are not per-attempt.
 */

export type PerAttemptKind = 'uuid' | 'random' | 'time';

export interface PerAttemptValue {
  kind: PerAttemptKind;
  /** The minting call or `new` expression (`randomUUID()`, `new Date()`, a local `makeKey()`). */
  source: TSESTree.Node;
  /** How the source reads in code, for messages: `randomUUID()`, `new Date()`. */
  description: string;
}

/**
 * Functions that mint, by module and exported path. `default` and `*` imports are looked up
 * by the member path after them (`crypto.randomUUID`, `Ulid.ulid`, `uuid.v4`). The `node:`
 * prefix is stripped before the lookup.
 */
const MODULE_FUNCTIONS: Readonly<Record<string, Readonly<Record<string, PerAttemptKind>>>> = {
  crypto: {
    randomUUID: 'uuid',
    randomBytes: 'random',
    pseudoRandomBytes: 'random',
    randomInt: 'random',
    getRandomValues: 'random',
    'webcrypto.randomUUID': 'uuid',
    'webcrypto.getRandomValues': 'random',
  },
  // uuid 3 and older exported v4 as the module itself.
  uuid: { v1: 'uuid', v4: 'uuid', v6: 'uuid', v7: 'uuid', default: 'uuid' },
  'uuid/v1': { default: 'uuid' },
  'uuid/v4': { default: 'uuid' },
  uuidv4: { uuid: 'uuid', default: 'uuid' },
  '@lukeed/uuid': { default: 'uuid', v4: 'uuid' },
  'short-uuid': { generate: 'uuid', uuid: 'uuid' },
  'react-native-uuid': { v1: 'uuid', v4: 'uuid' },
  nanoid: { nanoid: 'random' },
  'nanoid/non-secure': { nanoid: 'random' },
  cuid: { default: 'random' },
  '@paralleldrive/cuid2': { createId: 'random' },
  ulid: { ulid: 'random' },
  ulidx: { ulid: 'random' },
  process: { hrtime: 'time', 'hrtime.bigint': 'time' },
  perf_hooks: { 'performance.now': 'time' },
};

/** Functions that return a minting function (`const nano = customAlphabet(...)`; `nano()` mints). */
const MODULE_FACTORIES: Readonly<Record<string, readonly string[]>> = {
  nanoid: ['customAlphabet', 'customRandom'],
  'nanoid/non-secure': ['customAlphabet'],
  '@paralleldrive/cuid2': ['init'],
  ulid: ['monotonicFactory'],
  ulidx: ['monotonicFactory'],
};

/** Globals that mint, by member path after any `globalThis.` / `window.` / `self.`. */
const GLOBAL_FUNCTIONS: Readonly<Record<string, PerAttemptKind>> = {
  'Date.now': 'time',
  'performance.now': 'time',
  'process.hrtime': 'time',
  'process.hrtime.bigint': 'time',
  'Math.random': 'random',
  'crypto.randomUUID': 'uuid',
  'crypto.getRandomValues': 'random',
};

/** Constructors that mint when called without arguments. */
const MODULE_CONSTRUCTORS: Readonly<Record<string, Readonly<Record<string, PerAttemptKind>>>> = {
  mongodb: { ObjectId: 'random' },
  bson: { ObjectId: 'random' },
  mongoose: { 'Types.ObjectId': 'random', 'mongo.ObjectId': 'random' },
};

const GLOBAL_OBJECTS = new Set(['globalThis', 'window', 'self', 'global']);

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

const MAX_DEPTH = 8;

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
class Walk {
  readonly functions = new Set<TSESTree.Node>();
  depth = 0;
}

function find(node: TSESTree.Node, context: AnyRuleContext, walk: Walk): PerAttemptValue | undefined {
  const target = unwrap(node);
  const source = sourceOf(target, context, walk);
  if (source) return source;
  switch (target.type) {
    case AST_NODE_TYPES.Identifier:
      return findThroughBinding(target, context, walk);
    case AST_NODE_TYPES.TemplateLiteral:
      return firstOf(target.expressions, context, walk);
    case AST_NODE_TYPES.BinaryExpression:
      if (!ARITHMETIC.has(target.operator)) return undefined;
      return find(target.left, context, walk) ?? find(target.right, context, walk);
    case AST_NODE_TYPES.LogicalExpression:
      // `given || mint()`: whenever the fallback runs, the value is minted per attempt.
      return target.operator === '&&' ? find(target.right, context, walk) : (find(target.left, context, walk) ?? find(target.right, context, walk));
    case AST_NODE_TYPES.ConditionalExpression:
      return find(target.consequent, context, walk) ?? find(target.alternate, context, walk);
    case AST_NODE_TYPES.SequenceExpression:
      return find(target.expressions.at(-1) ?? target, context, walk);
    case AST_NODE_TYPES.ObjectExpression:
      return firstOf(
        target.properties.map((property) => (property.type === AST_NODE_TYPES.Property ? property.value : property.argument)),
        context,
        walk,
      );
    case AST_NODE_TYPES.ArrayExpression:
      return firstOf(
        target.elements.flatMap((element) => (element === null ? [] : [element.type === AST_NODE_TYPES.SpreadElement ? element.argument : element])),
        context,
        walk,
      );
    case AST_NODE_TYPES.MemberExpression:
      return findThroughIndex(target, context, walk);
    case AST_NODE_TYPES.CallExpression:
      return findThroughCall(target, context, walk);
    case AST_NODE_TYPES.NewExpression:
      return findThroughNew(target, context, walk);
    default:
      return undefined;
  }
}

function firstOf(nodes: readonly TSESTree.Node[], context: AnyRuleContext, walk: Walk): PerAttemptValue | undefined {
  for (const node of nodes) {
    const found = find(node, context, walk);
    if (found) return found;
  }
  return undefined;
}

/** Follows `const x = mint()` inside a function, and a parameter default `key = mint()`. */
function findThroughBinding(identifier: TSESTree.Identifier, context: AnyRuleContext, walk: Walk): PerAttemptValue | undefined {
  if (walk.depth > MAX_DEPTH) return undefined;
  const variable = findVariable(context.sourceCode.getScope(identifier), identifier);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (!variable || !def) return undefined;
  let value: TSESTree.Node | undefined;
  if (def.type === DefinitionType.Variable) {
    const declarator = def.node;
    if (declarator.id.type !== AST_NODE_TYPES.Identifier || !declarator.init) return undefined;
    if (variable.references.filter((reference) => reference.isWrite()).length > 1) return undefined;
    // Minted once when the module loads and reused by every attempt.
    if (!enclosingFunction(declarator)) return undefined;
    value = declarator.init;
  } else if (def.type === DefinitionType.Parameter) {
    const parameter = def.name.parent;
    if (parameter.type !== AST_NODE_TYPES.AssignmentPattern || parameter.left !== def.name) return undefined;
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

/** `uuid().split('-')[0]`: indexing keeps a random value random; a date part of a clock is a bucket. */
function findThroughIndex(member: TSESTree.MemberExpression, context: AnyRuleContext, walk: Walk): PerAttemptValue | undefined {
  if (!member.computed || member.property.type !== AST_NODE_TYPES.Literal || typeof member.property.value !== 'number') return undefined;
  const found = find(member.object, context, walk);
  return found?.kind === 'time' ? undefined : found;
}

function findThroughCall(call: TSESTree.CallExpression, context: AnyRuleContext, walk: Walk): PerAttemptValue | undefined {
  const callee = unwrap(call.callee);
  const first = call.arguments[0];
  if (callee.type === AST_NODE_TYPES.Identifier) {
    if (first && PASS_THROUGH_FUNCTIONS.has(callee.name) && isGlobal(callee, context)) return find(first, context, walk);
    return undefined;
  }
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const path = globalPath(callee, context);
  if (path !== undefined && first) {
    if (PASS_THROUGH_MEMBERS.has(path)) return find(first, context, walk);
    if (ROUNDING.has(path)) return isTimeBucket(first, context, walk) ? undefined : find(first, context, walk);
  }
  const method = memberName(callee);
  if (method === undefined || !TRANSFORM_METHODS.has(method)) return undefined;
  const found = find(callee.object, context, walk);
  if (found?.kind === 'time' && isCoarseTimeSlice(method, call, context)) return undefined;
  return found;
}

/** `new Date(Date.now() + ttl)`; `new Date(job.timestamp)` is the message's own time. */
function findThroughNew(expression: TSESTree.NewExpression, context: AnyRuleContext, walk: Walk): PerAttemptValue | undefined {
  const callee = unwrap(expression.callee);
  const first = expression.arguments[0];
  if (!first || callee.type !== AST_NODE_TYPES.Identifier || !isGlobal(callee, context)) return undefined;
  if (callee.name === 'Date' || callee.name === 'URLSearchParams' || callee.name === 'String') return find(first, context, walk);
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
  if (kind === undefined) return undefined;
  return { kind, source: target, description: `${context.sourceCode.getText(target.callee)}()` };
}

function newSource(expression: TSESTree.NewExpression, context: AnyRuleContext): PerAttemptValue | undefined {
  if (expression.arguments.length > 0) return undefined;
  const callee = unwrap(expression.callee);
  const description = `new ${context.sourceCode.getText(expression.callee)}()`;
  if (callee.type === AST_NODE_TYPES.Identifier && callee.name === 'Date' && isGlobal(callee, context)) {
    return { kind: 'time', source: expression, description };
  }
  const named = importedPath(callee, context);
  const kind = named && MODULE_CONSTRUCTORS[named.module]?.[named.path];
  return kind ? { kind, source: expression, description } : undefined;
}

function mintingCallKind(call: TSESTree.CallExpression, context: AnyRuleContext, walk: Walk): PerAttemptKind | undefined {
  const callee = unwrap(call.callee);
  const global = globalPath(callee, context);
  if (global !== undefined) return GLOBAL_FUNCTIONS[global];
  const named = importedPath(callee, context);
  if (named) return MODULE_FUNCTIONS[named.module]?.[named.path] ?? (isListedPerAttempt(named, context) ? 'random' : undefined);
  if (callee.type === AST_NODE_TYPES.Identifier) return localCalleeKind(callee, context, walk);
  if (callee.type === AST_NODE_TYPES.MemberExpression && callee.object.type === AST_NODE_TYPES.ThisExpression) {
    return methodKind(callee, context, walk);
  }
  return undefined;
}

/** An imported function listed in `settings.idempotency.perAttemptFunctions` (computed across files by the CLI). */
function isListedPerAttempt(named: { module: string; path: string; specifier: string }, context: AnyRuleContext): boolean {
  const listed = settingsOf(context).perAttemptFunctions;
  return listed?.some((entry) => entry.from === named.specifier && entry.name === named.path) ?? false;
}

/** A local binding that mints: a factory result (`customAlphabet(...)`) or a helper function. */
function localCalleeKind(callee: TSESTree.Identifier, context: AnyRuleContext, walk: Walk): PerAttemptKind | undefined {
  const variable = findVariable(context.sourceCode.getScope(callee), callee);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (!variable || !def) return undefined;
  if (def.type === DefinitionType.FunctionName && def.node.type === AST_NODE_TYPES.FunctionDeclaration) return helperKind(def.node, context, walk);
  if (def.type !== DefinitionType.Variable || def.node.id.type !== AST_NODE_TYPES.Identifier || !def.node.init) return undefined;
  if (variable.references.filter((reference) => reference.isWrite()).length > 1) return undefined;
  const init = unwrap(def.node.init);
  if (init.type === AST_NODE_TYPES.ArrowFunctionExpression || init.type === AST_NODE_TYPES.FunctionExpression) return helperKind(init, context, walk);
  if (init.type === AST_NODE_TYPES.CallExpression) {
    const factory = importedPath(unwrap(init.callee), context);
    if (factory && MODULE_FACTORIES[factory.module]?.includes(factory.path)) return 'random';
  }
  return undefined;
}

/** `this.makeKey()` where the enclosing class defines `makeKey` as a method or an arrow field. */
function methodKind(callee: TSESTree.MemberExpression, context: AnyRuleContext, walk: Walk): PerAttemptKind | undefined {
  const name = memberName(callee);
  if (name === undefined) return undefined;
  for (let current: TSESTree.Node | undefined = callee.parent; current; current = current.parent) {
    if (current.type !== AST_NODE_TYPES.ClassBody) continue;
    for (const member of current.body) {
      if (member.type !== AST_NODE_TYPES.MethodDefinition && member.type !== AST_NODE_TYPES.PropertyDefinition) continue;
      if (member.computed || member.key.type !== AST_NODE_TYPES.Identifier || member.key.name !== name) continue;
      const value = member.value;
      if (value?.type === AST_NODE_TYPES.FunctionExpression || value?.type === AST_NODE_TYPES.ArrowFunctionExpression) {
        return helperKind(value, context, walk);
      }
    }
    return undefined;
  }
  return undefined;
}

/** A function is a per-attempt helper when one of its return values is per-attempt. */
function helperKind(fn: TSESTree.FunctionLike, context: AnyRuleContext, walk: Walk): PerAttemptKind | undefined {
  if (walk.functions.has(fn) || walk.depth > MAX_DEPTH || !fn.body) return undefined;
  walk.functions.add(fn);
  walk.depth++;
  try {
    if (fn.body.type !== AST_NODE_TYPES.BlockStatement) return find(fn.body, context, walk)?.kind;
    for (const returned of returnedValues(fn.body)) {
      const found = find(returned, context, walk);
      if (found) return found.kind;
    }
    return undefined;
  } finally {
    walk.depth--;
    walk.functions.delete(fn);
  }
}

/** The `return` arguments of a function body, not those of nested functions. */
function returnedValues(body: TSESTree.BlockStatement): TSESTree.Expression[] {
  const values: TSESTree.Expression[] = [];
  const visit = (node: TSESTree.Node): void => {
    if (node.type === AST_NODE_TYPES.ReturnStatement) {
      if (node.argument) values.push(node.argument);
      return;
    }
    if (
      node.type === AST_NODE_TYPES.FunctionDeclaration ||
      node.type === AST_NODE_TYPES.FunctionExpression ||
      node.type === AST_NODE_TYPES.ArrowFunctionExpression ||
      node.type === AST_NODE_TYPES.ClassBody
    ) {
      return;
    }
    for (const child of childStatements(node)) visit(child);
  };
  visit(body);
  return values;
}

/** The statements nested in a statement (blocks, branches, loops, try, switch, labels). */
function childStatements(node: TSESTree.Node): TSESTree.Node[] {
  switch (node.type) {
    case AST_NODE_TYPES.BlockStatement:
      return node.body;
    case AST_NODE_TYPES.IfStatement:
      return node.alternate ? [node.consequent, node.alternate] : [node.consequent];
    case AST_NODE_TYPES.TryStatement:
      return [node.block, ...(node.handler ? [node.handler.body] : []), ...(node.finalizer ? [node.finalizer] : [])];
    case AST_NODE_TYPES.ForStatement:
    case AST_NODE_TYPES.ForInStatement:
    case AST_NODE_TYPES.ForOfStatement:
    case AST_NODE_TYPES.WhileStatement:
    case AST_NODE_TYPES.DoWhileStatement:
    case AST_NODE_TYPES.LabeledStatement:
      return [node.body];
    case AST_NODE_TYPES.SwitchStatement:
      return node.cases.flatMap((switchCase) => switchCase.consequent);
    default:
      return [];
  }
}

/**
 * The dotted path of a callee on a global object (`Date.now`, `crypto.randomUUID`,
 * `globalThis.crypto.randomUUID` → `crypto.randomUUID`), or undefined when its head is a
 * local or imported binding.
 */
function globalPath(callee: TSESTree.Node, context: AnyRuleContext): string | undefined {
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const path = memberPath(callee);
  if (!path || path.length < 2) return undefined;
  const head = rootIdentifier(callee);
  if (!head || !isGlobal(head, context)) return undefined;
  const parts = GLOBAL_OBJECTS.has(head.name) ? path.slice(1) : path;
  return parts.join('.');
}

/**
 * The module and exported path a callee refers to through an import or `require`:
 * `randomUUID` from 'node:crypto' → crypto / randomUUID; `uuid.v4` with `import * as uuid` →
 * uuid / v4; `hrtime.bigint` with `import { hrtime } from 'process'` → process / hrtime.bigint.
 */
function importedPath(callee: TSESTree.Node, context: AnyRuleContext): { module: string; path: string; specifier: string } | undefined {
  const path = memberPath(callee);
  const head = rootIdentifier(callee);
  if (!path || !head) return undefined;
  const source = importSource(head, context.sourceCode.getScope(head));
  if (!source) return undefined;
  const rest = path.slice(1);
  const names = source.imported === '*' || (source.imported === 'default' && rest.length > 0) ? rest : [source.imported, ...rest];
  if (names.length === 0) return undefined;
  const module = source.module.startsWith('node:') ? source.module.slice('node:'.length) : source.module;
  return { module, path: names.join('.'), specifier: source.module };
}

function rootIdentifier(node: TSESTree.Node): TSESTree.Identifier | undefined {
  let current = unwrap(node);
  while (current.type === AST_NODE_TYPES.MemberExpression) current = unwrap(current.object);
  return current.type === AST_NODE_TYPES.Identifier ? current : undefined;
}

/** True when the identifier is not bound in the file (a global, or a lib declaration). */
function isGlobal(identifier: TSESTree.Identifier, context: AnyRuleContext): boolean {
  const variable = findVariable(context.sourceCode.getScope(identifier), identifier);
  return !variable || variable.defs.length === 0;
}

// ---------------------------------------------------------------------------------------------
// Where a per-attempt key or body value is sent

/** A call (or `new`) an object literal ends up in, with the property path from that argument down. */
interface Carrier {
  call: TSESTree.CallExpression | TSESTree.NewExpression;
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
const NON_SENDING_RECEIVERS = new Set(['console', 'logger', 'log', 'res', 'reply', 'response', 'ctx', 'assert', 'expect']);
/** Calls that pass their argument through to where the result goes. */
const WRAPPER_CALLS = new Set(['JSON.stringify', 'Buffer.from', 'String']);
const WRAPPER_CONSTRUCTORS = new Set(['Headers', 'URLSearchParams', 'Blob']);
/** Writes that store the value in a row, where later deliveries read it back. */
const ROW_WRITES = new Set(['insert', 'insertOne', 'insertMany', 'values', 'createMany', 'bulkCreate']);
const PRISMA_WRITES = new Set(['create', 'upsert', 'update', 'createMany', 'updateMany']);
const PRISMA_DATA = new Set(['data', 'create', 'update']);
/** Message fields whose content travels with the message (SQS, SNS, EventBridge). */
const MESSAGE_FIELDS = new Set(['MessageBody', 'Message', 'Detail']);
const PUBLISH_METHODS = new Set(['publish', 'publishMessage', 'sendToQueue']);
const HTTP_LIBRARIES = new Set(['axios', 'ky', 'got']);
/** Test files and folders: a fresh key per test run is what a test wants. */
const TEST_FILE = /\.(test|spec)\.[cm]?[jt]sx?$|\/(__tests__|__mocks__)\//;
const TEST_CALLS = new Set(['it', 'test', 'describe', 'beforeEach', 'beforeAll', 'afterEach', 'afterAll']);

/**
 * The per-attempt value written into an idempotency-key sink by the invocation that sends it,
 * or undefined when the key is stable or minted once and reused: kept in component or form
 * state (`useState`, `reactive`, a class field, a module-level `const`), returned by a builder,
 * stored in the message or row that later deliveries carry (BullMQ job data, an SQS body, an
 * insert), set on an object only when it has none yet, or written inside a test.
 */
export function perAttemptKeyAt(sink: KeySink, context: AnyRuleContext): PerAttemptValue | undefined {
  if (isInTest(sink.node, context)) return undefined;
  const value = findPerAttemptValue(sink.value, context);
  if (!value) return undefined;
  return isSentByThisInvocation(sink, context) ? value : undefined;
}

function isSentByThisInvocation(sink: KeySink, context: AnyRuleContext): boolean {
  const stores = sink.kind === 'header' || sink.kind === 'sdk-option';
  const node = sink.node;
  if (node.type === AST_NODE_TYPES.Property) {
    return carriersOf(node.value, context, 0).some((carrier) => isSend(carrier, stores, context));
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
  const root = rootIdentifier(target);
  if (!root) return false;
  const variable = findVariable(context.sourceCode.getScope(root), root);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  const owner = def && enclosingFunction(def.name);
  if (!variable || !def || !owner || !contains(owner, node)) return false;
  if (isGuardedByAbsence(node, target, context)) return false;
  if (def.type === DefinitionType.Parameter) return true;
  return variable.references.some(
    (reference) =>
      !contains(node, reference.identifier) &&
      carriersOf(reference.identifier, context, 1).some((carrier) => isSend(carrier, stores, context)),
  );
}

/** `if (!config.headers['Idempotency-Key']) config.headers['Idempotency-Key'] = mint()`: set once, kept by retries. */
function isGuardedByAbsence(node: TSESTree.Node, target: TSESTree.Node, context: AnyRuleContext): boolean {
  const text = normalize(context.sourceCode.getText(target));
  for (let current = node.parent; current && !isFunctionNode(current); current = current.parent) {
    if (current.type === AST_NODE_TYPES.IfStatement && normalize(context.sourceCode.getText(current.test)).includes(text)) return true;
  }
  return false;
}

function normalize(text: string): string {
  return text.replace(/\?\.(?=[[(])/g, '').replace(/\?\./g, '.').replace(/\s+/g, '');
}

function isFunctionNode(node: TSESTree.Node): boolean {
  return (
    node.type === AST_NODE_TYPES.FunctionDeclaration ||
    node.type === AST_NODE_TYPES.FunctionExpression ||
    node.type === AST_NODE_TYPES.ArrowFunctionExpression
  );
}

/** True in a test file or inside a test callback (`it`, `test`, `describe`, hooks), where every run is a new request on purpose. */
function isInTest(node: TSESTree.Node, context: AnyRuleContext): boolean {
  if (TEST_FILE.test(context.filename.replace(/\\/g, '/'))) return true;
  for (let current = node.parent; current; current = current.parent) {
    if (current.type !== AST_NODE_TYPES.CallExpression) continue;
    const head = rootIdentifier(current.callee);
    if (head && TEST_CALLS.has(head.name)) return true;
  }
  return false;
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
      case AST_NODE_TYPES.Property:
        if (parent.value !== current || parent.parent.type !== AST_NODE_TYPES.ObjectExpression) return [];
        via.unshift(propertyKeyName(parent) ?? '');
        current = parent.parent;
        continue;
      case AST_NODE_TYPES.CallExpression:
      case AST_NODE_TYPES.NewExpression: {
        if (parent.callee === current) return [];
        const path = memberPath(parent.callee)?.join('.');
        if (path !== undefined && (parent.type === AST_NODE_TYPES.CallExpression ? WRAPPER_CALLS : WRAPPER_CONSTRUCTORS).has(path)) {
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
        if (!mapped) return [];
        current = mapped;
        continue;
      }
      case AST_NODE_TYPES.VariableDeclarator: {
        if (parent.init !== current || parent.id.type !== AST_NODE_TYPES.Identifier || depth > 3) return [];
        const variable = findVariable(context.sourceCode.getScope(parent.id), parent.id);
        return (variable?.references ?? [])
          .filter((reference) => reference.init !== true && reference.isRead())
          .flatMap((reference) => carriersOf(reference.identifier, context, depth + 1).map((carrier) => ({ ...carrier, via: [...carrier.via, ...via] })));
      }
      default:
        return [];
    }
  }
}

/** A carrier that sends the value onward now, rather than keeping it as state or storing it with the message. */
function isSend(carrier: Carrier, includeStores: boolean, context: AnyRuleContext): boolean {
  const callee = unwrap(carrier.call.callee);
  const path = memberPath(callee, context.sourceCode.getScope(carrier.call));
  // `db.insert(t).values(...)` has no static path, but its method name still tells.
  const name = path?.at(-1) ?? (callee.type === AST_NODE_TYPES.MemberExpression ? memberName(callee) : undefined);
  if (path?.[0] !== undefined && (NON_SENDING_RECEIVERS.has(path[0]) || BUILT_IN_OBJECTS.has(path[0]))) return false;
  if (name !== undefined && STATE_HOLDERS.has(name)) return false;
  // axios.create({ headers }) / ky.extend(...): an instance's defaults, set once.
  if (path?.length === 2 && HTTP_LIBRARIES.has(path[0] ?? '') && (name === 'create' || name === 'extend')) return false;
  if (!includeStores || name === undefined) return true;
  return !isStore(carrier, name);
}

/** The value is written into the message or row that every later delivery carries. */
function isStore(carrier: Carrier, method: string): boolean {
  const [first] = carrier.via;
  if (method === 'add' && carrier.index === 1) return true; // BullMQ / Bull `queue.add(name, data)`
  if (PUBLISH_METHODS.has(method)) return true;
  if (ROW_WRITES.has(method)) return true;
  if (PRISMA_WRITES.has(method) && first !== undefined && PRISMA_DATA.has(first)) return true;
  if (carrier.via.some((name) => MESSAGE_FIELDS.has(name))) return true;
  return first === 'messages' && carrier.via.includes('value'); // kafkajs `send({ messages: [{ value }] })`
}

/** A per-attempt value inside the body of a request that carries an idempotency key. */
export interface PerAttemptBodyValue {
  value: PerAttemptValue;
  /** Where to point: the minting expression when it sits in the call, else the body. */
  node: TSESTree.Node;
  /** The key the request carries. */
  key: TSESTree.Node;
}

/**
 * A per-attempt value in the body or params of a keyed request: an HTTP request with an
 * `Idempotency-Key` header (or a key field in its body), or an SDK call passing `idempotencyKey`
 * (Stripe's options, or Square / Circle params). Quiet when the key itself is per-attempt
 * (`perAttemptKeyAt` reports that), when the request has no key, and when the call stores the
 * key with a message or row instead of sending it.
 */
export function perAttemptInKeyedBody(call: TSESTree.CallExpression, context: AnyRuleContext): PerAttemptBodyValue | undefined {
  if (isInTest(call, context)) return undefined;
  const request = getOutgoingRequest(call, context);
  if (request) {
    if (!request.body) return undefined;
    const header = request.headers.entries.find((entry) => isIdempotencyHeaderName(entry.name));
    const inBody = header ? undefined : keyFieldIn(request.body, context);
    const key = header?.value ?? inBody?.property.value;
    if (!key || findPerAttemptValue(key, context)) return undefined;
    return locate(call, findOutside(request.body, inBody?.property, context), request.body);
  }
  for (const [index, argument] of call.arguments.entries()) {
    const field = keyFieldIn(argument, context);
    if (!field) continue;
    if (!isSend({ call, index, via: field.via }, true, context) || findPerAttemptValue(field.property.value, context)) return undefined;
    for (const other of call.arguments) {
      const found = locate(call, findOutside(other, field.property, context), other);
      if (found) return { ...found, key: field.property.value };
    }
    return undefined;
  }
  return undefined;
}

function locate(call: TSESTree.CallExpression, value: PerAttemptValue | undefined, body: TSESTree.Node): PerAttemptBodyValue | undefined {
  if (!value) return undefined;
  const fn = enclosingFunction(call);
  const node = contains(fn ?? call, value.source) && !contains(value.source, call) ? value.source : body;
  return { value, node, key: body };
}

/** The key field of an object (through a `const` and `JSON.stringify`), at its top or one level down. */
function keyFieldIn(node: TSESTree.Node, context: AnyRuleContext): { property: TSESTree.Property; via: string[] } | undefined {
  const object = objectOf(node, context);
  if (!object) return undefined;
  for (const property of object.properties) {
    if (property.type !== AST_NODE_TYPES.Property) continue;
    const name = propertyKeyName(property);
    if (name !== undefined && (isIdempotencyOptionName(name) || isIdempotencyHeaderName(name))) return { property, via: [name] };
  }
  for (const property of object.properties) {
    if (property.type !== AST_NODE_TYPES.Property) continue;
    const name = propertyKeyName(property);
    const inner = name === 'headers' ? undefined : objectOf(property.value, context);
    for (const candidate of inner?.properties ?? []) {
      if (candidate.type !== AST_NODE_TYPES.Property) continue;
      const innerName = propertyKeyName(candidate);
      if (name !== undefined && innerName !== undefined && isIdempotencyOptionName(innerName)) return { property: candidate, via: [name, innerName] };
    }
  }
  return undefined;
}

/** The object literal an expression is, holds through a function-local `const`, or stringifies. */
function objectOf(node: TSESTree.Node, context: AnyRuleContext): TSESTree.ObjectExpression | undefined {
  let target = unwrap(node);
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    if (target.type === AST_NODE_TYPES.ObjectExpression) return target;
    if (target.type === AST_NODE_TYPES.CallExpression && memberPath(target.callee)?.join('.') === 'JSON.stringify' && target.arguments[0]) {
      target = unwrap(target.arguments[0]);
      continue;
    }
    if (target.type !== AST_NODE_TYPES.Identifier) return undefined;
    const variable = findVariable(context.sourceCode.getScope(target), target);
    const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
    if (def?.type !== DefinitionType.Variable || def.node.id.type !== AST_NODE_TYPES.Identifier || !def.node.init) return undefined;
    // A module-level object is built once, like a module-level key.
    if (!enclosingFunction(def.node)) return undefined;
    target = unwrap(def.node.init);
  }
  return undefined;
}

/** A per-attempt value anywhere in `node` except inside `skip` (the key itself) and `headers`. */
function findOutside(node: TSESTree.Node, skip: TSESTree.Property | undefined, context: AnyRuleContext): PerAttemptValue | undefined {
  const object = objectOf(node, context);
  if (!object) return findPerAttemptValue(node, context);
  for (const property of object.properties) {
    if (property === skip) continue;
    if (property.type === AST_NODE_TYPES.SpreadElement) {
      const found = findPerAttemptValue(property.argument, context);
      if (found) return found;
      continue;
    }
    if (propertyKeyName(property) === 'headers') continue;
    const inner = objectOf(property.value, context);
    const found = inner ? findOutside(inner, skip, context) : findPerAttemptValue(property.value, context);
    if (found) return found;
  }
  return undefined;
}

/** Parameters whose `.id` names the delivery, when no broker registration says more. */
const MESSAGE_PARAMETER_NAMES = new Set(['job', 'message', 'msg']);

/**
 * An expression for the id of the message being handled around `node`, stable across
 * redeliveries: `job.id` (BullMQ, Bull, Pub/Sub), `message.MessageId` (sqs-consumer), or
 * `<param>.id` for a parameter named job, message or msg (not `event`: a DOM event has no id). Undefined when none is in scope.
 */
export function messageIdInScope(node: TSESTree.Node, context: AnyRuleContext): string | undefined {
  const handler = enclosingConsumerHandler(node, context);
  const param = handler?.messageParam;
  if (handler && param?.type === AST_NODE_TYPES.Identifier) {
    switch (handler.broker) {
      case 'bullmq':
      case 'bull':
      case 'pubsub':
        return `${param.name}.id`;
      case 'sqs-consumer':
        return `${param.name}.MessageId`;
      default:
        break;
    }
  }
  for (let fn = enclosingFunction(node); fn; fn = enclosingFunction(fn)) {
    for (const parameter of fn.params) {
      if (parameter.type === AST_NODE_TYPES.Identifier && MESSAGE_PARAMETER_NAMES.has(parameter.name)) return `${parameter.name}.id`;
    }
  }
  return undefined;
}
