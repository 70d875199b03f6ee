import { getClaim, writeAfterClaim } from '../src/model/sql/claims.js';
import { createRule } from '../src/util/create-rule.js';

export type Options = [];
export type MessageIds = 'claimOutsideTransaction';

export default createRule<Options, MessageIds>({
  name: 'require-atomic-claim',
  meta: {
    type: 'problem',
    docs: {
      description: 'Require an idempotency claim and the writes it guards to commit in one transaction',
      recommended: 'strict',
      roles: ['server', 'script'],
    },
    messages: {
      claimOutsideTransaction:
        'This claim commits on the pool by itself, apart from the write on line {{line}}: a crash between them leaves the job marked as done with its effect lost; run the claim and the writes on one client between `BEGIN` and `COMMIT`.',
    },
    schema: [],
  },
  create(context) {
    return {
      CallExpression(node) {
        const claim = getClaim(node, context);
        if (claim?.marker !== true || !claim.onPool) return;
        const write = writeAfterClaim(claim, context);
        if (!write) return;
        context.report({ node, messageId: 'claimOutsideTransaction', data: { line: write.loc.start.line } });
      },
    };
  },
});
