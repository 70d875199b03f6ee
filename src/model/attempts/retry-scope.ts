import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext } from '../ast/context.js';
import { isFunction } from '../ast/function.js';
import { memberName, memberPath, propertyKeyName } from '../ast/names.js';
import { contains, enclosingFunction, unwrap } from '../ast/nodes.js';
import { findVariable } from '../ast/values.js';
import { importSource } from '../modules.js';
import { walk } from '../ast/walk.js';
import { RETRY_HELPERS, type RetryHelper } from '../libraries/retry-helpers.js';

/**
 * Attempt scopes: code that runs again when something is retried, so that what it evaluates is
 * made anew on every attempt and what is made before it is reused by all of them. This file knows
 * the retries a function starts itself: a callback handed to a retry helper (a library's, from
 * libraries/retry-helpers.ts, or the project's own, known by its name) and a loop that retries.
 */

export type Loop =
  | TSESTree.ForStatement
  | TSESTree.WhileStatement
  | TSESTree.DoWhileStatement
  | TSESTree.ForOfStatement
  | TSESTree.ForInStatement;

export interface RetryScope {
  /** The callback or loop whose body runs again on every attempt. */
  node: TSESTree.FunctionLike | Loop;
  /** The helper or statement that re-runs it, for messages: `backOff`, `pRetry`, `for`. */
  name: string;
  /** The library's row, when the helper is a known library's. */
  helper?: RetryHelper;
}

/** Callees that run their function argument again on failure, by their name: the project's own helpers. */
const RETRY_CALLEE = /retry|retries|retrying|backoff|attempt/i;

/** Loops that run an attempt again: their header speaks of retries or attempts. */
const RETRY_LOOP = /retr|attempt|tries/i;

/**
 * The property of an options object that holds the operation a project's retry helper runs
 * (`callWithRetry({ operation: 'sessions.create', fn: () => stripe.checkout.sessions.create(...) })`),
 * not a hook it calls between attempts (`shouldRetry`, `onRetry`, `onError`).
 */
const OPERATION_PROPERTY =
  /^(?:fn|func|operation|op|task|action|callback|cb|run|execute|exec|request|call|work|job|handler)$/;

/** `fn` is a callback handed to a retry helper, which calls it again when it fails. */
export function retryCallbackOf(fn: TSESTree.FunctionLike, context: AnyRuleContext): RetryScope | undefined {
  const property = fn.parent;
  if (
    property.type === AST_NODE_TYPES.Property &&
    property.value === fn &&
    property.parent.parent.type === AST_NODE_TYPES.CallExpression
  ) {
    // A project's helper handed the operation in its options: by the helper's and the property's names.
    const call = property.parent.parent;
    const name = memberPath(call.callee)?.at(-1);
    const key = propertyKeyName(property);
    return name !== undefined &&
      RETRY_CALLEE.test(name) &&
      call.arguments.includes(property.parent) &&
      key !== undefined &&
      OPERATION_PROPERTY.test(key) &&
      !neverFails(fn, context)
      ? { node: fn, name }
      : undefined;
  }
  const call = fn.parent;
  if (call.type === AST_NODE_TYPES.CallExpression && call.callee !== fn) return handedTo(fn, fn, call, context);
  // `const notify = () => axios(...); await retryRequest(notify)`: the function handed by its name.
  const declarator = fn.parent;
  if (declarator.type !== AST_NODE_TYPES.VariableDeclarator || declarator.id.type !== AST_NODE_TYPES.Identifier)
    return undefined;
  const variable = findVariable(context.sourceCode.getScope(declarator), declarator.id);
  if (!variable || variable.references.some((reference) => reference.isWrite() && !reference.init)) return undefined;
  for (const reference of variable.references) {
    const parent = reference.identifier.parent;
    if (parent.type !== AST_NODE_TYPES.CallExpression || parent.callee === reference.identifier) continue;
    const scope = handedTo(fn, reference.identifier, parent, context);
    if (scope) return scope;
  }
  // `const attempt = () => fetch(...)`, called again, with the same arguments, by the function that
  // made it (`try { return await attempt() } catch {} … return attempt()`): a retry written by hand.
  // Calls with other arguments are other requests (`post(a); post(b)`), not attempts of one.
  const owner = enclosingFunction(declarator);
  const calls = variable.references.flatMap((reference) => {
    const call = reference.identifier.parent;
    return call.type === AST_NODE_TYPES.CallExpression &&
      call.callee === reference.identifier &&
      enclosingFunction(call) === owner
      ? [call.arguments.map((argument) => context.sourceCode.getText(argument)).join(',')]
      : [];
  });
  return owner && calls.length > 1 && new Set(calls).size === 1 ? { node: fn, name: declarator.id.name } : undefined;
}

