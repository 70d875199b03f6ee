import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';

import { enclosingFunction, unwrap } from '../ast/nodes.js';
import { findVariable } from '../ast/values.js';
import { forEachNode, walk } from '../ast/walk.js';
import { propertyKeyName } from '../ast/names.js';
import { type AnyRuleContext } from '../ast/context.js';
import { importedCallee, type ImportedCall } from '../effects.js';
import { mayHoldIdempotencyKey } from './sinks.js';
import { keyParts } from './imported.js';
import { perAttemptInKeyedBody } from './keyed-body.js';
import { isMintedEveryTime, parameterPath, type ParameterPath } from './fresh-keys.js';

const { DefinitionType } = TSESLint.Scope;

/**
 * Where the keys of a function's keyed requests come from, for `idempotency-check`'s cross-file
 * settings. A function that sends a per-attempt body under a key it takes as a parameter is at
 * fault only if a caller can hand it the same key twice; when every caller mints the key for the
 * call, the key is never the same twice and the body cannot conflict under it. One file sees
 * the function or its callers, never both: the defining module says which parameters decide
 * (`keyedBodyParameters`), the calling modules say what they pass (`importedArgumentMints`).
 */

/**
 * The parameters (or properties of destructured parameters) that the key is made of, for each
 * keyed request in `fn` that carries a per-attempt body: the finding rests on what callers pass.
 */
export function keyedBodyParameters(fn: TSESTree.FunctionLike, context: AnyRuleContext): ParameterPath[] {
  if (!fn.body || !mayHoldIdempotencyKey(context)) return [];
  const found = new Map<string, ParameterPath>();
  walk(fn.body, context, (node) => {
    if (node.type !== AST_NODE_TYPES.CallExpression) return undefined;
    const body = perAttemptInKeyedBody(node, context);
    if (!body) return undefined;
    for (const path of parameterPathsIn(body.key, fn, context, 0))
      found.set(`${path.index}\0${path.property ?? ''}`, path);
    return undefined;
  });
  return [...found.values()];
}

function parameterPathsIn(
  node: TSESTree.Node,
  fn: TSESTree.FunctionLike,
  context: AnyRuleContext,
  depth: number,
): ParameterPath[] {
  if (depth > 4) return [];
  return keyParts(node).flatMap((part) => {
    if (part.type !== AST_NODE_TYPES.Identifier) return [];
    const variable = findVariable(context.sourceCode.getScope(part), part);
    const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
    if (def?.type === DefinitionType.Parameter) {
      const found = parameterPath(def.name);
      return found?.fn === fn ? [found.path] : [];
    }
    if (
      def?.type === DefinitionType.Variable &&
      def.node.id.type === AST_NODE_TYPES.Identifier &&
      def.node.init &&
      enclosingFunction(def.node) === fn
    )
      return parameterPathsIn(unwrap(def.node.init), fn, context, depth + 1);
    return [];
  });
}

/** A module's calls of one imported function: how many, and at which arguments each passes a key minted for the call. */
export interface ArgumentMints extends ImportedCall {
  sites: number;
  fresh: (ParameterPath & { count: number })[];
}

/**
 * For each imported function this file calls, the calls and the arguments (or properties of an
 * object-literal argument) that hold a value minted for the call: a fresh id, or a field read
 * back from a row inserted with one.
 */
export function importedArgumentMints(program: TSESTree.Program, context: AnyRuleContext): ArgumentMints[] {
  const found = new Map<string, ArgumentMints>();
  forEachNode(program, context, (node) => {
    if (node.type !== AST_NODE_TYPES.CallExpression || node.arguments.length === 0) return;
    const imported = importedCallee(unwrap(node.callee), context.sourceCode.getScope(node));
    if (!imported) return;
    const id = `${imported.specifier}\0${imported.imported}\0${imported.member ?? ''}`;
    const entry = found.get(id) ?? { ...imported, sites: 0, fresh: [] };
    found.set(id, entry);
    entry.sites++;
    for (const path of mintedArguments(node, context)) {
      const known = entry.fresh.find((other) => other.index === path.index && other.property === path.property);
      if (known) known.count++;
      else entry.fresh.push({ ...path, count: 1 });
    }
  });
  return [...found.values()];
}

function mintedArguments(call: TSESTree.CallExpression, context: AnyRuleContext): ParameterPath[] {
  const paths: ParameterPath[] = [];
  for (const [index, argument] of call.arguments.entries()) {
    if (argument.type === AST_NODE_TYPES.SpreadElement) continue;
    const value = unwrap(argument);
    if (value.type !== AST_NODE_TYPES.ObjectExpression) {
      if (!isFunctionLike(value) && isMintedEveryTime(value, context)) paths.push({ index });
      continue;
    }
    for (const property of value.properties) {
      if (property.type !== AST_NODE_TYPES.Property) continue;
      const name = propertyKeyName(property);
      if (name !== undefined && !isFunctionLike(property.value) && isMintedEveryTime(property.value, context))
        paths.push({ index, property: name });
    }
  }
  return paths;
}

function isFunctionLike(node: TSESTree.Node): boolean {
  return node.type === AST_NODE_TYPES.ArrowFunctionExpression || node.type === AST_NODE_TYPES.FunctionExpression;
}
