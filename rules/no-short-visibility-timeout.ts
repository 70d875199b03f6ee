import { configIssuesOf } from '../src/model/config-checks.js';
import { createRule } from '../src/util/create-rule.js';

export type Options = [];
export type MessageIds = 'tooShort';

export default createRule<Options, MessageIds>({
  name: 'no-short-visibility-timeout',
  meta: {
    type: 'problem',
    docs: {
      description: 'Disallow SQS visibility timeouts shorter than the timeout of the consuming Lambda',
      recommended: 'recommended',
      // Deployment code (a CDK stack) is a script or server file; never a test or the browser.
      roles: ['server', 'script'],
    },
    messages: {
      tooShort:
        "The queue's visibility timeout ({{shorter}} s) is shorter than the timeout of the Lambda that consumes it ({{longer}} s), so SQS delivers the message again while the first invocation still runs.",
    },
    schema: [],
  },
  create(context) {
    return {
      'Program:exit'(program) {
        for (const issue of configIssuesOf(program, context, 'no-short-visibility-timeout'))
          context.report({
            node: issue.node,
            messageId: 'tooShort',
            data: { shorter: String(issue.shorter), longer: String(issue.longer) },
          });
      },
    };
  },
});
