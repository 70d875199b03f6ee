import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext } from '../ast/context.js';
import { isFunction, objectLiteralMethod, resolveFunction } from '../ast/function.js';
import { walk } from '../ast/walk.js';
import { contains, enclosingFunction, unwrap } from '../ast/nodes.js';
import { findVariable } from '../ast/values.js';
import { memberName } from '../ast/names.js';
import { callSitesOf, isModuleExport } from './call-sites.js';
import { RecursiveMemo, fileMemo } from '../ast/memo.js';
import { holdsCallersObject } from './callers-object.js';
import { rootIdentifier } from './minting.js';
import { type PerAttemptValue } from './per-attempt.js';
import { isRetryLoop, retryCallbackOf } from '../attempts/retry-scope.js';
import { isRerunByRedelivery } from '../attempts/redelivery.js';
import { importSource, isProjectModule } from '../modules.js';
import { type KeySink } from './sinks.js';

const { DefinitionType } = TSESLint.Scope;

/**
 * Whether a default key is minted once per logical request or once per attempt.
 *
 * A request function often fills in a key when its caller gave none (`idempotencyKey ||
 * randomUUID()`, `given ? given : uuid()`, `if (!options.idempotencyKey) options.idempotencyKey =
 * uuid()`). What that key is worth rests on where it is minted relative to the retry, not on the
 * syntax that writes it:
 *
 * - minted by a function that each retry runs again (the attempt a retry loop, a retry wrapper or
 *   a `makeRequest → retryRequest → makeRequest` recursion re-enters), into a value the next
 *   attempt does not see (a fresh copy of the options, an expression): a new key per attempt, so
 *   the retry is a second request. Reported (modern-treasury-node before "correctly reuse
 *   idempotency key").
 * - minted there but written back onto the caller's options object, which every retry passes
 *   again: the next attempt finds it and keeps it. Quiet.
 * - minted by a function that runs once per call, whose key parameter every caller in sight hands
 *   on from its own caller, up to callers out of sight (an SDK's public method, an exported API):
 *   one key per logical call, the documented contract of an API that takes an optional key
 *   (stripe-node, fintoc-node, workos-node); a caller that retries a call passes its own. Quiet.
 * - a caller in sight calls it without a key: the fallback is the common call, minted anew for
 *   each of them. Left to the rest of the model (reported when sent).
 */
export function defaultKeyLifetime(
  sink: KeySink,
  value: PerAttemptValue,
  context: AnyRuleContext,
): 'logical-request' | 'attempt' | undefined {
  const fn = enclosingFunction(sink.node);
  if (!fn || !contains(fn, value.source)) return undefined;
  if (callSitesOf(fn, context) === undefined) {
    // A callback a library runs for a caller out of sight, with that caller's input (a Nango
    // action's `exec(nango, input)`): the key the input gives is the caller's, as for an exported
    // function. Not one a retry or a redelivery runs again: those re-run the
    // fallback with the same input, and other callbacks (interceptors, hooks, a mutationFn) are
    // for the rest of the model.
    if (!isHandedToLibrary(fn, context) || retryCallbackOf(fn, context) || isRerunByRedelivery(fn, context))
      return undefined;
    return defaultForCallersKey(sink, value, fn, context) ? 'logical-request' : undefined;
  }
  const fallback = defaultForCallersKey(sink, value, fn, context);
  if (fallback === undefined) return undefined;
  if (isRunPerAttempt(fn, context))
    return fallback.kept || isPassedBackOnRetry(fn, fallback, context) ? 'logical-request' : 'attempt';
  return isGivenByEveryCallerInSight(fn, fallback.index, context) ? 'logical-request' : undefined;
}

/**
 * `fn` is handed to a call of a package's export, as an argument or a property of an object
 * argument, whose result the module exports (`export default createAction({ exec: async (nango,
 * input) => … })`): the module's entry, which the library runs for callers outside the program.
 * A callback whose caller is the project's own code (a `useMutation` hook's `mutationFn`, which
 * the page's `mutate()` runs) is not one.
 */
function isHandedToLibrary(fn: TSESTree.FunctionLike, context: AnyRuleContext): boolean {
  const holder = fn.parent.type === AST_NODE_TYPES.Property && fn.parent.value === fn ? fn.parent.parent : fn;
  const call = holder.parent;
  if (
    call.type !== AST_NODE_TYPES.CallExpression ||
    !call.arguments.includes(holder as TSESTree.CallExpressionArgument)
  )
    return false;
  if (!isExportedValue(call)) return false;
  let root = unwrap(call.callee);
  while (root.type === AST_NODE_TYPES.MemberExpression) root = unwrap(root.object);
  if (root.type !== AST_NODE_TYPES.Identifier) return false;
  const source = importSource(root, context.sourceCode.getScope(root));
  return source !== undefined && !isProjectModule(source.module, context.filename);
}

