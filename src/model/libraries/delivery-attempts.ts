/**
 * Where brokers and job runners tell a handler which attempt it is: a value that differs on
 * every redelivery of the same message. One row per library, as data, each checked in its
 * documentation (cited).
 */
export interface DeliveryAttemptCounter {
  library: string;
  /** The member path that ends in the counter (`job.attemptsMade` ends in `['attemptsMade']`). */
  path: readonly string[];
}

export const DELIVERY_ATTEMPT_COUNTERS: readonly DeliveryAttemptCounter[] = [
  // https://api.docs.bullmq.io/classes/v5.Job.html#attemptsmade: "Number of attempts after the
  // job has failed"; `attemptsStarted`: "Number of attempts when job is moved to active". Bull's
  // Job has `attemptsMade` too.
  { library: 'bullmq', path: ['attemptsMade'] },
  { library: 'bullmq', path: ['attemptsStarted'] },
  // https://docs.aws.amazon.com/AWSSimpleQueueService/latest/APIReference/API_ReceiveMessage.html:
  // `ApproximateReceiveCount`, "the number of times a message has been received across all queues
  // but not deleted".
  { library: 'sqs', path: ['ApproximateReceiveCount'] },
  // https://typescript.temporal.io/api/interfaces/activity.Info#attempt: "Attempt number of this
  // activity starting at 1"; read as `Context.current().info.attempt` or `activityInfo().attempt`.
  { library: 'temporal', path: ['info', 'attempt'] },
  // https://trigger.dev/docs/context: `ctx.attempt.number`, "the current attempt number".
  { library: 'trigger.dev', path: ['attempt', 'number'] },
];

/**
 * Handler context properties that hold the attempt number, by the call that registers the
 * handler: Inngest's `createFunction(config, trigger, async ({ event, step, attempt }) => ...)`
 * (https://www.inngest.com/docs/reference/functions/create#handler: "attempt: The current
 * zero-indexed attempt number for this function execution").
 */
export interface HandlerAttemptProperty {
  library: string;
  /** The method or function that registers the handler. */
  registrar: string;
  /** The argument that is the handler. */
  handler: number;
  /** The property of the handler's first parameter that holds the attempt number. */
  property: string;
}

export const HANDLER_ATTEMPT_PROPERTIES: readonly HandlerAttemptProperty[] = [
  { library: 'inngest', registrar: 'createFunction', handler: 2, property: 'attempt' },
];