/** `fn`, handed to `call` as `argument` (itself or its name), when `call` is a retry helper that runs it again. */
function handedTo(
  fn: TSESTree.FunctionLike,
  argument: TSESTree.Node,
  call: TSESTree.CallExpression,
  context: AnyRuleContext,
): RetryScope | undefined {
  const index = call.arguments.indexOf(argument as TSESTree.CallExpressionArgument);
  const helper = libraryHelper(call, context);
  if (helper)
    return helper.callback === index && !neverFails(fn, context, helper)
      ? { node: fn, name: calleeText(call), helper }
      : undefined;
  const name = memberPath(call.callee)?.at(-1);
  return name !== undefined && RETRY_CALLEE.test(name) && !neverFails(fn, context) ? { node: fn, name } : undefined;
}

/**
 * A callback that cannot fail, so the helper runs it once: its whole body is `try` statements
 * whose `catch` neither throws, returns a rejection, nor asks for another run (a call of the
 * parameter promise-retry hands it, `retry(err)`, or node-retry's `operation.retry(err)`). The
 * library rows (libraries/retry-helpers.ts) call their callback again only on such a failure or
 * call; a copy of the Square quickstart that logs the error instead of rethrowing it never retries.
 */
function neverFails(fn: TSESTree.FunctionLike, context: AnyRuleContext, helper?: RetryHelper): boolean {
  const body = fn.body;
  if (body?.type !== AST_NODE_TYPES.BlockStatement || body.body.length === 0) return false;
  const retryParameter = helper?.retryParameter === undefined ? undefined : fn.params[helper.retryParameter];
  return body.body.every(
    (statement) =>
      statement.type === AST_NODE_TYPES.TryStatement &&
      statement.handler !== null &&
      statement.finalizer === null &&
      !failsOut(statement.handler.body, context, retryParameter),
  );
}

/** A `throw`, a returned `Promise.reject(...)` or a call for another run in a block, outside the functions it defines. */
function failsOut(
  block: TSESTree.BlockStatement,
  context: AnyRuleContext,
  retryParameter: TSESTree.Parameter | undefined,
): boolean {
  let fails = false;
  walk(block, context, (node) => {
    if (isFunction(node)) return 'skip';
    const rejects =
      node.type === AST_NODE_TYPES.ReturnStatement && node.argument !== null && isRejection(node.argument);
    const asksAgain = node.type === AST_NODE_TYPES.CallExpression && asksForRetry(node, retryParameter);
    if (node.type !== AST_NODE_TYPES.ThrowStatement && !rejects && !asksAgain) return undefined;
    fails = true;
    return 'stop';
  });
  return fails;
}

/** `retry(err)`, `operation.retry(err)`, or a call of the parameter the helper re-runs the callback on. */
function asksForRetry(call: TSESTree.CallExpression, retryParameter: TSESTree.Parameter | undefined): boolean {
  const callee = unwrap(call.callee);
  if (memberPath(callee)?.at(-1) === 'retry') return true;
  return (
    callee.type === AST_NODE_TYPES.Identifier &&
    retryParameter?.type === AST_NODE_TYPES.Identifier &&
    callee.name === retryParameter.name
  );
}

function isRejection(node: TSESTree.Node): boolean {
  const value = unwrap(node);
  return value.type === AST_NODE_TYPES.CallExpression && memberPath(value.callee)?.join('.') === 'Promise.reject';
}

/** A loop whose header speaks of retries or attempts (`for (let i = 0; i < maxRetries; i++)`, `while (attempt < 3)`). */
export function isRetryLoop(node: TSESTree.Node, context: AnyRuleContext): node is Loop {
  return loopHeader(node)?.some((part) => part && RETRY_LOOP.test(context.sourceCode.getText(part))) ?? false;
}

/** The innermost attempt scope around `node` that a retry re-runs: a retry callback or a retry loop. */
export function innermostRetryScope(node: TSESTree.Node, context: AnyRuleContext): RetryScope | undefined {
  for (let current = node.parent; current; current = current.parent) {
    if (isFunction(current)) {
      const callback = retryCallbackOf(current, context);
      if (callback) return callback;
    } else if (isRetryLoop(current, context) && !isInLoopHeader(node, current)) {
      return { node: current, name: loopKeyword(current) };
    }
  }
  return undefined;
}

/** The library row of the retry helper a call runs, found through the callee's import. */
function libraryHelper(call: TSESTree.CallExpression, context: AnyRuleContext): RetryHelper | undefined {
  const callee = unwrap(call.callee);
  if (callee.type === AST_NODE_TYPES.Identifier) {
    const source = importSource(callee, context.sourceCode.getScope(callee));
    return source && RETRY_HELPERS.find((row) => !row.method && matches(row, source));
  }
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const method = memberName(callee);
  const rows = RETRY_HELPERS.filter((row) => row.method === method);
  if (rows.length === 0) return undefined;
  // `operation.attempt(fn)` with `const operation = retry.operation()`; `policy.execute(fn)` with
  // `const policy = retry(handleAll, ...)`: the receiver is made by the library's export.
  const made = madeBy(unwrap(callee.object), context);
  return made && rows.find((row) => matches(row, made));
}

