import { configIssuesOf } from '../src/model/config-checks.js';
import { createRule } from '../src/util/create-rule.js';

export type Options = [];
export type MessageIds = 'tooShort';

export default createRule<Options, MessageIds>({
  name: 'no-short-lock-duration',
  meta: {
    type: 'problem',
    docs: {
      description: 'Disallow BullMQ lock durations shorter than a timeout the processor awaits',
      recommended: 'recommended',
      roles: ['server', 'script'],
    },
    messages: {
      tooShort:
        "The worker's `lockDuration` ({{shorter}} ms) is shorter than a timeout its processor awaits ({{longer}} ms), so BullMQ declares the job stalled and runs it again on another worker.",
    },
    schema: [],
  },
  create(context) {
    return {
      'Program:exit'(program) {
        for (const issue of configIssuesOf(program, context, 'no-short-lock-duration'))
          context.report({
            node: issue.node,
            messageId: 'tooShort',
            data: { shorter: String(issue.shorter), longer: String(issue.longer) },
          });
      },
    };
  },
});
