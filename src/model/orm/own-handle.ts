import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext } from '../ast/context.js';
import { isFunction } from '../ast/function.js';
import { memberName } from '../ast/names.js';
import { unwrap } from '../ast/nodes.js';
import { findVariable } from '../ast/values.js';
import { walk } from '../ast/walk.js';
import { calleeSummary } from '../settings.js';
import { getWrite } from '../writes.js';
import { fileLibraries } from './libraries.js';
import { handleFallbackParameter, runsWithoutHandle } from './handle-fallback.js';
import { resolveHandlerFunction } from '../handler/methods.js';
import { isDeferred } from './deferred.js';
import { joinsImplicitly } from './implicit-transactions.js';
import { SEQUELIZE_WRITE_OPTIONS, sequelizeReadOptionsAt } from './sequelize-options.js';
import { isUsedRead } from './omitted-handle.js';
import { compilesOnly, isRun, isTestedRead } from './query-run.js';
import { isWriteChain } from './write-chain.js';
import {
  chainLinks,
  chainNames,
  handsOn,
  isBinding,
  isChainTop,
  isTransactionHandle,
  mentions,
  type OrmTransaction,
} from './transactions.js';

/**
 * A function that writes through a database handle it holds itself rather than one it is
 * handed: an injected or imported client or repository (`this.prisma.creditRecharge.create(...)`,
 * `db.insert(t)`, `this.userRepository.save(...)`), or a MikroORM fork it makes (`const em =
 * this.em.fork()`). Called inside a transaction, it writes on a connection of its own: its writes
 * commit on their own and stay when the transaction rolls back. MikroORM's global manager is
 * left out (inside `em.transactional` it resolves to the transaction), and so is a fork made
 * with the context kept or only when no manager is given (`const em = given ?? this.em.fork()`).
 */

/** What a fork is made with when it keeps resolving through the transaction context. */
const KEEPS_CONTEXT = /\b(?:useContext|keepTransactionContext)\s*:\s*true\b/;

/** Manager members that write, or open a transaction of the fork's own. */
const FORK_WRITES =
  /^(?:persist\w*|flush|remove\w*|nativeInsert\w*|nativeUpdate|nativeDelete|insert\w*|upsert\w*|transactional|begin)$/;

/** The variables of `fn` bound to a fork it makes, which drops the transaction context. */
function ownForks(fn: TSESTree.FunctionLike, context: AnyRuleContext): TSESTree.Identifier[] {
  const forks: TSESTree.Identifier[] = [];
  if (!fn.body) return forks;
  walk(fn.body, context, (node) => {
    if (node !== fn && isFunction(node)) return 'skip';
    if (node.type !== AST_NODE_TYPES.VariableDeclarator || node.id.type !== AST_NODE_TYPES.Identifier || !node.init)
      return undefined;
    if (isContextFreeFork(node.init, context)) forks.push(node.id);
    return undefined;
  });
  return forks;
}

/** True when `init` makes a fork (`x.fork(...)`) that drops the transaction open around it: not made with it kept. */
function isContextFreeFork(init: TSESTree.Node | null, context: AnyRuleContext): boolean {
  const made = init && unwrap(init);
  if (made?.type !== AST_NODE_TYPES.CallExpression) return false;
  const callee = unwrap(made.callee);
  return (
    callee.type === AST_NODE_TYPES.MemberExpression &&
    memberName(callee) === 'fork' &&
    !KEEPS_CONTEXT.test(context.sourceCode.getText(made))
  );
}

/** Each function's answers, read once: every call of it in every transaction asks. */
const writesOwn = new WeakMap<TSESTree.FunctionLike, boolean>();
const readsOwn = new WeakMap<TSESTree.FunctionLike, TSESTree.CallExpression[]>();

/** True when `fn` writes through a handle it holds itself: a client, a repository or a fork (see above). */
export function writesOnItsOwn(fn: TSESTree.FunctionLike, context: AnyRuleContext): boolean {
  const known = writesOwn.get(fn);
  if (known !== undefined) return known;
  // Recursion through the class's own methods stops here: a method being read counts as not writing.
  writesOwn.set(fn, false);
  const found =
    writesThroughOwnFork(fn, context) ||
    writesWithoutTransaction(fn, context) ||
    someChainTop(
      fn,
      context,
      (call) => writesThroughOwnClient(call, fn, context) || delegatesToOwnWrite(call, fn, context),
    );
  writesOwn.set(fn, found);
  return found;
}