function matches(row: RetryHelper, source: { module: string; imported: string }): boolean {
  return row.module === source.module && row.imported === source.imported;
}

/** The library export whose call made `receiver`, through a `const` holding the call. */
function madeBy(receiver: TSESTree.Node, context: AnyRuleContext): { module: string; imported: string } | undefined {
  let target = receiver;
  if (target.type === AST_NODE_TYPES.Identifier) {
    const variable = findVariable(context.sourceCode.getScope(target), target);
    const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
    if (def?.node.type !== AST_NODE_TYPES.VariableDeclarator || !def.node.init) return undefined;
    target = unwrap(def.node.init);
  }
  if (target.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const callee = unwrap(target.callee);
  const scope = context.sourceCode.getScope(callee);
  if (callee.type === AST_NODE_TYPES.Identifier) return importSource(callee, scope);
  // `retry.operation()`: the member of a default or namespace import.
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const object = unwrap(callee.object);
  const name = memberName(callee);
  if (object.type !== AST_NODE_TYPES.Identifier || name === undefined) return undefined;
  const source = importSource(object, scope);
  return source && (source.imported === 'default' || source.imported === '*')
    ? { module: source.module, imported: name }
    : undefined;
}

function calleeText(call: TSESTree.CallExpression): string {
  return memberPath(call.callee)?.at(-1) ?? 'retry';
}

function loopHeader(node: TSESTree.Node): (TSESTree.Node | null)[] | undefined {
  switch (node.type) {
    case AST_NODE_TYPES.ForStatement:
      return [node.init, node.test, node.update];
    case AST_NODE_TYPES.WhileStatement:
    case AST_NODE_TYPES.DoWhileStatement:
      return [node.test];
    case AST_NODE_TYPES.ForOfStatement:
    case AST_NODE_TYPES.ForInStatement:
      return [node.left, node.right];
    default:
      return undefined;
  }
}

/** `node` sits in a loop's header (its init, test, update or iterated value), not its body. */
export function isInLoopHeader(node: TSESTree.Node, loop: Loop): boolean {
  return contains(loop, node) && !contains(loop.body, node);
}

function loopKeyword(loop: Loop): string {
  switch (loop.type) {
    case AST_NODE_TYPES.ForStatement:
    case AST_NODE_TYPES.ForOfStatement:
    case AST_NODE_TYPES.ForInStatement:
      return 'for';
    case AST_NODE_TYPES.WhileStatement:
      return 'while';
    case AST_NODE_TYPES.DoWhileStatement:
      return 'do';
  }
}

/**
 * `value`, read at `at`, was made before the innermost retry scope around `at` started: a binding
 * (or a member of one) declared outside the retry callback or loop, so every attempt reuses it
 * (a key made once and sent by each try of `backOff(() => fetch(...))`).
 */
export function isMadeBeforeRetry(
  value: TSESTree.Node,
  at: TSESTree.Node,
  context: AnyRuleContext,
): RetryScope | undefined {
  const scope = innermostRetryScope(at, context);
  if (!scope) return undefined;
  let root = unwrap(value);
  while (root.type === AST_NODE_TYPES.MemberExpression) root = unwrap(root.object);
  if (root.type !== AST_NODE_TYPES.Identifier) return undefined;
  const variable = findVariable(context.sourceCode.getScope(root), root);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (!def) return undefined;
  // Made inside the retry, or inside an outer one of its own function: made again on each attempt.
  const owner = enclosingFunction(def.name);
  if (contains(scope.node, def.name) || (owner && inRetryWithin(def.name, owner, context))) return undefined;
  return scope;
}

/**
 * A value declared at `declaration` and read at `reference`, both inside `owner`, is made once
 * and reused by every retry: the reference sits in a retry (a helper's callback or a retry loop's
 * body) inside `owner`, and the declaration in none (`const key = mint(); await backOff(() =>
 * send(key))`). A declaration inside an outer retry is made again by each of its attempts.
 */
export function isReusedByRetries(
  reference: TSESTree.Node,
  declaration: TSESTree.Node,
  owner: TSESTree.FunctionLike,
  context: AnyRuleContext,
): boolean {
  return inRetryWithin(reference, owner, context) && !inRetryWithin(declaration, owner, context);
}

/** Some retry scope inside `owner` holds `node`. */
function inRetryWithin(node: TSESTree.Node, owner: TSESTree.FunctionLike, context: AnyRuleContext): boolean {
  for (let current = node.parent; current && current !== owner; current = current.parent) {
    if (
      isFunction(current)
        ? retryCallbackOf(current, context)
        : isRetryLoop(current, context) && !isInLoopHeader(node, current)
    )
      return true;
  }
  return false;
}
