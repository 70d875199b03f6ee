import rule from '../../rules/no-short-visibility-timeout.js';
import { syntaxRuleTester } from '../rule-tester.js';

const header = `import { Duration } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as sqs from 'aws-cdk-lib/aws-sqs';
`;

syntaxRuleTester().run('no-short-visibility-timeout', rule, {
  valid: [
    // AWS's advice: the visibility timeout at least as long as the function's (six times, with retries).
    `${header}const q = new sqs.Queue(this, 'Q', { visibilityTimeout: Duration.minutes(6) });
const f = new lambda.Function(this, 'F', { timeout: Duration.minutes(1) });
f.addEventSource(new SqsEventSource(q));`,
    // Both defaults: 30 s visibility, 3 s function.
    `${header}const q = new sqs.Queue(this, 'Q');
const f = new lambda.Function(this, 'F', {});
f.addEventSource(new SqsEventSource(q));`,
    // A queue that no function consumes here.
    `${header}const q = new sqs.Queue(this, 'Q', { visibilityTimeout: Duration.seconds(10) });
new lambda.Function(this, 'F', { timeout: Duration.minutes(2) });`,
  ],
  invalid: [
    {
      code: `${header}const q = new sqs.Queue(this, 'Q', { visibilityTimeout: Duration.seconds(30) });
const f = new lambda.Function(this, 'F', { timeout: Duration.minutes(2) });
f.addEventSource(new SqsEventSource(q));`,
      errors: [{ messageId: 'tooShort', line: 5, column: 38, data: { shorter: '30', longer: '120' } }],
      output: null,
    },
  ],
});
