import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext } from '../ast/context.js';
import { isFunction } from '../ast/function.js';
import { memberName, memberPath } from '../ast/names.js';
import { contains, enclosingFunction, unwrap } from '../ast/nodes.js';
import { findVariable } from '../ast/values.js';
import { callSitesOf } from './call-sites.js';
import { rootIdentifier } from './minting.js';
import { type PerAttemptValue, RETRY_CALLEE } from './per-attempt.js';
import { type KeySink } from './sinks.js';

const { DefinitionType } = TSESLint.Scope;

/**
 * Whether a default key is minted once per logical request or once per attempt.
 *
 * An SDK's request function fills in a key when its caller gave none (`idempotencyKey ||
 * randomUUID()`, `if (!options.idempotencyKey) options.idempotencyKey = uuid()`). What that key
 * is worth rests on where it is minted relative to the retry, not on the syntax that writes it:
 *
 * - minted by a function that runs once per logical call (stripe-node, fintoc-node): one key per
 *   call, which is all the SDK can know of a logical request; a caller that retries a call passes
 *   its own key. Quiet.
 * - minted by a function that each retry runs again (the attempt a retry loop or a
 *   `makeRequest → retryRequest → makeRequest` recursion re-enters), into a value the next attempt
 *   does not see (a fresh copy of the options, an expression): a new key per attempt, so the SDK's
 *   own retry is a second request. Reported (modern-treasury-node before "correctly reuse
 *   idempotency key").
 * - minted there but written back onto the caller's options object, which every retry passes
 *   again: the next attempt finds it and keeps it. Quiet.
 *
 * Only a generic request function decides this way: one that sends whatever method its caller
 * asks for (`method` is its parameter or read from one), the transport of an SDK. A function for
 * one endpoint (`createOrder(input, key = uuid())`) is called per user action or per delivery,
 * and its fallback key is new for each of them: reported as before.
 */
export function defaultKeyLifetime(
  sink: KeySink,
  value: PerAttemptValue,
  context: AnyRuleContext,
): 'logical-request' | 'attempt' | undefined {
  const fn = enclosingFunction(sink.node);
  // A named request function; callbacks (interceptors, hooks) are the interceptor model's.
  if (!fn || !contains(fn, value.source) || callSitesOf(fn, context) === undefined) return undefined;
  const fallback = defaultForCallersKey(sink, value, fn, context);
  if (fallback === undefined || !sendsCallersMethod(fn, context)) return undefined;
  if (!isRunPerAttempt(fn, context)) return 'logical-request';
  return fallback === 'kept-on-callers-options' ? 'logical-request' : 'attempt';
}

type Default = 'minted-here' | 'kept-on-callers-options';

/**
 * The key is a default for one its caller may give: `given || mint()` / `given ?? mint()` with
 * `given` from a parameter, or a write guarded by the key's absence (`if (!o.key) o.key = mint()`).
 * The write is kept on the caller's options when its target is a parameter the function never
 * rebinds (`options = { ...options }` makes it a copy).
 */
