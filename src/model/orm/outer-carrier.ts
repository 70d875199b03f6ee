import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext } from '../ast/context.js';
import { memberName } from '../ast/names.js';
import { unwrap } from '../ast/nodes.js';
import { findVariable } from '../ast/values.js';
import { walk } from '../ast/walk.js';
import { isDeferred } from './deferred.js';
import { mentions, type OrmTransaction } from './transactions.js';

/**
 * A context object that carries the manager outside the transaction handed on inside it: the
 * transaction was opened on (or forked from) `this.ctx.em`, and `new CreateSpaceEventOperation(this.ctx)`
 * builds an operation that queries through `this.ctx.em`, while the same transaction hands other
 * operations a context carrying its own manager under that property (`new
 * RemoveTaggingsOperation({ em: tm, log })`). The project's own convention says its operations
 * query through the manager their context carries, so this one queries outside the transaction.
 */
export interface CarriedOuterHandle {
  node: TSESTree.CallExpression | TSESTree.NewExpression;
  /** The argument that carries the outer manager (`this.ctx`). */
  via: TSESTree.Node;
}

/** `this.ctx` and `em` for an outer handle `this.ctx.em`, or for `em` declared as `this.ctx.em`. */
function carrierOf(
  handle: TSESTree.Node,
  context: AnyRuleContext,
): { carrier: TSESTree.Node; property: string } | undefined {
  let target = unwrap(handle);
  if (target.type === AST_NODE_TYPES.Identifier) {
    const def = findVariable(context.sourceCode.getScope(target), target)?.defs[0];
    if (def?.node.type !== AST_NODE_TYPES.VariableDeclarator || !def.node.init) return undefined;
    target = unwrap(def.node.init);
  }
  if (target.type !== AST_NODE_TYPES.MemberExpression || target.computed) return undefined;
  const property = memberName(target);
  return property === undefined ? undefined : { carrier: unwrap(target.object), property };
}

/** True when `argument` is an object literal that carries `tx` under `property` (`{ em: tm }`, `{ em }`). */
function carriesTransaction(
  argument: TSESTree.Node,
  property: string,
  tx: TSESTree.Identifier,
  context: AnyRuleContext,
): boolean {
  return (
    argument.type === AST_NODE_TYPES.ObjectExpression &&
    argument.properties.some(
      (entry) =>
        entry.type === AST_NODE_TYPES.Property &&
        !entry.computed &&
        entry.key.type === AST_NODE_TYPES.Identifier &&
        entry.key.name === property &&
        mentions(entry.value, tx, context),
    )
  );
}

/** The calls in `transaction` handed the object that carries its outer manager, where the transaction hands others its own. */
export function outerCarrierCalls(transaction: OrmTransaction, context: AnyRuleContext): CarriedOuterHandle[] {
  const { tx, handle } = transaction;
  if (!tx || !handle || transaction.library !== 'mikro-orm') return [];
  const outer = carrierOf(handle, context);
  if (!outer) return [];
  const carrierText = context.sourceCode.getText(outer.carrier);
  const convention: TSESTree.Node[] = [];
  const handedCarrier: CarriedOuterHandle[] = [];
  walk(transaction.body, context, (node) => {
    if (node.range[0] < transaction.from || node.range[1] > transaction.to) return undefined;
    if (isDeferred(node, transaction, context)) return 'skip';
    if (node.type !== AST_NODE_TYPES.CallExpression && node.type !== AST_NODE_TYPES.NewExpression) return undefined;
    for (const argument of node.arguments) {
      if (carriesTransaction(argument, outer.property, tx, context)) convention.push(argument);
      else if (context.sourceCode.getText(unwrap(argument)) === carrierText)
        handedCarrier.push({ node, via: argument });
    }
    return undefined;
  });
  return convention.length > 0 ? handedCarrier : [];
}
