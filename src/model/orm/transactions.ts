import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext } from '../ast/context.js';
import { enclosingFunction, unwrap } from '../ast/nodes.js';
import { findVariable } from '../ast/values.js';
import { endName, memberName, propertyKeyName } from '../ast/names.js';
import { isFunction } from '../ast/function.js';
import { walk } from '../ast/walk.js';
import { handleLibrary, type OrmLibrary } from './libraries.js';
import { isSessionlessTransaction } from './sessionless-wrapper.js';
import { calledTransactionWrapper } from './transaction-wrapper.js';
import { kyselyTransactionHandle } from './kysely-transaction.js';
import { medusaTransactionMethod } from './medusa-context.js';
import { handedTransaction } from './handed-transaction.js';

/**
 * ORM and query-builder transactions: the span in which a query must go through the
 * transaction's handle (`tx`, `trx`, `manager`, `t`) or carry it (`{ transaction: t }`,
 * `{ session }`) to be part of the transaction.
 */
export interface OrmTransaction {
  /** The call that opens the transaction. */
  call: TSESTree.CallExpression;
  library: OrmLibrary | undefined;
  /** The outer handle the transaction was opened on (`prisma`, `this.db`, `knex`, `dataSource`), when there is one. */
  handle: TSESTree.Node | undefined;
  /** The transaction's own binding: the callback's parameter, the variable it was stored in, or the session. */
  tx: TSESTree.Identifier | undefined;
  /** The expression that queries in the transaction, when it is not `tx` itself (`queryRunner.manager`). */
  txHandle?: string;
  /** How the code passes the transaction on, when it is a path below `tx` (`ctx.context.transaction` for `ctx`). */
  txPassed?: string;
  /** Where its queries are: the callback's body, or the function the transaction was opened in. */
  body: TSESTree.Node;
  from: number;
  to: number;
  /**
   * `handle`: a query joins by going through `tx` (Prisma, Drizzle, Knex, Kysely, TypeORM,
   * MikroORM, pg-promise); `option`: by passing `tx` in its options (Sequelize, Mongoose).
   */
  joins: 'handle' | 'option';
  /** A project's own wrapper opened it (`executeOnDBTx(...)`, `const t = await Repo.createTransaction(options)`). */
  wrapper?: true;
  /** A project's Mongoose wrapper that opens a session transaction and never hands the session to the callback. */
  sessionless?: true;
  /**
   * The transaction travels in a context object `tx` that each call must be handed (Medusa's
   * `@InjectTransactionManager()` with its `@MedusaContext()` parameter, orm/medusa-context.ts).
   */
  context?: true;
  /** MikroORM `em.begin()`: no transaction context is set, so no other manager resolves to the transaction. */
  contextFree?: true;
}

type Callback = TSESTree.ArrowFunctionExpression | TSESTree.FunctionExpression;

/** A node's parent, typed as possibly absent (the root has none). */
export function parentOf(node: TSESTree.Node): TSESTree.Node | undefined {
  return (node as { parent?: TSESTree.Node }).parent;
}

function firstCallback(call: TSESTree.CallExpression): Callback | undefined {
  return call.arguments.find(
    (argument): argument is Callback =>
      argument.type === AST_NODE_TYPES.ArrowFunctionExpression || argument.type === AST_NODE_TYPES.FunctionExpression,
  );
}

function identifierParam(fn: Callback): TSESTree.Identifier | undefined {
  const param = fn.params[0];
  if (param?.type === AST_NODE_TYPES.Identifier) return param;
  if (param?.type === AST_NODE_TYPES.AssignmentPattern && param.left.type === AST_NODE_TYPES.Identifier)
    return param.left;
  return undefined;
}

/** True when some call in `root` hands `tx` over as `{ transaction: tx }` / `{ session: tx }`. */
function passedAsOption(root: TSESTree.Node, tx: TSESTree.Identifier, key: string, context: AnyRuleContext): boolean {
  return walk(root, context, (node) =>
    node.type === AST_NODE_TYPES.Property &&
    propertyKeyName(node) === key &&
    unwrap(node.value).type === AST_NODE_TYPES.Identifier &&
    (unwrap(node.value) as TSESTree.Identifier).name === tx.name
      ? 'stop'
      : undefined,
  );
}

