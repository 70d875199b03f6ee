/**
 * Retry helpers: functions that call a callback again when it throws or rejects, so everything
 * the callback evaluates is evaluated again on each attempt, and everything made before it is
 * reused by every attempt. One row per library, as data; the behaviour of each is checked in its
 * documentation, cited on the row.
 */
export interface RetryHelper {
  /** The package the helper is imported from. */
  module: string;
  /** The export that retries (`default` for a default export or `module.exports`). */
  imported: string;
  /** A method of the helper's result that takes the callback (`retry.operation().attempt(fn)`). */
  method?: string;
  /** The argument that is the retried callback. */
  callback: number;
  /** The callback parameter that receives the number of the attempt, when the library passes one. */
  attemptParameter?: number;
  /** The property of the callback's first parameter that holds the attempt number (cockatiel's `{ attempt }`). */
  attemptProperty?: string;
  /**
   * The callback parameter the callback calls to be run again (promise-retry's `retry(err)`), for a
   * library that re-runs it on that call rather than on any failure.
   */
  retryParameter?: number;
}

export const RETRY_HELPERS: readonly RetryHelper[] = [
  // https://github.com/sindresorhus/p-retry#pretryinput-options: "input: Receives the number of
  // attempts as the first argument"; it is called again until it resolves or the retries run out.
  { module: 'p-retry', imported: 'default', callback: 0, attemptParameter: 0 },
  // https://github.com/vercel/async-retry#api: `retry(retrier(bail, attempt), opts)`; "the
  // function ... will be retried" when it throws, `attempt` is the attempt number.
  { module: 'async-retry', imported: 'default', callback: 0, attemptParameter: 1 },
  // https://github.com/coveooss/exponential-backoff#usage: `backOff(request, options)` "executes
  // the request" and retries it while it rejects, up to `numOfAttempts`.
  { module: 'exponential-backoff', imported: 'backOff', callback: 0 },
  // https://github.com/IndigoUnited/node-promise-retry#promiseretryfn-options: `fn(retry, number)`,
  // "number is the attempt number"; the function runs again each time it calls `retry(err)`.
  { module: 'promise-retry', imported: 'default', callback: 0, attemptParameter: 1, retryParameter: 0 },
  // https://github.com/tim-kos/node-retry#retryoperationattemptfn-timeoutops: `operation.attempt(fn)`
  // "defines the function that is to be retried"; `fn(currentAttempt)`.
  { module: 'retry', imported: 'operation', method: 'attempt', callback: 0, attemptParameter: 0 },
  // https://github.com/connor4312/cockatiel#policyexecutefn-signal: `policy.execute(fn)` runs fn
  // again after a handled failure; fn receives `{ signal, attempt }`.
  { module: 'cockatiel', imported: 'retry', method: 'execute', callback: 0, attemptProperty: 'attempt' },
  // https://github.com/lifeomic/attempt#usage: `retry(async (context) => ..., options)`;
  // `context.attemptNum` is the number of the attempt.
  { module: '@lifeomic/attempt', imported: 'retry', callback: 0, attemptProperty: 'attemptNum' },
  // https://github.com/wix-incubator/ts-retry-promise#usage: `retry(() => promise, config)` calls
  // the factory again until the promise resolves.
  { module: 'ts-retry-promise', imported: 'retry', callback: 0 },
];
