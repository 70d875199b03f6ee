import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { enclosingFunction, unwrap } from '../ast/nodes.js';
import { findVariable } from '../ast/values.js';
import { memberName, memberPath } from '../ast/names.js';
import { type AnyRuleContext } from '../ast/context.js';
import { describePool, isCheckedOutClient, type AcquireMethod } from './pools.js';
import { getQueryCall, transactionStep } from './statements.js';
import { isStandaloneConnection } from './pool-syntax.js';
import { type ReleaseProblem, statementList, type Flow, runList, protectedByEnclosingTry } from './release-paths.js';
import { hasTypes } from '../types.js';
import { isFunction } from '../ast/function.js';
import { walk } from '../ast/walk.js';

/**
 * Checked-out clients: one connection lent by a pool (`await pool.connect()` in node-postgres
 * and `@vercel/postgres`, `await pool.getConnection()` in mysql2 and mariadb). The pool lends
 * it until `release()`; one that is never given back shrinks the pool for good, and once the
 * pool runs dry every later job waits until its visibility timeout and is delivered again.
 */

export interface CheckedOutClient {
  /** The binding that holds the client (or an object built around it: `new Session(await pool.connect())`). */
  binding: TSESTree.Identifier;
  /** `pool.connect()` / `pool.getConnection()`, or the call that returned a client the code later releases. */
  acquire: TSESTree.CallExpression;
  /** `connect` (pg: `release(err)` destroys a broken client) or `getConnection` (mysql2, mariadb); undefined when only `release()` shows it. */
  method: AcquireMethod | undefined;
}

/** Pool methods that lend out one connection. */
const ACQUIRE_METHODS: ReadonlySet<string> = new Set<AcquireMethod>(['connect', 'getConnection']);
/** Methods that give a lent connection back (mariadb's `end()` returns a pool connection too). */
const RELEASE_METHODS = new Set(['release', 'end', 'destroy']);
/**
 * Helpers that take the client and give it back: `releaseClient(client)`, `safeRelease(conn)`,
 * and the query builders' `commit(conn)` / `rollback(conn)`, which release as they finish.
 */
const RELEASE_HELPER = /release|dispose|commit|rollback/i;
/** `conn[Symbol.asyncDispose]()`, `conn[Symbol.dispose]()`. */
const DISPOSE_SYMBOLS = new Set(['Symbol.asyncDispose', 'Symbol.dispose']);
/** The error-first parameter of node-postgres and mysql callbacks (slonik's handler takes the connection first). */
const ERROR_PARAMETER = /^(?:e|err|error|\w*(?:Err|Error))$/;

/**
 * The pool call that lends out a connection, when `node` is one (`pool.connect()`,
 * `await pool.getConnection()`): the receiver must be a pool (see `pool.ts`) or be tested
 * `instanceof Pool` around the call. A callback-style `pool.connect((err, client, done) => ...)`
 * is not one: see {@link getCallbackClient}.
 */
