import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext } from '../ast/context.js';
import { resolveFunction } from '../ast/function.js';
import { memberName, memberPath } from '../ast/names.js';
import { contains, unwrap } from '../ast/nodes.js';
import { findVariable } from '../ast/values.js';
import { findPerAttemptValue, type PerAttemptValue } from './per-attempt.js';

const { DefinitionType } = TSESLint.Scope;

/** Calls that start a mutation again (React Query's and SWR's `mutate`, `mutateAsync`, `trigger`). */
const MUTATION_STARTS = new Set(['mutate', 'mutateAsync', 'trigger']);

/**
 * A key kept in a React ref and filled only when empty (`if (!keyRef.current) keyRef.current =
 * mint()`) looks minted once per logical action. When the code clears the ref right before it
 * starts the action again (`keyRef.current = null; mutation.mutate(variables)`), every start mints
 * a new key, a user's retry after a failure included. Clearing it after the action succeeded (no
 * start follows the clear) ends a logical request, and the key stays kept.
 *
 * Returns the mint written into the ref `node` reads (`keyRef.current`) when such a clear exists.
 */
export function mintInResetHolder(node: TSESTree.Node, context: AnyRuleContext): PerAttemptValue | undefined {
  const target = unwrap(node);
  if (target.type !== AST_NODE_TYPES.MemberExpression || memberName(target) !== 'current') return undefined;
  const holder = unwrap(target.object);
  if (holder.type !== AST_NODE_TYPES.Identifier) return undefined;
  const variable = findVariable(context.sourceCode.getScope(holder), holder);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (!variable || def?.type !== DefinitionType.Variable || !def.node.init) return undefined;
  const init = unwrap(def.node.init);
  if (init.type !== AST_NODE_TYPES.CallExpression || memberPath(init.callee)?.at(-1) !== 'useRef') return undefined;
  let mint: PerAttemptValue | undefined;
  let clearedBeforeStart = false;
  for (const reference of variable.references) {
    const member = reference.identifier.parent;
    if (member.type !== AST_NODE_TYPES.MemberExpression || memberName(member) !== 'current') continue;
    const write = member.parent;
    if (write.type !== AST_NODE_TYPES.AssignmentExpression || write.left !== member) continue;
    if (isEmpty(write.right)) clearedBeforeStart ||= isFollowedByStart(write, variable, context);
    else mint ??= findPerAttemptValue(write.right, context);
  }
  return clearedBeforeStart ? mint : undefined;
}

/** `null`, `undefined`, `''`. */
function isEmpty(value: TSESTree.Node): boolean {
  const node = unwrap(value);
  if (node.type === AST_NODE_TYPES.Literal) return node.value === null || node.value === '';
  return node.type === AST_NODE_TYPES.Identifier && node.name === 'undefined';
}

/**
 * A later statement of the clear's block starts the action: a mutation's `mutate` / `mutateAsync`,
 * or a function of this file that reads the ref.
 */
function isFollowedByStart(
  clear: TSESTree.AssignmentExpression,
  holder: TSESLint.Scope.Variable,
  context: AnyRuleContext,
): boolean {
  const statement = clear.parent;
  const block = statement.parent;
  if (statement.type !== AST_NODE_TYPES.ExpressionStatement || block?.type !== AST_NODE_TYPES.BlockStatement)
    return false;
  const later = block.body.slice(block.body.indexOf(statement) + 1);
  return later.some((next) => {
    const expression =
      next.type === AST_NODE_TYPES.ExpressionStatement
        ? next.expression
        : next.type === AST_NODE_TYPES.ReturnStatement
          ? next.argument
          : undefined;
    const call =
      expression && unwrap(expression.type === AST_NODE_TYPES.AwaitExpression ? expression.argument : expression);
    if (call?.type !== AST_NODE_TYPES.CallExpression) return false;
    const callee = unwrap(call.callee);
    if (callee.type === AST_NODE_TYPES.MemberExpression && MUTATION_STARTS.has(memberName(callee) ?? '')) return true;
    const fn = resolveFunction(callee, context.sourceCode.getScope(callee));
    return fn !== undefined && holder.references.some((reference) => contains(fn, reference.identifier));
  });
}
