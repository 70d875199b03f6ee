import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';

import { type Scope } from '../ast/context.js';
import { isFunction } from '../ast/function.js';
import { memberName } from '../ast/names.js';
import { unwrap } from '../ast/nodes.js';
import { findVariable } from '../ast/values.js';
import { resolveHandlerFunction } from './methods.js';

/**
 * Handlers registered from a table of rows: `[[EMAIL.APPROVED, notifyApproved], …].forEach(([name,
 * handler]) => queue.process(name, wrap(handler, name)))`. A processor that is an element of the
 * destructured row the iteration callback takes stands for that element of every row of the
 * array literal it walks, so each row's function is a handler of the registration.
 */

const ITERATIONS = new Set(['forEach', 'map', 'flatMap']);

/** The array literal an iteration walks: written in place, or bound once to a name. */
function iterated(node: TSESTree.Node, scope: Scope): TSESTree.ArrayExpression | undefined {
  const target = unwrap(node);
  if (target.type === AST_NODE_TYPES.ArrayExpression) return target;
  if (target.type !== AST_NODE_TYPES.Identifier) return undefined;
  const variable = findVariable(scope, target);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (def?.node.type !== AST_NODE_TYPES.VariableDeclarator || def.node.id.type !== AST_NODE_TYPES.Identifier)
    return undefined;
  if (def.parent?.type !== AST_NODE_TYPES.VariableDeclaration || def.parent.kind !== 'const') return undefined;
  const init = def.node.init && unwrap(def.node.init);
  return init?.type === AST_NODE_TYPES.ArrayExpression ? init : undefined;
}

/** The functions `processor` (a row element, possibly inside `wrap(handler, name)`) stands for. */
export function tableHandlers(processor: TSESTree.Node, scope: Scope): TSESTree.FunctionLike[] {
  let target = unwrap(processor);
  if (target.type === AST_NODE_TYPES.CallExpression && target.arguments[0]) target = unwrap(target.arguments[0]);
  if (target.type !== AST_NODE_TYPES.Identifier) return [];
  const def = findVariable(scope, target)?.defs[0];
  if (def?.type !== TSESLint.Scope.DefinitionType.Parameter || !isFunction(def.node)) return [];
  const row = def.node.params[0];
  if (row?.type !== AST_NODE_TYPES.ArrayPattern) return [];
  const index = row.elements.findIndex(
    (element) => element?.type === AST_NODE_TYPES.Identifier && element.name === target.name,
  );
  if (index === -1) return [];
  const iteration = def.node.parent;
  if (
    iteration.type !== AST_NODE_TYPES.CallExpression ||
    iteration.arguments[0] !== def.node ||
    iteration.callee.type !== AST_NODE_TYPES.MemberExpression ||
    !ITERATIONS.has(memberName(iteration.callee) ?? '')
  )
    return [];
  const rows = iterated(iteration.callee.object, scope);
  if (!rows) return [];
  return rows.elements.flatMap((element) => {
    if (element?.type !== AST_NODE_TYPES.ArrayExpression) return [];
    const cell = element.elements[index];
    const fn = cell && cell.type !== AST_NODE_TYPES.SpreadElement ? resolveHandlerFunction(cell, scope) : undefined;
    return fn ? [fn] : [];
  });
}