function defaultForCallersKey(
  sink: KeySink,
  value: PerAttemptValue,
  fn: TSESTree.FunctionLike,
  context: AnyRuleContext,
): Default | undefined {
  const written = unwrap(sink.value);
  if (
    written.type === AST_NODE_TYPES.LogicalExpression &&
    written.operator !== '&&' &&
    contains(written.right, value.source) &&
    isFromParameter(written.left, fn, context)
  )
    return 'minted-here';
  const node = sink.node;
  if (node.type !== AST_NODE_TYPES.AssignmentExpression || node.left.type !== AST_NODE_TYPES.MemberExpression)
    return undefined;
  if (!isGuardedByAbsence(node, context)) return undefined;
  const root = rootIdentifier(node.left);
  const variable = root && findVariable(context.sourceCode.getScope(root), root);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  const rebound = variable?.references.some((reference) => reference.isWrite()) ?? true;
  return def?.type === DefinitionType.Parameter && def.node === fn && !rebound
    ? 'kept-on-callers-options'
    : 'minted-here';
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

/** A parameter of `fn`, a member of one, or a binding destructured or read from one. */
function isFromParameter(node: TSESTree.Node, fn: TSESTree.FunctionLike, context: AnyRuleContext, depth = 0): boolean {
  const root = rootIdentifier(node);
  if (!root || depth > 2) return false;
  const variable = findVariable(context.sourceCode.getScope(root), root);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (def?.type === DefinitionType.Parameter) return def.node === fn;
  if (def?.type !== DefinitionType.Variable || !def.node.init || !contains(fn, def.node)) return false;
  return isFromParameter(def.node.init, fn, context, depth + 1);
}

/** Names a request function gives the HTTP method it is asked to send. */
const METHOD_NAME = /^(?:http)?method$|^verb$/i;

/** The function sends the method its caller asks for: `method` is a parameter, read from one, or a parameter's `.method`. */
function sendsCallersMethod(fn: TSESTree.FunctionLike, context: AnyRuleContext): boolean {
  const scope = context.sourceCode.scopeManager?.acquire(fn);
  if (!scope) return false;
  return scope.variables.some((variable) => {
    if (METHOD_NAME.test(variable.name)) {
      const def = variable.defs[0];
      if (def?.type === DefinitionType.Parameter) return true;
      if (def?.type === DefinitionType.Variable && def.node.init && isFromParameter(def.node.init, fn, context))
        return true;
    }
    // `options.method`
    return (
      variable.defs.some((def) => def.type === DefinitionType.Parameter) &&
      variable.references.some((reference) => {
        const parent = reference.identifier.parent;
        return (
          parent.type === AST_NODE_TYPES.MemberExpression &&
          parent.object === reference.identifier &&
          METHOD_NAME.test(memberName(parent) ?? '')
        );
      })
    );
  });
}

/** Loops that run an attempt again: their header speaks of retries or attempts. */
const RETRY_LOOP = /retr|attempt|tries/i;

/**
 * `fn` runs again for each retry of the same call: it, or a function that calls it (in this
 * file), is re-entered by its own callees (`makeRequest → retryRequest → makeRequest`), called
 * in a retry loop, or handed to a retry wrapper.
 */
function isRunPerAttempt(fn: TSESTree.FunctionLike, context: AnyRuleContext): boolean {
  const callers = (
    current: TSESTree.FunctionLike,
  ): { call: TSESTree.CallExpression; caller?: TSESTree.FunctionLike }[] =>
    (callSitesOf(current, context)?.calls ?? []).map((call) => ({ call, caller: enclosingFunction(call) }));
  const retried = (current: TSESTree.FunctionLike, path: TSESTree.FunctionLike[]): boolean => {
    if (path.length > 6) return false;
    if (isRetryCallback(current)) return true;
    return callers(current).some(({ call, caller }) => {
      if (!caller) return false;
      if (path.includes(caller) || caller === current) return true;
      if (isInRetryLoop(call, caller, context)) return true;
      return retried(caller, [...path, current]);
    });
  };
  return retried(fn, []);
}

function isRetryCallback(fn: TSESTree.FunctionLike): boolean {
  const call = fn.parent;
  if (call.type !== AST_NODE_TYPES.CallExpression || call.callee === fn) return false;
  const name = memberPath(call.callee)?.at(-1);
  return name !== undefined && RETRY_CALLEE.test(name);
}

function isInRetryLoop(call: TSESTree.Node, owner: TSESTree.FunctionLike, context: AnyRuleContext): boolean {
  for (let current = call.parent; current && current !== owner; current = current.parent) {
    const header =
      current.type === AST_NODE_TYPES.ForStatement
        ? [current.init, current.test, current.update]
        : current.type === AST_NODE_TYPES.WhileStatement || current.type === AST_NODE_TYPES.DoWhileStatement
          ? [current.test]
          : undefined;
    if (header?.some((part) => part && RETRY_LOOP.test(context.sourceCode.getText(part)))) return true;
  }
  return false;
}
