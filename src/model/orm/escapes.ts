import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext } from '../ast/context.js';
import { unwrap } from '../ast/nodes.js';
import { findVariable, methodCallsOn } from '../ast/values.js';
import { endName, memberName, propertyKeyName } from '../ast/names.js';
import { walk } from '../ast/walk.js';
import { importSource } from '../modules.js';
import { contextFreeQuery, type ContextFreeQuery } from './context-free-connection.js';
import { isFunction } from '../ast/function.js';
import { isDeferred } from './deferred.js';
import { runsWithoutHandle } from './handle-fallback.js';
import { joinsImplicitly } from './implicit-transactions.js';
import { feathersServiceParams } from './feathers-service.js';
import { isSingleDocument } from './mongoose-create.js';
import { nocoBaseRepositoryWrite } from './nocobase-repository.js';
import { omittedHandleCalls, WRITE_NAME } from './omitted-handle.js';
import { outerCarrierCalls } from './outer-carrier.js';
import { ownHandleCalls } from './own-handle.js';
import { isDatabaseServiceName } from './services.js';
import { unusedTransactionWrites } from './unused-transaction.js';
import { isWriteChain } from './write-chain.js';
import { changedRead, drivesTransaction, isRun, isTestedRead } from './query-run.js';
import { type OrmLibrary } from './libraries.js';
import {
  forwardedOptionsAt,
  ignoredTransactionArgument,
  isAssociationWrite,
  SEQUELIZE_WRITE_OPTIONS,
  sequelizeReadOptionsAt,
} from './sequelize-options.js';
import {
  chainArguments,
  chainLinks,
  chainNames,
  handsOn,
  isBinding,
  isChainTop,
  mentions,
  ormTransaction,
  parentOf,
  type OrmTransaction,
} from './transactions.js';

/** A query inside an ORM transaction that does not run in it. */
export interface OrmEscape {
  /** The query (the last call of its chain). */
  node: TSESTree.CallExpression | TSESTree.NewExpression;
  /**
   * `handle`: it goes through the outer handle (`prisma` for `tx`); `repository`: through a
   * TypeORM repository bound to the data source's own manager; `service`: a TypeORM injected
   * service's write, handed nothing of the transaction; `option`: it lacks
   * `{ transaction: t }` / `{ session }`; `helper`: it calls a function that takes the handle to
   * query with (falling back to the pool) without the transaction's; `connection`: MikroORM, it
   * goes below the entity manager (its connection, driver or raw client) without the
   * transaction context; `ignoredOptions`: Mongoose `Model.create(doc, { session })` with a single
   * document, which never reads the options; `ignoredArgument`: Sequelize, the transaction is
   * handed in an argument after the one the method reads its options from (`sum(field, options,
   * { transaction })`); `context`: Medusa, another service's write not handed the shared
   * context that carries the transaction; `carrier`: MikroORM, an object that carries the outer
   * manager (`this.ctx` for `this.ctx.em`) handed on where the transaction hands others its own;
   * `fork`: MikroORM, a function that writes through a fork of its own manager (orm/own-handle.ts);
   * `unused`: a write of the class in a held transaction nothing queries through (orm/unused-transaction.ts).
   */
  kind:
    | 'handle'
    | 'carrier'
    | 'own'
    | 'ownRead'
    | 'unused'
    | 'repository'
    | 'service'
    | 'context'
    | 'option'
    | 'helper'
    | 'connection'
    | 'ignoredOptions'
    | 'ignoredArgument';
  /** What it goes through: the outer handle or repository, or the receiver of the call. */
  via: TSESTree.Node;
  /**
   * The replacement that sends the call through the transaction; `provable` when the
   * transaction's handle has the outer handle's API (a fix), else a suggestion.
   */
  rewrite: { range: TSESTree.Range; text: string; provable: boolean } | undefined;
  /** For `option`: where `{ transaction: t }` / `{ session }` goes; for `helper`: where `, t` goes. As a suggestion. */
  addOption: { range: TSESTree.Range; text: string } | undefined;
}

/** Transaction calls: a query that opens its own transaction is not an escape of this one. */
const TRANSACTION_METHODS = new Set(['transaction', '$transaction', 'tx', 'txIf', 'transactional', 'startTransaction']);

