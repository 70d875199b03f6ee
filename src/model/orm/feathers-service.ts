import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext } from '../ast/context.js';
import { memberName } from '../ast/names.js';
import { unwrap } from '../ast/nodes.js';
import { findVariable } from '../ast/values.js';

/**
 * Feathers services over Mongoose (`feathers-mongoose`, `@feathersjs/mongodb`): `const systems =
 * app.service('systems'); await systems.patch(id, data, params)`. A service method runs its query
 * in a session only when `params` carries it (`{ mongoose: { session } }`); handed nothing of the
 * session, a write inside `session.withTransaction(...)` commits on its own.
 */

/** The write methods of a Feathers service, and where each takes its `params`. */
const SERVICE_WRITES: ReadonlyMap<string, number> = new Map([
  ['create', 1],
  ['update', 2],
  ['patch', 2],
  ['remove', 1],
]);

/** True when `node` is `x.service('name')` (awaited or not), the way Feathers hands out a service. */
function isServiceLookup(node: TSESTree.Node): boolean {
  let target = unwrap(node);
  if (target.type === AST_NODE_TYPES.AwaitExpression) target = unwrap(target.argument);
  if (target.type !== AST_NODE_TYPES.CallExpression) return false;
  const callee = unwrap(target.callee);
  const [name] = target.arguments;
  return (
    callee.type === AST_NODE_TYPES.MemberExpression &&
    memberName(callee) === 'service' &&
    name?.type === AST_NODE_TYPES.Literal &&
    typeof name.value === 'string'
  );
}

/**
 * The `params` argument of `call` when it is a write of a Feathers service (`app.service('x').patch(...)`,
 * or through a variable holding one): `null` when the call passes none, undefined when it is no such write.
 */
export function feathersServiceParams(
  call: TSESTree.CallExpression,
  context: AnyRuleContext,
): TSESTree.CallExpressionArgument | null | undefined {
  const callee = unwrap(call.callee);
  const at = callee.type === AST_NODE_TYPES.MemberExpression ? SERVICE_WRITES.get(memberName(callee) ?? '') : undefined;
  if (callee.type !== AST_NODE_TYPES.MemberExpression || at === undefined) return undefined;
  const receiver = unwrap(callee.object);
  let service = isServiceLookup(receiver);
  if (!service && receiver.type === AST_NODE_TYPES.Identifier) {
    const def = findVariable(context.sourceCode.getScope(receiver), receiver)?.defs[0];
    service =
      def?.node.type === AST_NODE_TYPES.VariableDeclarator && def.node.init !== null && isServiceLookup(def.node.init);
  }
  return service ? (call.arguments[at] ?? null) : undefined;
}