/** True when some call in `root` is handed `tx` itself as an argument (`saveFile(file, session)`). */
function handedPositionally(root: TSESTree.Node, tx: TSESTree.Identifier, context: AnyRuleContext): boolean {
  return walk(root, context, (node) =>
    node.type === AST_NODE_TYPES.CallExpression && node.arguments.some((argument) => isBinding(argument, tx, context))
      ? 'stop'
      : undefined,
  );
}

function joinsOf(
  library: OrmLibrary | undefined,
  body: TSESTree.Node,
  tx: TSESTree.Identifier | undefined,
  context: AnyRuleContext,
): 'handle' | 'option' {
  if (library === 'sequelize' || library === 'mongoose') return 'option';
  if (library === undefined && tx) {
    if (passedAsOption(body, tx, 'transaction', context) || passedAsOption(body, tx, 'session', context))
      return 'option';
  }
  return 'handle';
}

/**
 * The transaction `call` opens with a callback: Prisma `x.$transaction(async (tx) => ...)`,
 * `x.transaction(async (tx) => ...)` (Drizzle, Knex, TypeORM, Sequelize, Mongoose connections),
 * Kysely `x.transaction().execute(async (trx) => ...)`, MikroORM `em.transactional(...)`,
 * pg-promise `db.tx(...)`, and a MongoDB session's `session.withTransaction(async () => ...)`.
 */
