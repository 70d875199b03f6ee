/**
 * Durable steps: calls of a durable-execution engine that run a callback once per run of a
 * function and record its result, so that when the engine runs the function again (a retry, a
 * redelivery of the same event) a step that finished returns its recorded result instead of
 * running its callback again. One row per API, as data; each is checked in its documentation,
 * cited on the row.
 */
export interface DurableStep {
  /** The engine, for the docs. */
  engine: string;
  /** The call as its docs write it, for reasons: `step.run`, `io.runTask`. */
  call: string;
  /** The receiver the API is called on, by the name its docs give it (`step`, `io`). */
  receiver: RegExp;
  method: string;
  /** The argument that is the step's callback. */
  callback: number;
  /** A module the file must import for the row to apply, where the receiver's name is common. */
  module?: RegExp;
}

export const DURABLE_STEPS: readonly DurableStep[] = [
  // https://www.inngest.com/docs/reference/functions/step-run: "step.run() … Each step is
  // executed as a separate HTTP request … the result is memoized … and will not be re-executed."
  { engine: 'Inngest', call: 'step.run', receiver: /^step$/, method: 'run', callback: 1 },
  // https://trigger.dev/docs/v2/documentation/concepts/tasks: `io.runTask(key, callback)`: "Tasks
  // are cached by key; when a run is retried, completed tasks return their cached output." The
  // same API is what a project's own runner offers when it mirrors trigger.dev v2 (documenso).
  { engine: 'trigger.dev v2', call: 'io.runTask', receiver: /^io$/, method: 'runTask', callback: 1 },
  // https://developers.cloudflare.com/workflows/build/workers-api/#step: `step.do(name, callback)`
  // persists the callback's result; a workflow that restarts resumes after completed steps.
  { engine: 'Cloudflare Workflows', call: 'step.do', receiver: /^step$/, method: 'do', callback: 1 },
  // https://docs.restate.dev/develop/ts/journaling-results: `ctx.run(name, action)` journals the
  // result; on a retry of the invocation the journaled result is replayed.
  { engine: 'Restate', call: 'ctx.run', receiver: /^ctx$/, method: 'run', callback: 1, module: /^@restatedev\// },
  // https://upstash.com/docs/workflow/basics/context: `context.run(stepName, routeFunction)` runs
  // the step once and records its result; the endpoint runs again for each later step and a
  // finished step returns what it recorded ("only code inside a step runs exactly once").
  {
    engine: 'Upstash Workflow',
    call: 'context.run',
    receiver: /^context$/,
    method: 'run',
    callback: 1,
    module: /^@upstash\/workflow(?:\/|$)/,
  },
];
