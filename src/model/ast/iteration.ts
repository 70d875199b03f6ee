import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';

import { isFunction } from './function.js';
import { memberName } from './names.js';
import { contains, unwrap } from './nodes.js';

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
 * The container a binding takes each element of, with the pattern each element is bound to: `c`
 * and `x` of `for (const x of c)` (or `[k, v]` of `for (const [k, v] of c)`), and of `c.map((x) =>
 * …)` (or `c.forEach(({ name, run }) => …)`) for the callback's element parameter; undefined for
 * any other binding.
 */
export function iteration(
  def: TSESLint.Scope.Definition,
): { container: TSESTree.Node; pattern: TSESTree.Node } | undefined {
  if (def.type === TSESLint.Scope.DefinitionType.Variable) {
    const declaration = def.node.parent;
    const loop = declaration.parent;
    return loop.type === AST_NODE_TYPES.ForOfStatement && loop.left === declaration
      ? { container: loop.right, pattern: def.node.id }
      : undefined;
  }
  if (def.type !== TSESLint.Scope.DefinitionType.Parameter || !isFunction(def.node)) return undefined;
  const fn = def.node;
  const call = fn.parent;
  if (call.type !== AST_NODE_TYPES.CallExpression || call.arguments[0] !== fn) return undefined;
  const callee = unwrap(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const index = elementParameterIndex(memberName(callee) ?? '');
  const pattern = index === undefined ? undefined : fn.params[index];
  return pattern && contains(pattern, def.name) ? { container: callee.object, pattern } : undefined;
}

/**
 * The container a binding takes each element of: `c` of `for (const x of c)`, and of
 * `c.map((x) => …)` for the callback's element parameter itself; undefined for any other binding.
 */
export function iteratedContainer(def: TSESLint.Scope.Definition): TSESTree.Node | undefined {
  const found = iteration(def);
  if (!found) return undefined;
  return def.type === TSESLint.Scope.DefinitionType.Variable || found.pattern === def.name
    ? found.container
    : undefined;
}

/**
 * What an entries or values call walks: `Object.entries(o)` and `Object.values(o)` walk the object
 * `o`; `m.entries()` and `m.values()` their receiver (a `Map`, a `Set`, an array). `entries` gives
 * `[key, value]` pairs, `values` the values.
 */
export function entriesWalked(
  node: TSESTree.Node,
): { walked: TSESTree.Node; gives: 'entries' | 'values'; object: boolean } | undefined {
  const call = unwrap(node);
  if (call.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const callee = unwrap(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const gives = memberName(callee);
  if (gives !== 'entries' && gives !== 'values') return undefined;
  const receiver = unwrap(callee.object);
  const object = receiver.type === AST_NODE_TYPES.Identifier && receiver.name === 'Object';
  const walked = object ? call.arguments[0] : receiver;
  return walked ? { walked: unwrap(walked), gives, object } : undefined;
}
