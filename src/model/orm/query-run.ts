import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext } from '../ast/context.js';
import { chainRoot, contains, enclosingFunction, leaves, unwrap } from '../ast/nodes.js';
import { findVariable } from '../ast/values.js';
import { ITERATION_METHODS } from '../ast/iteration.js';
import { memberName } from '../ast/names.js';
import { isBinding, mentions, parentOf } from './transactions.js';

// Whether a query built in a transaction is run there, and whether its result decides what the
// transaction does.

function isPromiseStatic(call: TSESTree.Node): boolean {
  if (call.type !== AST_NODE_TYPES.CallExpression) return false;
  const callee = unwrap(call.callee);
  return (
    callee.type === AST_NODE_TYPES.MemberExpression &&
    unwrap(callee.object).type === AST_NODE_TYPES.Identifier &&
    (unwrap(callee.object) as TSESTree.Identifier).name === 'Promise'
  );
}

/**
 * True when a builder chain ends in its SQL text (`knex(t).update(row).toQuery()`, `.toSQL()`,
 * Kysely's `.compile()`): the chain writes nothing; whoever runs the text does.
 */
export function compilesOnly(names: readonly string[]): boolean {
  return names.some(
    (name) =>
      name === 'toSQL' || name === 'toString' || name === 'toQuery' || name === 'toNative' || name === 'compile',
  );
}

/**
 * True when the query `call` builds is run here: awaited, returned, chained with `.then`, or
 * handed to `Promise.all`. ORM and builder queries are lazy (a Prisma promise, a Knex or
 * Drizzle builder run only when awaited), so a builder stored, composed into another query
 * (`knex.raw(...)` as a column, `.toSQL()`) or passed on is not a query of its own.
 */
export function isRun(call: TSESTree.CallExpression, names: readonly string[]): boolean {
  if (compilesOnly(names)) return false;
  if (names.includes('then') || names.includes('catch')) return true;
  let current: TSESTree.Node = call;
  while (
    parentOf(current)?.type === AST_NODE_TYPES.TSAsExpression ||
    parentOf(current)?.type === AST_NODE_TYPES.TSNonNullExpression ||
    parentOf(current)?.type === AST_NODE_TYPES.ChainExpression
  )
    current = parentOf(current) ?? current;
  const parent = parentOf(current);
  if (!parent) return false;
  if (parent.type === AST_NODE_TYPES.AwaitExpression || parent.type === AST_NODE_TYPES.ReturnStatement) return true;
  if (parent.type === AST_NODE_TYPES.YieldExpression) return true;
  if (parent.type === AST_NODE_TYPES.ArrowFunctionExpression && parent.body === current) return true;
  if (isPromiseStatic(parent)) return true;
  if (parent.type === AST_NODE_TYPES.ArrayExpression) return isPromiseStatic(parent.parent);
  return false;
}

/** Expressions a value passes through on its way to a test: `await x`, `x === 0`, `a && x`, `!x`. */
const TESTED_THROUGH: ReadonlySet<string> = new Set([
  AST_NODE_TYPES.AwaitExpression,
  AST_NODE_TYPES.BinaryExpression,
  AST_NODE_TYPES.LogicalExpression,
  AST_NODE_TYPES.UnaryExpression,
  AST_NODE_TYPES.ChainExpression,
  AST_NODE_TYPES.TSNonNullExpression,
  AST_NODE_TYPES.TSAsExpression,
  AST_NODE_TYPES.MemberExpression,
]);

/** Where a value flows to through {@link TESTED_THROUGH}: the test it decides, or where it stops. */
function testedAt(node: TSESTree.Node): 'test' | TSESTree.Node | undefined {
  let current = node;
  for (;;) {
    const parent = parentOf(current);
    if (!parent) return undefined;
    if (
      (parent.type === AST_NODE_TYPES.IfStatement || parent.type === AST_NODE_TYPES.ConditionalExpression) &&
      parent.test === current
    )
      return 'test';
    if (!TESTED_THROUGH.has(parent.type)) return parent;
    current = parent;
  }
}

