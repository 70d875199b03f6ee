import { type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext } from '../ast/context.js';
import { RecursiveMemo, fileMemo } from '../ast/memo.js';
import { enclosingFunction } from '../ast/nodes.js';
import { enclosingConsumerHandler, isDelivery } from '../handler/consumer-handler.js';
import { callSitesOf } from '../keys/call-sites.js';

/**
 * The redelivery attempt scope: `fn` runs again when a broker or a webhook sender delivers the
 * same message again, because it is a delivery handler, sits inside one, or is called (in this
 * file) from code that is. What `fn` makes is made anew on every delivery, even when a retry
 * helper inside it reuses it across its own tries.
 */
export function isRerunByRedelivery(fn: TSESTree.FunctionLike, context: AnyRuleContext): boolean {
  const memo = fileMemo(
    context,
    'attempts/rerun-by-redelivery',
    // A function met again while its callers are read adds nothing of its own.
    () => new RecursiveMemo<TSESTree.FunctionLike, boolean>(false, (rerun) => rerun),
  );
  const rerun = (current: TSESTree.FunctionLike): boolean =>
    memo.get(current, () => {
      const handler = enclosingConsumerHandler(current, context);
      if (handler && isDelivery(handler.broker)) return true;
      return (callSitesOf(current, context)?.calls ?? []).some((call) => {
        const caller = enclosingFunction(call);
        return caller !== undefined && rerun(caller);
      });
    });
  return rerun(fn);
}
