import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext } from '../ast/context.js';
import { isFunction } from '../ast/function.js';
import { enclosingFunction, unwrap } from '../ast/nodes.js';
import { findVariable } from '../ast/values.js';
import { parentOf } from './transactions.js';

/** Where a value is handed out of the span: returned, or stored where the code after it can reach it. */
function leaves(node: TSESTree.Node, span: { from: number; to: number }, context: AnyRuleContext): boolean {
  let current = node;
  for (;;) {
    const parent = parentOf(current);
    if (!parent) return false;
    // A property of an object literal goes where the object goes.
    if (parent.type === AST_NODE_TYPES.Property && parent.value === current) {
      current = parentOf(parent) ?? parent;
      continue;
    }
    if (parent.type === AST_NODE_TYPES.TSAsExpression || parent.type === AST_NODE_TYPES.TSSatisfiesExpression) {
      current = parent;
      continue;
    }
    // Returned from the transaction's own callback (not from a function nested in it).
    if (parent.type === AST_NODE_TYPES.ReturnStatement) return enclosingFunction(parent)?.body?.range[0] === span.from;
    if (parent.type === AST_NODE_TYPES.ArrowFunctionExpression && parent.body === current)
      return current.range[0] === span.from;
    if (parent.type === AST_NODE_TYPES.AssignmentExpression && parent.right === current) {
      const target = unwrap(parent.left);
      if (target.type === AST_NODE_TYPES.MemberExpression) return true;
      if (target.type !== AST_NODE_TYPES.Identifier) return false;
      const declared = findVariable(context.sourceCode.getScope(target), target)?.defs[0]?.name;
      return declared !== undefined && (declared.range[0] < span.from || declared.range[1] > span.to);
    }
    return false;
  }
}

/** True when a reference runs the function it names: a call of it, or a call it is handed to. */
function runsAt(reference: TSESTree.Identifier): boolean {
  const parent = parentOf(reference);
  return parent?.type === AST_NODE_TYPES.CallExpression || parent?.type === AST_NODE_TYPES.NewExpression;
}

/**
 * True when `fn`, a function created inside a transaction's span, does not run there: it is
 * returned from the callback or stored outside it (`const undo = async () => …; return { undo }`,
 * `this.cleanup = () => …`) and nothing in the span calls it or hands it to a call. Its queries
 * run after the transaction has committed, so the outer handle is the right one there.
 */
export function isDeferred(fn: TSESTree.Node, span: { from: number; to: number }, context: AnyRuleContext): boolean {
  if (!isFunction(fn)) return false;
  if (fn.type !== AST_NODE_TYPES.FunctionDeclaration && leaves(fn, span, context)) return true;
  const parent = parentOf(fn);
  const id =
    fn.type === AST_NODE_TYPES.FunctionDeclaration
      ? fn.id
      : parent?.type === AST_NODE_TYPES.VariableDeclarator &&
          parent.init === fn &&
          parent.id.type === AST_NODE_TYPES.Identifier
        ? parent.id
        : null;
  if (!id) return false;
  const variable = findVariable(context.sourceCode.getScope(id), id);
  if (!variable) return false;
  const uses = variable.references.filter((reference) => reference.identifier !== id && !reference.init);
  const inside = uses.filter(
    (reference) => reference.identifier.range[0] >= span.from && reference.identifier.range[1] <= span.to,
  );
  if (inside.some((reference) => runsAt(reference.identifier as TSESTree.Identifier))) return false;
  return inside.some((reference) => leaves(reference.identifier, span, context));
}