/** `export default <node>`, `export const x = <node>`, `module.exports = <node>`. */
function isExportedValue(node: TSESTree.Node): boolean {
  const parent = node.parent;
  if (parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.init === node)
    return parent.parent.parent.type === AST_NODE_TYPES.ExportNamedDeclaration;
  return isModuleExport(node);
}

/** A default for the key in parameter `index`; `kept` when it is written back onto the caller's object. */
interface Default {
  index: number;
  kept: boolean;
  /** The `const` that holds the key with its default (`const key = given ?? mint()`). */
  holder?: TSESLint.Scope.Variable;
}

/**
 * Every call by which `fn` re-enters itself hands the key it defaulted back in the key's
 * parameter (`return this.#request(method, path, body, attempt + 1, key)`): the retry finds the
 * key given, so the fallback runs on the first attempt only (remit-md's SDK).
 */
function isPassedBackOnRetry(fn: TSESTree.FunctionLike, fallback: Default, context: AnyRuleContext): boolean {
  const { holder } = fallback;
  if (!holder) return false;
  const reentries = (callSitesOf(fn, context)?.calls ?? []).filter((call) => contains(fn, call));
  return (
    reentries.length > 0 &&
    reentries.every((call) => {
      const argument = call.arguments[fallback.index];
      return (
        argument?.type === AST_NODE_TYPES.Identifier &&
        findVariable(context.sourceCode.getScope(argument), argument) === holder
      );
    })
  );
}

/**
 * The key is a default for one its caller may give: `given || mint()` / `given ?? mint()` /
 * `given ? given : mint()` with `given` from a parameter, or a write guarded by the key's absence
 * (`if (!o.key) o.key = mint()`). The write is kept on the caller's object when its target is a
 * parameter the function never rebinds (`options = { ...options }` makes it a copy).
 */
function defaultForCallersKey(
  sink: KeySink,
  value: PerAttemptValue,
  fn: TSESTree.FunctionLike,
  context: AnyRuleContext,
): Default | undefined {
  // The key written, or the `const` it was made into first (`const key = given ?? mint()`).
  const written = unwrap(sink.value);
  const holder =
    written.type === AST_NODE_TYPES.Identifier
      ? findVariable(context.sourceCode.getScope(written), written)
      : undefined;
  const declared = holder?.defs.length === 1 ? holder.defs[0] : undefined;
  const init = declared?.node.type === AST_NODE_TYPES.VariableDeclarator ? declared.node.init : null;
  const isConst = declared?.parent?.type === AST_NODE_TYPES.VariableDeclaration && declared.parent.kind === 'const';
  const given = givenBeforeFallback(init && isConst ? unwrap(init) : written, value) ?? givenAroundMint(value, sink);
  if (given) {
    const index = parameterIndex(given, fn, context);
    return index === undefined ? undefined : { index, kept: false, ...(init && isConst && holder ? { holder } : {}) };
  }
  const node = sink.node;
  if (node.type !== AST_NODE_TYPES.AssignmentExpression || node.left.type !== AST_NODE_TYPES.MemberExpression)
    return undefined;
  if (!isGuardedByAbsence(node, context)) return undefined;
  const index = parameterIndex(node.left, fn, context);
  if (index === undefined) return undefined;
  const root = rootIdentifier(node.left);
  const variable = root && findVariable(context.sourceCode.getScope(root), root);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  const rebound = variable?.references.some((reference) => reference.isWrite()) ?? true;
  // Kept only when the object is the callers' own all the way up, not a copy one of them made.
  return {
    index,
    kept: def?.type === DefinitionType.Parameter && !rebound && root !== undefined && holdsCallersObject(root, context),
  };
}

/**
 * The `given` of the fallback the mint is made in, found from the mint up (`const requestId =
 * request.headers.get('X-Request-Id') ?? crypto.randomUUID()`, then `` `usage-${requestId}` ``
 * written): through the expressions that build a value from it, to the binding the key is read from.
 */
function givenAroundMint(value: PerAttemptValue, sink: KeySink): TSESTree.Node | undefined {
  for (let node: TSESTree.Node | undefined = value.source.parent; node; node = node.parent) {
    if (
      (node.type === AST_NODE_TYPES.LogicalExpression && node.operator !== '&&') ||
      node.type === AST_NODE_TYPES.ConditionalExpression
    )
      return givenBeforeFallback(node, value);
    if (!BUILDS_FROM.has(node.type) || contains(node, sink.node)) return undefined;
  }
  return undefined;
}

