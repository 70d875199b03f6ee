import { getClaim } from '../src/model/sql/claims.js';
import { createRule } from '../src/util/create-rule.js';

export type Options = [];
export type MessageIds = 'uncheckedClaim';

export default createRule<Options, MessageIds>({
  name: 'require-claim-check',
  meta: {
    type: 'problem',
    docs: {
      description: 'Require the result of an idempotency claim to be checked before the effects run',
      recommended: 'recommended',
      roles: ['server', 'script'],
    },
    messages: {
      uncheckedClaim:
        'This claim never reads its affected-row count, so a redelivered job that inserts nothing carries on and runs the effects again; return early when `rowCount` (or `affectedRows`) is 0.',
    },
    schema: [],
  },
  create(context) {
    return {
      CallExpression(node) {
        const claim = getClaim(node, context);
        if (claim?.marker !== true || claim.resultRead !== 'unchecked') return;
        context.report({ node, messageId: 'uncheckedClaim' });
      },
    };
  },
});
