import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext } from '../ast/context.js';
import { isFunction } from '../ast/function.js';
import { memberName } from '../ast/names.js';
import { unwrap } from '../ast/nodes.js';
import { staticValue } from '../ast/values.js';

/**
 * The statuses with which a receiver refuses a key itself (the IETF Idempotency-Key draft: 409
 * while a request under the key is in flight, 422 for the key reused with another payload).
 */
const KEY_REFUSED = new Set([409, 422]);
const STATUS_FIELDS = new Set(['status', 'statusCode']);

/**
 * True when the key is written only after the receiver refused the previous one
 * (`if (error.response?.status === 422) config.headers['Idempotency-Key'] = uuid()`): a deliberate
 * rotation, the start of a new logical request, not a key lost between attempts.
 */
export function isRotationAfterRefusal(node: TSESTree.Node, context: AnyRuleContext): boolean {
  for (let current = node; current.parent && !isFunction(current.parent); current = current.parent) {
    const parent = current.parent;
    const test =
      (parent.type === AST_NODE_TYPES.IfStatement && parent.consequent === current) ||
      (parent.type === AST_NODE_TYPES.ConditionalExpression && parent.consequent === current)
        ? parent.test
        : parent.type === AST_NODE_TYPES.LogicalExpression && parent.operator === '&&' && parent.right === current
          ? parent.left
          : undefined;
    if (test && comparesRefusalStatus(test, context)) return true;
  }
  return false;
}

/** `x.status === 422`, `409 == res.statusCode`, inside `&&` chains. */
function comparesRefusalStatus(test: TSESTree.Node, context: AnyRuleContext): boolean {
  const target = unwrap(test);
  if (target.type === AST_NODE_TYPES.LogicalExpression && target.operator === '&&')
    return comparesRefusalStatus(target.left, context) || comparesRefusalStatus(target.right, context);
  if (target.type !== AST_NODE_TYPES.BinaryExpression || (target.operator !== '===' && target.operator !== '=='))
    return false;
  const scope = context.sourceCode.getScope(target);
  const isStatus = (side: TSESTree.Node): boolean => {
    let value = unwrap(side);
    if (value.type === AST_NODE_TYPES.ChainExpression) value = value.expression;
    return value.type === AST_NODE_TYPES.MemberExpression && STATUS_FIELDS.has(memberName(value) ?? '');
  };
  const isRefusal = (side: TSESTree.Node): boolean => {
    if (side.type === AST_NODE_TYPES.PrivateIdentifier) return false;
    const code = staticValue(side, scope)?.value;
    return typeof code === 'number' && KEY_REFUSED.has(code);
  };
  return (isStatus(target.left) && isRefusal(target.right)) || (isStatus(target.right) && isRefusal(target.left));
}
