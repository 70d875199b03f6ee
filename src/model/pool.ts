import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext, childNodes, enclosingFunction, findVariable, importSource, isNode, memberName, propertyKeyName, unwrap } from './ast.js';
import { isListedImport, settingsOf } from './settings.js';
import { getQueryCall, getTaggedQuery, isWriteStatement, postgresTransactionHandle, transactionStatement, transactionStep, type TransactionStep } from './sql.js';

/**
 * Connection pools and the connections they lend. A pool (pg `Pool`, mysql2 / mariadb
 * `createPool`, `@vercel/postgres` `db` / `sql`, postgres.js `postgres()`) sends each query
 * on whichever connection is free, so statements that must share a connection (a
 * transaction) cannot go through it; a checked-out client (`await pool.connect()`,
 * `pool.getConnection()`, `new Client()`) keeps one connection until it is released.
 */

/**
 * Why a receiver is taken for a pool, strongest first: its TypeScript type; the binding is
 * constructed as one (`new Pool()`, `createPool()`); it is annotated with a pool type; the
 * shared settings list its import; only its name says so (`pool`, `this.pool`, `dbPool`).
 */
export type PoolEvidence = 'type' | 'construction' | 'annotation' | 'settings' | 'name';

/** How a pool lends one connection: pg and `@vercel/postgres` `connect()`, mysql2 / mariadb promise pools `getConnection()`. */
export type AcquireMethod = 'connect' | 'getConnection';

export interface PoolInfo {
  evidence: PoolEvidence;
  /** Known only when the pool's library is known and it lends connections through a promise. */
  acquire: AcquireMethod | undefined;
}

type Kind =
  | { kind: 'pool'; evidence: Exclude<PoolEvidence, 'name'>; acquire: AcquireMethod | undefined }
  | { kind: 'client' }
  | { kind: 'other' };

type Scope = TSESLint.Scope.Scope;

/** Modules whose `Pool` / `Client` types and factories this file knows. */
const PG_MODULES = new Set(['pg', 'pg-pool', '@neondatabase/serverless']);
const MYSQL_MODULES = new Set(['mysql', 'mysql2', 'mysql2/promise', 'mariadb', 'mariadb/callback']);
const PROMISE_MYSQL_MODULES = new Set(['mysql2/promise', 'mariadb']);
const POOL_TYPE_NAMES = new Set(['Pool', 'PoolCluster', 'PoolNamespace', 'VercelPool']);
const CLIENT_TYPE_NAMES = new Set(['Client', 'ClientBase', 'PoolClient', 'PoolConnection', 'Connection', 'VercelPoolClient', 'VercelClient']);
/** Where the declarations of those types live. */
const DRIVER_DECLARATION = /[\\/]node_modules[\\/](?:@types[\\/])?(pg|pg-pool|mysql|mysql2|mariadb|@neondatabase[\\/]serverless|@vercel[\\/]postgres)[\\/](.*)$/;

/**
 * Why `receiver` is a connection pool, or undefined when it is not known to be one. With
 * type information the type decides whenever it is not `any`: pg `Pool`, mysql2 `Pool`,
 * mariadb pools, `VercelPool` are pools, and `PoolClient`, `Client`, `PoolConnection` or any
 * other type are not. Without it (or for `any`), the binding decides (see {@link PoolEvidence});
 * a name containing "pool" counts only when nothing else is known about the binding and the
 * name does not also say client / connection / session / transaction.
 */
export function poolEvidence(receiver: TSESTree.Node, context: AnyRuleContext): PoolEvidence | undefined {
  return describePool(receiver, context)?.evidence;
}

/** {@link poolEvidence} with the way the pool lends a connection, when known. */
export function describePool(receiver: TSESTree.Node, context: AnyRuleContext): PoolInfo | undefined {
  const typed = typedKind(receiver, context);
  const known = typed ?? classify(receiver, context, 0);
  if (known) return known.kind === 'pool' ? { evidence: known.evidence, acquire: known.acquire } : undefined;
  const name = receiverName(receiver);
  return name !== undefined && isPoolName(name) ? { evidence: 'name', acquire: undefined } : undefined;
}

/**
 * True when `receiver` is one connection: bound to `await pool.connect()`,
 * `await pool.getConnection()`, `new Client()`, `mysql.createConnection()`, the client of a
 * `pool.connect((err, client, done) => ...)` callback or the handle of a postgres.js
 * `sql.begin((tx) => ...)`, annotated `PoolClient` / `Client` / `PoolConnection`, or typed so.
 */
export function isCheckedOutClient(receiver: TSESTree.Node, context: AnyRuleContext): boolean {
  const known = typedKind(receiver, context) ?? classify(receiver, context, 0);
  return known?.kind === 'client';
}

/** True for names like `pool`, `dbPool`, `POOL`, but not `poolClient` or `poolConnection`. */
export function isPoolName(name: string): boolean {
  return /pool/i.test(name) && !/client|conn|session|transaction/i.test(name);
}