/** Members of a handle that build values or manage the client rather than run a query. */
const NOT_QUERIES = new Set([
  '$on',
  '$connect',
  '$disconnect',
  '$extends',
  '$use',
  'fn',
  'ref',
  'dynamic',
  'schema',
  'createQueryRunner',
  'isTransaction',
  'client',
  'as',
  'with',
]);

/** Libraries whose transaction handle has the outer handle's query API, so `tx` can stand in for it. */
const SAME_API: ReadonlySet<OrmLibrary> = new Set(['prisma', 'drizzle', 'knex', 'kysely', 'pg-promise', 'mikro-orm']);

/** TypeORM: what a data source and an entity manager share. */
const TYPEORM_SHARED = new Set(['getRepository', 'getTreeRepository', 'query', 'createQueryBuilder']);

/**
 * Sequelize and Mongoose writes, with the position of their options argument (where
 * `{ transaction: t }` / `{ session }` goes).
 */
const OPTION_WRITES: Readonly<Record<'sequelize' | 'mongoose', ReadonlyMap<string, number>>> = {
  sequelize: SEQUELIZE_WRITE_OPTIONS,
  mongoose: new Map([
    ['create', 1],
    ['insertMany', 1],
    ['updateOne', 2],
    ['updateMany', 2],
    ['replaceOne', 2],
    ['deleteOne', 1],
    ['deleteMany', 1],
    ['findOneAndUpdate', 2],
    ['findByIdAndUpdate', 2],
    ['findOneAndDelete', 1],
    ['findByIdAndDelete', 1],
    ['findOneAndReplace', 2],
    ['bulkWrite', 1],
    ['save', 0],
  ]),
};

/** Receivers that are never models. */
const NOT_MODELS =
  /^(?:Object|Array|Promise|JSON|Reflect|Math|Date|Map|Set|WeakMap|Buffer|String|Number|Symbol|Error|console|crypto)$|hash|hmac|cipher|cache|redis|map$|set$|client$|queue|stripe|axios|http|api/i;

/** The queries in `transaction` that do not run in it. */
export function ormEscapes(transaction: OrmTransaction, context: AnyRuleContext): OrmEscape[] {
  const { tx } = transaction;
  // A callback that takes no transaction client (`prisma.$transaction(async () => ...)`): every
  // query on the handle escapes, for libraries whose transactions join only through the client.
  // A wrapper that never hands the callback its session: every write there lacks it.
  if (
    !tx &&
    !transaction.sessionless &&
    (transaction.joins === 'option' || transaction.library === undefined || transaction.library === 'sequelize')
  )
    return [];
  // Sequelize's CLS and Mongoose's async-local-storage option pass the transaction implicitly.
  if (joinsImplicitly(transaction, context)) return [];
  const found: OrmEscape[] = [];
  // A transaction the function is handed is absent where it tests for it (`if (queryRunner) …
  // else this.repository.save(row)`): that branch runs for callers that hand it none.
  const handed = tx && isFunction(tx.parent) ? { fn: tx.parent, index: tx.parent.params.indexOf(tx) } : undefined;
  walk(transaction.body, context, (node) => {
    if (node.range[0] < transaction.from || node.range[1] > transaction.to) return undefined;
    if (isDeferred(node, transaction, context)) return 'skip';
    if (handed && handed.index >= 0 && runsWithoutHandle(node, handed.fn, handed.index)) return 'skip';
    if (node.type !== AST_NODE_TYPES.CallExpression || !isChainTop(node)) return undefined;
    const escape = transaction.context
      ? contextEscape(node, tx, context)
      : transaction.joins === 'handle'
        ? handleEscape(node, transaction, tx, context)
        : optionEscape(node, transaction, tx, context);
    if (escape) found.push(escape);
    return undefined;
  });
  for (const omitted of omittedHandleCalls(transaction, context)) {
    if (found.some((escape) => escape.node === omitted.node)) continue;
    found.push({
      node: omitted.node,
      kind: 'helper',
      via: omitted.callee,
      rewrite: undefined,
      addOption: omitted.append,
    });
  }
  for (const write of unusedTransactionWrites(transaction, context)) {
    if (found.some((escape) => escape.node === write.node)) continue;
    found.push({ node: write.node, kind: 'unused', via: write.via, rewrite: undefined, addOption: undefined });
  }
  for (const { node, reads } of ownHandleCalls(transaction, context)) {
    if (found.some((escape) => escape.node === node)) continue;
    found.push({ node, kind: reads ? 'ownRead' : 'own', via: node.callee, rewrite: undefined, addOption: undefined });
  }
  for (const carried of outerCarrierCalls(transaction, context)) {
    if (found.some((escape) => escape.node === carried.node)) continue;
    found.push({ node: carried.node, kind: 'carrier', via: carried.via, rewrite: undefined, addOption: undefined });
  }
  return found;
}

