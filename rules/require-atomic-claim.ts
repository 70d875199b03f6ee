import { createRule } from '../src/util/create-rule.js';

export type Options = [];
export type MessageIds = 'placeholder';

// Placeholder: replaced by the rule's implementation.
export default createRule<Options, MessageIds>({
  name: 'require-atomic-claim',
  meta: {
    type: 'problem',
    docs: { description: 'Require an idempotency claim and the writes it guards to commit in one transaction', recommended: 'strict' },
    messages: { placeholder: 'Not implemented yet.' },
    schema: [],
  },
  defaultOptions: [],
  create() {
    return {};
  },
});