function receiverName(receiver: TSESTree.Node): string | undefined {
  const node = unwrap(receiver);
  if (node.type === AST_NODE_TYPES.Identifier) return node.name;
  if (node.type === AST_NODE_TYPES.MemberExpression) return memberName(node);
  if (node.type === AST_NODE_TYPES.CallExpression) return receiverName(node.callee);
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Types

interface TsSymbolLike {
  getName(): string;
  declarations?: readonly { getSourceFile(): { fileName: string } }[];
}
interface TsTypeLike {
  getSymbol(): TsSymbolLike | undefined;
  aliasSymbol?: TsSymbolLike;
  isUnion(): boolean;
  types?: TsTypeLike[];
}

function typedKind(receiver: TSESTree.Node, context: AnyRuleContext): Kind | undefined {
  const services = context.sourceCode.parserServices;
  if (!services?.program || !services.esTreeNodeToTSNodeMap) return undefined;
  const tsNode = services.esTreeNodeToTSNodeMap.get(unwrap(receiver));
  const type = services.program.getTypeChecker().getTypeAtLocation(tsNode) as unknown as TsTypeLike;
  return kindOfType(type);
}

/**
 * The kind a type names. A type without a symbol (`any`, `unknown`, primitives, `undefined`)
 * decides nothing, so the syntax is asked instead; `undefined` / `null` members of a union
 * are ignored. (Read through symbols: TypeScript's flag values differ between versions.)
 */
function kindOfType(type: TsTypeLike): Kind | undefined {
  if (type.isUnion()) {
    const kinds = (type.types ?? []).filter((member) => (member.aliasSymbol ?? member.getSymbol()) !== undefined).map(kindOfType);
    const [first] = kinds;
    if (!first || kinds.some((kind) => kind === undefined)) return undefined;
    return kinds.every((kind) => kind?.kind === first.kind) ? first : { kind: 'other' };
  }
  const symbol = type.aliasSymbol ?? type.getSymbol();
  if (!symbol) return undefined;
  const name = symbol.getName();
  for (const declaration of symbol.declarations ?? []) {
    const match = DRIVER_DECLARATION.exec(declaration.getSourceFile().fileName.replaceAll('\\', '/'));
    if (!match) continue;
    const [, module = '', file = ''] = match;
    if (POOL_TYPE_NAMES.has(name)) {
      const promise = module === 'mysql2' ? file.startsWith('promise') : module === 'mariadb';
      const acquire: AcquireMethod | undefined = module === 'pg' || module.includes('neondatabase') || module.includes('vercel') ? 'connect' : promise ? 'getConnection' : undefined;
      return { kind: 'pool', evidence: 'type', acquire };
    }
    if (CLIENT_TYPE_NAMES.has(name)) return { kind: 'client' };
  }
  return { kind: 'other' };
}

// ---------------------------------------------------------------------------------------------
// Syntax

/** What a binding or expression is, from how it is made, annotated or imported; undefined when unknown. */
function classify(node: TSESTree.Node, context: AnyRuleContext, depth: number): Kind | undefined {
  if (depth > 8) return undefined;
  const target = unwrap(node);
  const scope = context.sourceCode.getScope(target);
  switch (target.type) {
    case AST_NODE_TYPES.Identifier:
      return classifyIdentifier(target, context, depth);
    case AST_NODE_TYPES.MemberExpression:
      return classifyMember(target, context, depth);
    case AST_NODE_TYPES.NewExpression:
      return classifyConstructor(target.callee, scope);
    case AST_NODE_TYPES.CallExpression:
      return classifyCall(target, context, depth);
    default:
      return undefined;
  }
}

function classifyIdentifier(identifier: TSESTree.Identifier, context: AnyRuleContext, depth: number): Kind | undefined {
  const scope = context.sourceCode.getScope(identifier);
  const variable = findVariable(scope, identifier);
  const def = variable?.defs[0];
  if (!variable || !def) return undefined;
  if (isListedImport(identifier, context, settingsOf(context).pools)) return { kind: 'pool', evidence: 'settings', acquire: undefined };
  const source = importSource(identifier, scope);
  if (source?.module === '@vercel/postgres') {
    if (source.imported === 'db' || source.imported === 'sql') return { kind: 'pool', evidence: 'construction', acquire: 'connect' };
    return undefined;
  }
  if (def.type === TSESLint.Scope.DefinitionType.ImportBinding) return undefined;
  if (def.type === TSESLint.Scope.DefinitionType.Parameter) {
    const annotated = classifyAnnotation(parameterAnnotation(def.name), scope);
    return annotated ?? classifyCallbackParameter(def.name, def.node, context);
  }
  if (def.node.type !== AST_NODE_TYPES.VariableDeclarator || def.node.id.type !== AST_NODE_TYPES.Identifier) return undefined;
  const annotated = classifyAnnotation(def.node.id.typeAnnotation?.typeAnnotation, scope);
  if (annotated) return annotated;
  const init = def.node.init;
  const values: TSESTree.Node[] = init ? [init] : [];
  for (const reference of variable.references) {
    if (reference.isWrite() && reference.writeExpr && reference.writeExpr !== init) values.push(reference.writeExpr);
  }
  return combine(values.map((value) => classify(value, context, depth + 1)));
}

/** Agreement of every value a binding may hold; undefined as soon as one is unknown or they differ. */
function combine(kinds: readonly (Kind | undefined)[]): Kind | undefined {
  const first = kinds[0];
  if (!first) return undefined;
  return kinds.every((kind) => kind?.kind === first.kind) ? first : undefined;
}

function parameterAnnotation(name: TSESTree.Node): TSESTree.TypeNode | undefined {
  let node: TSESTree.Node | undefined = name;
  if (node.parent?.type === AST_NODE_TYPES.AssignmentPattern) node = node.parent.left;
  if (node.type === AST_NODE_TYPES.Identifier) return node.typeAnnotation?.typeAnnotation;
  return undefined;
}

/** `pool.connect((err, client, done) => ...)`, `pool.getConnection((err, conn) => ...)`, postgres.js `sql.begin((tx) => ...)`. */
function classifyCallbackParameter(name: TSESTree.Node, fn: TSESTree.Node, context: AnyRuleContext): Kind | undefined {
  if (fn.type !== AST_NODE_TYPES.ArrowFunctionExpression && fn.type !== AST_NODE_TYPES.FunctionExpression) return undefined;
  const call = fn.parent;
  if (call.type !== AST_NODE_TYPES.CallExpression || !call.arguments.includes(fn)) return undefined;
  const callee = unwrap(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const method = memberName(callee);
  const index = fn.params.indexOf(name as TSESTree.Parameter);
  if ((method === 'connect' || method === 'getConnection') && index === 1) return { kind: 'client' };
  if (method === 'begin' && index === 0 && classify(callee.object, context, 1)?.kind === 'pool') return { kind: 'client' };
  return undefined;
}

/** `Pool`, `pg.Pool`, `mysql.Pool` (imported from a driver) and their client counterparts. */
function classifyAnnotation(annotation: TSESTree.TypeNode | undefined, scope: Scope): Kind | undefined {
  if (annotation?.type !== AST_NODE_TYPES.TSTypeReference) return undefined;
  let module: string | undefined;
  let name: string | undefined;
  const typeName = annotation.typeName;
  if (typeName.type === AST_NODE_TYPES.Identifier) {
    const source = importSource(typeName, scope);
    module = source?.module;
    name = source?.imported;
  } else if (typeName.type === AST_NODE_TYPES.TSQualifiedName && typeName.left.type === AST_NODE_TYPES.Identifier) {
    const source = importSource(typeName.left, scope);
    if (source?.imported === 'default' || source?.imported === '*') module = source.module;
    name = typeName.right.name;
  }
  if (module === undefined || name === undefined) return undefined;
  const pg = PG_MODULES.has(module) || module === '@vercel/postgres';
  if (!pg && !MYSQL_MODULES.has(module)) return undefined;
  if (POOL_TYPE_NAMES.has(name)) return { kind: 'pool', evidence: 'annotation', acquire: pg ? 'connect' : PROMISE_MYSQL_MODULES.has(module) ? 'getConnection' : undefined };
  if (CLIENT_TYPE_NAMES.has(name)) return { kind: 'client' };
  return { kind: 'other' };
}

/** `this.x` from the class's property declaration, constructor parameter property and `this.x = ...` assignments; `ns.x` from settings. */
function classifyMember(member: TSESTree.MemberExpression, context: AnyRuleContext, depth: number): Kind | undefined {
  const name = memberName(member);
  if (name === undefined) return undefined;
  const object = unwrap(member.object);
  const scope = context.sourceCode.getScope(member);
  if (object.type === AST_NODE_TYPES.Identifier) {
    // `import * as db from './db'; db.pool` with `{ from: './db', name: 'pool' }` listed.
    const source = importSource(object, scope);
    if (source && (source.imported === '*' || source.imported === 'default')) {
      const listed = settingsOf(context).pools?.some((entry) => entry.from === source.module && entry.name === name);
      if (listed) return { kind: 'pool', evidence: 'settings', acquire: undefined };
    }
    return undefined;
  }
  if (object.type !== AST_NODE_TYPES.ThisExpression) return undefined;
  const body = enclosingClassBody(member);
  if (!body) return undefined;
  const kinds: (Kind | undefined)[] = [];
  for (const element of body.body) {
    if (element.type === AST_NODE_TYPES.PropertyDefinition && !element.static && propertyKeyName(element) === name) {
      const annotated = classifyAnnotation(element.typeAnnotation?.typeAnnotation, scope);
      if (annotated) return annotated;
      if (element.value) kinds.push(classify(element.value, context, depth + 1));
    }
    if (element.type === AST_NODE_TYPES.MethodDefinition && element.kind === 'constructor') {
      for (const param of element.value.params) {
        if (param.type === AST_NODE_TYPES.TSParameterProperty && param.parameter.type === AST_NODE_TYPES.Identifier && param.parameter.name === name) {
          const annotated = classifyAnnotation(param.parameter.typeAnnotation?.typeAnnotation, scope);
          if (annotated) return annotated;
          kinds.push(undefined);
        }
      }
    }
  }
  for (const assignment of thisAssignments(body, name)) kinds.push(classify(assignment, context, depth + 1));
  return combine(kinds);
}

function enclosingClassBody(node: TSESTree.Node): TSESTree.ClassBody | undefined {
  for (let current = node.parent; current; current = current.parent) {
    if (current.type === AST_NODE_TYPES.ClassBody) return current;
  }
  return undefined;
}

/** The values assigned by `this.<name> = value` anywhere in the class body (not in nested classes). */
function thisAssignments(body: TSESTree.ClassBody, name: string): TSESTree.Expression[] {
  const values: TSESTree.Expression[] = [];
  const visit = (node: TSESTree.Node): void => {
    if (node.type === AST_NODE_TYPES.ClassBody && node !== body) return;
    if (
      node.type === AST_NODE_TYPES.AssignmentExpression &&
      node.operator === '=' &&
      node.left.type === AST_NODE_TYPES.MemberExpression &&
      node.left.object.type === AST_NODE_TYPES.ThisExpression &&
      memberName(node.left) === name
    ) {
      values.push(node.right);
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === 'parent') continue;
      if (Array.isArray(value)) {
        for (const child of value as unknown[]) if (isNode(child)) visit(child);
      } else if (isNode(value)) {
        visit(value);
      }
    }
  };
  visit(body);
  return values;
}

/** `new Pool()`, `new pg.Pool()`, `new (require('pg').Pool)()`, `new Client()`. */
function classifyConstructor(callee: TSESTree.Node, scope: Scope): Kind | undefined {
  const driver = driverExport(callee, scope);
  if (!driver) return undefined;
  const pg = PG_MODULES.has(driver.module) || driver.module === '@vercel/postgres';
  if (driver.name === 'Pool' || (driver.module === 'pg-pool' && driver.name === 'default')) {
    return pg ? { kind: 'pool', evidence: 'construction', acquire: 'connect' } : undefined;
  }
  if (driver.name === 'Client') return { kind: 'client' };
  return undefined;
}

/** The driver module and export a callee names: `Pool` imported from pg, `pg.Pool`, `mysql.createPool`, `require('pg').Pool`. */
function driverExport(callee: TSESTree.Node, scope: Scope): { module: string; name: string } | undefined {
  const target = unwrap(callee);
  if (target.type === AST_NODE_TYPES.Identifier) {
    const source = importSource(target, scope) ?? destructuredFromDriver(target, scope);
    return source && isDriverModule(source.module) ? { module: source.module, name: source.imported } : undefined;
  }
  if (target.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const name = memberName(target);
  if (name === undefined) return undefined;
  const object = unwrap(target.object);
  if (object.type === AST_NODE_TYPES.Identifier) {
    const source = importSource(object, scope);
    if (source && isDriverModule(source.module) && (source.imported === 'default' || source.imported === '*')) return { module: source.module, name };
  }
  if (
    object.type === AST_NODE_TYPES.CallExpression &&
    object.callee.type === AST_NODE_TYPES.Identifier &&
    object.callee.name === 'require' &&
    object.arguments[0]?.type === AST_NODE_TYPES.Literal &&
    typeof object.arguments[0].value === 'string' &&
    isDriverModule(object.arguments[0].value)
  ) {
    return { module: object.arguments[0].value, name };
  }
  return undefined;
}

/** `import pg from 'pg'; const { Pool } = pg;` */
function destructuredFromDriver(identifier: TSESTree.Identifier, scope: Scope): { module: string; imported: string } | undefined {
  const def = findVariable(scope, identifier)?.defs[0];
  if (def?.node.type !== AST_NODE_TYPES.VariableDeclarator || def.node.id.type !== AST_NODE_TYPES.ObjectPattern || !def.node.init) return undefined;
  const init = unwrap(def.node.init);
  if (init.type !== AST_NODE_TYPES.Identifier) return undefined;
  const source = importSource(init, scope);
  if (!source || (source.imported !== 'default' && source.imported !== '*')) return undefined;
  for (const property of def.node.id.properties) {
    if (property.type === AST_NODE_TYPES.Property && property.value.type === AST_NODE_TYPES.Identifier && property.value.name === identifier.name) {
      const imported = propertyKeyName(property);
      return imported === undefined ? undefined : { module: source.module, imported };
    }
  }
  return undefined;
}

function isDriverModule(module: string): boolean {
  return PG_MODULES.has(module) || MYSQL_MODULES.has(module) || module === '@vercel/postgres' || module === 'postgres';
}

/** Calls that hand out one connection: `pool.connect()`, `getConnection()`, `pool.acquire()` (generic-pool), `getClient()`. */
const CONNECTION_LENDERS = new Set(['connect', 'getConnection', 'getClient', 'acquire', 'createConnection', 'createClient']);

function classifyCall(call: TSESTree.CallExpression, context: AnyRuleContext, depth: number): Kind | undefined {
  const scope = context.sourceCode.getScope(call);
  const driver = driverExport(call.callee, scope);
  if (driver) {
    if (driver.name === 'createPool' || driver.name === 'createPoolCluster') {
      const acquire = driver.module === '@vercel/postgres' ? 'connect' : PROMISE_MYSQL_MODULES.has(driver.module) ? 'getConnection' : undefined;
      return { kind: 'pool', evidence: 'construction', acquire };
    }
    if (driver.module === 'postgres' && driver.name === 'default') return { kind: 'pool', evidence: 'construction', acquire: undefined };
    if (driver.module === '@neondatabase/serverless' && driver.name === 'neon') return { kind: 'pool', evidence: 'construction', acquire: undefined };
    if (driver.name === 'createConnection' || driver.name === 'createClient') return { kind: 'client' };
  }
  const callee = unwrap(call.callee);
  const callbacks = call.arguments.some((argument) => argument.type === AST_NODE_TYPES.ArrowFunctionExpression || argument.type === AST_NODE_TYPES.FunctionExpression);
  const lender = receiverName(callee);
  if (lender !== undefined && CONNECTION_LENDERS.has(lender) && !callbacks) {
    // Whatever lends it, the result is one connection, never a pool.
    return { kind: 'client' };
  }
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const method = memberName(callee);
  if (method === 'promise') {
    // mysql2: `mysql.createPool(...).promise()` is the promise face of the same pool.
    const inner = classify(callee.object, context, depth + 1);
    return inner?.kind === 'pool' ? { ...inner, acquire: 'getConnection' } : inner;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Transactions on pools and clients

/** A transaction statement sent through a pool (`pool.query('BEGIN')`), with the pool's evidence. */
export interface PoolTransactionStep extends TransactionStep {
  pool: PoolInfo;
}

/**
 * The transaction statement `node` sends through a pool, or undefined. Only statements
 * count: pools have no `beginTransaction()`.
 */
export function poolTransactionStep(node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression, context: AnyRuleContext): PoolTransactionStep | undefined {
  const step = transactionStep(node, context);
  if (step?.via !== 'sql') return undefined;
  const pool = describePool(step.receiver, context);
  return pool ? { ...step, pool } : undefined;
}

/** The nodes under `root` in source order (not `root` itself), nested functions included. */
function descendants(root: TSESTree.Node, context: AnyRuleContext): TSESTree.Node[] {
  const nodes: TSESTree.Node[] = [];
  const visit = (node: TSESTree.Node): void => {
    for (const child of childNodes(node, context.sourceCode.visitorKeys)) {
      nodes.push(child);
      visit(child);
    }
  };
  visit(root);
  return nodes;
}

/** Every transaction step under `root`, in source order. */
function stepsIn(root: TSESTree.Node, context: AnyRuleContext): TransactionStep[] {
  const steps: TransactionStep[] = [];
  for (const node of descendants(root, context)) {
    if (node.type === AST_NODE_TYPES.CallExpression || node.type === AST_NODE_TYPES.TaggedTemplateExpression) {
      const step = transactionStep(node, context);
      if (step) steps.push(step);
    }
  }
  return steps;
}

/** The function (or the whole program) a transaction step belongs to. */
export function transactionScope(node: TSESTree.Node): TSESTree.FunctionLike | TSESTree.Program {
  const fn = enclosingFunction(node);
  if (fn) return fn;
  let current: TSESTree.Node = node;
  while (current.parent) current = current.parent;
  return current;
}

function sameReceiver(a: TSESTree.Node, b: TSESTree.Node, context: AnyRuleContext): boolean {
  return context.sourceCode.getText(unwrap(a)) === context.sourceCode.getText(unwrap(b));
}

/**
 * For a BEGIN on a client (not a pool), the rest of the transaction in the same function:
 * its first COMMIT after the BEGIN (or, without one, its first ROLLBACK), looked for in the
 * whole function, callbacks included, for callback-style drivers.
 */
function transactionEnd(begin: TransactionStep, context: AnyRuleContext): { end: TransactionStep | undefined; steps: TransactionStep[] } {
  const steps = stepsIn(transactionScope(begin.node), context).filter((step) => sameReceiver(step.receiver, begin.receiver, context));
  const after = steps.filter((step) => step.node.range[0] > begin.node.range[1]);
  const end = after.find((step) => step.kind === 'commit') ?? after.find((step) => step.kind === 'rollback');
  return { end, steps };
}

/** True when `step` opens a transaction on a connection rather than on a pool. */
export function isClientBegin(step: TransactionStep, context: AnyRuleContext): boolean {
  return step.kind === 'begin' && poolEvidence(step.receiver, context) === undefined;
}

// -- require-rollback ---------------------------------------------------------------------------

const ROLLBACK_NAME = /rollback|abort/i;
/** Methods that throw a connection away, so the server aborts its transaction. */
const DISCARD_METHODS = new Set(['destroy', 'end']);

/**
 * True when `begin` (a BEGIN on a client) is committed in the same function but no error
 * path undoes it: no `try` around or after it whose `catch` or `finally` rolls back, and no
 * `.catch()` callback that does. Rolling back counts as: a ROLLBACK statement or `rollback()`
 * method, a call to a function named like `rollback` / `abort` or to a function of this file
 * that sends a ROLLBACK, or discarding the connection (`release(err)` with an argument,
 * `destroy()`, `end()`). A callback-style BEGIN (`client.query('BEGIN', (err) => ...)`)
 * counts as handled when the function rolls back anywhere.
 */
export function missingRollback(begin: TransactionStep, context: AnyRuleContext): boolean {
  if (!isClientBegin(begin, context)) return false;
  const { end } = transactionEnd(begin, context);
  if (end?.kind !== 'commit') return false;
  const scope = transactionScope(begin.node);
  const callbackStyle = begin.node.type === AST_NODE_TYPES.CallExpression && begin.node.arguments.some(isFunctionNode);
  if (callbackStyle) return !rollsBack(scope, begin.receiver, context);
  for (const node of descendants(scope, context)) {
    if (node.type === AST_NODE_TYPES.TryStatement && node.block.range[1] > begin.node.range[1] && node.range[0] < end.node.range[0]) {
      if (node.handler && rollsBack(node.handler, begin.receiver, context)) return false;
      if (node.finalizer && rollsBack(node.finalizer, begin.receiver, context)) return false;
    }
    if (node.type === AST_NODE_TYPES.CallExpression && isCatchCall(node) && node.arguments.some((argument) => rollsBack(argument, begin.receiver, context))) {
      return false;
    }
  }
  return !calledUnderRollback(scope, context);
}

/**
 * True when the function is a helper of this file called inside a `try` whose `catch` or
 * `finally` rolls back: `try { await transfer(client) } catch { await client.query('ROLLBACK') }`.
 */
function calledUnderRollback(fn: TSESTree.FunctionLike | TSESTree.Program, context: AnyRuleContext): boolean {
  const declaration =
    fn.type === AST_NODE_TYPES.FunctionDeclaration ? fn : fn.parent?.type === AST_NODE_TYPES.VariableDeclarator && fn.parent.init === fn ? fn.parent : undefined;
  if (!declaration) return false;
  return context.sourceCode.getDeclaredVariables(declaration).some((variable) =>
    variable.references.some((reference) => {
      const call = reference.identifier.parent;
      if (call.type !== AST_NODE_TYPES.CallExpression || call.callee !== reference.identifier) return false;
      for (let current: TSESTree.Node = call; current.parent; current = current.parent) {
        const parent: TSESTree.Node = current.parent;
        if (parent.type === AST_NODE_TYPES.TryStatement && parent.block === current) {
          if ((parent.handler && rollsBack(parent.handler, call, context)) || (parent.finalizer && rollsBack(parent.finalizer, call, context))) return true;
        }
      }
      return false;
    }),
  );
}

function isFunctionNode(node: TSESTree.Node): boolean {
  return node.type === AST_NODE_TYPES.ArrowFunctionExpression || node.type === AST_NODE_TYPES.FunctionExpression;
}

function isCatchCall(call: TSESTree.CallExpression): boolean {
  const callee = unwrap(call.callee);
  return callee.type === AST_NODE_TYPES.MemberExpression && memberName(callee) === 'catch';
}

/** True when something under `root` rolls the transaction on `receiver` back (see {@link missingRollback}). */
function rollsBack(root: TSESTree.Node, receiver: TSESTree.Node, context: AnyRuleContext, depth = 0): boolean {
  for (const node of [root, ...descendants(root, context)]) {
    if (node.type !== AST_NODE_TYPES.CallExpression && node.type !== AST_NODE_TYPES.TaggedTemplateExpression) continue;
    if (transactionStep(node, context)?.kind === 'rollback') return true;
    if (node.type !== AST_NODE_TYPES.CallExpression) continue;
    const callee = unwrap(node.callee);
    const name = receiverName(callee);
    if (name !== undefined && ROLLBACK_NAME.test(name)) return true;
    if (callee.type === AST_NODE_TYPES.MemberExpression && sameReceiver(callee.object, receiver, context)) {
      const method = memberName(callee);
      if (method === 'release' && node.arguments.length > 0) return true;
      if (method !== undefined && DISCARD_METHODS.has(method)) return true;
    }
    const helper = depth < 2 ? localFunction(callee, context) : undefined;
    if (helper && rollsBack(helper.body, receiver, context, depth + 1)) return true;
  }
  return false;
}

/** The function a callee names when it is declared in this file (`function f() {}`, `const f = () => {}`). */
function localFunction(
  callee: TSESTree.Node,
  context: AnyRuleContext,
): TSESTree.FunctionDeclaration | TSESTree.ArrowFunctionExpression | TSESTree.FunctionExpression | undefined {
  if (callee.type !== AST_NODE_TYPES.Identifier) return undefined;
  const def = findVariable(context.sourceCode.getScope(callee), callee)?.defs[0];
  if (!def) return undefined;
  if (def.node.type === AST_NODE_TYPES.FunctionDeclaration) return def.node;
  if (def.node.type === AST_NODE_TYPES.VariableDeclarator && def.node.init) {
    const init = unwrap(def.node.init);
    if (init.type === AST_NODE_TYPES.ArrowFunctionExpression || init.type === AST_NODE_TYPES.FunctionExpression) return init;
  }
  return undefined;
}

// -- no-pool-query-in-transaction ---------------------------------------------------------------

/** A query that leaves a client's transaction for the pool. */
export interface EscapingQuery {
  /** The pool query, or the call of a helper of this file that sends one. */
  node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression;
  /** The pool it goes through. */
  pool: TSESTree.Node;
  /** Set when `node` calls a helper: the helper's name. */
  helper: string | undefined;
}

/**
 * The queries sent through a pool while the transaction `begin` opened on a client is open:
 * between the BEGIN and the client's COMMIT (or ROLLBACK, or the end of the function). They
 * run on other connections, outside the transaction. Counted: writes and statements whose
 * text is not known, through the pool the client came from or any pool known by more than
 * its name; calls of helpers of this file that send such a query and are not handed the
 * client. Reads through the pool stay quiet: they change nothing.
 */
export function poolQueriesInTransaction(begin: TransactionStep, context: AnyRuleContext): EscapingQuery[] {
  if (!isClientBegin(begin, context)) return [];
  const { end, steps } = transactionEnd(begin, context);
  const scope = transactionScope(begin.node);
  const limit = end ? end.node.range[0] : scope.range[1];
  const source = clientSource(begin.receiver, context);
  // An early COMMIT / ROLLBACK (`if (dup) { ROLLBACK; log via pool; return }`) ends the transaction for what follows it in its block.
  const earlyEnds = steps.filter((step) => (step.kind === 'commit' || step.kind === 'rollback') && step.node.range[0] > begin.node.range[1] && step.node.range[0] < limit);
  return escapingQueries(scope, begin.node.range[1], limit, begin.receiver, source, context).filter(
    (query) => !earlyEnds.some((step) => step.node.range[1] <= query.node.range[0] && contains(enclosingBlock(step.node), query.node)),
  );
}

function enclosingBlock(node: TSESTree.Node): TSESTree.Node {
  for (let current = node.parent; current; current = current.parent) {
    if (current.type === AST_NODE_TYPES.BlockStatement || current.type === AST_NODE_TYPES.SwitchCase || current.type === AST_NODE_TYPES.Program) return current;
  }
  return node;
}

/**
 * postgres.js: the queries a `sql.begin((tx) => ...)` callback sends through `sql` itself
 * (or through helpers of this file that do) instead of `tx`.
 */
export function poolQueriesInPostgresTransaction(call: TSESTree.CallExpression, context: AnyRuleContext): EscapingQuery[] {
  const callback = call.arguments.find(isFunctionNode) as TSESTree.ArrowFunctionExpression | TSESTree.FunctionExpression | undefined;
  const handle = callback?.params[0];
  if (!callback || handle?.type !== AST_NODE_TYPES.Identifier || postgresTransactionHandle(handle, context) === undefined) return [];
  const callee = unwrap(call.callee) as TSESTree.MemberExpression;
  return escapingQueries(callback.body, callback.body.range[0], callback.body.range[1], handle, callee.object, context);
}

function clientSource(client: TSESTree.Node, context: AnyRuleContext): TSESTree.Node | undefined {
  const target = unwrap(client);
  if (target.type !== AST_NODE_TYPES.Identifier) return undefined;
  const def = findVariable(context.sourceCode.getScope(target), target)?.defs[0];
  if (def?.node.type !== AST_NODE_TYPES.VariableDeclarator || !def.node.init) return undefined;
  const init = unwrap(def.node.init);
  if (init.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const callee = unwrap(init.callee);
  return callee.type === AST_NODE_TYPES.MemberExpression ? callee.object : undefined;
}

function escapingQueries(
  root: TSESTree.Node,
  from: number,
  to: number,
  client: TSESTree.Node,
  source: TSESTree.Node | undefined,
  context: AnyRuleContext,
): EscapingQuery[] {
  const found: EscapingQuery[] = [];
  for (const node of descendants(root, context)) {
    if (node.range[0] < from || node.range[1] > to) continue;
    if (node.type !== AST_NODE_TYPES.CallExpression && node.type !== AST_NODE_TYPES.TaggedTemplateExpression) continue;
    const pool = escapingPool(node, source, context);
    if (pool) {
      found.push({ node, pool, helper: undefined });
      continue;
    }
    if (node.type !== AST_NODE_TYPES.CallExpression) continue;
    const helper = localFunction(unwrap(node.callee), context);
    if (!helper || node.arguments.some((argument) => mentions(argument, client, context))) continue;
    for (const child of descendants(helper.body, context)) {
      if (child.type !== AST_NODE_TYPES.CallExpression && child.type !== AST_NODE_TYPES.TaggedTemplateExpression) continue;
      const innerPool = escapingPool(child, source, context);
      if (innerPool) {
        found.push({ node, pool: innerPool, helper: receiverName(node.callee) });
        break;
      }
    }
  }
  return found;
}

/** The pool `node` sends a write (or unknown SQL) through, when it is one that counts. */
function escapingPool(node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression, source: TSESTree.Node | undefined, context: AnyRuleContext): TSESTree.Node | undefined {
  const sent = node.type === AST_NODE_TYPES.CallExpression ? getQueryCall(node, context) : getTaggedQuery(node, context);
  if (!sent) return undefined;
  if (sent.text !== undefined && (transactionStatement(sent.text) !== undefined || !isWriteStatement(sent.text))) return undefined;
  const evidence = poolEvidence(sent.receiver, context);
  if (evidence === undefined) return undefined;
  if (evidence === 'name' && !(source && sameReceiver(source, sent.receiver, context))) return undefined;
  return sent.receiver;
}

function mentions(node: TSESTree.Node, identifier: TSESTree.Node, context: AnyRuleContext): boolean {
  const name = context.sourceCode.getText(unwrap(identifier));
  return [node, ...descendants(node, context)].some((child) => child.type === AST_NODE_TYPES.Identifier && child.name === name);
}

// -- no-pool-transaction ------------------------------------------------------------------------

/** One statement to report and the whole transaction it belongs to. */
export interface PoolTransactionReport {
  step: PoolTransactionStep;
  steps: PoolTransactionStep[];
}

/**
 * Listeners that collect the file's pool transaction steps and, at the end of the file, hand
 * `report` each statement {@link poolTransactionReports} finds: the wiring a rule needs.
 */
export function poolTransactionListeners(context: AnyRuleContext, report: (found: PoolTransactionReport) => void): TSESLint.RuleListener {
  const steps: PoolTransactionStep[] = [];
  const record = (node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression): void => {
    const step = poolTransactionStep(node, context);
    if (step) steps.push(step);
  };
  return {
    CallExpression: record,
    TaggedTemplateExpression: record,
    'Program:exit'() {
      for (const found of poolTransactionReports(steps, context)) report(found);
    },
  };
}

/**
 * Which pool transaction statements of a file to report, so a function gets one report,
 * not one per statement. Statements are grouped by function; a statement in a callback
 * nested in a function that sends a BEGIN through a pool belongs to that function (the
 * callback style: `pool.query('BEGIN', () => pool.query('COMMIT'))`). Each group is reported
 * at its first BEGIN, or without one at its first other statement. A pool known only by its
 * name counts only when the group both begins and ends (COMMIT / ROLLBACK) a transaction on it.
 */
export function poolTransactionReports(steps: readonly PoolTransactionStep[], context: AnyRuleContext): PoolTransactionReport[] {
  const beginScopes = steps.filter((step) => step.kind === 'begin').map((step) => transactionScope(step.node));
  const groups = new Map<TSESTree.Node, PoolTransactionStep[]>();
  for (const step of steps) {
    const own = transactionScope(step.node);
    const outer = beginScopes.filter((scope) => contains(scope, own)).sort((a, b) => a.range[0] - b.range[0] || b.range[1] - a.range[1])[0] ?? own;
    groups.set(outer, [...(groups.get(outer) ?? []), step]);
  }
  const reports: { step: PoolTransactionStep; steps: PoolTransactionStep[] }[] = [];
  for (const group of groups.values()) {
    const counted = group.filter(
      (step) =>
        step.pool.evidence !== 'name' ||
        (group.some((other) => other.kind === 'begin' && sameReceiver(other.receiver, step.receiver, context)) &&
          group.some((other) => (other.kind === 'commit' || other.kind === 'rollback') && sameReceiver(other.receiver, step.receiver, context))),
    );
    const step = counted.find((candidate) => candidate.kind === 'begin') ?? counted[0];
    if (step) reports.push({ step, steps: group });
  }
  return reports;
}

/**
 * A rewrite of one function's pool transaction onto one checked-out client:
 * `const client = await pool.connect(); try { ...client.query... } finally { client.release(); }`,
 * around the smallest run of statements holding every transaction statement. Offered only
 * when it is safe to do by hand: one pool whose library is known to lend connections with a
 * promise, an async function, every use of the pool in the run a `query` / `execute` call, no
 * helper of this file in the run that uses the pool, no declaration in the run used after it,
 * and the name `client` free.
 */
export function clientRewrite(steps: readonly PoolTransactionStep[], context: AnyRuleContext): { range: [number, number]; text: string } | undefined {
  const [first] = steps;
  if (!first?.pool.acquire || !steps.some((step) => step.kind === 'begin')) return undefined;
  const pool = unwrap(first.receiver);
  if (!steps.every((step) => step.pool.acquire === first.pool.acquire && sameReceiver(step.receiver, pool, context))) return undefined;
  const poolText = context.sourceCode.getText(pool);
  const isSimple =
    pool.type === AST_NODE_TYPES.Identifier ||
    (pool.type === AST_NODE_TYPES.MemberExpression && pool.object.type === AST_NODE_TYPES.ThisExpression && !pool.computed);
  if (!isSimple) return undefined;
  const fn = enclosingFunction(first.node);
  if (!fn?.async) return undefined;
  const run = statementRun(steps.map((step) => step.node));
  if (!run) return undefined;
  const start = run.statements[0];
  const end = run.statements[run.statements.length - 1];
  if (!start || !end) return undefined;
  const range: [number, number] = [start.range[0], end.range[1]];
  const inside = run.statements.flatMap((statement) => [statement, ...descendants(statement, context)]);
  const clientName = 'client';
  if (inside.some((node) => node.type === AST_NODE_TYPES.Identifier && node.name === clientName)) return undefined;
  if (findVariable(context.sourceCode.getScope(start), clientName)) return undefined;
  // Every use of the pool in the run must be a query through it.
  const receivers: TSESTree.Node[] = [];
  for (const node of inside) {
    if (node.type === AST_NODE_TYPES.TaggedTemplateExpression && getTaggedQuery(node, context)) return undefined;
    if (node.type === AST_NODE_TYPES.CallExpression) {
      const query = getQueryCall(node, context);
      if (query && sameReceiver(query.receiver, pool, context)) receivers.push(unwrap(query.receiver));
      else if (query && poolEvidence(query.receiver, context)) return undefined;
      const helper = localFunction(unwrap(node.callee), context);
      if (helper && context.sourceCode.getText(helper.body).includes(poolText)) return undefined;
    }
  }
  const uses = inside.filter((node) => context.sourceCode.getText(node) === poolText && (node.type === AST_NODE_TYPES.Identifier || node.type === AST_NODE_TYPES.MemberExpression));
  if (uses.some((use) => !receivers.includes(use) && !receivers.some((receiver) => contains(receiver, use)))) return undefined;
  if (declaresUsedLater(run.statements, context)) return undefined;

  const text = context.sourceCode.text;
  const lineStart = text.lastIndexOf('\n', range[0] - 1) + 1;
  const indent = /^[ \t]*/.exec(text.slice(lineStart))?.[0] ?? '';
  const unit = indent.startsWith('\t') ? '\t' : '  ';
  const frozen = inside.filter((node) => node.type === AST_NODE_TYPES.TemplateLiteral || node.type === AST_NODE_TYPES.Literal);
  const edits: { at: number; to: number; text: string }[] = receivers.map((receiver) => ({ at: receiver.range[0], to: receiver.range[1], text: clientName }));
  for (let i = text.indexOf('\n', range[0]); i !== -1 && i < range[1]; i = text.indexOf('\n', i + 1)) {
    const at = i + 1;
    if (frozen.some((node) => node.range[0] < at && at < node.range[1])) continue;
    if (text.slice(at, text.indexOf('\n', at) === -1 ? undefined : text.indexOf('\n', at)).trim() === '') continue;
    edits.push({ at, to: at, text: unit });
  }
  edits.sort((a, b) => a.at - b.at);
  let body = '';
  let cursor = range[0];
  for (const edit of edits) {
    body += text.slice(cursor, edit.at) + edit.text;
    cursor = edit.to;
  }
  body += text.slice(cursor, range[1]);
  const acquired = `const ${clientName} = await ${poolText}.${first.pool.acquire}();`;
  return {
    range,
    text: `${acquired}\n${indent}try {\n${indent}${unit}${body}\n${indent}} finally {\n${indent}${unit}${clientName}.release();\n${indent}}`,
  };
}

function contains(outer: TSESTree.Node, inner: TSESTree.Node): boolean {
  return outer.range[0] <= inner.range[0] && inner.range[1] <= outer.range[1];
}

/** The shortest run of sibling statements (in one block) that holds every node, or undefined. */
function statementRun(nodes: readonly TSESTree.Node[]): { statements: TSESTree.Statement[] } | undefined {
  const chains = nodes.map((node) => {
    const chain: TSESTree.Node[] = [];
    for (let current: TSESTree.Node | undefined = node; current; current = current.parent) chain.unshift(current);
    return chain;
  });
  const [shortest] = [...chains].sort((a, b) => a.length - b.length);
  if (!shortest) return undefined;
  let depth = 0;
  while (depth < shortest.length && chains.every((chain) => chain[depth] === shortest[depth])) depth++;
  // chains[*][depth - 1] is the lowest common ancestor; climb to a block that lists statements.
  for (let level = depth - 1; level >= 0; level--) {
    const ancestor = shortest[level];
    if (!ancestor || isFunctionNode(ancestor) || ancestor.type === AST_NODE_TYPES.FunctionDeclaration) return undefined;
    if (ancestor.type !== AST_NODE_TYPES.BlockStatement) continue;
    const children = chains.map((chain) => chain[level + 1]);
    const indices = children.map((child) => ancestor.body.indexOf(child as TSESTree.Statement));
    if (indices.some((index) => index === -1)) return undefined;
    return { statements: ancestor.body.slice(Math.min(...indices), Math.max(...indices) + 1) };
  }
  return undefined;
}

/** True when a statement of the run declares a name that is used after the run. */
function declaresUsedLater(statements: readonly TSESTree.Statement[], context: AnyRuleContext): boolean {
  const end = statements[statements.length - 1]?.range[1] ?? 0;
  for (const statement of statements) {
    if (statement.type !== AST_NODE_TYPES.VariableDeclaration && statement.type !== AST_NODE_TYPES.FunctionDeclaration && statement.type !== AST_NODE_TYPES.ClassDeclaration) continue;
    for (const variable of context.sourceCode.getDeclaredVariables(statement)) {
      if (variable.references.some((reference) => reference.identifier.range[0] > end)) return true;
    }
  }
  return false;
}