function callbackTransaction(call: TSESTree.CallExpression, context: AnyRuleContext): OrmTransaction | undefined {
  const callee = unwrap(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const method = memberName(callee);
  const callback = firstCallback(call);
  if (method === undefined || !callback) return undefined;
  const span = { body: callback.body, from: callback.body.range[0], to: callback.body.range[1] };
  const tx = identifierParam(callback);
  const receiver = unwrap(callee.object);
  switch (method) {
    case '$transaction':
      return { call, library: 'prisma', handle: receiver, tx, joins: 'handle', ...span };
    case 'transactional':
      return { call, library: 'mikro-orm', handle: receiver, tx, joins: 'handle', ...span };
    case 'tx':
    case 'txIf':
      return { call, library: 'pg-promise', handle: receiver, tx, joins: 'handle', ...span };
    case 'withTransaction':
      return receiver.type === AST_NODE_TYPES.Identifier
        ? { call, library: 'mongoose', handle: undefined, tx: receiver, joins: 'option', ...span }
        : undefined;
    case 'execute': {
      const handle = kyselyTransactionHandle(receiver);
      return handle && { call, library: 'kysely', handle, tx, joins: 'handle', ...span };
    }
    case 'transaction': {
      const library = handleLibrary(receiver, context);
      return { call, library, handle: receiver, tx, joins: joinsOf(library, callback.body, tx, context), ...span };
    }
    default:
      return undefined;
  }
}

/**
 * A transaction opened without a callback and held in a variable until its commit: Knex and
 * Sequelize `const trx = await x.transaction()`, TypeORM `await queryRunner.startTransaction()`
 * on `const queryRunner = dataSource.createQueryRunner()`. It spans from the opening call to the
 * first commit or rollback after it in the same function (or the function's end).
 */
function heldTransaction(call: TSESTree.CallExpression, context: AnyRuleContext): OrmTransaction | undefined {
  const callee = unwrap(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression || call.arguments.some((argument) => isFunction(argument)))
    return undefined;
  const method = memberName(callee);
  const scope = enclosingFunction(call);
  if (!scope?.body) return undefined;
  const body = scope.body;
  const receiver = unwrap(callee.object);
  // A project's own wrapper: `const transaction = await SequelizeRepository.createTransaction(options)`
  // until `SequelizeRepository.commitTransaction(transaction)`; queries join it by passing it on.
  const declared = method !== undefined && HELD_WRAPPER.test(method) ? heldIn(call) : undefined;
  // A library's own `startTransaction()` (TypeORM's query runner, a Mongoose session) is read below.
  if (declared?.id.type === AST_NODE_TYPES.Identifier && handleLibrary(receiver, context) === undefined) {
    const tx = declared.id;
    return {
      call,
      library: undefined,
      handle: undefined,
      tx,
      joins: 'option',
      wrapper: true,
      body,
      from: call.range[1],
      to: endOf(tx.name, ['commit', 'rollback'], call, body, context),
    };
  }
  if (method === 'transaction') {
    const declarator = heldIn(call);
    if (declarator?.id.type !== AST_NODE_TYPES.Identifier) return undefined;
    const library = handleLibrary(receiver, context);
    if (library !== 'knex' && library !== 'sequelize') return undefined;
    const tx = declarator.id;
    return {
      call,
      library,
      handle: receiver,
      tx,
      joins: library === 'sequelize' ? 'option' : 'handle',
      body,
      from: call.range[1],
      to: endOf(tx.name, ['commit', 'rollback'], call, body, context),
    };
  }
  // MikroORM: `const em = this.ctx.em.fork(); await em.begin()` until `em.commit()`. `begin()`
  // sets no transaction context, so every query through another manager (the one forked, too) runs outside.
  if (
    method === 'begin' &&
    call.arguments.length === 0 &&
    receiver.type === AST_NODE_TYPES.Identifier &&
    handleLibrary(receiver, context) === 'mikro-orm'
  ) {
    const def = findVariable(context.sourceCode.getScope(receiver), receiver)?.defs[0];
    const init =
      def?.node.type === AST_NODE_TYPES.VariableDeclarator && def.node.init ? unwrap(def.node.init) : undefined;
    const made = init?.type === AST_NODE_TYPES.CallExpression ? unwrap(init.callee) : undefined;
    return {
      call,
      library: 'mikro-orm',
      handle:
        made?.type === AST_NODE_TYPES.MemberExpression && memberName(made) === 'fork' ? unwrap(made.object) : undefined,
      tx: receiver,
      joins: 'handle',
      contextFree: true,
      body,
      from: call.range[1],
      to: endOf(receiver.name, ['commit', 'rollback'], call, body, context),
    };
  }
  if (method === 'startTransaction' && receiver.type === AST_NODE_TYPES.Identifier) {
    // TypeORM: the query runner's data source is the handle that escapes it.
    const def = findVariable(context.sourceCode.getScope(receiver), receiver)?.defs[0];
    const init =
      def?.node.type === AST_NODE_TYPES.VariableDeclarator && def.node.init ? unwrap(def.node.init) : undefined;
    const made = init?.type === AST_NODE_TYPES.CallExpression ? unwrap(init.callee) : undefined;
    // Mongoose: `const session = await connection.startSession(); session.startTransaction()`.
    if (made?.type === AST_NODE_TYPES.MemberExpression && memberName(made) === 'startSession')
      return {
        call,
        library: 'mongoose',
        handle: undefined,
        tx: receiver,
        joins: 'option',
        body,
        from: call.range[1],
        to: endOf(receiver.name, ['commitTransaction', 'abortTransaction'], call, body, context),
      };
    if (made?.type !== AST_NODE_TYPES.MemberExpression || memberName(made) !== 'createQueryRunner') return undefined;
    return {
      call,
      library: 'typeorm',
      handle: unwrap(made.object),
      tx: receiver,
      txHandle: `${receiver.name}.manager`,
      joins: 'handle',
      body,
      from: call.range[1],
      to: endOf(receiver.name, ['commitTransaction', 'rollbackTransaction'], call, body, context),
    };
  }
  return undefined;
}

/** A project's own method that opens a transaction and returns it. */
const HELD_WRAPPER = /^(?:create|begin|open|new|start)Transaction$/;

function heldIn(call: TSESTree.CallExpression): TSESTree.VariableDeclarator | undefined {
  let current: TSESTree.Node = call;
  while (parentOf(current)?.type === AST_NODE_TYPES.AwaitExpression) current = parentOf(current) ?? current;
  const parent = parentOf(current);
  return parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.init === current ? parent : undefined;
}

/**
 * True when `call` ends the transaction only on an early exit: it sits in a block, not the
 * function's own body nor one the transaction was opened in, that returns or throws after it (`if (!valid) { await
 * session.abortTransaction(); return next(err); }`), so the code after that block still runs
 * in the transaction.
 */
function isEarlyExit(call: TSESTree.Node, start: TSESTree.Node, body: TSESTree.Node): boolean {
  let statement: TSESTree.Node = call;
  while (statement.parent && statement.parent.type !== AST_NODE_TYPES.BlockStatement) statement = statement.parent;
  const block = statement.parent;
  if (block?.type !== AST_NODE_TYPES.BlockStatement || block === body) return false;
  // Opened in the same block: no path from the opening goes past it, so the end is the end.
  if (block.range[0] <= start.range[0] && start.range[1] <= block.range[1]) return false;
  const after = block.body.slice(block.body.indexOf(statement as TSESTree.Statement) + 1);
  return after.some(
    (next) => next.type === AST_NODE_TYPES.ReturnStatement || next.type === AST_NODE_TYPES.ThrowStatement,
  );
}

function endOf(
  name: string,
  methods: readonly string[],
  start: TSESTree.Node,
  body: TSESTree.Node,
  context: AnyRuleContext,
): number {
  let end = body.range[1];
  walk(body, context, (node) => {
    if (node.range[0] < start.range[1] || node.type !== AST_NODE_TYPES.CallExpression) return undefined;
    if (isEarlyExit(node, start, body)) return undefined;
    const callee = unwrap(node.callee);
    // `Repo.commitTransaction(t)`: a project's wrapper ends it, handed the transaction.
    const handedToEnd =
      /^(?:commit|rollback|abort)/i.test(endName(callee) ?? '') &&
      node.arguments.some(
        (argument) =>
          unwrap(argument).type === AST_NODE_TYPES.Identifier &&
          (unwrap(argument) as TSESTree.Identifier).name === name,
      );
    if (
      handedToEnd ||
      (callee.type === AST_NODE_TYPES.MemberExpression &&
        unwrap(callee.object).type === AST_NODE_TYPES.Identifier &&
        (unwrap(callee.object) as TSESTree.Identifier).name === name &&
        methods.includes(memberName(callee) ?? ''))
    ) {
      end = node.range[0];
      return 'stop';
    }
    return undefined;
  });
  return end;
}

/** A project's own transaction helper by its name: `executeOnDBTx`, `withTransaction`, `runInTransaction`. */
const WRAPPER_NAME = /transaction|Tx(?:$|[A-Z])|^tx$/i;

/**
 * A project's own transaction wrapper whose callback receives a Sequelize transaction or a
 * Mongoose session (`executeOnDBTx(Model, async (transaction) => ...)`,
 * `withTransaction(async (session) => ...)`): the helper is named for a transaction and the
 * callback hands its parameter on as `{ transaction }` / `{ session }` at least once (or, named
 * `session`, as an argument of a call), which is what says the parameter is the transaction and
 * how queries join it.
 */
function wrapperTransaction(call: TSESTree.CallExpression, context: AnyRuleContext): OrmTransaction | undefined {
  const name = endName(unwrap(call.callee));
  if (name === undefined || !WRAPPER_NAME.test(name)) return undefined;
  for (const argument of call.arguments) {
    if (argument.type !== AST_NODE_TYPES.ArrowFunctionExpression && argument.type !== AST_NODE_TYPES.FunctionExpression)
      continue;
    const tx = identifierParam(argument);
    if (!tx) continue;
    const key =
      ['transaction', 'session'].find((candidate) => passedAsOption(argument.body, tx, candidate, context)) ??
      (tx.name === 'session' && handedPositionally(argument.body, tx, context) ? 'session' : undefined);
    if (key === undefined) continue;
    return {
      call,
      library: key === 'session' ? 'mongoose' : 'sequelize',
      handle: undefined,
      tx,
      joins: 'option',
      body: argument.body,
      from: argument.body.range[0],
      to: argument.body.range[1],
    };
  }
  return undefined;
}

/**
 * A project's Mongoose wrapper that runs its callback inside a session transaction it never
 * hands the callback (orm/sessionless-wrapper.ts): the callback's writes carry no session.
 */
function sessionlessTransaction(call: TSESTree.CallExpression, context: AnyRuleContext): OrmTransaction | undefined {
  const callback = firstCallback(call);
  if (!callback || !isSessionlessTransaction(call, context)) return undefined;
  return {
    call,
    library: 'mongoose',
    handle: undefined,
    tx: undefined,
    joins: 'option',
    wrapper: true,
    sessionless: true,
    body: callback.body,
    from: callback.body.range[0],
    to: callback.body.range[1],
  };
}

/**
 * A project's own wrapper that runs its callback inside a library's transaction, handing it the
 * transaction's handle (orm/transaction-wrapper.ts): `this.transactionService.run(async
 * (manager) => ...)` opens a TypeORM transaction as `dataSource.transaction(...)` would.
 */
function wrappedTransaction(call: TSESTree.CallExpression, context: AnyRuleContext): OrmTransaction | undefined {
  const wrapper = calledTransactionWrapper(call, context);
  const callback = wrapper && call.arguments[wrapper.index];
  if (
    !wrapper ||
    (callback?.type !== AST_NODE_TYPES.ArrowFunctionExpression && callback?.type !== AST_NODE_TYPES.FunctionExpression)
  )
    return undefined;
  const tx = identifierParam(callback);
  return {
    call,
    library: wrapper.library,
    handle: wrapper.handle,
    tx,
    joins: joinsOf(wrapper.library, callback.body, tx, context),
    wrapper: true,
    body: callback.body,
    from: callback.body.range[0],
    to: callback.body.range[1],
  };
}

/** Medusa: the method `@InjectTransactionManager()` decorates runs in a transaction carried by its shared context. */
function contextTransaction(call: TSESTree.CallExpression, context: AnyRuleContext): OrmTransaction | undefined {
  const method = medusaTransactionMethod(call, context);
  if (!method) return undefined;
  const body = method.fn.body;
  return {
    call,
    library: 'mikro-orm',
    handle: undefined,
    tx: method.sharedContext,
    joins: 'handle',
    wrapper: true,
    context: true,
    body,
    from: body.range[0],
    to: body.range[1],
  };
}

/** The transaction `call` opens: with a callback, held in a variable, or through a project's own wrapper. */
export function ormTransaction(call: TSESTree.CallExpression, context: AnyRuleContext): OrmTransaction | undefined {
  return (
    contextTransaction(call, context) ??
    sessionlessTransaction(call, context) ??
    wrappedTransaction(call, context) ??
    callbackTransaction(call, context) ??
    heldTransaction(call, context) ??
    wrapperTransaction(call, context) ??
    handedTransaction(call, context)
  );
}

// -------------------------------------------------------------------------------------------
// Call chains: `knex('t').where(...).insert(...)`, `prisma.user.create(...)`

/** One link of a chain, from its root outwards. */
interface Link {
  node: TSESTree.Node;
  /** The member name this link reads, for member links. */
  name: string | undefined;
}

/** The links of the chain `top` ends, from the root (`knex`, `this`) to `top`. */
export function chainLinks(top: TSESTree.Node): Link[] {
  const links: Link[] = [];
  let current: TSESTree.Node = unwrap(top);
  for (;;) {
    if (current.type === AST_NODE_TYPES.CallExpression) {
      links.push({ node: current, name: undefined });
      current = unwrap(current.callee);
    } else if (current.type === AST_NODE_TYPES.MemberExpression) {
      links.push({ node: current, name: memberName(current) });
      current = unwrap(current.object);
    } else {
      links.push({ node: current, name: undefined });
      return links.reverse();
    }
  }
}

/** True when `call` is the last call of its chain (not the object of a further member call). */
export function isChainTop(call: TSESTree.CallExpression): boolean {
  let current: TSESTree.Node = call;
  while (
    parentOf(current)?.type === AST_NODE_TYPES.ChainExpression ||
    parentOf(current)?.type === AST_NODE_TYPES.TSNonNullExpression
  )
    current = parentOf(current) ?? current;
  const parent = parentOf(current);
  return !(parent?.type === AST_NODE_TYPES.MemberExpression && parent.object === current);
}

/** The member names along a chain. */
export function chainNames(links: readonly Link[]): string[] {
  return links.flatMap((link) => (link.name === undefined ? [] : [link.name]));
}

/** The arguments of every call along a chain. */
export function chainArguments(links: readonly Link[]): TSESTree.CallExpressionArgument[] {
  return links.flatMap((link) => (link.node.type === AST_NODE_TYPES.CallExpression ? link.node.arguments : []));
}

/** True when `node` is, or resolves to, the same binding as `identifier`. */
export function isBinding(node: TSESTree.Node, identifier: TSESTree.Identifier, context: AnyRuleContext): boolean {
  const target = unwrap(node);
  if (target.type !== AST_NODE_TYPES.Identifier || target.name !== identifier.name) return false;
  const at = findVariable(context.sourceCode.getScope(target), target);
  const own = findVariable(context.sourceCode.getScope(identifier), identifier);
  return at !== null && at === own;
}

/** True when an identifier bound to `identifier` occurs in `root`. */
export function mentions(root: TSESTree.Node, identifier: TSESTree.Identifier, context: AnyRuleContext): boolean {
  return walk(root, context, (node) =>
    node.type === AST_NODE_TYPES.Identifier && node.name === identifier.name && isBinding(node, identifier, context)
      ? 'stop'
      : undefined,
  );
}

/**
 * True when `argument` hands the transaction on to the call it is given to: it mentions the
 * transaction's handle (`trx`, `{ transaction: t }`, `queryRunner.manager`), or names a value
 * made from it (`const em = queryRunner.manager`, `const txOptions = { transaction }`, `const
 * ctx = makeContext(tx)`). A result awaited through the handle (`const rows = await
 * tx.user.findMany()`) is data read in the transaction, not the handle.
 */
export function handsOn(argument: TSESTree.Node, tx: TSESTree.Identifier, context: AnyRuleContext, depth = 0): boolean {
  if (mentions(argument, tx, context)) return true;
  const target = unwrap(argument);
  if (target.type !== AST_NODE_TYPES.Identifier || depth > 2) return false;
  const def = findVariable(context.sourceCode.getScope(target), target)?.defs[0];
  if (def?.node.type !== AST_NODE_TYPES.VariableDeclarator || !def.node.init) return false;
  // An awaited value is what a query or call resolved to (a row made through `tx`), not a handle.
  if (def.node.init.type === AST_NODE_TYPES.AwaitExpression) return false;
  const init = unwrap(def.node.init);
  return mentions(init, tx, context) || handsOn(init, tx, context, depth + 1);
}

/**
 * True when `node` is (rooted at) the handle of an ORM transaction: the parameter of a
 * transaction callback (`prisma.$transaction(async (tx) => ...)`), a transaction held in a
 * variable (`const trx = await knex.transaction()`), or a name or type that says so
 * (`tx`, `trx`, `transaction`, `queryRunner`, Prisma's `TransactionClient`, Knex's `Transaction`).
 */
export function isTransactionHandle(node: TSESTree.Node, context: AnyRuleContext): boolean {
  let root = unwrap(node);
  while (root.type === AST_NODE_TYPES.MemberExpression) {
    const name = memberName(root);
    if (name !== undefined && TRANSACTION_NAME.test(name)) return true;
    root = unwrap(root.object);
  }
  if (root.type !== AST_NODE_TYPES.Identifier) return false;
  if (TRANSACTION_NAME.test(root.name)) return true;
  const def = findVariable(context.sourceCode.getScope(root), root)?.defs[0];
  if (!def) return false;
  if (def.type === TSESLint.Scope.DefinitionType.Parameter) {
    const annotation = def.name.type === AST_NODE_TYPES.Identifier ? def.name.typeAnnotation : undefined;
    if (annotation && /Transaction|QueryRunner/.test(context.sourceCode.getText(annotation))) return true;
    const fn = def.node;
    const call = parentOf(fn);
    return (
      call?.type === AST_NODE_TYPES.CallExpression &&
      isFunction(fn) &&
      call.arguments.includes(fn as TSESTree.CallExpressionArgument) &&
      ormTransaction(call, context)?.tx === def.name
    );
  }
  if (def.node.type === AST_NODE_TYPES.VariableDeclarator && def.node.init) {
    let init = unwrap(def.node.init);
    if (init.type === AST_NODE_TYPES.AwaitExpression) init = unwrap(init.argument);
    const callee = init.type === AST_NODE_TYPES.CallExpression ? unwrap(init.callee) : undefined;
    const method = callee?.type === AST_NODE_TYPES.MemberExpression ? memberName(callee) : undefined;
    return (
      method !== undefined &&
      (/^(?:transaction|startTransaction|createQueryRunner)$/.test(method) || TRANSACTION_ACCESSOR.test(method))
    );
  }
  return false;
}

/**
 * Methods that return the transaction open in the current async context, or the client when none
 * is (`txClient()`, `getTransaction()`, `currentTransaction()`): a service that keeps the open
 * transaction in continuation-local storage (nestjs-cls, `AsyncLocalStorage`) and hands it to every
 * query made while it is open, as `@nestjs-cls/transactional`'s `TransactionHost.tx` does
 * (https://papooch.github.io/nestjs-cls/plugins/available-plugins/transactional).
 */
const TRANSACTION_ACCESSOR =
  /^(?:(?:get|current)(?:Tx|Trx|Transaction)(?:Client|Manager|Connection|Handle)?|(?:tx|trx|transaction)(?:Client|Manager|Connection|Handle))$/;

/** Names of transaction handles and single connections. */
const TRANSACTION_NAME = /^(?:t|tx|trx)$|transaction|queryRunner|runner|session/i;