/**
 * True when a read's result decides what the transaction does: tested in an `if`, directly
 * (`if ((await repo.count(...)) === 0)`) or stored and tested (`const existing = await
 * knex('t').first(); if (!existing) await trx('t').insert(...)`), or handed to a `.then`
 * callback that tests it: the check-then-write that a read outside the transaction leaves open
 * to a concurrent duplicate.
 */
export function isTestedRead(call: TSESTree.CallExpression, context: AnyRuleContext): boolean {
  const at = testedAt(call);
  const lookup = isLookupName(call);
  if (at === 'test') return !(lookup && isExistenceGuard(call));
  let stored: TSESTree.Identifier | undefined;
  if (at?.type === AST_NODE_TYPES.VariableDeclarator && at.id.type === AST_NODE_TYPES.Identifier) stored = at.id;
  // `read(...).then((existing) => { if (existing) throw ... })`: `call` is the chain's `.then`.
  const callee = unwrap(call.callee);
  const callback = call.arguments[0];
  if (
    callee.type === AST_NODE_TYPES.MemberExpression &&
    memberName(callee) === 'then' &&
    (callback?.type === AST_NODE_TYPES.ArrowFunctionExpression ||
      callback?.type === AST_NODE_TYPES.FunctionExpression) &&
    callback.params[0]?.type === AST_NODE_TYPES.Identifier
  )
    stored = callback.params[0];
  if (!stored) return false;
  const variable = findVariable(context.sourceCode.getScope(stored), stored);
  const references = (variable?.references ?? []).filter((reference) => reference.identifier !== stored);
  // A row only looked up (`const channel = await repo.findOne(...); if (!channel) throw ...;`, then
  // referenced by what the transaction writes) decides nothing a concurrent writer can race: the
  // guard stops on a missing row and the row itself is neither changed nor tested further.
  if (
    lookup &&
    references.some((reference) => isExistenceGuard(reference.identifier)) &&
    !references.some((reference) => changesRow(reference.identifier))
  )
    return references.some((reference) => !isExistenceGuard(reference.identifier) && decidesTest(reference.identifier));
  return references.some((reference) => decidesTest(reference.identifier));
}

/**
 * True when a lookup's row (`const code = await this.codes.findValid(...)`) is changed by the code
 * after it (`code.uses++`, `code.balance = code.balance - amount`): read on one connection and
 * written back from another, the change is lost to a concurrent one.
 */
export function changedRead(call: TSESTree.CallExpression, context: AnyRuleContext): boolean {
  if (!isLookupName(call)) return false;
  const at = testedAt(call);
  if (at === 'test' || at?.type !== AST_NODE_TYPES.VariableDeclarator || at.id.type !== AST_NODE_TYPES.Identifier)
    return false;
  const variable = findVariable(context.sourceCode.getScope(at.id), at.id);
  return (variable?.references ?? []).some(
    (reference) => reference.identifier !== at.id && changesRow(reference.identifier),
  );
}

/** Methods that only look rows up (`findOne`, `findFirst`, `getById`, `first`); `banUser` may write. */
const LOOKUP_NAME = /^(?:find|get|fetch|load|select|first|one|oneOrNone|exists|count|lookup|read|query)(?![a-z])/;

function isLookupName(call: TSESTree.CallExpression): boolean {
  const callee = unwrap(call.callee);
  const name =
    callee.type === AST_NODE_TYPES.MemberExpression
      ? memberName(callee)
      : callee.type === AST_NODE_TYPES.Identifier
        ? callee.name
        : undefined;
  return name !== undefined && LOOKUP_NAME.test(name);
}

/** True when `identifier` flows (through {@link TESTED_THROUGH}) into the test of an `if` or `?:`. */
function decidesTest(identifier: TSESTree.Node): boolean {
  for (let node: TSESTree.Node | undefined = identifier; node; node = parentOf(node)) {
    const parent = parentOf(node);
    if (parent?.type === AST_NODE_TYPES.IfStatement) return parent.test === node;
    if (parent?.type === AST_NODE_TYPES.ConditionalExpression) return parent.test === node;
    if (!parent || parent.type.endsWith('Statement') || parent.type.endsWith('Declaration')) return false;
  }
  return false;
}

