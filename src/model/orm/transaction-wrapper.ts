import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext } from '../ast/context.js';
import { memberName } from '../ast/names.js';
import { unwrap } from '../ast/nodes.js';
import { findVariable } from '../ast/values.js';
import { walk } from '../ast/walk.js';
import { injectedCallee } from '../class-members.js';
import { importSource } from '../modules.js';
import { summaryAt, hasSummaryFact } from '../settings.js';
import { localFunction } from '../sql/rollback.js';
import { handleLibrary, type OrmLibrary } from './libraries.js';
import { kyselyTransactionHandle } from './kysely-transaction.js';

/**
 * A project's own transaction wrapper that hands the work it wraps to a library's transaction:
 * `run(fn) { return this.dataSource.transaction(fn); }` (TypeORM), `withTx(work) { return
 * prisma.$transaction((tx) => work(tx)); }`, `em.transactional(fn)` (MikroORM),
 * `db.transaction().execute((trx) => callback(trx))` (Kysely). The callback
 * a caller passes runs inside that transaction with the transaction's handle as its first
 * parameter, exactly as if the caller had opened it: a query in it that goes around the handle
 * escapes. The file that calls the wrapper often imports no ORM at all, so only the wrapper's
 * own module can say which library's transaction it is.
 */

type FunctionLike = TSESTree.FunctionLike;

/** Where a wrapper takes the work it runs in the transaction, and whose transaction it is. */
export interface WrappedCallback {
  index: number;
  library: OrmLibrary;
}

/** A wrapper of this file: also the outer handle it opens the transaction on (`prisma`), which its work may go around. */
interface LocalWrapper extends WrappedCallback {
  handle: TSESTree.Node;
}

/** The library whose transaction `call` opens with a callback, from its method and receiver. */
function transactionLibrary(call: TSESTree.CallExpression, context: AnyRuleContext): OrmLibrary | undefined {
  const callee = unwrap(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const method = memberName(callee);
  if (method === '$transaction') return 'prisma';
  if (method === 'transactional') return 'mikro-orm';
  if (method === 'execute') return kyselyTransactionHandle(callee.object) ? 'kysely' : undefined;
  return method === 'transaction' ? handleLibrary(unwrap(callee.object), context) : undefined;
}

/** True when `node` is the parameter `param` (the same binding). */
function isParam(node: TSESTree.Node, param: TSESTree.Identifier, context: AnyRuleContext): boolean {
  const target = unwrap(node);
  return (
    target.type === AST_NODE_TYPES.Identifier &&
    target.name === param.name &&
    findVariable(context.sourceCode.getScope(target), target) ===
      findVariable(context.sourceCode.getScope(param), param)
  );
}

/**
 * True when `argument` (given to a transaction call) runs `param` with the transaction's
 * handle: `param` itself, or `(manager) => param(manager)`.
 */
function runsWithHandle(argument: TSESTree.Node, param: TSESTree.Identifier, context: AnyRuleContext): boolean {
  if (isParam(argument, param, context)) return true;
  if (argument.type !== AST_NODE_TYPES.ArrowFunctionExpression && argument.type !== AST_NODE_TYPES.FunctionExpression)
    return false;
  const handle = argument.params[0];
  if (handle?.type !== AST_NODE_TYPES.Identifier) return false;
  return walk(argument.body, context, (node) =>
    node.type === AST_NODE_TYPES.CallExpression &&
    isParam(node.callee, param, context) &&
    node.arguments.some((given) => isParam(given, handle, context))
      ? 'stop'
      : undefined,
  );
}

/**
 * The parameter of `fn` that it runs inside a library's transaction, handed the transaction's
 * handle, with that library; undefined when `fn` is no such wrapper (or its library is unknown).
 */
export function wrappedTransactionCallback(fn: FunctionLike, context: AnyRuleContext): WrappedCallback | undefined {
  const found = localWrapper(fn, context);
  return found && { index: found.index, library: found.library };
}

function localWrapper(fn: FunctionLike, context: AnyRuleContext): LocalWrapper | undefined {
  if (known.has(fn)) return known.get(fn);
  const found = findWrappedCallback(fn, context);
  known.set(fn, found);
  return found;
}

/** Each function's answer, read once: every call of a local function asks. */
const known = new WeakMap<FunctionLike, LocalWrapper | undefined>();

function findWrappedCallback(fn: FunctionLike, context: AnyRuleContext): LocalWrapper | undefined {
  if (!fn.body) return undefined;
  for (const [index, raw] of fn.params.entries()) {
    const param = raw.type === AST_NODE_TYPES.AssignmentPattern ? raw.left : raw;
    if (param.type !== AST_NODE_TYPES.Identifier) continue;
    let found: LocalWrapper | undefined;
    walk(fn.body, context, (node) => {
      if (node.type !== AST_NODE_TYPES.CallExpression || node.callee.type !== AST_NODE_TYPES.MemberExpression)
        return undefined;
      if (!node.arguments.some((argument) => runsWithHandle(argument, param, context))) return undefined;
      const library = transactionLibrary(node, context);
      const handle = library === 'kysely' ? kyselyTransactionHandle(node.callee.object) : unwrap(node.callee.object);
      if (library && handle) found = { index, library, handle };
      return found ? 'stop' : undefined;
    });
    if (found) return found;
  }
  return undefined;
}

/**
 * The wrapper `call` calls, when it is one: a function of this file, or one `idempotency-check`
 * found in another module (`settings.idempotency.transactionWrappers`: an imported function, a
 * namespace's member, or an injected service's method `Class.method`).
 */
export function calledTransactionWrapper(
  call: TSESTree.CallExpression,
  context: AnyRuleContext,
): (WrappedCallback & { handle?: TSESTree.Node }) | undefined {
  const callee = unwrap(call.callee);
  const local = localFunction(callee, context);
  if (local) return localWrapper(local, context);
  if (!hasSummaryFact(context, 'transactionWrapper')) return undefined;
  const scope = context.sourceCode.getScope(callee);
  const pick = (from: string, name: string): { index: number; library: string } | undefined =>
    summaryAt(context, from, name)?.transactionWrapper?.[0];
  let entry: { index: number; library: string } | undefined;
  if (callee.type === AST_NODE_TYPES.Identifier) {
    const source = importSource(callee, scope);
    entry = source && pick(source.module, source.imported);
  } else if (callee.type === AST_NODE_TYPES.MemberExpression) {
    const injected = injectedCallee(callee, scope);
    const object = unwrap(callee.object);
    const method = memberName(callee);
    if (injected) entry = pick(injected.specifier, `${injected.imported}.${injected.member}`);
    else if (object.type === AST_NODE_TYPES.Identifier && method !== undefined) {
      const source = importSource(object, scope);
      entry = source && pick(source.module, source.imported === '*' ? method : `${source.imported}.${method}`);
    }
  }
  return entry && { index: entry.index, library: entry.library as OrmLibrary };
}