/** MikroORM: `em.persist(entity)` / `em.remove(entity)` as a statement queues a write for that manager's flush. */
function isMarkedForFlush(call: TSESTree.CallExpression, names: readonly string[]): boolean {
  const last = names.at(-1);
  return (last === 'persist' || last === 'remove') && parentOf(call)?.type === AST_NODE_TYPES.ExpressionStatement;
}

/**
 * MikroORM: a manager bound to `x.fork(...)`. A fork does not resolve through the transaction
 * context (unless it is made with `useContext: true`), so its queries stay outside. (A fork's
 * `keepTransactionContext` keeps only a transaction already open when it is made: made before
 * this one opens, it keeps nothing.)
 */
function isOwnFork(handle: TSESTree.Node, context: AnyRuleContext): boolean {
  const target = unwrap(handle);
  if (target.type !== AST_NODE_TYPES.Identifier) return false;
  const def = findVariable(context.sourceCode.getScope(target), target)?.defs[0];
  if (def?.node.type !== AST_NODE_TYPES.VariableDeclarator || !def.node.init) return false;
  const init = unwrap(def.node.init);
  if (init.type !== AST_NODE_TYPES.CallExpression) return false;
  const callee = unwrap(init.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression || memberName(callee) !== 'fork') return false;
  return !/\buseContext\s*:\s*true\b/.test(context.sourceCode.getText(init));
}

function sameHandle(node: TSESTree.Node, handle: TSESTree.Node, context: AnyRuleContext): boolean {
  const text = context.sourceCode.getText.bind(context.sourceCode);
  if (text(unwrap(node)) !== text(unwrap(handle))) return false;
  // The callback's parameter may shadow the outer name (`prisma.$transaction(async (prisma) => ...)`).
  let root: TSESTree.Node = unwrap(node);
  while (root.type === AST_NODE_TYPES.MemberExpression) root = unwrap(root.object);
  let outerRoot: TSESTree.Node = unwrap(handle);
  while (outerRoot.type === AST_NODE_TYPES.MemberExpression) outerRoot = unwrap(outerRoot.object);
  if (root.type !== AST_NODE_TYPES.Identifier || outerRoot.type !== AST_NODE_TYPES.Identifier) return true;
  return isBinding(root, outerRoot, context);
}

