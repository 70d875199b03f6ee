import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { type Scope } from '../ast/context.js';
import { entriesWalked, iteration } from '../ast/iteration.js';
import { memberName, propertyKeyName } from '../ast/names.js';
import { unwrap } from '../ast/nodes.js';
import { findVariable, staticValue } from '../ast/values.js';
import { resolveHandlerFunction } from './methods.js';

/**
 * Handlers registered from a table of rows, each row's handler taken by the code that walks the
 * table: `[[EMAIL.APPROVED, notifyApproved], …].forEach(([name, handler]) => queue.process(name,
 * wrap(handler, name)))`, `for (const job of jobs) await boss.work(job.name, job.handler)` over
 * `const jobs = [{ name: 'mail', handler: sendMail }, …]`, `jobs.forEach(({ name, handler }) =>
 * …)`, `for (const [name, handler] of Object.entries(handlers))` over an object literal. A
 * processor that is a part of the row a loop or an iteration callback takes (an element of an
 * array row, a property of an object row, the row itself) stands for that part of every row of
 * the literal walked, so each row's function is a handler of the registration.
 */

/** Which part of a row the processor is: an element of an array row, a property of an object row, or the row. */
type Part = { index: number } | { key: string } | { row: true };

/** The table literal walked: its rows, written in place or bound once to a `const`. */
function literal(node: TSESTree.Node, scope: Scope): TSESTree.Node | undefined {
  const target = unwrap(node);
  if (target.type !== AST_NODE_TYPES.Identifier) return target;
  const variable = findVariable(scope, target);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (def?.node.type !== AST_NODE_TYPES.VariableDeclarator || def.node.id.type !== AST_NODE_TYPES.Identifier)
    return undefined;
  if (def.parent?.type !== AST_NODE_TYPES.VariableDeclaration || def.parent.kind !== 'const') return undefined;
  return def.node.init ? unwrap(def.node.init) : undefined;
}

/**
 * The rows an iterated expression gives: an array literal's elements; `Object.values(o)`'s
 * property values and `Object.entries(o)`'s `[key, value]` pairs of an object literal (each pair as
 * its value, with `entry` set).
 */
function rowsOf(node: TSESTree.Node, scope: Scope): { rows: TSESTree.Node[]; entries: boolean } | undefined {
  const walked = entriesWalked(node);
  if (walked) {
    const table = walked.object ? literal(walked.walked, scope) : undefined;
    if (table?.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
    const values = table.properties.flatMap((property) =>
      property.type === AST_NODE_TYPES.Property ? [property.value] : [],
    );
    return { rows: values, entries: walked.gives === 'entries' };
  }
  const table = literal(node, scope);
  if (table?.type !== AST_NODE_TYPES.ArrayExpression) return undefined;
  return {
    rows: table.elements.flatMap((element) =>
      element && element.type !== AST_NODE_TYPES.SpreadElement ? [element] : [],
    ),
    entries: false,
  };
}

/** The part of a row a binding pattern gives `name`: the pattern itself, an element of it, or a property of it. */
function partIn(pattern: TSESTree.Node, name: string): Part | undefined {
  if (pattern.type === AST_NODE_TYPES.Identifier) return pattern.name === name ? { row: true } : undefined;
  if (pattern.type === AST_NODE_TYPES.ArrayPattern) {
    const index = pattern.elements.findIndex(
      (element) => element?.type === AST_NODE_TYPES.Identifier && element.name === name,
    );
    return index === -1 ? undefined : { index };
  }
  if (pattern.type !== AST_NODE_TYPES.ObjectPattern) return undefined;
  for (const property of pattern.properties) {
    if (property.type !== AST_NODE_TYPES.Property) continue;
    const value = property.value.type === AST_NODE_TYPES.AssignmentPattern ? property.value.left : property.value;
    const key = propertyKeyName(property);
    if (value.type === AST_NODE_TYPES.Identifier && value.name === name && key !== undefined) return { key };
  }
  return undefined;
}

/** The rows walked and the part of each a binding is, for a loop variable or an iteration callback's parameter. */
function rowBinding(identifier: TSESTree.Identifier, scope: Scope): { table: TSESTree.Node; part: Part } | undefined {
  const def = findVariable(scope, identifier)?.defs[0];
  const walk = def && iteration(def);
  const part = walk && partIn(walk.pattern, identifier.name);
  return walk && part && { table: walk.container, part };
}

/** The part a member access takes of a row: `row.handler`, `row['handler']`, `row[1]`. */
function memberPart(member: TSESTree.MemberExpression, scope: Scope): Part | undefined {
  if (!member.computed) {
    const name = memberName(member);
    return name === undefined ? undefined : { key: name };
  }
  const value = staticValue(member.property, scope)?.value;
  if (typeof value === 'number') return { index: value };
  return typeof value === 'string' ? { key: value } : undefined;
}

/** That part of one row: `entries` rows are `[key, value]` pairs whose value is `row`. */
function cellOf(row: TSESTree.Node, part: Part, entries: boolean): TSESTree.Node | undefined {
  if ('row' in part) return entries ? undefined : row;
  if (entries) return 'index' in part && part.index === 1 ? row : undefined;
  const value = unwrap(row);
  if ('index' in part) {
    if (value.type !== AST_NODE_TYPES.ArrayExpression) return undefined;
    const cell = value.elements[part.index];
    return cell && cell.type !== AST_NODE_TYPES.SpreadElement ? cell : undefined;
  }
  if (value.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
  for (const property of [...value.properties].reverse())
    if (property.type === AST_NODE_TYPES.Property && propertyKeyName(property) === part.key) return property.value;
  return undefined;
}

/**
 * What `processor` (a part of the row a loop or an iteration callback takes, possibly inside
 * `wrap(handler, name)`) holds in each row of the table walked: functions written there, or names
 * of functions of this file or of other modules.
 */
export function tableCells(processor: TSESTree.Node, scope: Scope): TSESTree.Node[] {
  let target = unwrap(processor);
  if (target.type === AST_NODE_TYPES.CallExpression && target.arguments[0]) target = unwrap(target.arguments[0]);
  let outer: Part | undefined;
  if (target.type === AST_NODE_TYPES.MemberExpression) {
    outer = memberPart(target, scope);
    target = unwrap(target.object);
    if (!outer) return [];
  }
  if (target.type !== AST_NODE_TYPES.Identifier) return [];
  const binding = rowBinding(target, scope);
  if (!binding) return [];
  // `row.handler` of a whole row is that part of the row; of a part already taken, nothing read here.
  const part = outer ? ('row' in binding.part ? outer : undefined) : binding.part;
  const table = part && rowsOf(binding.table, scope);
  if (!part || !table) return [];
  return table.rows.flatMap((row) => {
    const cell = cellOf(row, part, table.entries);
    return cell ? [cell] : [];
  });
}

/** The functions of this file `processor` stands for in the rows of its table. */
export function tableHandlers(processor: TSESTree.Node, scope: Scope): TSESTree.FunctionLike[] {
  return tableCells(processor, scope).flatMap((cell) => resolveHandlerFunction(cell, scope) ?? []);
}
