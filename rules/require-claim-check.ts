import type { TSESTree } from '@typescript-eslint/utils';

import { findClaim } from '../src/model/claims.js';
import { createRule } from '../src/util/create-rule.js';

export type Options = [];
export type MessageIds = 'uncheckedClaim' | 'blindClaim';

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
        "This claim never reads whether it inserted, so a redelivered job that inserts nothing carries on and runs the effects again; return early when its affected-row count (`rowCount`, `affectedRows`, Prisma's `count`, Sequelize's `created`) says it came second.",
      blindClaim:
        'This upsert with an empty `update` marks the work handled but cannot say whether it inserted the marker, so a redelivered job carries on and runs the effects again (two concurrent deliveries both pass a check before it); claim with `create` and return on a unique violation (`P2002`), or with `createMany({ data, skipDuplicates: true })` and return when `count` is 0.',
    },
    schema: [],
  },
  create(context) {
    function check(node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression): void {
      const claim = findClaim(node, context);
      if (claim?.marker !== true || claim.resultRead !== 'unchecked') return;
      context.report({ node, messageId: claim.blind ? 'blindClaim' : 'uncheckedClaim' });
    }

    return { CallExpression: check, TaggedTemplateExpression: check };
  },
});