/**
 * True when `value` is tested only for being missing, and the missing branch leaves: `if (!row)
 * throw ...`, `if (row == null) return`, `if (!(await repo.findOne(...))) throw ...`, with no `else`.
 */
function isExistenceGuard(value: TSESTree.Node): boolean {
  let node = value;
  while (
    parentOf(node)?.type === AST_NODE_TYPES.AwaitExpression ||
    parentOf(node)?.type === AST_NODE_TYPES.TSNonNullExpression
  )
    node = parentOf(node) ?? node;
  const parent = parentOf(node);
  let test: TSESTree.Node | undefined;
  if (parent?.type === AST_NODE_TYPES.UnaryExpression && parent.operator === '!') test = parent;
  else if (
    parent?.type === AST_NODE_TYPES.BinaryExpression &&
    (parent.operator === '==' || parent.operator === '===') &&
    [parent.left, parent.right].some(
      (side) =>
        side !== node &&
        ((side.type === AST_NODE_TYPES.Literal && side.value === null) ||
          (side.type === AST_NODE_TYPES.Identifier && side.name === 'undefined')),
    )
  )
    test = parent;
  if (!test) return false;
  const statement = parentOf(test);
  return (
    statement?.type === AST_NODE_TYPES.IfStatement &&
    statement.test === test &&
    statement.alternate === null &&
    leaves(statement.consequent)
  );
}

const ARITHMETIC: ReadonlySet<string> = new Set(['+', '-', '*', '/', '%']);

/**
 * True when the transaction works from the row's state: a field assigned or updated, or computed
 * with (`wallet.balance - amount`), a lost update when the row was read outside the transaction.
 */
function changesRow(identifier: TSESTree.Node): boolean {
  const parent = parentOf(identifier);
  if (parent?.type !== AST_NODE_TYPES.MemberExpression || parent.object !== identifier) return false;
  const outer = parentOf(parent);
  return (
    (outer?.type === AST_NODE_TYPES.AssignmentExpression && outer.left === parent) ||
    (outer?.type === AST_NODE_TYPES.UpdateExpression && outer.argument === parent) ||
    (outer?.type === AST_NODE_TYPES.BinaryExpression && ARITHMETIC.has(outer.operator))
  );
}

/** Reads that come back as one row or a number, not as the rows a transaction works through. */
const ONE_ROW =
  /^(?:find(?:Unique|First|One|ByPk|ById)\w*|first|one|oneOrNone|getOne\w*|getRawOne|executeTakeFirst\w*|count\w*|aggregate|sum|max|min|avg|exists\w*|get)$/;

type Variable = TSESLint.Scope.Variable;

/**
 * True when the rows a read returns decide what the transaction `tx` writes, with no `if` between:
 * the rows (or what is made of them: a `Set` of their ids, the votes filtered by it, each row of a
 * `for...of`) are handed to a query through `tx` or to a call handed `tx`. `const expired = await
 * repo.find(...)` on the pool, then `for (const user of expired) await remove(user.id, manager)`:
 * the transaction deletes rows chosen outside it, and a row that changes in between is deleted
 * anyway. Reads of one row or of a number are left to {@link isTestedRead}.
 */
export function drivesTransaction(
  call: TSESTree.CallExpression,
  names: readonly string[],
  tx: TSESTree.Identifier,
  context: AnyRuleContext,
): boolean {
  if (names.some((name) => ONE_ROW.test(name))) return false;
  const at = testedAt(call);
  if (at === 'test' || at?.type !== AST_NODE_TYPES.VariableDeclarator) return false;
  // `const [match] = await db.select().from(t).where(...).limit(1)`: one row, taken out.
  if (at.id.type === AST_NODE_TYPES.ArrayPattern || limitsToOne(call)) return false;
  const home = enclosingFunction(call);
  const queue: Variable[] = [...context.sourceCode.getDeclaredVariables(at)];
  const seen = new Set<Variable>();
  while (queue.length > 0 && seen.size < 12) {
    const variable = queue.shift();
    if (!variable || seen.has(variable)) continue;
    seen.add(variable);
    for (const { identifier } of variable.references) {
      if (variable.identifiers.includes(identifier as TSESTree.Identifier)) continue;
      if (reachesTransaction(identifier, tx, home, context)) return true;
      queue.push(...bindingsFed(identifier, home, context));
    }
  }
  return false;
}