function handleEscape(
  call: TSESTree.CallExpression,
  transaction: OrmTransaction,
  tx: TSESTree.Identifier | undefined,
  context: AnyRuleContext,
): OrmEscape | undefined {
  const links = chainLinks(call);
  const names = chainNames(links);
  if (names.some((name) => TRANSACTION_METHODS.has(name))) return undefined;
  // Knex `.transacting(trx)`, Mongoose `.session(s)`: the builder joins the transaction.
  // A call handed the transaction (`.transacting(trx)`, `repository.save(entity, manager)`) runs in it.
  if (tx && chainArguments(links).some((argument) => handsOn(argument, tx, context))) return undefined;
  if (!isRun(call, names) && !(transaction.library === 'mikro-orm' && isMarkedForFlush(call, names))) return undefined;
  if (transaction.library === 'typeorm') {
    const service = serviceEscape(call, context);
    if (service) return service;
  }
  // Reads outside the transaction count when they decide a write: tested (check-then-write), or
  // rows the transaction works through.
  if (
    !isWriteChain(links, context) &&
    !isTestedRead(call, context) &&
    !(tx && drivesTransaction(call, names, tx, context))
  )
    return undefined;
  const { handle } = transaction;
  const free = contextFreeQuery(links, call, transaction, context);
  if (free) return connectionEscape(call, free, tx, context);
  // MikroORM runs the callback in a transaction context that the global entity manager, and
  // every repository of it (`this.em`, an injected `this.userRepository`), resolves to: only a
  // fork of its own (`const em = orm.em.fork()`) stays outside. A transaction opened with
  // `begin()` sets no context: every manager but its own stays outside.
  if (transaction.library === 'mikro-orm' && !transaction.contextFree && !(handle && isOwnFork(handle, context)))
    return undefined;
  const index = handle ? links.findIndex((link) => sameHandle(link.node, handle, context)) : -1;
  if (handle && index >= 0 && index < links.length - 1) {
    const next = links[index + 1]?.name;
    const typeormManager = transaction.library === 'typeorm' && next === 'manager';
    if (next !== undefined && NOT_QUERIES.has(next)) return undefined;
    return {
      node: call,
      kind: 'handle',
      via: links[index]?.node ?? handle,
      rewrite: tx && handleRewrite(links, index, transaction, tx, typeormManager, call, context),
      addOption: undefined,
    };
  }
  if (transaction.library === 'typeorm')
    return (
      typeormGlobalEscape(call, links, transaction, tx, context) ??
      activeRecordEscape(call, links, names, tx, context) ??
      repositoryEscape(call, links, names, tx, context)
    );
  return undefined;
}

/** MikroORM: `tx.getConnection().execute(sql, params)` and the like; `tx.execute(sql, params)` applies the context (a suggestion). */
function connectionEscape(
  call: TSESTree.CallExpression,
  free: ContextFreeQuery,
  tx: TSESTree.Identifier | undefined,
  context: AnyRuleContext,
): OrmEscape {
  const inScope =
    tx !== undefined &&
    findVariable(context.sourceCode.getScope(call), tx.name) === findVariable(context.sourceCode.getScope(tx), tx);
  const rewrite =
    free.callee && tx && inScope
      ? { range: free.callee.range, text: `${tx.name}.execute`, provable: false }
      : undefined;
  return { node: call, kind: 'connection', via: free.via, rewrite, addOption: undefined };
}

function handleRewrite(
  links: readonly { node: TSESTree.Node; name: string | undefined }[],
  index: number,
  transaction: OrmTransaction,
  tx: TSESTree.Identifier,
  typeormManager: boolean,
  call: TSESTree.CallExpression,
  context: AnyRuleContext,
): { range: TSESTree.Range; text: string; provable: boolean } | undefined {
  const at = links[index]?.node;
  if (!at) return undefined;
  // The transaction's name must mean the transaction where the query is.
  if (findVariable(context.sourceCode.getScope(call), tx.name) !== findVariable(context.sourceCode.getScope(tx), tx))
    return undefined;
  const library = transaction.library;
  const text = transaction.txHandle ?? tx.name;
  if (library && SAME_API.has(library)) return { range: at.range, text, provable: true };
  if (library === 'typeorm') {
    const next = links[index + 1];
    if (typeormManager && next) return { range: [at.range[0], next.node.range[1]], text, provable: true };
    if (next?.name !== undefined && TYPEORM_SHARED.has(next.name)) return { range: at.range, text, provable: true };
    return undefined;
  }
  return { range: at.range, text: tx.name, provable: false };
}

/** TypeORM's functions of the default connection (0.2): what they return is not the transaction's. */
const TYPEORM_GLOBALS = new Set([
  'getRepository',
  'getTreeRepository',
  'getCustomRepository',
  'getMongoRepository',
  'getManager',
  'getConnection',
  'createQueryBuilder',
]);

/**
 * TypeORM: `getRepository(Order).save(...)`, `getManager().save(...)` inside a transaction: the
 * default connection's manager, not the transaction's. The fix sends the same call through the
 * transaction's manager, which has the same methods.
 */
