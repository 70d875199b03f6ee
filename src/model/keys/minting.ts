import { AST_NODE_TYPES, type TSESTree, TSESLint } from '@typescript-eslint/utils';
import { unwrap } from '../ast/nodes.js';
import { findVariable } from '../ast/values.js';
import { memberName, memberPath } from '../ast/names.js';
import { importSource } from '../modules.js';
import { fileMemo } from '../ast/memo.js';
import { REPLAY_STABLE_FUNCTIONS, TEMPORAL_WORKFLOW_MODULE } from '../libraries/temporal.js';
import { type AnyRuleContext } from '../ast/context.js';
import { summaryAt, hasSummaryFact } from '../settings.js';
import { type PerAttemptKind, type PerAttemptValue, Walk, MAX_DEPTH, find } from './per-attempt.js';
import { objectLiteralMethod, resolveFunction, returnedValues } from '../ast/function.js';

const { DefinitionType } = TSESLint.Scope;

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

/**
 * A Temporal workflow's module (it imports `@temporalio/workflow`): its clock and randomness are
 * the same on every replay (`libraries/temporal.ts`), so nothing it makes is new per attempt.
 */
function isWorkflowCode(context: AnyRuleContext): boolean {
  return fileMemo(context, 'temporal-workflow-module', () =>
    context.sourceCode.ast.body.some(
      (statement) =>
        statement.type === AST_NODE_TYPES.ImportDeclaration &&
        statement.importKind !== 'type' &&
        statement.source.value === TEMPORAL_WORKFLOW_MODULE,
    ),
  );
}

/** Constructors that mint when called without arguments. */
const MODULE_CONSTRUCTORS: Readonly<Record<string, Readonly<Record<string, PerAttemptKind>>>> = {
  mongodb: { ObjectId: 'random' },
  bson: { ObjectId: 'random' },
  mongoose: { 'Types.ObjectId': 'random', 'mongo.ObjectId': 'random' },
};

const GLOBAL_OBJECTS = new Set(['globalThis', 'window', 'self', 'global']);

export function newSource(expression: TSESTree.NewExpression, context: AnyRuleContext): PerAttemptValue | undefined {
  if (expression.arguments.length > 0) return undefined;
  const callee = unwrap(expression.callee);
  const description = `new ${context.sourceCode.getText(expression.callee)}()`;
  if (callee.type === AST_NODE_TYPES.Identifier && callee.name === 'Date' && isGlobal(callee, context)) {
    return isWorkflowCode(context) ? undefined : { kind: 'time', source: expression, description };
  }
  const named = importedPath(callee, context);
  const kind = named && MODULE_CONSTRUCTORS[named.module]?.[named.path];
  return kind ? { kind, source: expression, description } : undefined;
}

export function mintingCallKind(
  call: TSESTree.CallExpression,
  context: AnyRuleContext,
  walk: Walk,
): PerAttemptKind | undefined {
  const callee = unwrap(call.callee);
  const global = globalPath(callee, context);
  if (global !== undefined)
    return isWorkflowCode(context) ? undefined : (GLOBAL_FUNCTIONS[global] ?? generatorOf(call));
  const named = importedPath(callee, context);
  if (named && REPLAY_STABLE_FUNCTIONS[named.module]?.includes(named.path)) return undefined;
  if (named)
    return (
      MODULE_FUNCTIONS[named.module]?.[named.path] ??
      (isListedPerAttempt(named, context) ||
      isReexportedMint(named, call) ||
      (isGeneratorCall(call) && !isClassifiedByTheProject(named, context))
        ? 'random'
        : undefined)
    );
  if (callee.type === AST_NODE_TYPES.Identifier) {
    // A function bound here says what it returns; anything else only has its name.
    if (resolveFunction(callee, context.sourceCode.getScope(callee))) return localCalleeKind(callee, context, walk);
    return localCalleeKind(callee, context, walk) ?? generatorOf(call);
  }
  if (callee.type === AST_NODE_TYPES.MemberExpression && callee.object.type === AST_NODE_TYPES.ThisExpression) {
    // A method this class defines says what it returns; an inherited one only has its name.
    const fn = classMethod(callee);
    return fn === undefined ? generatorOf(call) : helperKind(fn, context, walk);
  }
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  // A method of an object literal bound in this file says what it returns, like a local function.
  const literal = objectLiteralMethod(callee, context.sourceCode.getScope(callee));
  if (literal) return literal.method === undefined ? undefined : helperKind(literal.method, context, walk);
  return generatorOf(call);
}

/**
 * A function of the project itself that `idempotency-check` has already classified: the CLI lists
 * every per-attempt function its modules export in `settings.idempotency.perAttemptFunctions`, so
 * one it does not list is known not to be one, whatever its name says.
 */
function isClassifiedByTheProject(named: { specifier: string }, context: AnyRuleContext): boolean {
  return hasSummaryFact(context, 'perAttempt') && named.specifier.startsWith('.');
}

