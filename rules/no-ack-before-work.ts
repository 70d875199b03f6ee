import { acksThroughHelpers, autoAckedWrite, getAck, workAfterAck } from '../src/model/handler/ack.js';
import { findConsumerHandlers } from '../src/model/handler/consumer-handler.js';
import { createRule } from '../src/util/create-rule.js';

export type Options = [];
export type MessageIds = 'ackBeforeWork' | 'autoAckWrite';

export default createRule<Options, MessageIds>({
  name: 'no-ack-before-work',
  meta: {
    type: 'problem',
    docs: {
      description: 'Disallow acknowledging a message before its work is done',
      recommended: 'recommended',
      roles: ['server', 'script'],
    },
    messages: {
      ackBeforeWork:
        '`{{ack}}` acknowledges the message before `{{work}}` runs, so the broker forgets it first; a crash or a failure in that work loses the message instead of redelivering it.',
      autoAckWrite:
        '`noAck: true` makes the broker forget each message on delivery, but this consumer writes (`{{work}}`); a crash or a failure during the write loses the message instead of redelivering it.',
    },
    schema: [],
  },
  create(context) {
    const text = (node: Parameters<typeof context.sourceCode.getText>[0]): string =>
      shorten(context.sourceCode.getText(node));
    return {
      CallExpression(call) {
        const ack = getAck(call, context);
        if (!ack) return;
        const after = workAfterAck(ack, context);
        if (!after) return;
        context.report({
          node: call,
          messageId: 'ackBeforeWork',
          data: { ack: text(call), work: text(after.work.callee) },
        });
      },
      Program(program) {
        for (const handler of findConsumerHandlers(program, context)) {
          // An ack inside a helper the handler calls acks first all the same.
          for (const ack of acksThroughHelpers(handler, context)) {
            const after = workAfterAck(ack, context);
            if (after)
              context.report({
                node: ack.call,
                messageId: 'ackBeforeWork',
                data: { ack: text(ack.call), work: text(after.work.callee) },
              });
          }
          const autoAcked = autoAckedWrite(handler, context);
          if (autoAcked)
            context.report({
              node: autoAcked.property,
              messageId: 'autoAckWrite',
              data: { work: text(autoAcked.write.callee) },
            });
        }
      },
    };
  },
});

function shorten(text: string): string {
  const line = text.replace(/\s+/g, ' ');
  return line.length > 40 ? `${line.slice(0, 37)}...` : line;
}