function typeormGlobalEscape(
  call: TSESTree.CallExpression,
  links: readonly { node: TSESTree.Node; name: string | undefined }[],
  transaction: OrmTransaction,
  tx: TSESTree.Identifier | undefined,
  context: AnyRuleContext,
): OrmEscape | undefined {
  const root = links[0]?.node;
  const made = links[1]?.node;
  if (root?.type !== AST_NODE_TYPES.Identifier || made?.type !== AST_NODE_TYPES.CallExpression || links.length < 3)
    return undefined;
  const source = importSource(root, context.sourceCode.getScope(root));
  if (source?.module !== 'typeorm' || !TYPEORM_GLOBALS.has(source.imported)) return undefined;
  let rewrite: OrmEscape['rewrite'];
  const manager = transaction.txHandle ?? tx?.name;
  const sameScope =
    tx !== undefined &&
    findVariable(context.sourceCode.getScope(call), tx.name) === findVariable(context.sourceCode.getScope(tx), tx);
  if (manager !== undefined && sameScope) {
    if (source.imported === 'getManager' && made.arguments.length === 0)
      rewrite = { range: made.range, text: manager, provable: true };
    else if (source.imported === 'getRepository' || source.imported === 'getTreeRepository')
      rewrite = { range: root.range, text: `${manager}.${source.imported}`, provable: true };
  }
  return { node: call, kind: 'handle', via: made, rewrite, addOption: undefined };
}

/** TypeORM active record methods: an entity that extends `BaseEntity` saves through the data source's own manager. */
const ACTIVE_RECORD_WRITES = new Set(['save', 'remove', 'softRemove', 'recover']);

/**
 * TypeORM: `const game = repository.create({...}); await game.save()` inside a transaction. An
 * entity has `save()` only when it extends `BaseEntity`, and `BaseEntity#save` goes through the
 * data source the entity class is bound to, never through the transaction's manager.
 */
