import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { unwrap } from '../ast/nodes.js';
import { findVariable } from '../ast/values.js';
import { memberName, propertyKeyName } from '../ast/names.js';
import { importSource, requiredModule } from '../modules.js';
import { type AnyRuleContext, type Scope } from '../ast/context.js';
import { importedSummary, summaryAt } from '../settings.js';
import {
  type Kind,
  PG_MODULES,
  MYSQL_MODULES,
  POOL_TYPE_NAMES,
  PROMISE_MYSQL_MODULES,
  CLIENT_TYPE_NAMES,
  receiverName,
} from './pools.js';
import { walk } from '../ast/walk.js';
import { thisFieldDeclarations } from '../ast/class-fields.js';

// ---------------------------------------------------------------------------------------------
// Syntax

/** What a binding or expression is, from how it is made, annotated or imported; undefined when unknown. */
export function classify(node: TSESTree.Node, context: AnyRuleContext, depth: number): Kind | undefined {
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
  if (importedSummary(identifier, context)?.pool) return { kind: 'pool', evidence: 'settings', acquire: undefined };
  const source = importSource(identifier, scope);
  if (source?.module === '@vercel/postgres') {
    if (source.imported === 'db' || source.imported === 'sql')
      return { kind: 'pool', evidence: 'construction', acquire: 'connect' };
    return undefined;
  }
  if (def.type === TSESLint.Scope.DefinitionType.ImportBinding) return undefined;
  if (def.type === TSESLint.Scope.DefinitionType.Parameter) {
    const annotated = classifyAnnotation(parameterAnnotation(def.name), scope);
    return annotated ?? classifyCallbackParameter(def.name, def.node, context);
  }
  if (def.node.type !== AST_NODE_TYPES.VariableDeclarator || def.node.id.type !== AST_NODE_TYPES.Identifier)
    return undefined;
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
  if (fn.type !== AST_NODE_TYPES.ArrowFunctionExpression && fn.type !== AST_NODE_TYPES.FunctionExpression)
    return undefined;
  const call = fn.parent;
  if (call.type !== AST_NODE_TYPES.CallExpression || !call.arguments.includes(fn)) return undefined;
  const callee = unwrap(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const method = memberName(callee);
  const index = fn.params.indexOf(name as TSESTree.Parameter);
  if ((method === 'connect' || method === 'getConnection') && index === 1) return { kind: 'client' };
  if (method === 'begin' && index === 0 && classify(callee.object, context, 1)?.kind === 'pool')
    return { kind: 'client' };
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
  if (POOL_TYPE_NAMES.has(name))
    return {
      kind: 'pool',
      evidence: 'annotation',
      acquire: pg ? 'connect' : PROMISE_MYSQL_MODULES.has(module) ? 'getConnection' : undefined,
    };
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
      if (summaryAt(context, source.module, name)?.pool)
        return { kind: 'pool', evidence: 'settings', acquire: undefined };
    }
    return undefined;
  }
  if (object.type !== AST_NODE_TYPES.ThisExpression) return undefined;
  const body = enclosingClassBody(member);
  if (!body) return undefined;
  const kinds: (Kind | undefined)[] = [];
  for (const declaration of thisFieldDeclarations(body, name)) {
    const annotated = classifyAnnotation(declaration.typeAnnotation?.typeAnnotation, scope);
    if (annotated) return annotated;
    // A field's initialiser says what it holds; an injected parameter property holds what is handed in.
    if (declaration.type === AST_NODE_TYPES.Identifier) kinds.push(undefined);
    else if (declaration.value) kinds.push(classify(declaration.value, context, depth + 1));
  }
  for (const assignment of thisAssignments(body, name, context)) kinds.push(classify(assignment, context, depth + 1));
  return combine(kinds);
}

function enclosingClassBody(node: TSESTree.Node): TSESTree.ClassBody | undefined {
  for (let current = node.parent; current; current = current.parent) {
    if (current.type === AST_NODE_TYPES.ClassBody) return current;
  }
  return undefined;
}

