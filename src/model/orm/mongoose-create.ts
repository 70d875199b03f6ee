import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext } from '../ast/context.js';
import { endName } from '../ast/names.js';
import { unwrap } from '../ast/nodes.js';
import { findVariable } from '../ast/values.js';
import { typeOf } from '../types.js';

/**
 * Mongoose's `Model.create(docs, options)` reads `options` only when `docs` is an array; given
 * a single document (`User.create(doc, { session })`) it takes every argument as a document to
 * create, so the `{ session }` object becomes a second document and neither joins the session
 * (Mongoose only logs a warning). This tells a first argument that is surely not an array.
 */

/** A name that may hold several documents: `users`, `docs`, `itemList`, `payload`, `data`. */
const MAY_BE_MANY = /(?:s|list|array|items|batch|data|payload|input|body|values|entries|records)$/i;

/** True when the documents argument of `Model.create` is surely not an array. */
export function isSingleDocument(docs: TSESTree.Node, context: AnyRuleContext, depth = 0): boolean {
  const typed = typeOf(docs, context);
  if (typed) {
    const text = typed.checker.typeToString(typed.type);
    if (text !== 'any' && text !== 'unknown' && !text.startsWith('error'))
      return !(
        typed.checker.isArrayType(typed.type) ||
        typed.checker.isTupleType(typed.type) ||
        (typed.type.isUnion() && typed.type.types.some((part) => typed.checker.isArrayLikeType(part)))
      );
  }
  const value = unwrap(docs);
  if (value.type === AST_NODE_TYPES.ObjectExpression || value.type === AST_NODE_TYPES.NewExpression) return true;
  if (value.type === AST_NODE_TYPES.ArrayExpression || value.type === AST_NODE_TYPES.SpreadElement) return false;
  if (value.type === AST_NODE_TYPES.Identifier && depth < 2) {
    const def = findVariable(context.sourceCode.getScope(value), value)?.defs[0];
    if (def?.node.type === AST_NODE_TYPES.VariableDeclarator && def.node.id === def.name && def.node.init)
      return isSingleDocument(def.node.init, context, depth + 1);
  }
  // `req.body.user`: a member named for one document.
  const name = value.type === AST_NODE_TYPES.MemberExpression ? endName(value) : undefined;
  return name !== undefined && !MAY_BE_MANY.test(name);
}
