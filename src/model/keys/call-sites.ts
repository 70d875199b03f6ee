import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { unwrap } from '../ast/nodes.js';
import { findVariable } from '../ast/values.js';
import { memberPath } from '../ast/names.js';
import { type AnyRuleContext } from '../ast/context.js';
import { methodKeyName, thisCallsIn } from '../ast/call-index.js';
import { fileMemo } from '../ast/memo.js';

/**
 * Where a function is called in its own file, for the value flow of keys: a key returned by a
 * header factory or a request builder goes where its calls go, and a key passed as an argument
 * is what the parameter holds. Only functions bound to one name are followed: a function
 * declaration, a `const` holding an arrow or function expression, or a class method called as
 * `this.name(...)`.
 */
export interface CallSites {
  calls: readonly TSESTree.CallExpression[];
  /** The function is exported or referenced other than by a call: callers elsewhere are unknown. */
  escapes: boolean;
}

export function callSitesOf(fn: TSESTree.FunctionLike, context: AnyRuleContext): CallSites | undefined {
  const known = fileMemo(context, 'call-sites', () => new Map<TSESTree.FunctionLike, CallSites | undefined>());
  if (known.has(fn)) return known.get(fn);
  const sites = findCallSites(fn, context);
  known.set(fn, sites);
  return sites;
}

function findCallSites(fn: TSESTree.FunctionLike, context: AnyRuleContext): CallSites | undefined {
  // `export default () => ...`, `module.exports = function (...) {...}`: called from other modules.
  if (isModuleExport(fn)) return { calls: [], escapes: true };
  const name = bindingOf(fn);
  if (name?.type === AST_NODE_TYPES.Identifier) return identifierCallSites(name, context);
  if (name) return methodCallSites(name, context);
  return undefined;
}

/** The identifier or class method a function is bound to. */
function bindingOf(fn: TSESTree.FunctionLike): TSESTree.Identifier | TSESTree.MethodDefinition | undefined {
  if (fn.type === AST_NODE_TYPES.FunctionDeclaration) return fn.id ?? undefined;
  const parent = fn.parent;
  if (
    parent.type === AST_NODE_TYPES.VariableDeclarator &&
    parent.init === fn &&
    parent.id.type === AST_NODE_TYPES.Identifier
  )
    return parent.id;
  if (parent.type === AST_NODE_TYPES.MethodDefinition && parent.value === fn && !parent.computed) return parent;
  return undefined;
}

function identifierCallSites(id: TSESTree.Identifier, context: AnyRuleContext): CallSites | undefined {
  const variable = findVariable(context.sourceCode.getScope(id), id);
  if (!variable) return undefined;
  const calls: TSESTree.CallExpression[] = [];
  let escapes = isExported(id);
  for (const reference of variable.references) {
    if (reference.init === true) continue;
    const use = reference.identifier;
    const parent = use.parent;
    if (parent.type === AST_NODE_TYPES.CallExpression && unwrap(parent.callee) === use) calls.push(parent);
    else escapes = true;
  }
  return { calls, escapes };
}

function methodCallSites(method: TSESTree.MethodDefinition, context: AnyRuleContext): CallSites {
  const name = methodKeyName(method);
  const calls = name === undefined ? [] : thisCallsIn(method.parent, name, context);
  // A public method is called from other modules too.
  const escapes = method.accessibility !== 'private' && method.accessibility !== 'protected';
  return { calls, escapes };
}

function isExported(id: TSESTree.Identifier): boolean {
  let current: TSESTree.Node = id.parent;
  while (current.type !== AST_NODE_TYPES.Program && current.type !== AST_NODE_TYPES.BlockStatement) {
    if (
      current.type === AST_NODE_TYPES.ExportNamedDeclaration ||
      current.type === AST_NODE_TYPES.ExportDefaultDeclaration
    )
      return true;
    current = current.parent;
  }
  return false;
}

/** `export default <node>`, `module.exports = <node>`, `exports.name = <node>`: the module hands `node` out. */
export function isModuleExport(node: TSESTree.Node): boolean {
  const parent = node.parent;
  if (parent?.type === AST_NODE_TYPES.ExportDefaultDeclaration) return true;
  if (parent?.type !== AST_NODE_TYPES.AssignmentExpression || parent.right !== node) return false;
  const path = memberPath(parent.left);
  return path?.[0] === 'exports' || (path?.[0] === 'module' && path[1] === 'exports');
}