function activeRecordEscape(
  call: TSESTree.CallExpression,
  links: readonly { node: TSESTree.Node; name: string | undefined }[],
  names: readonly string[],
  tx: TSESTree.Identifier | undefined,
  context: AnyRuleContext,
): OrmEscape | undefined {
  const root = links[0]?.node;
  const method = names.at(-1);
  if (root?.type !== AST_NODE_TYPES.Identifier || links.length !== 3 || method === undefined) return undefined;
  if (!ACTIVE_RECORD_WRITES.has(method) || call.arguments.length > 1) return undefined;
  const def = findVariable(context.sourceCode.getScope(root), root)?.defs[0];
  if (def?.node.type !== AST_NODE_TYPES.VariableDeclarator || !def.node.init) return undefined;
  const init = unwrap(def.node.init);
  if (init.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const callee = unwrap(init.callee);
  // Made by a repository's or an entity class's `create(...)`.
  if (callee.type !== AST_NODE_TYPES.MemberExpression || memberName(callee) !== 'create') return undefined;
  const maker = endName(unwrap(callee.object));
  if (
    maker === undefined ||
    !(
      /repo(?:sitory)?$/i.test(maker) ||
      /^[A-Z]/.test(maker) ||
      /getRepository/.test(context.sourceCode.getText(callee.object))
    )
  )
    return undefined;
  if (tx && (mentions(call, tx, context) || chainArguments(links).some((argument) => handsOn(argument, tx, context))))
    return undefined;
  return { node: call, kind: 'repository', via: root, rewrite: undefined, addOption: undefined };
}

/** Repository methods that build or inspect entities in memory. */
const NOT_QUERY_METHODS = new Set(['create', 'merge', 'hasId', 'getId', 'extend', 'target', 'metadata']);

/**
 * TypeORM: `this.cartService.removeCartItem(id)` inside a transaction: an injected service's
 * write (its name says so) handed nothing of the transaction goes through the service's own
 * repositories, bound to the data source's manager, not the transaction's.
 */
function serviceEscape(call: TSESTree.CallExpression, context: AnyRuleContext): OrmEscape | undefined {
  const service = dataServiceCall(call);
  if (!service) return undefined;
  // A row the service reads on its own connection, changed and saved by the transaction: a lost update.
  if (changedRead(call, context))
    return { node: call, kind: 'ownRead', via: call.callee, rewrite: undefined, addOption: undefined };
  if (!WRITE_NAME.test(service.method)) return undefined;
  return { node: call, kind: 'service', via: service.via, rewrite: undefined, addOption: undefined };
}

/** `this.cartService.addItem(...)`: the injected data service `call` calls a method of, and the method. */
function dataServiceCall(call: TSESTree.CallExpression): { via: TSESTree.Node; method: string } | undefined {
  const links = chainLinks(call);
  const service = links[1];
  const method = chainNames(links).at(-1);
  if (links[0]?.node.type !== AST_NODE_TYPES.ThisExpression || links.length !== 4 || !service || method === undefined)
    return undefined;
  return isDatabaseServiceName(service.name) ? { via: service.node, method } : undefined;
}

/**
 * Medusa: `this.priceListService_.upsertWithReplace(data)` in a method whose transaction travels
 * in its shared context: an injected service's (or repository's) write handed nothing of that
 * context opens a transaction of its own.
 */
function contextEscape(
  call: TSESTree.CallExpression,
  tx: TSESTree.Identifier | undefined,
  context: AnyRuleContext,
): OrmEscape | undefined {
  const links = chainLinks(call);
  const service = links[1];
  const method = chainNames(links).at(-1);
  if (!tx || links[0]?.node.type !== AST_NODE_TYPES.ThisExpression || links.length !== 4 || !service) return undefined;
  if (service.name === undefined || !/(?:service|repository)_?$/i.test(service.name)) return undefined;
  if (method === undefined || !WRITE_NAME.test(method)) return undefined;
  if (chainArguments(links).some((argument) => handsOn(argument, tx, context))) return undefined;
  return { node: call, kind: 'context', via: service.node, rewrite: undefined, addOption: undefined };
}

/** TypeORM: `this.userRepository.save(...)` inside `dataSource.transaction(async (manager) => ...)`. */
function repositoryEscape(
  call: TSESTree.CallExpression,
  links: readonly { node: TSESTree.Node; name: string | undefined }[],
  names: readonly string[],
  tx: TSESTree.Identifier | undefined,
  context: AnyRuleContext,
): OrmEscape | undefined {
  const root = links[0]?.node;
  const method = names.at(-1);
  // A custom repository's own methods (`this.usersRepository.banUser(...)`) query through it too.
  if (!root || method === undefined || NOT_QUERY_METHODS.has(method)) return undefined;
  const repositoryAt =
    root.type === AST_NODE_TYPES.ThisExpression ? 1 : root.type === AST_NODE_TYPES.Identifier ? 0 : -1;
  const repository = links[repositoryAt];
  const repositoryName = repositoryAt === 0 ? (root as TSESTree.Identifier).name : repository?.name;
  if (!repository || repositoryName === undefined || !/repo(?:sitory)?$/i.test(repositoryName)) return undefined;
  // `this.repo.method(...)`: the query is the next link.
  if (links[repositoryAt + 1]?.name !== method) return undefined;
  // `const repository = manager.getRepository(Article)`: a repository of the transaction's manager.
  if (tx && root.type === AST_NODE_TYPES.Identifier) {
    const def = findVariable(context.sourceCode.getScope(root), root)?.defs[0];
    if (def?.node.type === AST_NODE_TYPES.VariableDeclarator && def.node.init && mentions(def.node.init, tx, context))
      return undefined;
  }
  return { node: call, kind: 'repository', via: repository.node, rewrite: undefined, addOption: undefined };
}

function modelLike(receiver: TSESTree.Node, method: string, context: AnyRuleContext): boolean {
  const target = unwrap(receiver);
  const name = endName(target);
  if (name === undefined || NOT_MODELS.test(name)) return false;
  if (/^[A-Z]/.test(name) || /model$/i.test(name)) return true;
  // `const order = require('../models/order')`: imported from the project's models.
  if (target.type === AST_NODE_TYPES.Identifier) {
    const source = importSource(target, context.sourceCode.getScope(target));
    if (source !== undefined && /(?:^|\/)models?(?:\/|$)|model$/i.test(source.module)) return true;
  }
  // A model instance: `user.save()`, `order.update({ ... })`, `row.destroy()`.
  return (
    target.type === AST_NODE_TYPES.Identifier &&
    (method === 'save' ||
      method === 'destroy' ||
      method === 'update' ||
      method === 'increment' ||
      method === 'decrement')
  );
}

function optionEscape(
  call: TSESTree.CallExpression,
  transaction: OrmTransaction,
  tx: TSESTree.Identifier | undefined,
  context: AnyRuleContext,
): OrmEscape | undefined {
  if (!tx && !transaction.sessionless) return undefined;
  const callee = unwrap(call.callee);
  const library = transaction.library === 'mongoose' ? 'mongoose' : 'sequelize';
  // A Feathers service's write, handed nothing of the session in its params.
  const params = library === 'mongoose' ? feathersServiceParams(call, context) : undefined;
  if (
    params === null ||
    (params &&
      params.type === AST_NODE_TYPES.ObjectExpression &&
      !/\bsession\b/.test(context.sourceCode.getText(params)))
  )
    return { node: call, kind: 'option', via: callee, rewrite: undefined, addOption: undefined };
  if (tx && serviceWithoutTransaction(call, transaction, tx, context))
    return { node: call, kind: 'option', via: callee, rewrite: undefined, addOption: undefined };
  // Sequelize: a project function forwarding its options to a write, an association accessor
  // on an instance, a read whose options are known (it escapes only with the transaction
  // handed in an argument it ignores), and NocoBase's repositories, which take the transaction
  // in their one options object.
  const forwarded = library === 'sequelize' ? forwardedOptionsAt(call, context) : undefined;
  const repository = library === 'sequelize' ? nocoBaseRepositoryWrite(call, context) : undefined;
  if (callee.type !== AST_NODE_TYPES.MemberExpression && forwarded === undefined) return undefined;
  const method = callee.type === AST_NODE_TYPES.MemberExpression ? memberName(callee) : '';
  if (method === undefined) return undefined;
  const receiver = callee.type === AST_NODE_TYPES.MemberExpression ? unwrap(callee.object) : callee;
  const projectWrite =
    forwarded !== undefined ||
    repository !== undefined ||
    (library === 'sequelize' && isAssociationWrite(call, context));
  const readAt = library === 'sequelize' ? sequelizeReadOptionsAt(method) : undefined;
  const at = forwarded ?? repository ?? (projectWrite ? 1 : (OPTION_WRITES[library].get(method) ?? readAt));
  if (at === undefined) return undefined;
  const onHandle = transaction.handle !== undefined && sameHandle(receiver, transaction.handle, context);
  if (!projectWrite && (method === 'query' ? !onHandle : !modelLike(receiver, method, context))) return undefined;
  if (tx && isBinding(receiver, tx, context)) return undefined;
  const links = chainLinks(call);
  const key = library === 'mongoose' ? 'session' : 'transaction';
  const options = call.arguments[at];
  const ignored = library === 'sequelize' && tx ? ignoredTransactionArgument(call, at, tx, context) : undefined;
  if (ignored && !(options && handsOn(options, tx as TSESTree.Identifier, context)))
    return { node: call, kind: 'ignoredArgument', via: callee, rewrite: undefined, addOption: undefined };
  if (!projectWrite && at === readAt && OPTION_WRITES[library].get(method) === undefined) return undefined;
  const first = call.arguments[0];
  // `User.create(doc, { session })`: with a single document the options are not read at all.
  if (
    library === 'mongoose' &&
    method === 'create' &&
    options &&
    first &&
    call.arguments.length === 2 &&
    isRun(call, chainNames(links)) &&
    !lacksOption(options, key, context) &&
    isSingleDocument(first, context)
  )
    return {
      node: call,
      kind: 'ignoredOptions',
      via: receiver,
      rewrite: { range: first.range, text: `[${context.sourceCode.getText(first)}]`, provable: false },
      addOption: undefined,
    };
  // Mongoose `Model.updateOne(...).session(s)`: chained after the write (the write call is not the top).
  if (
    tx
      ? chainArguments(links).some((argument) => handsOn(argument, tx, context))
      : chainNames(links).includes('session')
  )
    return undefined;
  // A Sequelize call is a promise already running, awaited or not (`role.addPermission(p);`).
  if (!projectWrite && !isRun(call, chainNames(links))) return undefined;
  if (options && !lacksOption(options, key, context)) return undefined;
  // `instance.update(values)` with the values' position unknown: an update of a Sequelize
  // instance takes values first, but `update(values)` with a string is not a model.
  if (method === 'update' && first && unwrap(first).type === AST_NODE_TYPES.Literal) return undefined;
  return {
    node: call,
    kind: 'option',
    via: receiver,
    rewrite: undefined,
    // Mongoose reads a second argument of `create` as options only when the documents are an array.
    addOption:
      !tx || (library === 'mongoose' && method === 'create' && first?.type !== AST_NODE_TYPES.ArrayExpression)
        ? undefined
        : optionInsertion(call, at, key, transaction.txPassed ?? tx.name, context),
  };
}

/**
 * Sequelize and Mongoose: a data service's write (`this.carService.createCar(input)`) handed
 * nothing of the transaction, where the transaction hands it to another of the class's services
 * (`this.fileService.saveFile(file, session)`): those services take it to join, so this one's
 * queries run outside the transaction.
 */
function serviceWithoutTransaction(
  call: TSESTree.CallExpression,
  transaction: OrmTransaction,
  tx: TSESTree.Identifier,
  context: AnyRuleContext,
): boolean {
  const service = dataServiceCall(call);
  if (!service || !WRITE_NAME.test(service.method)) return false;
  if (call.arguments.some((argument) => handsOn(argument, tx, context))) return false;
  // Handed another transaction open here (a TypeORM query runner inside a Mongoose session's):
  // the service writes through that one, on its own database.
  if (call.arguments.some((argument) => isOtherTransactionHandle(argument, tx, context))) return false;
  return walk(transaction.body, context, (node) =>
    node !== call &&
    node.type === AST_NODE_TYPES.CallExpression &&
    node.arguments.some((argument) => isBinding(argument, tx, context)) &&
    dataServiceCall(node) !== undefined
      ? 'stop'
      : undefined,
  );
}

/** `argument` is a binding other than `tx` that this code opens a transaction on (`queryRunner.startTransaction()`). */
function isOtherTransactionHandle(argument: TSESTree.Node, tx: TSESTree.Identifier, context: AnyRuleContext): boolean {
  const target = unwrap(argument);
  if (target.type !== AST_NODE_TYPES.Identifier || target.name === tx.name) return false;
  return methodCallsOn(target, context).some(({ call }) => ormTransaction(call, context)?.tx?.name === target.name);
}

/** True when the options argument provably lacks `key`: an object literal without it or a spread. */
function lacksOption(options: TSESTree.Node, key: string, context: AnyRuleContext, depth = 0): boolean {
  const value = unwrap(options);
  if (value.type === AST_NODE_TYPES.ObjectExpression) {
    return value.properties.every(
      (property) => property.type === AST_NODE_TYPES.Property && propertyKeyName(property) !== key,
    );
  }
  if (value.type === AST_NODE_TYPES.Identifier && depth < 3) {
    const def = findVariable(context.sourceCode.getScope(value), value)?.defs[0];
    if (
      def?.node.type === AST_NODE_TYPES.VariableDeclarator &&
      def.node.init &&
      def.node.id.type === AST_NODE_TYPES.Identifier
    )
      return lacksOption(def.node.init, key, context, depth + 1);
  }
  return false;
}

function optionInsertion(
  call: TSESTree.CallExpression,
  at: number,
  key: string,
  value: string,
  context: AnyRuleContext,
): { range: TSESTree.Range; text: string } | undefined {
  const property = key === value ? key : `${key}: ${value}`;
  const options = call.arguments[at];
  if (options) {
    const value = unwrap(options);
    if (value.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
    const last = value.properties.at(-1);
    if (!last) return { range: value.range, text: `{ ${property} }` };
    return { range: [last.range[1], last.range[1]], text: `, ${property}` };
  }
  if (call.arguments.length !== at) return undefined;
  const closing = context.sourceCode.getLastToken(call);
  if (closing?.value !== ')') return undefined;
  const before = context.sourceCode.getTokenBefore(closing);
  const separator = call.arguments.length === 0 ? '' : before?.value === ',' ? ' ' : ', ';
  return { range: [closing.range[0], closing.range[0]], text: `${separator}{ ${property} }` };
}
