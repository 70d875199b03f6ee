import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { unwrap } from './nodes.js';
import { findVariable } from './values.js';
import { type Scope } from './context.js';

/** True for the three function node types. */
export function isFunction(node: TSESTree.Node): node is TSESTree.FunctionLike {
  return (
    node.type === AST_NODE_TYPES.FunctionDeclaration ||
    node.type === AST_NODE_TYPES.FunctionExpression ||
    node.type === AST_NODE_TYPES.ArrowFunctionExpression
  );
}

/** The function an expression denotes: an inline function, or an identifier bound to one in this file. */
export function resolveFunction(node: TSESTree.Node, scope: Scope): TSESTree.FunctionLike | undefined {
  const target = unwrap(node);
  if (isFunction(target)) return target;
  if (target.type !== AST_NODE_TYPES.Identifier) return undefined;
  const variable = findVariable(scope, target);
  const def = variable?.defs[0];
  if (!variable || variable.defs.length !== 1 || !def) return undefined;
  if (def.node.type === AST_NODE_TYPES.FunctionDeclaration) return def.node;
  if (def.node.type === AST_NODE_TYPES.VariableDeclarator && def.node.init) {
    if (variable.references.filter((reference) => reference.isWrite()).length > 1) return undefined;
    const init = unwrap(def.node.init);
    return isFunction(init) ? init : undefined;
  }
  return undefined;
}