/** Expressions that make a value from the one inside them. */
const BUILDS_FROM = new Set<AST_NODE_TYPES>([
  AST_NODE_TYPES.CallExpression,
  AST_NODE_TYPES.MemberExpression,
  AST_NODE_TYPES.ChainExpression,
  AST_NODE_TYPES.TemplateLiteral,
  AST_NODE_TYPES.BinaryExpression,
  AST_NODE_TYPES.TSAsExpression,
  AST_NODE_TYPES.TSNonNullExpression,
]);

/** `given || mint()`, `given ?? mint()`, `given ? given : mint()`, `!given ? mint() : given`: the `given`. */
export function givenBeforeFallback(written: TSESTree.Node, value: PerAttemptValue): TSESTree.Node | undefined {
  if (written.type === AST_NODE_TYPES.LogicalExpression && written.operator !== '&&')
    return contains(written.right, value.source) ? written.left : undefined;
  if (written.type !== AST_NODE_TYPES.ConditionalExpression) return undefined;
  if (contains(written.alternate, value.source)) return written.test;
  const test = unwrap(written.test);
  return contains(written.consequent, value.source) &&
    test.type === AST_NODE_TYPES.UnaryExpression &&
    test.operator === '!'
    ? test.argument
    : undefined;
}

/**
 * Every call of `fn` in sight gives parameter `index` something, and where that is its own
 * caller's parameter, so do that function's callers, up to callers out of sight. A call that
 * leaves it out takes the fallback.
 */
function isGivenByEveryCallerInSight(fn: TSESTree.FunctionLike, index: number, context: AnyRuleContext): boolean {
  const memo = fileMemo(
    context,
    'logical-request/given-by-callers',
    // A caller met again up the chain is a cycle that gives nothing of its own.
    () => new RecursiveMemo<string, boolean>(false, (given) => given),
  );
  return memo.get(`${String(fn.range[0])}:${String(index)}`, () => {
    const sites = callSitesOf(fn, context);
    if (!sites) return false;
    if (sites.calls.length === 0) return sites.escapes;
    return sites.calls.every((call) => {
      const argument = call.arguments[index];
      if (!argument || argument.type === AST_NODE_TYPES.SpreadElement) return false;
      const caller = enclosingFunction(call);
      const from = caller && parameterIndex(argument, caller, context);
      return from === undefined || (caller !== undefined && isGivenByEveryCallerInSight(caller, from, context));
    });
  });
}

/** `if (!o.key) o.key = mint()` / `if (o.key == null) ...`: the test reads the target the write fills. */
function isGuardedByAbsence(assignment: TSESTree.AssignmentExpression, context: AnyRuleContext): boolean {
  const target = normalize(context.sourceCode.getText(assignment.left));
  for (
    let current: TSESTree.Node = assignment;
    current.parent && !isFunction(current.parent);
    current = current.parent
  ) {
    const parent: TSESTree.Node = current.parent;
    if (parent.type === AST_NODE_TYPES.IfStatement && parent.consequent === current)
      return normalize(context.sourceCode.getText(parent.test)).includes(target);
  }
  return false;
}

function normalize(text: string): string {
  return text.replace(/\?\./g, '.').replace(/\s+/g, '');
}

/** The index of the parameter of `fn` that `node` is, is a member of, or was destructured or read from. */
function parameterIndex(
  node: TSESTree.Node,
  fn: TSESTree.FunctionLike,
  context: AnyRuleContext,
  depth = 0,
): number | undefined {
  // A value read through a method of the parameter (`request.headers.get('X-Request-Id')`).
  let read = unwrap(node);
  while (read.type === AST_NODE_TYPES.CallExpression && unwrap(read.callee).type === AST_NODE_TYPES.MemberExpression)
    read = unwrap((unwrap(read.callee) as TSESTree.MemberExpression).object);
  const root = rootIdentifier(read);
  if (!root || depth > 2) return undefined;
  const variable = findVariable(context.sourceCode.getScope(root), root);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (def?.type === DefinitionType.Parameter) {
    if (def.node !== fn) return undefined;
    const index = fn.params.findIndex((parameter) => contains(parameter, def.name));
    return index < 0 ? undefined : index;
  }
  if (def?.type !== DefinitionType.Variable || !def.node.init || !contains(fn, def.node)) return undefined;
  return parameterIndex(def.node.init, fn, context, depth + 1);
}

/**
 * `fn` runs again for each retry of the same call: it, or a function that calls it (in this
 * file), is re-entered by its own callees (`makeRequest → retryRequest → makeRequest`), called
 * in a retry loop, or handed to a retry wrapper.
 */
