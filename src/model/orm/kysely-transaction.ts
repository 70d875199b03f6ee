import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { memberName } from '../ast/names.js';
import { unwrap } from '../ast/nodes.js';

/**
 * The database a Kysely transaction builder is made on, when `builder` (the receiver of
 * `.execute(cb)`) is one: `db.transaction()`, `db.transaction().setIsolationLevel('serializable')`.
 */
export function kyselyTransactionHandle(builder: TSESTree.Node): TSESTree.Node | undefined {
  let current = unwrap(builder);
  while (current.type === AST_NODE_TYPES.CallExpression) {
    const inner = unwrap(current.callee);
    if (inner.type !== AST_NODE_TYPES.MemberExpression) return undefined;
    if (memberName(inner) === 'transaction' && current.arguments.length === 0) return unwrap(inner.object);
    current = unwrap(inner.object);
  }
  return undefined;
}