/**
 * A function whose body is out of sight (imported, inherited, a method of another object) and
 * that is called without arguments under a name that says it makes a key or an id
 * (`generateIdempotencyKey()`, `apiClient.generateIdempotencyKey()`, `newRequestKey()`): with no
 * input to derive from, each call returns a new value.
 */
const GENERATOR_NAME =
  /^(?:generate|gen|create|new|make|mint|random|get(?:New|Random|Unique|Fresh))_?[A-Za-z]*?(?:Key|Uuid|Guid|Token|Nonce|Id)$/i;

/**
 * A plain function named for the key itself (`idempotency()`, `idempotencyKey()`, `uuid()`, `uuid4()`),
 * called without input: it has nothing to derive a key from. A method of that name
 * (`request.idempotencyKey()`) may read one its object holds, and is not counted.
 */
const KEY_NOUN = /^(?:idempotency(?:Key|Token|Id)?|requestKey|uuid(?:_?v?[1-7])?|guid|nonce)$/i;

function isGeneratorCall(call: TSESTree.CallExpression): boolean {
  if (call.arguments.length > 0) return false;
  const callee = unwrap(call.callee);
  const name = memberPath(callee)?.at(-1);
  if (name === undefined) return false;
  return GENERATOR_NAME.test(name) || (callee.type === AST_NODE_TYPES.Identifier && KEY_NOUN.test(name));
}

function generatorOf(call: TSESTree.CallExpression): PerAttemptKind | undefined {
  return isGeneratorCall(call) ? 'random' : undefined;
}

/**
 * The mint functions of uuid, nanoid, cuid2 and ulid by their exported names, imported from a
 * module of the project that re-exports them (`export { createId } from '@paralleldrive/cuid2'`)
 * and called without arguments: the name is all the file says, and it is the library's name.
 */
const REEXPORTED_MINT_NAMES = new Set(['randomUUID', 'uuidv4', 'uuidV4', 'nanoid', 'createId', 'cuid', 'ulid']);

function isReexportedMint(named: { module: string; path: string }, call: TSESTree.CallExpression): boolean {
  return call.arguments.length === 0 && !(named.module in MODULE_FUNCTIONS) && REEXPORTED_MINT_NAMES.has(named.path);
}

/** An imported function listed in `settings.idempotency.perAttemptFunctions` (computed across files by the CLI). */
function isListedPerAttempt(
  named: { module: string; path: string; specifier: string },
  context: AnyRuleContext,
): boolean {
  return summaryAt(context, named.specifier, named.path)?.perAttempt === true;
}

/** A local binding that mints: a factory result (`customAlphabet(...)`) or a helper function. */
function localCalleeKind(callee: TSESTree.Identifier, context: AnyRuleContext, walk: Walk): PerAttemptKind | undefined {
  const variable = findVariable(context.sourceCode.getScope(callee), callee);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (!variable || !def) return undefined;
  if (def.type === DefinitionType.FunctionName && def.node.type === AST_NODE_TYPES.FunctionDeclaration)
    return helperKind(def.node, context, walk);
  if (def.type !== DefinitionType.Variable || def.node.id.type !== AST_NODE_TYPES.Identifier || !def.node.init)
    return undefined;
  if (variable.references.filter((reference) => reference.isWrite()).length > 1) return undefined;
  const init = unwrap(def.node.init);
  if (init.type === AST_NODE_TYPES.ArrowFunctionExpression || init.type === AST_NODE_TYPES.FunctionExpression)
    return helperKind(init, context, walk);
  if (init.type === AST_NODE_TYPES.CallExpression) {
    const factory = importedPath(unwrap(init.callee), context);
    if (factory && MODULE_FACTORIES[factory.module]?.includes(factory.path)) return 'random';
  }
  return undefined;
}

/**
 * A function is a per-attempt helper when one of its return values is per-attempt. Answered once
 * per helper, depth and mode of the walk (a file of helpers calling helpers is read once, not once
 * per path through it), unless the answer rests on a parameter bound by a caller being read or on
 * a helper the walk had open (a cycle), which only that walk can answer.
 */
function helperKind(fn: TSESTree.FunctionLike, context: AnyRuleContext, walk: Walk): PerAttemptKind | undefined {
  if (walk.functions.has(fn)) {
    walk.cuts++;
    return undefined;
  }
  if (walk.depth > MAX_DEPTH || !fn.body) return undefined;
  const known = walk.bound.size === 0 ? helperKinds(context) : undefined;
  const key = `${String(walk.depth)}:${String(walk.windows)}`;
  const answers = known?.get(fn);
  if (answers?.has(key)) return answers.get(key) ?? undefined;
  const cuts = walk.cuts;
  walk.functions.add(fn);
  walk.depth++;
  let answer: PerAttemptKind | undefined;
  try {
    if (fn.body.type !== AST_NODE_TYPES.BlockStatement) answer = find(fn.body, context, walk)?.kind;
    else
      for (const returned of returnedValues(fn.body)) {
        answer = find(returned, context, walk)?.kind;
        if (answer) break;
      }
  } finally {
    walk.depth--;
    walk.functions.delete(fn);
  }
  if (known && walk.cuts === cuts) {
    if (!known.has(fn)) known.set(fn, new Map());
    known.get(fn)?.set(key, answer ?? null);
  }
  return answer;
}

