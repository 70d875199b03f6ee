/**
 * A text prefilter for syntax mode, as Semgrep does: parsing is most of the cost of a scan, and
 * a file whose text holds none of the tokens any rule, config check or cross-file fact starts
 * from cannot produce a finding, so it is not parsed. The list is deliberately wide (a token
 * anywhere, in any identifier or string, keeps the file); `test/analysis/prefilter.test.ts`
 * checks that every ❌ example of the rule docs and every fixture file with a finding passes it.
 * A skipped file that another file's facts point at (a handler registered elsewhere) is still
 * linted in the second pass; typed mode reads every file.
 */
const ANCHORS = new RegExp(
  [
    // Outgoing requests: the HTTP clients, and the key header a request may carry.
    'fetch',
    'axios',
    '\\bgot\\b',
    '\\bky\\b',
    'undici',
    'request',
    // SQL: query sends, transactions, claims, pools and their connections.
    'query',
    'execute',
    'sql',
    'transaction',
    'connect',
    'insert',
    'begin',
    'commit',
    'rollback',
    'pool',
    // Idempotency keys and the values minted per attempt.
    'idempoten',
    'jobid',
    'deduplication',
    'uuid',
    'random',
    '\\bDate\\b',
    'nanoid',
    'cuid',
    'ulid',
    'hrtime',
    'performance',
    'objectid',
    'crypto',
    // Consumer handlers: registrations, brokers, and the parameter names of exported handlers.
    'worker',
    'consume',
    'eachmessage',
    'eachbatch',
    '\\.process\\s*\\(',
    'subscri',
    'message',
    '\\bmsg\\b',
    '\\bjob\\b',
    'event',
    'records',
    'sqs',
    'bull',
    'kafka',
    'amqp',
    'stripe',
    '\\.post\\b',
    'route',
    'handler',
    // Barrels: their re-exports carry other files' facts through.
    '\\bexport\\s*(?:\\*|\\{[^}]*\\})\\s*from\\b',
  ].join('|'),
  'i',
);

/** False when no rule, check or cross-file fact can start anywhere in `text`. */
export function mayMatter(text: string): boolean {
  return ANCHORS.test(text);
}
