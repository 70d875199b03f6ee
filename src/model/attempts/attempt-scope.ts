import { type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext } from '../ast/context.js';
import { isFunction } from '../ast/function.js';
import { enclosingFunction } from '../ast/nodes.js';
import { isRerunByRedelivery } from './redelivery.js';
import { innermostRetryScope, type RetryScope } from './retry-scope.js';

/**
 * What runs the code at a node again, for messages that name it: the innermost retry around it (a
 * retry helper's callback or a loop that retries, retry-scope.ts), or else the redelivery of the
 * message its function handles (redelivery.ts). Undefined when neither is in sight here (a helper
 * whose callers are in other modules).
 */
export type AttemptScope = { kind: 'retry'; retry: RetryScope } | { kind: 'redelivery' };

export function attemptScopeOf(node: TSESTree.Node, context: AnyRuleContext): AttemptScope | undefined {
  const retry = innermostRetryScope(node, context);
  if (retry) return { kind: 'retry', retry };
  const fn = enclosingFunction(node);
  return fn && isRerunByRedelivery(fn, context) ? { kind: 'redelivery' } : undefined;
}

/** `scope` in words: where the code sits (` inside the \`pRetry\` callback`) and what runs it again (`retry`). */
export function attemptScopeWords(scope: AttemptScope | undefined): { where: string; rerun: string } {
  if (scope === undefined) return { where: '', rerun: 'redelivery or retry' };
  if (scope.kind === 'redelivery')
    return { where: ' in a handler that each redelivery runs again', rerun: 'redelivery' };
  const { node, name } = scope.retry;
  return isFunction(node)
    ? { where: ` inside the \`${name}\` callback`, rerun: 'retry' }
    : { where: ` inside a \`${name}\` loop that retries`, rerun: 'retry' };
}
