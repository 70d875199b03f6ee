import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';

import { isFunction } from './function.js';
import { memberName } from './names.js';
import { unwrap } from './nodes.js';

/** Array methods that call their callback synchronously, once per element. */
export const ITERATION_METHODS = new Set([
  'forEach',
  'map',
  'flatMap',
  'filter',
  'some',
  'every',
  'find',
  'findIndex',
  'reduce',
  'reduceRight',
]);

/** The parameter of an iteration method's callback that holds each element: the second for `reduce`, after the accumulator. */
export function elementParameterIndex(method: string): number | undefined {
  if (!ITERATION_METHODS.has(method)) return undefined;
  return method === 'reduce' || method === 'reduceRight' ? 1 : 0;
}

/**
 * The container a binding takes each element of: `c` of `for (const x of c)`, and of
 * `c.map((x) => …)` for the callback's element parameter; undefined for any other binding.
 */
export function iteratedContainer(def: TSESLint.Scope.Definition): TSESTree.Node | undefined {
  if (def.type === TSESLint.Scope.DefinitionType.Variable) {
    const declaration = def.node.parent;
    const loop = declaration.parent;
    return loop.type === AST_NODE_TYPES.ForOfStatement && loop.left === declaration ? loop.right : undefined;
  }
  if (def.type !== TSESLint.Scope.DefinitionType.Parameter || !isFunction(def.node)) return undefined;
  const fn = def.node;
  const call = fn.parent;
  if (call.type !== AST_NODE_TYPES.CallExpression || call.arguments[0] !== fn) return undefined;
  const callee = unwrap(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const index = elementParameterIndex(memberName(callee) ?? '');
  return index !== undefined && fn.params[index] === def.name ? callee.object : undefined;
}