function isRunPerAttempt(fn: TSESTree.FunctionLike, context: AnyRuleContext): boolean {
  // A function met again while its callers are being read is re-entered: a retry by recursion.
  const memo = fileMemo(
    context,
    'logical-request/run-per-attempt',
    () => new RecursiveMemo<TSESTree.FunctionLike, boolean>(true, (retried) => retried),
  );
  const retried = (current: TSESTree.FunctionLike): boolean =>
    memo.get(current, () => {
      if (retryCallbackOf(current, context)) return true;
      return (callSitesOf(current, context)?.calls ?? []).some((call) => {
        const caller = enclosingFunction(call);
        if (!caller) return false;
        if (caller === current || isInRetryLoop(call, caller, context)) return true;
        return retried(caller);
      });
    });
  return retried(fn);
}

function isInRetryLoop(call: TSESTree.Node, owner: TSESTree.FunctionLike, context: AnyRuleContext): boolean {
  for (let current = call.parent; current && current !== owner; current = current.parent) {
    if (isRetryLoop(current, context)) return true;
  }
  return false;
}

/**
 * The key is minted, and written into the request, before the minting function hands that request
 * to a function of the file that retries it by itself (one that calls itself again on failure, or
 * loops over attempts): every retry re-sends the same key, one per logical call (trigger.dev's
 * `_doZodFetch` minting its request key before `_doZodFetchWithRetries`).
 */
export function isMintedBeforeRetryingCall(sink: KeySink, value: PerAttemptValue, context: AnyRuleContext): boolean {
  const minter = enclosingFunction(value.source);
  if (!minter) return false;
  let found = false;
  walk(
    minter,
    context,
    (node) => {
      if (found) return 'stop';
      // A call made after the mint, or handed it (`circleRequest('POST', path, { idempotencyKey:
      // mint() })`: its arguments are made before it runs).
      if (
        node.type !== AST_NODE_TYPES.CallExpression ||
        (node.range[0] < value.source.range[1] && !node.arguments.some((argument) => contains(argument, value.source)))
      )
        return undefined;
      const retrying = calledFunction(node, context);
      if (!retrying || contains(retrying, sink.node) || !retriesByItself(retrying, context)) return undefined;
      found = true;
      return 'stop';
    },
    { enterFunctions: false },
  );
  return found;
}

/** The function of this file a call runs: a local function, or a method of an object literal bound here (`Http.request(...)`). */
function calledFunction(call: TSESTree.CallExpression, context: AnyRuleContext): TSESTree.FunctionLike | undefined {
  return functionAt(unwrap(call.callee), context);
}

/** The function of this file an expression denotes: a local function, or `Http.request` of `const Http = { request() {} }`. */
function functionAt(node: TSESTree.Node, context: AnyRuleContext): TSESTree.FunctionLike | undefined {
  const scope = context.sourceCode.getScope(node);
  if (node.type === AST_NODE_TYPES.Identifier) return resolveFunction(node, scope);
  return node.type === AST_NODE_TYPES.MemberExpression ? objectLiteralMethod(node, scope)?.method : undefined;
}

/**
 * A function that runs its request again on failure: it calls itself, or calls in a retry loop,
 * or schedules itself again (`setTimeout(Http.request.bind(null, method, url, body, callback,
 * headers), delay)` in its response handler: semaphore's front end, whose every retry re-sends
 * the headers it was given).
 */
function retriesByItself(fn: TSESTree.FunctionLike, context: AnyRuleContext): boolean {
  const known = fileMemo(context, 'logical-request/retries-by-itself', () => new Map<TSESTree.FunctionLike, boolean>());
  let answer = known.get(fn);
  if (answer === undefined) known.set(fn, (answer = reentersItself(fn, context)));
  return answer;
}

function reentersItself(fn: TSESTree.FunctionLike, context: AnyRuleContext): boolean {
  const calls = callSitesOf(fn, context)?.calls ?? [];
  if (calls.some((call) => contains(fn, call) && (enclosingFunction(call) === fn || isInRetryLoop(call, fn, context))))
    return true;
  let again = false;
  walk(fn, context, (node) => {
    if (again) return 'stop';
    // `for (let attempt = 0; attempt <= MAX_RETRIES; attempt++) { await fetch(url, { body }) }`:
    // its own loop over attempts sends what it was handed again.
    if (isRetryLoop(node, context) && enclosingFunction(node) === fn) {
      again = true;
      return 'stop';
    }
    // `self.method(...)` or `self.method.bind(...)` inside the method itself.
    let target: TSESTree.Node | undefined;
    if (node.type === AST_NODE_TYPES.CallExpression) {
      const callee = unwrap(node.callee);
      target =
        callee.type === AST_NODE_TYPES.MemberExpression && memberName(callee) === 'bind'
          ? unwrap(callee.object)
          : callee;
    }
    if (target?.type === AST_NODE_TYPES.MemberExpression && functionAt(target, context) === fn) again = true;
    return again ? 'stop' : undefined;
  });
  return again;
}