/** Walks the chain tops `fn` runs (callbacks included, nested function declarations not), until `test` holds for one. */
function someChainTop(
  fn: TSESTree.FunctionLike,
  context: AnyRuleContext,
  test: (call: TSESTree.CallExpression) => boolean,
): boolean {
  if (!fn.body) return false;
  return walk(fn.body, context, (node) => {
    if (node.type === AST_NODE_TYPES.FunctionDeclaration) return 'skip';
    return node.type === AST_NODE_TYPES.CallExpression && isChainTop(node) && test(node) ? 'stop' : undefined;
  });
}

/** True when `call` is a method of `fn`'s own class that writes on its own (`this.processRecharge(...)`). */
function delegatesToOwnWrite(
  call: TSESTree.CallExpression,
  fn: TSESTree.FunctionLike,
  context: AnyRuleContext,
): boolean {
  const callee = unwrap(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression || unwrap(callee.object).type !== AST_NODE_TYPES.ThisExpression)
    return false;
  const method = resolveHandlerFunction(callee, context.sourceCode.getScope(call));
  return method !== undefined && method !== fn && writesOnItsOwn(method, context);
}

/** Chain members that read rows: Kysely, Drizzle, Knex, Prisma and TypeORM reads. */
const READS =
  /^(?:selectFrom|select|selectAll|findMany|findFirst\w*|findUnique\w*|findOne\w*|find|findBy|count|aggregate|first|executeTakeFirst\w*|getOne\w*|getMany|getRawOne|getRawMany|getCount)$/;

/**
 * The reads `fn` makes through a client or repository it holds itself (`this.db.selectFrom('pages')
 * …executeTakeFirst()`), or through a Sequelize model without a transaction it was never handed:
 * inside a transaction, reads that do not see the transaction's writes nor take part in its isolation.
 */
function ownReads(fn: TSESTree.FunctionLike, context: AnyRuleContext): TSESTree.CallExpression[] {
  const known = readsOwn.get(fn);
  if (known !== undefined) return known;
  const found: TSESTree.CallExpression[] = [];
  const models = fn.body !== undefined && fileLibraries(context).has('sequelize') && handedNoTransaction(fn);
  someChainTop(fn, context, (call) => {
    if ((models && isModelReadWithoutTransaction(call, context)) || isHeldHandleRead(call, fn, context))
      found.push(call);
    return false;
  });
  readsOwn.set(fn, found);
  return found;
}

function isHeldHandleRead(call: TSESTree.CallExpression, fn: TSESTree.FunctionLike, context: AnyRuleContext): boolean {
  const links = chainLinks(call);
  const root = links[0]?.node;
  if (!root || !chainNames(links).some((name) => READS.test(name))) return false;
  if (links.some((link) => isTransactionHandle(link.node, context)) || isHandleFallback(call, fn, context))
    return false;
  return isHeldHandle(root, fn, context) && isDatabaseHandle(links, context);
}

/** The test `node` runs under when it is the guarded branch of `parent`: an `if`'s consequent, a `?:`'s, the right of `&&`. */
function guardOf(parent: TSESTree.Node, node: TSESTree.Node): TSESTree.Node | undefined {
  if (parent.type === AST_NODE_TYPES.IfStatement || parent.type === AST_NODE_TYPES.ConditionalExpression)
    return parent.consequent === node ? parent.test : undefined;
  if (parent.type === AST_NODE_TYPES.LogicalExpression && parent.operator === '&&')
    return parent.right === node ? parent.left : undefined;
  return undefined;
}

/**
 * True when `call` of `fn` leaves out a parameter that every read of {@link ownReads} waits on:
 * each sits under a test of it (`if (!internalId && teamId) { await Document.findOne(...) }`), so
 * this call reads nothing.
 */