function getAcquireCall(
  node: TSESTree.Node,
  context: AnyRuleContext,
): { call: TSESTree.CallExpression; method: AcquireMethod } | undefined {
  const call = unwrap(node);
  if (call.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const callee = unwrap(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const method = memberName(callee);
  if (method !== 'connect' && method !== 'getConnection') return undefined;
  if (call.arguments.some(isFunction)) return undefined;
  const pool = describePool(callee.object, context);
  if (pool?.acquire !== undefined && pool.acquire !== method) return undefined;
  if (!pool && !testedInstanceOfPool(call, callee.object)) return undefined;
  return { call, method };
}

/** `x instanceof Pool ? new Session(await x.connect()) : ...` / `if (x instanceof Pool) { ... x.connect() ... }`. */
function testedInstanceOfPool(call: TSESTree.Node, receiver: TSESTree.Node): boolean {
  const path = memberPath(receiver)?.join('.');
  if (path === undefined) return false;
  for (let node: TSESTree.Node = call; node.parent; node = node.parent) {
    const parent = node.parent;
    if (
      (parent.type === AST_NODE_TYPES.ConditionalExpression || parent.type === AST_NODE_TYPES.IfStatement) &&
      parent.consequent === node
    ) {
      const test = unwrap(parent.test);
      if (
        test.type === AST_NODE_TYPES.BinaryExpression &&
        test.operator === 'instanceof' &&
        memberPath(test.left)?.join('.') === path &&
        test.right.type === AST_NODE_TYPES.Identifier &&
        /Pool$/.test(test.right.name)
      ) {
        return true;
      }
    }
    if (isFunction(parent)) return false;
  }
  return false;
}

/**
 * The client bound by `const client = await pool.connect()` (or `getConnection()`), or a
 * TypeORM query runner (`dataSource.createQueryRunner()`); also the object built around one (`const session = new Session(await pool.connect())`), and the
 * result of a connect-named call the code releases itself (`const db = await connectToDb();
 * ... db.release()`). Undefined when the declarator binds something else or destructures.
 */
export function getCheckedOutClient(
  declarator: TSESTree.VariableDeclarator,
  context: AnyRuleContext,
): CheckedOutClient | undefined {
  if (declarator.id.type !== AST_NODE_TYPES.Identifier || !declarator.init) return undefined;
  const binding = declarator.id;
  const init = unwrap(declarator.init);
  const direct = getAcquireCall(init, context);
  if (direct) return { binding, acquire: direct.call, method: direct.method };
  for (const candidate of wrappedValues(init)) {
    const wrapped = getAcquireCall(candidate, context);
    if (wrapped) return { binding, acquire: wrapped.call, method: wrapped.method };
  }
  // TypeORM: `const queryRunner = dataSource.createQueryRunner()` holds one connection of the
  // data source's pool from `connect()` (or its first query) until `release()`.
  if (init.type === AST_NODE_TYPES.CallExpression) {
    const callee = unwrap(init.callee);
    if (callee.type === AST_NODE_TYPES.MemberExpression && memberName(callee) === 'createQueryRunner')
      return dataSourceDestroyedInFinally(unwrap(callee.object), binding, context)
        ? undefined
        : { binding, acquire: init, method: undefined };
  }
  // `const db = await connectToDB(); ... db.release()`: the code treats it as lent. With
  // types, the type must say so too.
  // A driver's standalone connection (`mysql.createConnection()`) is no pool's to run dry.
  if (
    declarator.init.type === AST_NODE_TYPES.AwaitExpression &&
    init.type === AST_NODE_TYPES.CallExpression &&
    !isStandaloneConnection(init, context)
  ) {
    const path = memberPath(init.callee);
    const name = path?.[path.length - 1];
    const typed = hasTypes(context);
    if (
      name !== undefined &&
      /connect|client|connection/i.test(name) &&
      (!typed || isCheckedOutClient(binding, context)) &&
      ownReleases(binding, context).length > 0
    ) {
      return { binding, acquire: init, method: undefined };
    }
  }
  return undefined;
}

/**
 * A data source the function itself ends in a `finally` (`await dataSource.destroy()`): TypeORM
 * releases its query runners and closes its pool there, so a runner taken from it goes back on
 * every path (the per-call `DataSource` of a short-lived job or a memory store).
 */
function dataSourceDestroyedInFinally(
  source: TSESTree.Node,
  binding: TSESTree.Identifier,
  context: AnyRuleContext,
): boolean {
  const owner = enclosingFunction(binding);
  if (source.type !== AST_NODE_TYPES.Identifier || owner === undefined) return false;
  const destroys = (node: TSESTree.Node): boolean =>
    walk(
      node,
      context,
      (inner) => {
        if (inner.type !== AST_NODE_TYPES.CallExpression) return undefined;
        const callee = unwrap(inner.callee);
        const destroyed =
          callee.type === AST_NODE_TYPES.MemberExpression &&
          memberName(callee) === 'destroy' &&
          unwrap(callee.object).type === AST_NODE_TYPES.Identifier &&
          (unwrap(callee.object) as TSESTree.Identifier).name === source.name;
        return destroyed ? 'stop' : undefined;
      },
      { enterFunctions: false },
    );
  return walk(
    owner,
    context,
    (node) =>
      node.type === AST_NODE_TYPES.TryStatement && node.finalizer && destroys(node.finalizer) ? 'stop' : undefined,
    { enterFunctions: false },
  );
}

/** The arguments of `new X(...)`, looking through a conditional: where a wrapped client comes from. */
function wrappedValues(init: TSESTree.Node): TSESTree.Node[] {
  if (init.type === AST_NODE_TYPES.ConditionalExpression)
    return [...wrappedValues(unwrap(init.consequent)), ...wrappedValues(unwrap(init.alternate))];
  if (init.type === AST_NODE_TYPES.NewExpression)
    return init.arguments.filter((argument) => argument.type !== AST_NODE_TYPES.SpreadElement);
  return [];
}

/**
 * A client lent to a callback: `pool.connect((err, client, done) => ...)`,
 * `pool.getConnection((err, conn) => ...)`. `client` is undefined when the callback does not
 * even take it, and `done` when it takes no release function.
 */
export interface CallbackClient {
  acquire: TSESTree.CallExpression;
  pool: TSESTree.Node;
  callback: TSESTree.ArrowFunctionExpression | TSESTree.FunctionExpression;
  client: TSESTree.Identifier | undefined;
  done: TSESTree.Identifier | undefined;
}

export function getCallbackClient(call: TSESTree.CallExpression, context: AnyRuleContext): CallbackClient | undefined {
  const callee = unwrap(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const method = memberName(callee);
  if (method === undefined || !ACQUIRE_METHODS.has(method)) return undefined;
  const callback = call.arguments.find(
    (argument): argument is TSESTree.ArrowFunctionExpression | TSESTree.FunctionExpression => isFunction(argument),
  );
  // node-postgres' callback `connect()` returns nothing; mssql's returns the pool it connects.
  if (!callback || call.parent.type !== AST_NODE_TYPES.ExpressionStatement) return undefined;
  const [error, client, done] = callback.params;
  if (error?.type !== AST_NODE_TYPES.Identifier || !ERROR_PARAMETER.test(error.name)) return undefined;
  // With only a name to go on, the callback must take a client too: mssql's
  // `pool.connect((err) => ...)` connects a pool and lends nothing.
  const pool = describePool(callee.object, context);
  if (!pool || (pool.evidence === 'name' && !client)) return undefined;
  return {
    acquire: call,
    pool: callee.object,
    callback,
    client: client?.type === AST_NODE_TYPES.Identifier ? client : undefined,
    done: done?.type === AST_NODE_TYPES.Identifier ? done : undefined,
  };
}

// ---------------------------------------------------------------------------------------------
// How a client is used

type Use = 'release' | 'escape' | 'use';

/** The reads of a binding, each classified: gives it back, hands it on, or just uses it. */
function usesOf(binding: TSESTree.Identifier, context: AnyRuleContext): { node: TSESTree.Identifier; use: Use }[] {
  const variable = findVariable(context.sourceCode.getScope(binding), binding);
  if (!variable) return [];
  return variable.references
    .filter((reference) => reference.isRead())
    .map((reference) => ({ node: reference.identifier as TSESTree.Identifier, use: useOf(reference.identifier) }));
}

function ownReleases(binding: TSESTree.Identifier, context: AnyRuleContext): TSESTree.Identifier[] {
  return usesOf(binding, context)
    .filter((entry) => entry.use === 'release')
    .map((entry) => entry.node);
}

/** The release call a reference takes part in: `client.release()`, `session.client.release()`, `release(client)`. */
function releaseCallOf(reference: TSESTree.Node): TSESTree.CallExpression | undefined {
  let node: TSESTree.Node = reference;
  for (;;) {
    const parent = node.parent;
    if (!parent) return undefined;
    if (parent.type === AST_NODE_TYPES.MemberExpression && parent.object === node) {
      const name = parent.computed ? memberPath(parent.property)?.join('.') : memberName(parent);
      const call = parent.parent;
      if (
        name !== undefined &&
        DISPOSE_SYMBOLS.has(name) &&
        call.type === AST_NODE_TYPES.CallExpression &&
        call.callee === parent
      )
        return call;
      if (
        name !== undefined &&
        RELEASE_METHODS.has(name) &&
        call.type === AST_NODE_TYPES.CallExpression &&
        call.callee === parent
      )
        return call;
      if (name !== undefined && RELEASE_METHODS.has(name) && call.type === AST_NODE_TYPES.ChainExpression) {
        const inner = call.parent;
        if (inner.type === AST_NODE_TYPES.CallExpression && inner.callee === call) return inner;
      }
      node = parent;
      continue;
    }
    if (
      parent.type === AST_NODE_TYPES.TSAsExpression ||
      parent.type === AST_NODE_TYPES.TSNonNullExpression ||
      parent.type === AST_NODE_TYPES.TSTypeAssertion ||
      parent.type === AST_NODE_TYPES.ChainExpression
    ) {
      node = parent;
      continue;
    }
    if (
      parent.type === AST_NODE_TYPES.CallExpression &&
      parent.arguments.includes(node as TSESTree.CallExpressionArgument) &&
      node === reference
    ) {
      const path = memberPath(parent.callee);
      const name = path?.[path.length - 1];
      return name !== undefined && RELEASE_HELPER.test(name) ? parent : undefined;
    }
    return undefined;
  }
}

function useOf(reference: TSESTree.Node): Use {
  if (releaseCallOf(reference)) return 'release';
  const parent = reference.parent;
  if (!parent) return 'use';
  switch (parent.type) {
    case AST_NODE_TYPES.MemberExpression:
      return parent.object === reference ? 'use' : 'escape';
    case AST_NODE_TYPES.CallExpression:
    case AST_NODE_TYPES.NewExpression:
      return parent.callee === reference ? 'use' : 'escape';
    case AST_NODE_TYPES.BinaryExpression:
    case AST_NODE_TYPES.IfStatement:
    case AST_NODE_TYPES.UnaryExpression:
    case AST_NODE_TYPES.TSNonNullExpression:
    case AST_NODE_TYPES.LogicalExpression:
      return 'use';
    default:
      // Returned, assigned, stored in an object or array, yielded, exported: ownership moves.
      return 'escape';
  }
}

/** The query runner's own steps of checking out: `await queryRunner.connect()`, `await queryRunner.startTransaction()`. */
const QUERY_RUNNER_OPENS = new Set(['connect', 'startTransaction']);

/**
 * Where the work after a checkout starts: the statement after the declaration, or, for a
 * TypeORM query runner, after the `connect()` / `startTransaction()` statements that follow
 * it (TypeORM's documented shape opens both before its `try`; until `connect()` resolves no
 * connection is held).
 */
function checkoutEnd(list: readonly TSESTree.Node[], index: number, client: CheckedOutClient): number {
  let next = index + 1;
  const callee = unwrap(client.acquire.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression || memberName(callee) !== 'createQueryRunner') return next;
  for (;;) {
    const statement = list[next];
    let expression = statement?.type === AST_NODE_TYPES.ExpressionStatement ? unwrap(statement.expression) : undefined;
    if (expression?.type === AST_NODE_TYPES.AwaitExpression) expression = unwrap(expression.argument);
    const method = expression?.type === AST_NODE_TYPES.CallExpression ? unwrap(expression.callee) : undefined;
    if (
      method?.type !== AST_NODE_TYPES.MemberExpression ||
      unwrap(method.object).type !== AST_NODE_TYPES.Identifier ||
      (unwrap(method.object) as TSESTree.Identifier).name !== client.binding.name ||
      !QUERY_RUNNER_OPENS.has(memberName(method) ?? '')
    )
      return next;
    next++;
  }
}

/**
 * Whether a checked-out client is given back on every path: released in `finally` (or
 * before any awaited work, early return or throw can skip it), or handed on (returned,
 * passed to a call, stored), which moves ownership. `using` / `await using` declarations
 * release themselves. Releases inside a nested function (an event handler, a callback)
 * are trusted.
 */
export function releaseProblem(client: CheckedOutClient, context: AnyRuleContext): ReleaseProblem | undefined {
  const declarator = client.binding.parent;
  if (declarator.type !== AST_NODE_TYPES.VariableDeclarator) return undefined;
  const declaration = declarator.parent;
  if (declaration.kind === 'using' || declaration.kind === 'await using') return undefined;
  const uses = usesOf(client.binding, context);
  const owner = enclosingFunction(client.binding);
  const releases: TSESTree.CallExpression[] = [];
  for (const entry of uses) {
    if (entry.use !== 'release') continue;
    if (enclosingFunction(entry.node) !== owner) return undefined;
    const call = releaseCallOf(entry.node);
    if (call) releases.push(call);
  }
  const escapes = uses.filter((entry) => entry.use === 'escape').map((entry) => entry.node);
  if (releases.length === 0) {
    // Wrapped in an object that gives it back its own way, or a LISTEN connection held for the
    // life of the process by design.
    if (client.acquire !== unwrap(declarator.init ?? declarator) || listens(uses, context)) return undefined;
    if (escapes.length === 0) return { kind: 'neverReleased' };
    return handOffProblem(client, uses, escapes, owner, context);
  }
  const place = statementList(declaration);
  if (!place || protectedByEnclosingTry(declaration, releases)) return undefined;
  const flow: Flow = { releases, escapes, leaks: [], context };
  const outcome = runList(place.list, checkoutEnd(place.list, place.index, client), false, { caught: false }, flow);
  const [first] = flow.leaks;
  if (first) return { kind: 'skipped', at: first };
  if (!outcome.released && !outcome.terminated)
    return { kind: 'skipped', at: place.list[place.list.length - 1] ?? declaration };
  return undefined;
}

/**
 * A client this function never releases but hands to a helper (`await transaction(queryRunner,
 * work)`): the helper owns it from the call on, so every path must reach such a call. A path
 * that returns or ends without one, after the client was used, keeps its connection. Throws
 * are left aside (the helper's own `finally` cannot cover work before it is called either,
 * but that is `releaseSkipped`'s business once the function releases anything itself). Only
 * hand-offs that are plain arguments of a call in this function are read; a client returned,
 * stored or captured moves its ownership further than one function can follow.
 */
function handOffProblem(
  client: CheckedOutClient,
  uses: readonly { node: TSESTree.Identifier; use: Use }[],
  escapes: readonly TSESTree.Node[],
  owner: TSESTree.FunctionLike | undefined,
  context: AnyRuleContext,
): ReleaseProblem | undefined {
  const handOffs: TSESTree.CallExpression[] = [];
  for (const escape of escapes) {
    const call = escape.parent;
    if (
      call?.type !== AST_NODE_TYPES.CallExpression ||
      !call.arguments.includes(escape as TSESTree.CallExpressionArgument) ||
      enclosingFunction(escape) !== owner
    )
      return undefined;
    handOffs.push(call);
  }
  const declaration = client.binding.parent.parent;
  const place = declaration ? statementList(declaration) : undefined;
  if (!place) return undefined;
  const flow: Flow = { releases: handOffs, escapes: [], leaks: [], context };
  const outcome = runList(place.list, place.index + 1, false, { caught: true }, flow);
  const end = place.list[place.list.length - 1];
  const at = flow.leaks[0] ?? (!outcome.released && !outcome.terminated ? end : undefined);
  if (!at) return undefined;
  // A TypeORM query runner holds no connection until its first query: it must have been used
  // (in this function, before the exit) for the exit to keep one.
  if (client.method === undefined) {
    const used = uses.some(
      (entry) => entry.use === 'use' && enclosingFunction(entry.node) === owner && entry.node.range[0] < at.range[0],
    );
    if (!used) return undefined;
  }
  return { kind: 'notHandedOn', at };
}

/** True when the client sends `LISTEN`: a notification connection, meant to stay checked out. */
function listens(uses: readonly { node: TSESTree.Identifier }[], context: AnyRuleContext): boolean {
  return uses.some(({ node }) => {
    const member = node.parent;
    const call = member.parent;
    if (
      member.type !== AST_NODE_TYPES.MemberExpression ||
      call?.type !== AST_NODE_TYPES.CallExpression ||
      call.callee !== member
    )
      return false;
    const text = getQueryCall(call, context)?.text;
    return text !== undefined && /^\s*LISTEN\b/i.test(text);
  });
}

/**
 * Whether a callback-style client is given back: quiet when the callback calls `done()` or
 * `client.release()` anywhere, or hands the client on; `neverReleased` when it does neither,
 * including a callback that does not even take the client (`pool.connect((err) => ...)`).
 */
export function callbackReleaseProblem(lent: CallbackClient, context: AnyRuleContext): ReleaseProblem | undefined {
  const doneCalled = lent.done
    ? usesOf(lent.done, context).some((entry) => entry.node.parent.type === AST_NODE_TYPES.CallExpression)
    : false;
  if (doneCalled) return undefined;
  if (lent.client) {
    const uses = usesOf(lent.client, context);
    if (uses.some((entry) => entry.use === 'release' || entry.use === 'escape')) return undefined;
  }
  // A `done` that is handed on (`next(done)`) may be called elsewhere.
  if (lent.done && usesOf(lent.done, context).length > 0) return undefined;
  // `arguments[2]()`, or the pool shut down from inside: nothing left to leak into.
  const pool = memberPath(lent.pool)?.join('.');
  const ends = (node: TSESTree.Node): boolean =>
    (node.type === AST_NODE_TYPES.Identifier && node.name === 'arguments') ||
    (node.type === AST_NODE_TYPES.CallExpression &&
      node.callee.type === AST_NODE_TYPES.MemberExpression &&
      memberName(node.callee) === 'end' &&
      memberPath(node.callee.object)?.join('.') === pool);
  if (pool !== undefined && walk(lent.callback.body, context, (node) => (ends(node) ? 'stop' : undefined)))
    return undefined;
  return { kind: 'neverReleased' };
}

/** The release calls of a client, for the rule's options and suggestion. */
export function releaseCalls(client: CheckedOutClient, context: AnyRuleContext): TSESTree.CallExpression[] {
  return ownReleases(client.binding, context)
    .map((reference) => releaseCallOf(reference))
    .filter((call) => call !== undefined);
}

/**
 * With node-postgres, the `release()` call that hands the client back even when its
 * `ROLLBACK` failed: `release()` without an argument returns a client stuck in a broken
 * transaction to the pool, `release(err)` destroys it (node-postgres #1819). Undefined for
 * other drivers, when no ROLLBACK is sent on the client, or when a release passes an argument.
 */
export function releaseIgnoringFailedRollback(
  client: CheckedOutClient,
  context: AnyRuleContext,
): TSESTree.CallExpression | undefined {
  if (client.method !== 'connect') return undefined;
  const releases = releaseCalls(client, context);
  if (releases.length === 0 || releases.some((call) => call.arguments.length > 0)) return undefined;
  const rollsBack = usesOf(client.binding, context).some((entry) => {
    const member = entry.node.parent;
    const call = member.parent;
    if (member.type !== AST_NODE_TYPES.MemberExpression) return false;
    const sends =
      (call?.type === AST_NODE_TYPES.CallExpression && call.callee === member) ||
      (call?.type === AST_NODE_TYPES.TaggedTemplateExpression && call.tag === member);
    return sends && transactionStep(call, context)?.kind === 'rollback';
  });
  return rollsBack ? releases[0] : undefined;
}