/** True when the query's chain asks for a single row: `.limit(1)`, `.take(1)`. */
function limitsToOne(call: TSESTree.CallExpression): boolean {
  for (let current: TSESTree.Node = call; current.type === AST_NODE_TYPES.CallExpression;) {
    const callee = unwrap(current.callee);
    if (callee.type !== AST_NODE_TYPES.MemberExpression) return false;
    const name = memberName(callee);
    const [count] = current.arguments;
    if ((name === 'limit' || name === 'take') && count?.type === AST_NODE_TYPES.Literal && count.value === 1)
      return true;
    current = unwrap(callee.object);
  }
  return false;
}

/** The statement of `home` that `node` is part of: where a value's flow within one statement ends. */
function isOwnStatement(node: TSESTree.Node, home: TSESTree.Node | undefined): boolean {
  return (
    node.type.endsWith('Statement') && node.type !== AST_NODE_TYPES.BlockStatement && enclosingFunction(node) === home
  );
}

/** True when `identifier` is inside the arguments of a query through `tx`, or of a call handed `tx`. */
function reachesTransaction(
  identifier: TSESTree.Node,
  tx: TSESTree.Identifier,
  home: TSESTree.Node | undefined,
  context: AnyRuleContext,
): boolean {
  let current = identifier;
  for (let parent = parentOf(current); parent; current = parent, parent = parentOf(current)) {
    if (
      parent.type === AST_NODE_TYPES.CallExpression &&
      parent.callee !== current &&
      (isBinding(chainRoot(parent.callee), tx, context) ||
        parent.arguments.some((argument) => argument !== current && mentions(argument, tx, context)))
    )
      return true;
    if (isOwnStatement(parent, home)) return false;
  }
  return false;
}

/**
 * The bindings a value at `identifier` flows into within its statement: the variables a
 * declaration or an assignment makes of it, the loop variable of a `for...of` over it, the
 * element parameter of `rows.map((row) => ...)`.
 */
function bindingsFed(identifier: TSESTree.Node, home: TSESTree.Node | undefined, context: AnyRuleContext): Variable[] {
  let current = identifier;
  for (let parent = parentOf(current); parent; current = parent, parent = parentOf(current)) {
    if (parent.type === AST_NODE_TYPES.VariableDeclarator && parent.init === current)
      return [...context.sourceCode.getDeclaredVariables(parent)];
    if (parent.type === AST_NODE_TYPES.ForOfStatement && parent.right === current)
      return parent.left.type === AST_NODE_TYPES.VariableDeclaration
        ? [...context.sourceCode.getDeclaredVariables(parent.left)]
        : [];
    if (
      parent.type === AST_NODE_TYPES.MemberExpression &&
      parent.object === current &&
      ITERATION_METHODS.has(memberName(parent) ?? '')
    ) {
      const each = parentOf(parent);
      const callback = each?.type === AST_NODE_TYPES.CallExpression ? each.arguments[0] : undefined;
      if (
        callback?.type === AST_NODE_TYPES.ArrowFunctionExpression ||
        callback?.type === AST_NODE_TYPES.FunctionExpression
      ) {
        const element = callback.params[/^reduce/.test(memberName(parent) ?? '') ? 1 : 0];
        const params = context.sourceCode
          .getDeclaredVariables(callback)
          .filter((variable) => element && variable.defs.some((def) => contains(element, def.name)));
        return params;
      }
    }
    if (isOwnStatement(parent, home)) return [];
  }
  return [];
}
