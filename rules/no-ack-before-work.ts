import { createRule } from '../src/util/create-rule.js';

export type Options = [];
export type MessageIds = 'placeholder';

// Placeholder: replaced by the rule's implementation.
export default createRule<Options, MessageIds>({
  name: 'no-ack-before-work',
  meta: {
    type: 'problem',
    docs: { description: 'Disallow acknowledging a message before its work is done', recommended: 'recommended' },
    messages: { placeholder: 'Not implemented yet.' },
    schema: [],
  },
  defaultOptions: [],
  create() {
    return {};
  },
});