/** Each helper's answers, per file. */
function helperKinds(context: AnyRuleContext): Map<TSESTree.FunctionLike, Map<string, PerAttemptKind | null>> {
  return fileMemo(
    context,
    'minting/helper-kind',
    () => new Map<TSESTree.FunctionLike, Map<string, PerAttemptKind | null>>(),
  );
}

/**
 * The dotted path of a callee on a global object (`Date.now`, `crypto.randomUUID`,
 * `globalThis.crypto.randomUUID` → `crypto.randomUUID`), or undefined when its head is a
 * local or imported binding.
 */
export function globalPath(callee: TSESTree.Node, context: AnyRuleContext): string | undefined {
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
function importedPath(
  callee: TSESTree.Node,
  context: AnyRuleContext,
): { module: string; path: string; specifier: string } | undefined {
  const path = memberPath(callee);
  const head = rootIdentifier(callee);
  if (!path || !head) return undefined;
  const source = importSource(head, context.sourceCode.getScope(head));
  if (!source) return undefined;
  const rest = path.slice(1);
  const names =
    source.imported === '*' || (source.imported === 'default' && rest.length > 0) ? rest : [source.imported, ...rest];
  if (names.length === 0) return undefined;
  const module = source.module.startsWith('node:') ? source.module.slice('node:'.length) : source.module;
  return { module, path: names.join('.'), specifier: source.module };
}

export function rootIdentifier(node: TSESTree.Node): TSESTree.Identifier | undefined {
  let current = unwrap(node);
  while (current.type === AST_NODE_TYPES.MemberExpression) current = unwrap(current.object);
  return current.type === AST_NODE_TYPES.Identifier ? current : undefined;
}

/** True when the identifier is not bound in the file (a global, or a lib declaration). */
export function isGlobal(identifier: TSESTree.Identifier, context: AnyRuleContext): boolean {
  const variable = findVariable(context.sourceCode.getScope(identifier), identifier);
  return !variable || variable.defs.length === 0;
}

/**
 * The mint inside the local helper a per-attempt value comes from (`keyFor(id)` returning
 * `` `${id}-${Date.now()}` ``), followed through helpers that call helpers: a helper that derives a
 * key from its input and makes it unstable is one fault, reported once at the helper rather than
 * at every caller. A generator (a helper without parameters, `newKey()`) is not: minting is its
 * job, and the fault is each caller that mints one per attempt instead of keeping it.
 */
export function mintInHelper(
  value: PerAttemptValue,
  context: AnyRuleContext,
): { helper: TSESTree.FunctionLike; mint: PerAttemptValue } | undefined {
  let found: { helper: TSESTree.FunctionLike; mint: PerAttemptValue } | undefined;
  const seen = new Set<TSESTree.Node>();
  for (let current = value; current.source.type === AST_NODE_TYPES.CallExpression;) {
    const callee = unwrap(current.source.callee);
    const helper =
      callee.type === AST_NODE_TYPES.Identifier
        ? resolveFunction(callee, context.sourceCode.getScope(callee))
        : callee.type === AST_NODE_TYPES.MemberExpression && callee.object.type === AST_NODE_TYPES.ThisExpression
          ? classMethod(callee)
          : undefined;
    if (!helper?.body || seen.has(helper) || helper.params.length === 0) break;
    seen.add(helper);
    const returned = helper.body.type === AST_NODE_TYPES.BlockStatement ? returnedValues(helper.body) : [helper.body];
    const inner = returned.map((node) => find(node, context, new Walk())).find((mint) => mint !== undefined);
    if (!inner) break;
    found = { helper, mint: inner };
    current = inner;
  }
  return found;
}

function classMethod(callee: TSESTree.MemberExpression): TSESTree.FunctionLike | undefined {
  const name = memberName(callee);
  for (let current: TSESTree.Node | undefined = callee.parent; current; current = current.parent) {
    if (current.type !== AST_NODE_TYPES.ClassBody) continue;
    for (const member of current.body) {
      if (member.type !== AST_NODE_TYPES.MethodDefinition && member.type !== AST_NODE_TYPES.PropertyDefinition)
        continue;
      if (member.computed || member.key.type !== AST_NODE_TYPES.Identifier || member.key.name !== name) continue;
      const fn = member.value;
      if (fn?.type === AST_NODE_TYPES.FunctionExpression || fn?.type === AST_NODE_TYPES.ArrowFunctionExpression)
        return fn;
    }
    return undefined;
  }
  return undefined;
}
