import { createRule } from '../src/util/create-rule.js';

export type Options = [];
export type MessageIds = 'placeholder';

// Placeholder: replaced by the rule's implementation.
export default createRule<Options, MessageIds>({
  name: 'require-idempotency-key',
  meta: {
    type: 'problem',
    docs: { description: 'Require an idempotency key on SDK writes made inside consumer handlers', recommended: 'strict' },
    messages: { placeholder: 'Not implemented yet.' },
    schema: [],
  },
  defaultOptions: [],
  create() {
    return {};
  },
});
