import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';

import { enclosingFunction, unwrap } from '../ast/nodes.js';
import { findVariable } from '../ast/values.js';
import { memberName, propertyKeyName } from '../ast/names.js';
import { type AnyRuleContext } from '../ast/context.js';
import { isFunction, returnedValues } from '../ast/function.js';

const { DefinitionType } = TSESLint.Scope;

/**
 * A field read back from a row the same function has just inserted holds what the insert wrote
 * there: `row.receipt_id` after `const { data: row } = await supabase.from('t').insert({ receipt_id
 * }).select().single()`, `order.code` after `const order = await tx.order.create({ data: { code } })`
 * (also when a transaction's callback returns the create), `row.id` after `const [row] = await
 * db.insert(t).values({ id }).returning()`. Whatever the field's value is made of, reading it back
 * makes nothing new: the row was written by this invocation, so a value minted for it is minted
 * for this invocation.
 */

/** Methods that write a new row and can hand it back (query builders, Prisma, Mongoose, Sequelize). */
const INSERTS = new Set(['insert', 'insertOne', 'values', 'create', 'upsert']);
/** Where a Prisma-style write holds the row's fields. */
const ROW_FIELDS = ['data', 'create'];
/** Callees that run a callback in a transaction and return what it returns. */
const TRANSACTION = /^\$?transaction$|^transact(?:ion)?al$/i;
/** The envelope field supabase returns its rows in (`{ data, error }`). */
const ENVELOPE = 'data';
const MAX_DEPTH = 4;

/**
 * The value an inserted row's field was written with, for `member` reading a field of a row this
 * function inserted (through `const` bindings); undefined otherwise.
 */
export function insertedFieldValue(
  member: TSESTree.MemberExpression,
  context: AnyRuleContext,
): TSESTree.Node | undefined {
  const field = memberName(member, context.sourceCode.getScope(member));
  const row = unwrap(member.object);
  if (field === undefined || row.type !== AST_NODE_TYPES.Identifier) return undefined;
  const variable = findVariable(context.sourceCode.getScope(row), row);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (def?.type !== DefinitionType.Variable || !def.node.init || !enclosingFunction(def.node)) return undefined;
  if (variable && variable.references.filter((reference) => reference.isWrite()).length !== 1) return undefined;
  if (!holdsTheRow(def.node.id, def.name)) return undefined;
  for (const written of writtenRows(def.node.init, 0))
    for (const property of written.properties)
      if (property.type === AST_NODE_TYPES.Property && propertyKeyName(property) === field) return property.value;
  return undefined;
}

/** `row`, `{ data: row }` (supabase's envelope) or `[row]` (a `returning()` list). */
function holdsTheRow(pattern: TSESTree.Node, name: TSESTree.Identifier): boolean {
  if (pattern === name) return true;
  if (pattern.type === AST_NODE_TYPES.ArrayPattern) return unwrapDefault(pattern.elements[0]) === name;
  if (pattern.type !== AST_NODE_TYPES.ObjectPattern) return false;
  return pattern.properties.some(
    (property) =>
      property.type === AST_NODE_TYPES.Property &&
      propertyKeyName(property) === ENVELOPE &&
      unwrapDefault(property.value) === name,
  );
}

function unwrapDefault(node: TSESTree.Node | null | undefined): TSESTree.Node | undefined {
  if (!node) return undefined;
  return node.type === AST_NODE_TYPES.AssignmentPattern ? node.left : node;
}

/** The object literals an insert in `node` writes as its row, through the calls chained after it and transaction callbacks. */
function writtenRows(node: TSESTree.Node, depth: number): TSESTree.ObjectExpression[] {
  let target = unwrap(node);
  if (depth > MAX_DEPTH) return [];
  // `.insert(row).select().single()`, `.values(row).returning()`: the chain ends in the insert.
  while (target.type === AST_NODE_TYPES.CallExpression && target.callee.type === AST_NODE_TYPES.MemberExpression) {
    const method = memberName(target.callee);
    if (method !== undefined && INSERTS.has(method)) return rowOf(target);
    if (method !== undefined && TRANSACTION.test(method)) return returnedRows(target, depth);
    target = unwrap(target.callee.object);
  }
  return [];
}

/** What a transaction's callback returns, when it returns an insert's row. */
function returnedRows(call: TSESTree.CallExpression, depth: number): TSESTree.ObjectExpression[] {
  const callback = call.arguments.find((argument) => isFunction(argument));
  if (!callback || !isFunction(callback)) return [];
  const body = callback.body;
  const returned = body.type === AST_NODE_TYPES.BlockStatement ? returnedValues(body) : [body];
  return returned.flatMap((value) => writtenRows(value, depth + 1));
}

/** The row an insert call writes: its first argument, or that argument's `data` (Prisma). */
function rowOf(call: TSESTree.CallExpression): TSESTree.ObjectExpression[] {
  const first = call.arguments[0] && unwrap(call.arguments[0]);
  if (first?.type !== AST_NODE_TYPES.ObjectExpression) return [];
  for (const property of first.properties) {
    if (property.type !== AST_NODE_TYPES.Property) continue;
    const name = propertyKeyName(property);
    const value = unwrap(property.value);
    if (name !== undefined && ROW_FIELDS.includes(name) && value.type === AST_NODE_TYPES.ObjectExpression)
      return [value];
  }
  return [first];
}
