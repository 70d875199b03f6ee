import { AST_NODE_TYPES, type TSESLint } from '@typescript-eslint/utils';

import { unwrap } from '../src/model/ast/nodes.js';
import { enclosingConsumerHandler } from '../src/model/handler/consumer-handler.js';
import { messageIdentity } from '../src/model/handler/identity.js';
import { getSdkWrite, type SdkWrite } from '../src/model/sdk.js';
import { createRule } from '../src/util/create-rule.js';
import { needsKey } from '../src/model/keys/keyed-writes.js';
import { addProperty } from '../src/fix/add-property.js';
import { appendArguments } from '../src/fix/append-arguments.js';

export type Options = [];
export type MessageIds = 'missingKey' | 'addKey';

export default createRule<Options, MessageIds>({
  name: 'require-idempotency-key',
  meta: {
    type: 'problem',
    docs: {
      description: 'Require an idempotency key on SDK writes made inside consumer handlers',
      recommended: 'strict',
      roles: ['server', 'script'],
    },
    hasSuggestions: true,
    messages: {
      missingKey:
        '`{{operation}}` writes to {{sdk}} from a consumer handler without an `idempotencyKey`, so a redelivered message repeats the write (a second charge, refund or transfer); pass a key derived from the message.',
      addKey: 'Pass `{{key}}` as the `idempotencyKey`.',
    },
    schema: [],
  },
  create(context) {
    return {
      CallExpression(call) {
        const write = getSdkWrite(call, context);
        if (write?.keyed !== false || !needsKey(write)) return;
        const handler = enclosingConsumerHandler(call, context);
        if (!handler) return;
        const identity = messageIdentity(handler, call, context);
        const key = identity && `\`${write.operation}:${identity.map((part) => `\${${part}}`).join(':')}\``;
        const fix = key === undefined ? undefined : keyFix(write, key, context.sourceCode);
        context.report({
          node: call,
          messageId: 'missingKey',
          data: { operation: `${write.sdk}.${write.operation}`, sdk: write.sdk === 'stripe' ? 'Stripe' : write.sdk },
          suggest: fix && key !== undefined ? [{ messageId: 'addKey', data: { key }, fix }] : [],
        });
      },
    };
  },
});

/** Adds the key where the SDK reads its options: a new trailing argument, or into an inline options object. */
function keyFix(
  write: SdkWrite,
  key: string,
  sourceCode: Readonly<TSESLint.SourceCode>,
): TSESLint.ReportFixFunction | undefined {
  const args = write.call.arguments;
  const option = `idempotencyKey: ${key}`;
  if (args.length === write.optionsIndex) return appendArguments(write.call, [`{ ${option} }`], sourceCode);
  // The optional params are missing too: an empty object holds their place.
  if (args.length === write.optionsIndex - 1) return appendArguments(write.call, ['{}', `{ ${option} }`], sourceCode);
  const options = args[write.optionsIndex];
  const object = options && unwrap(options);
  if (object?.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
  return addProperty(object, option, sourceCode, 'first');
}
