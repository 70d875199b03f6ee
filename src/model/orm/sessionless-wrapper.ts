import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext } from '../ast/context.js';
import { memberName } from '../ast/names.js';
import { unwrap } from '../ast/nodes.js';
import { findVariable, methodCallsOn } from '../ast/values.js';
import { walk } from '../ast/walk.js';
import { calleeSummary } from '../settings.js';
import { localFunction } from '../sql/rollback.js';
import { handsOn, parentOf } from './transactions.js';

/**
 * A project's own Mongoose transaction wrapper that never hands its session to the work it
 * wraps: `async transaction(fn) { const session = await conn.startSession();
 * session.startTransaction(); await fn(); await session.commitTransaction(); }`. A Mongoose
 * write joins a transaction only through its session (`{ session }`, `.session(s)`); the
 * async-local-storage option (`transactionAsyncLocalStorage`) covers only `connection.transaction`,
 * not a session started by hand. So every write in the callback runs outside the transaction the
 * wrapper opened: it commits on its own, and the abort on error leaves it applied.
 */

type FunctionLike = TSESTree.FunctionLike;

/** `const session = await x.startSession()`: the session variable a function starts. */
function startedSessions(fn: FunctionLike, context: AnyRuleContext): TSESTree.Identifier[] {
  const found: TSESTree.Identifier[] = [];
  if (!fn.body) return found;
  walk(fn.body, context, (node) => {
    if (node.type !== AST_NODE_TYPES.VariableDeclarator || node.id.type !== AST_NODE_TYPES.Identifier || !node.init)
      return undefined;
    let init = unwrap(node.init);
    if (init.type === AST_NODE_TYPES.AwaitExpression) init = unwrap(init.argument);
    const callee = init.type === AST_NODE_TYPES.CallExpression ? unwrap(init.callee) : undefined;
    if (callee?.type === AST_NODE_TYPES.MemberExpression && memberName(callee) === 'startSession') found.push(node.id);
    return undefined;
  });
  return found;
}

/** True when `session.startTransaction()` or `session.withTransaction(...)` is called in `fn`. */
function opensTransaction(fn: FunctionLike, session: TSESTree.Identifier, context: AnyRuleContext): boolean {
  if (!fn.body) return false;
  return methodCallsOn(session, context).some(({ method }) =>
    /^(?:startTransaction|withTransaction)$/.test(method ?? ''),
  );
}

/**
 * The position of the callback parameter `fn` calls inside the session transaction it opens
 * without handing it the session, or undefined when it opens none or hands the session on.
 */
export function sessionlessCallbackParameter(fn: FunctionLike, context: AnyRuleContext): number | undefined {
  const sessions = startedSessions(fn, context).filter((session) => opensTransaction(fn, session, context));
  if (sessions.length === 0 || !fn.body) return undefined;
  for (const [index, param] of fn.params.entries()) {
    const name = param.type === AST_NODE_TYPES.AssignmentPattern ? param.left : param;
    if (name.type !== AST_NODE_TYPES.Identifier) continue;
    const variable = findVariable(context.sourceCode.getScope(name), name);
    const calls = (variable?.references ?? []).flatMap((reference) => {
      const call = parentOf(reference.identifier);
      return call?.type === AST_NODE_TYPES.CallExpression && call.callee === reference.identifier ? [call] : [];
    });
    // Handed on whole (`session.withTransaction(fn)` calls it with the session), or never called.
    const elsewhere = (variable?.references ?? []).some((reference) => {
      const parent = parentOf(reference.identifier);
      return !(parent?.type === AST_NODE_TYPES.CallExpression && parent.callee === reference.identifier);
    });
    if (calls.length === 0 || elsewhere) continue;
    const handed = calls.some((call) =>
      call.arguments.some((argument) => sessions.some((session) => handsOn(argument, session, context))),
    );
    if (!handed) return index;
  }
  return undefined;
}

/**
 * True when `call` runs its callback in a transaction whose session the callback is never
 * given: a function of this file that {@link sessionlessCallbackParameter} describes, or one
 * `idempotency-check` found in another module (`settings.idempotency.sessionlessTransactions`:
 * an imported function, a namespace's member, or an injected service's method `Class.method`).
 */
export function isSessionlessTransaction(call: TSESTree.CallExpression, context: AnyRuleContext): boolean {
  const callee = unwrap(call.callee);
  const local = localFunction(callee, context);
  if (local) return sessionlessCallbackParameter(local, context) !== undefined;
  return calleeSummary(callee, context)?.sessionlessTransaction === true;
}