function readsOnlyWithOmitted(
  fn: TSESTree.FunctionLike,
  call: TSESTree.CallExpression,
  context: AnyRuleContext,
): boolean {
  const omitted = fn.params
    .slice(call.arguments.length)
    .map((param) => (param.type === AST_NODE_TYPES.AssignmentPattern ? param.left : param))
    .filter((param): param is TSESTree.Identifier => param.type === AST_NODE_TYPES.Identifier);
  if (omitted.length === 0 || call.arguments.some((argument) => argument.type === AST_NODE_TYPES.SpreadElement))
    return false;
  return ownReads(fn, context).every((read) => {
    for (let node: TSESTree.Node = read; node.parent && node !== fn.body; node = node.parent) {
      const test = guardOf(node.parent, node);
      if (test && omitted.some((param) => mentions(test, param, context))) return true;
    }
    return false;
  });
}

/** Names a class or module gives its database handle. */
const DATABASE_HANDLE =
  /^(?:db|prisma|knex|kysely|database|orm|client|dataSource|manager|em|entityManager|\w*Repo(?:sitory)?)$/i;

/** True when a chain goes through a database handle by its name: `this.db…`, `this.prisma…`, `q…` for `const q = this.db.selectFrom(...)`. */
function isDatabaseHandle(links: ReturnType<typeof chainLinks>, context: AnyRuleContext, depth = 0): boolean {
  if (links.some((link) => link.name !== undefined && DATABASE_HANDLE.test(link.name))) return true;
  // An active-record entity's own query builder (`EventEntity.createQueryBuilder('event')`).
  if (links.some((link) => link.name === 'createQueryBuilder')) return true;
  const root = links[0]?.node && unwrap(links[0].node);
  if (root?.type !== AST_NODE_TYPES.Identifier) return false;
  if (DATABASE_HANDLE.test(root.name)) return true;
  const def = findVariable(context.sourceCode.getScope(root), root)?.defs[0];
  if (depth > 2 || def?.node.type !== AST_NODE_TYPES.VariableDeclarator || !def.node.init) return false;
  return isDatabaseHandle(chainLinks(def.node.init), context, depth + 1);
}

/** Parameters through which a function is handed a Sequelize transaction or a Mongoose session, or options that may carry one. */
const TRANSACTION_PARAMETER = /^(?:t|tx|trx|transaction|session|options|opts)$|Options$|Transaction$|Session$/;

/**
 * Sequelize and Mongoose, whose queries join by being handed the transaction: a function that
 * is handed none (no parameter that could carry it) and writes through a model without one
 * (`UserMembership.destroy({ where })`) writes outside any transaction its caller holds.
 */
function writesWithoutTransaction(fn: TSESTree.FunctionLike, context: AnyRuleContext): boolean {
  if (!fn.body || !handedNoTransaction(fn)) return false;
  return someChainTop(fn, context, (node) => {
    const write = getWrite(node, context);
    if (write?.kind !== 'orm' || (write.orm !== 'sequelize' && write.orm !== 'mongoose')) return false;
    // Options handed on whole, or written with the transaction, may join one. For a Sequelize
    // write, only the argument it reads its options from counts.
    const callee = unwrap(node.callee);
    const at =
      write.orm === 'sequelize' && callee.type === AST_NODE_TYPES.MemberExpression
        ? SEQUELIZE_WRITE_OPTIONS.get(memberName(callee) ?? '')
        : undefined;
    const options = at === undefined ? node.arguments : node.arguments.slice(at, at + 1);
    const joins = options.some(
      (argument) =>
        argument.type === AST_NODE_TYPES.SpreadElement ||
        argument.type === AST_NODE_TYPES.Identifier ||
        /\b(?:transaction|session)\b/.test(context.sourceCode.getText(argument)),
    );
    return !joins;
  });
}

/** True when `fn` is handed nothing that could carry a transaction (see {@link TRANSACTION_PARAMETER}). */
function handedNoTransaction(fn: TSESTree.FunctionLike): boolean {
  return !fn.params.some((param) => {
    const name = param.type === AST_NODE_TYPES.AssignmentPattern ? param.left : param;
    return name.type !== AST_NODE_TYPES.Identifier || TRANSACTION_PARAMETER.test(name.name);
  });
}

/**
 * Sequelize: a read through a model (`Team.findOne({ where })`) with options that carry no
 * transaction, in a function handed none: inside its caller's transaction the read runs on
 * another connection and does not see what the transaction has written.
 */