/** The values assigned by `this.<name> = value` anywhere in the class body (not in nested classes). */
function thisAssignments(body: TSESTree.ClassBody, name: string, context: AnyRuleContext): TSESTree.Expression[] {
  const values: TSESTree.Expression[] = [];
  walk(body, context, (node) => {
    if (node.type === AST_NODE_TYPES.ClassBody && node !== body) return 'skip';
    if (
      node.type === AST_NODE_TYPES.AssignmentExpression &&
      node.operator === '=' &&
      node.left.type === AST_NODE_TYPES.MemberExpression &&
      node.left.object.type === AST_NODE_TYPES.ThisExpression &&
      memberName(node.left) === name
    ) {
      values.push(node.right);
    }
    return undefined;
  });
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
    if (source && isDriverModule(source.module) && (source.imported === 'default' || source.imported === '*'))
      return { module: source.module, name };
  }
  const required = requiredModule(object);
  if (required !== undefined && isDriverModule(required)) {
    return { module: required, name };
  }
  return undefined;
}

/** `import pg from 'pg'; const { Pool } = pg;` */
function destructuredFromDriver(
  identifier: TSESTree.Identifier,
  scope: Scope,
): { module: string; imported: string } | undefined {
  const def = findVariable(scope, identifier)?.defs[0];
  if (
    def?.node.type !== AST_NODE_TYPES.VariableDeclarator ||
    def.node.id.type !== AST_NODE_TYPES.ObjectPattern ||
    !def.node.init
  )
    return undefined;
  const init = unwrap(def.node.init);
  if (init.type !== AST_NODE_TYPES.Identifier) return undefined;
  const source = importSource(init, scope);
  if (!source || (source.imported !== 'default' && source.imported !== '*')) return undefined;
  for (const property of def.node.id.properties) {
    if (
      property.type === AST_NODE_TYPES.Property &&
      property.value.type === AST_NODE_TYPES.Identifier &&
      property.value.name === identifier.name
    ) {
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
const CONNECTION_LENDERS = new Set([
  'connect',
  'getConnection',
  'getClient',
  'acquire',
  'createConnection',
  'createClient',
]);

/**
 * A driver's own standalone connection (`mysql.createConnection(config)` of mysql, mysql2 or
 * mariadb, `pg`'s `createClient`): opened for the caller, not lent by a pool, so no pool runs dry
 * when it is not ended.
 */
export function isStandaloneConnection(call: TSESTree.CallExpression, context: AnyRuleContext): boolean {
  const driver = driverExport(call.callee, context.sourceCode.getScope(call));
  return driver !== undefined && (driver.name === 'createConnection' || driver.name === 'createClient');
}

function classifyCall(call: TSESTree.CallExpression, context: AnyRuleContext, depth: number): Kind | undefined {
  const scope = context.sourceCode.getScope(call);
  const driver = driverExport(call.callee, scope);
  if (driver) {
    if (driver.name === 'createPool' || driver.name === 'createPoolCluster') {
      const acquire =
        driver.module === '@vercel/postgres'
          ? 'connect'
          : PROMISE_MYSQL_MODULES.has(driver.module)
            ? 'getConnection'
            : undefined;
      return { kind: 'pool', evidence: 'construction', acquire };
    }
    if (driver.module === 'postgres' && driver.name === 'default')
      return { kind: 'pool', evidence: 'construction', acquire: undefined };
    if (driver.module === '@neondatabase/serverless' && driver.name === 'neon')
      return { kind: 'pool', evidence: 'construction', acquire: undefined };
    if (driver.name === 'createConnection' || driver.name === 'createClient') return { kind: 'client' };
  }
  const callee = unwrap(call.callee);
  const callbacks = call.arguments.some(
    (argument) =>
      argument.type === AST_NODE_TYPES.ArrowFunctionExpression || argument.type === AST_NODE_TYPES.FunctionExpression,
  );
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
