import type { TSESTree } from '@typescript-eslint/utils';

import { transactionWithoutRollback } from '../src/model/sql/rollback.js';
import { createRule } from '../src/util/create-rule.js';

export type Options = [];
export type MessageIds = 'missingRollback';

export default createRule<Options, MessageIds>({
  name: 'require-rollback',
  meta: {
    type: 'problem',
    docs: {
      description: 'Require a ROLLBACK on the error path of a transaction',
      recommended: 'recommended',
      roles: ['server', 'script'],
    },
    messages: {
      missingRollback:
        'This transaction on `{{client}}` has no ROLLBACK on its error path, so a thrown error leaves the connection inside the open transaction and whoever uses it next inherits the half-done work.',
    },
    schema: [],
  },
  create(context) {
    function check(node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression): void {
      const client = transactionWithoutRollback(node, context);
      if (!client) return;
      context.report({ node, messageId: 'missingRollback', data: { client: context.sourceCode.getText(client) } });
    }

    return { CallExpression: check, TaggedTemplateExpression: check };
  },
});
