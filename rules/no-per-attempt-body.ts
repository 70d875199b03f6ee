import { mayHoldIdempotencyKey } from '../src/model/keys/sinks.js';
import { perAttemptInKeyedBody } from '../src/model/keys/keyed-body.js';
import { attemptScopeOf } from '../src/model/attempts/attempt-scope.js';
import { createRule } from '../src/util/create-rule.js';

export type Options = [];
export type MessageIds = 'perAttemptBody' | 'perAttemptBodyInRetry';

export default createRule<Options, MessageIds>({
  name: 'no-per-attempt-body',
  meta: {
    type: 'problem',
    docs: {
      description: 'Disallow per-attempt values in the body of a request that carries an idempotency key',
      recommended: 'recommended',
      roles: ['server', 'script'],
    },
    messages: {
      perAttemptBody:
        '`{{source}}` makes every {{attempt}} send a different body under the same idempotency key, so a {{rerun}} gets a conflict or an error instead of the first result.',
      perAttemptBodyInRetry:
        '`{{source}}` is made inside the `{{retry}}` retry while the idempotency key is made before it, so each retry sends a different body under the same key and gets a conflict or an error instead of the first result.',
    },
    schema: [],
  },
  create(context) {
    // Nothing in this file can spell a key: nothing for this rule to start from.
    if (!mayHoldIdempotencyKey(context)) return {};
    return {
      CallExpression(call) {
        const found = perAttemptInKeyedBody(call, context);
        if (!found) return;
        const { retry } = found;
        if (retry === undefined) {
          // A handler the broker or the sender delivers to again: its redelivery is the attempt.
          const redelivered = attemptScopeOf(found.node, context)?.kind === 'redelivery';
          context.report({
            node: found.node,
            messageId: 'perAttemptBody',
            data: {
              source: found.value.description,
              attempt: redelivered ? 'delivery' : 'attempt',
              rerun: redelivered ? 'redelivery' : 'retry',
            },
          });
        } else
          context.report({
            node: found.node,
            messageId: 'perAttemptBodyInRetry',
            data: { source: found.value.description, retry },
          });
      },
    };
  },
});
