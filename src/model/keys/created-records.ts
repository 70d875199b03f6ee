import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';

import { enclosingFunction, unwrap } from '../ast/nodes.js';
import { findVariable } from '../ast/values.js';
import { type AnyRuleContext } from '../ast/context.js';
import { getSdkWrite } from '../sdk.js';
import { type PerAttemptValue } from './per-attempt.js';

const { DefinitionType } = TSESLint.Scope;

/**
 * A field of an object this invocation has just created through a provider's write that carries
 * no key of its own: `customer.id` after `const customer = await stripe.customers.create({ source
 * })`. Stripe makes a new object for every create it cannot recognise as a repeat, and without an
 * `idempotencyKey` it recognises none ("idempotency keys ... let you safely retry requests without
 * accidentally performing the same operation twice", https://docs.stripe.com/api/idempotent_requests),
 * so each attempt that runs the create gets another object with another id: in the body of a
 * request keyed once for all attempts, it is a value made per attempt, like a fresh uuid.
 */
export function createdRecordValue(node: TSESTree.Node, context: AnyRuleContext): PerAttemptValue | undefined {
  const member = unwrap(node);
  if (member.type !== AST_NODE_TYPES.MemberExpression || member.computed) return undefined;
  const holder = unwrap(member.object);
  if (holder.type !== AST_NODE_TYPES.Identifier) return undefined;
  const variable = findVariable(context.sourceCode.getScope(holder), holder);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (def?.type !== DefinitionType.Variable || def.node.id !== def.name || !def.node.init) return undefined;
  // Made in a function, once: a module-level object is created once per process, not per attempt.
  if (!enclosingFunction(def.node) || variable?.references.some((reference) => reference.isWrite() && !reference.init))
    return undefined;
  // `await stripe.customers.create(...)` (unwrap looks through the await).
  const call = unwrap(def.node.init);
  if (call.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const write = getSdkWrite(call, context);
  if (!write || write.keyed !== false || !/(?:^|\.)create$/.test(write.operation)) return undefined;
  return {
    kind: 'created',
    source: member,
    description: context.sourceCode.getText(member),
  };
}
