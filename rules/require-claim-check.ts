import { createRule } from '../src/util/create-rule.js';

export type Options = [];
export type MessageIds = 'placeholder';

// Placeholder: replaced by the rule's implementation.
export default createRule<Options, MessageIds>({
  name: 'require-claim-check',
  meta: {
    type: 'problem',
    docs: { description: 'Require the result of an idempotency claim to be checked before the effects run', recommended: 'recommended' },
    messages: { placeholder: 'Not implemented yet.' },
    schema: [],
  },
  defaultOptions: [],
  create() {
    return {};
  },
});