function isModelReadWithoutTransaction(node: TSESTree.CallExpression, context: AnyRuleContext): boolean {
  const callee = unwrap(node.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return false;
  const model = unwrap(callee.object);
  const at = sequelizeReadOptionsAt(memberName(callee) ?? '');
  if (at === undefined || model.type !== AST_NODE_TYPES.Identifier || !/^[A-Z]/.test(model.name)) return false;
  const options = node.arguments[at];
  return (
    !options ||
    (options.type === AST_NODE_TYPES.ObjectExpression &&
      !/\b(?:transaction|session)\b/.test(context.sourceCode.getText(options)))
  );
}

/** Libraries whose transactions a query joins only through the handle it is sent on. */
const HANDLE_LIBRARIES: ReadonlySet<string> = new Set(['prisma', 'drizzle', 'knex', 'kysely', 'typeorm', 'pg-promise']);

/** True when `call` (in `fn`) writes through a client or repository `fn` holds itself: on `this`, imported, or the module's own. */
function writesThroughOwnClient(
  call: TSESTree.CallExpression,
  fn: TSESTree.FunctionLike,
  context: AnyRuleContext,
): boolean {
  const write = getWrite(call, context);
  if (write?.kind !== 'orm' || !HANDLE_LIBRARIES.has(write.orm)) return false;
  const links = chainLinks(call);
  const root = links[0]?.node;
  // `this.knex(t).update(row).toQuery()` is SQL text for another client to run.
  if (compilesOnly(chainNames(links))) return false;
  // `this.txHost.tx.user.create(...)` (a CLS transaction host) goes through the transaction.
  if (links.some((link) => isTransactionHandle(link.node, context))) return false;
  // `if (queryRunner) … else this.repository.save(row)`: the fallback of a caller that hands no handle.
  if (isHandleFallback(call, fn, context)) return false;
  return root !== undefined && isHeldHandle(root, fn, context);
}

/** True when `node` runs only when `fn` is not handed the handle it takes (handle-fallback.ts). */
function isHandleFallback(node: TSESTree.Node, fn: TSESTree.FunctionLike, context: AnyRuleContext): boolean {
  const index = handleFallbackParameter(fn, context);
  return index !== undefined && runsWithoutHandle(node, fn, index);
}

/** True when a chain's root is a handle `fn` holds itself, not one it was handed (a parameter, or a value made from one). */
function isHeldHandle(root: TSESTree.Node, fn: TSESTree.FunctionLike, context: AnyRuleContext, depth = 0): boolean {
  let target = unwrap(root);
  // A chain is held when its first link is: `this.db.selectFrom(t).where(...).limit(1)`.
  while (target.type === AST_NODE_TYPES.MemberExpression || target.type === AST_NODE_TYPES.CallExpression)
    target = unwrap(target.type === AST_NODE_TYPES.MemberExpression ? target.object : target.callee);
  if (target.type === AST_NODE_TYPES.ThisExpression) return true;
  if (target.type !== AST_NODE_TYPES.Identifier) return false;
  const def = findVariable(context.sourceCode.getScope(target), target)?.defs[0];
  if (!def) return false;
  if (def.type === TSESLint.Scope.DefinitionType.ImportBinding) return true;
  if (def.type !== TSESLint.Scope.DefinitionType.Variable) return false;
  // Declared outside the function: the module's own client (`const prisma = new PrismaClient()`).
  if (!(fn.range[0] <= def.node.range[0] && def.node.range[1] <= fn.range[1])) return true;
  const init = def.node.init && unwrap(def.node.init);
  if (!init || init.type === AST_NODE_TYPES.LogicalExpression || init.type === AST_NODE_TYPES.ConditionalExpression)
    return false;
  return depth < 3 && isHeldHandle(init, fn, context, depth + 1);
}

/** True when `fn` writes through a fork of the entity manager it makes itself (MikroORM files only). */
function writesThroughOwnFork(fn: TSESTree.FunctionLike, context: AnyRuleContext): boolean {
  if (!fileLibraries(context).has('mikro-orm')) return false;
  return ownForks(fn, context).some((fork) =>
    (findVariable(context.sourceCode.getScope(fork), fork)?.references ?? []).some((reference) => {
      const used = reference.identifier;
      const member = used.parent;
      if (member.type !== AST_NODE_TYPES.MemberExpression || member.object !== used) return false;
      let top: TSESTree.Node = member;
      while (top.parent.type === AST_NODE_TYPES.MemberExpression || top.parent.type === AST_NODE_TYPES.CallExpression)
        top = top.parent;
      return chainNames(chainLinks(top)).some((name) => FORK_WRITES.test(name));
    }),
  );
}

/**
 * True when `callee` writes through a fork of its own: a function or method of this file that
 * {@link writesThroughOwnFork} describes (`this.createOrder(...)`), or one `idempotency-check`
 * found in another module (`settings.idempotency.ownHandleFunctions`).
 */
function isOwnHandleCallee(
  callee: TSESTree.Node,
  local: TSESTree.FunctionLike | undefined,
  context: AnyRuleContext,
): boolean {
  if (local) return writesOnItsOwn(local, context);
  return calleeSummary(callee, context)?.ownHandle === true;
}

/** The calls in `transaction` of functions that write through a handle of their own, handed nothing of it. */
export function ownHandleCalls(
  transaction: OrmTransaction,
  context: AnyRuleContext,
): { node: TSESTree.CallExpression; reads: boolean }[] {
  const { tx } = transaction;
  // Sequelize's CLS and Mongoose's async-local-storage hand the transaction to every query inside it.
  if (joinsImplicitly(transaction, context)) return [];
  const found: { node: TSESTree.CallExpression; reads: boolean }[] = [];
  walk(transaction.body, context, (node) => {
    if (node.range[0] < transaction.from || node.range[1] > transaction.to) return undefined;
    if (isDeferred(node, transaction, context)) return 'skip';
    if (node.type !== AST_NODE_TYPES.CallExpression || !isChainTop(node) || !isRun(node, [])) return undefined;
    if (tx && node.arguments.some((argument) => handsOn(argument, tx, context))) return undefined;
    const callee = unwrap(node.callee);
    const local = resolveHandlerFunction(callee, context.sourceCode.getScope(node));
    // A function written inside the transaction has its queries read there, one by one.
    if (local && transaction.body.range[0] <= local.range[0] && local.range[1] <= transaction.body.range[1])
      return undefined;
    if (isOwnHandleCallee(callee, local, context)) found.push({ node, reads: false });
    // A function of this file that reads on its own, whose result decides what the transaction
    // writes (tested: a check-then-write that cannot lock what it checked), or that the
    // transaction goes on with once it has written: the read does not see those writes. (A
    // result only used, before any write, is what a read through the transaction would give.)
    else if (
      local &&
      ownReads(local, context).length > 0 &&
      !readsOnlyWithOmitted(local, node, context) &&
      (isTestedRead(node, context) ||
        (isUsedRead(node, transaction, context) && writtenBefore(node, transaction, context)))
    )
      found.push({ node, reads: true });
    return undefined;
  });
  return found;
}

/**
 * True when `call` writes through the transaction: on its own handle (`trx.updateTable(...)`, whose
 * library the file need not import) or by a write-named call handed it (`this.pages.update(p, id, trx)`).
 */
function throughTransaction(
  call: TSESTree.CallExpression,
  transaction: OrmTransaction,
  context: AnyRuleContext,
): boolean {
  const { tx } = transaction;
  if (!tx) return false;
  const links = chainLinks(call);
  const root = links[0]?.node;
  const onHandle = root !== undefined && isBinding(root, tx, context);
  return (
    (onHandle || call.arguments.some((argument) => handsOn(argument, tx, context))) && isWriteChain(links, context)
  );
}

/** True when the transaction writes before `node`, or in a loop around it (an earlier turn's write). */
function writtenBefore(node: TSESTree.Node, transaction: OrmTransaction, context: AnyRuleContext): boolean {
  let loop: TSESTree.Node | undefined;
  for (
    let current: TSESTree.Node | undefined = node.parent;
    current && current !== transaction.body;
    current = current.parent
  )
    if (/^(?:For|ForIn|ForOf|While|DoWhile)Statement$/.test(current.type)) loop = current;
  const end = loop ? loop.range[1] : node.range[0];
  return walk(transaction.body, context, (inner) => {
    if (inner.range[0] < transaction.from || inner.range[0] >= end) return undefined;
    if (inner === node || inner.type !== AST_NODE_TYPES.CallExpression || !isChainTop(inner)) return undefined;
    return getWrite(inner, context) || throughTransaction(inner, transaction, context) ? 'stop' : undefined;
  });
}
