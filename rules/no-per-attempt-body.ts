import { createRule } from '../src/util/create-rule.js';

export type Options = [];
export type MessageIds = 'placeholder';

// Placeholder: replaced by the rule's implementation.
export default createRule<Options, MessageIds>({
  name: 'no-per-attempt-body',
  meta: {
    type: 'problem',
    docs: { description: 'Disallow per-attempt values in the body of a request that carries an idempotency key', recommended: 'recommended' },
    messages: { placeholder: 'Not implemented yet.' },
    schema: [],
  },
  defaultOptions: [],
  create() {
    return {};
  },
});
