import { isTestPath, importsTestModule } from './roles/test.js';
import { DELIVERY_LIBRARIES, ROUTE_TYPE_MODULES } from './libraries/index.js';
import type { DeliveryLibrary } from './libraries/library.js';

/**
 * A text prefilter, as Semgrep does: parsing is most of the cost of a scan, and a file whose
 * text holds none of the tokens a rule or config check starts from cannot produce a finding of
 * its own, so it is not parsed up front. The anchors are the shapes the model matches (a call,
 * a module name, a key or header name, a handler-like parameter), not common words: `Date`,
 * `request` or `event` alone are everywhere in ordinary code.
 *
 * What another file may need from a skipped file is recovered from the import graph, not from
 * words: `analyze` parses a skipped file after all when an analysed file imports it and it
 * {@link mayInform}s (a per-attempt helper, a pool, a client), when it imports an analysed
 * file's facts (a pool or an axios instance created elsewhere), when a handler's calls lead into
 * it, or when another file registers one of its functions as a handler.
 * `test/model/prefilter.test.ts` checks that every fixture repository and every ❌ example of
 * the rule docs gives the same report with and without the prefilter.
 */

/** Module names the model knows, as they appear in an import or a require. */
const MODULES = [
  // HTTP clients
  'axios',
  'got',
  'ky',
  'ky-universal',
  'undici',
  'node-fetch',
  'cross-fetch',
  'isomorphic-fetch',
  'isomorphic-unfetch',
  '@whatwg-node/fetch',
  'request',
  'http',
  'https',
  'node:http',
  'node:https',
  'follow-redirects',
  'superagent',
  'needle',
  'ofetch',
  'ohmyfetch',
  'graphql-request',
  // SQL drivers
  'pg',
  'pg-pool',
  'mysql',
  'mysql2',
  'mysql2/promise',
  'mariadb',
  'mariadb/callback',
  'postgres',
  '@neondatabase/serverless',
  '@vercel/postgres',
  // Brokers and job runners (libraries/index.ts), and SDKs
  ...DELIVERY_LIBRARIES.flatMap((library) => library.modules),
  // Frameworks whose handler types make a declared function a route (Wasp's APIs).
  ...ROUTE_TYPE_MODULES,
  'stripe',
  'openai',
  // Job runners and decorator-based consumers
  '@nestjs/bull',
  '@nestjs/bullmq',
  '@nestjs/microservices',
  '@ssut/nestjs-sqs',
  '@golevelup/nestjs-rabbitmq',
  '@golevelup/nestjs-stripe',
  '@temporalio/workflow',
  // HTTP servers whose POST routes are webhooks
  'express',
  'fastify',
  'hono',
  'koa-router',
  '@koa/router',
  'restify',
  'polka',
  'h3',
];

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** Case-insensitive anchors of the rules and config checks. */
const RULE_ANCHORS = new RegExp(
  [
    // An import or require of a module the model knows, and AWS (SQS clients, Lambda types, CDK).
    `['"\`](?:${MODULES.map(escape).join('|')})['"\`]`,
    `['"\`](?:@aws-sdk/|aws-sdk|aws-cdk-lib|@aws-cdk/|aws-lambda)`,
    // Outgoing requests: fetch and friends by name; the key header a request may carry.
    '\\bfetch\\b',
    '\\baxios\\b',
    '\\.request\\s*[(<]',
    // Idempotency-key sinks.
    'idempoten',
    'client(?:request)?token',
    'request-?id\\b',
    '\\bjobid\\b',
    'deduplication',
    // Providers' key fields with plain names (libraries/key-fields.ts): PayPal's payout batch id.
    'sender_?batch_?id',
    // SQL that opens, ends or claims a transaction, as query text.
    '\\b(?:begin|commit|rollback|savepoint)\\b',
    'start\\s+transaction',
    // ORM and query-builder transactions and claims (Prisma, Drizzle, Knex, Kysely, TypeORM, Sequelize, MikroORM, Mongoose, pg-promise).
    '\\.\\$?transaction(?:al)?\\s*\\(',
    '\\.tx\\s*\\(',
    'withtransaction\\s*\\(',
    'starttransaction\\s*\\(',
    // Medusa's decorator: the method runs in a transaction its shared context carries.
    '@injecttransactionmanager\\b',
    // A project's own wrapper that opens a transaction and returns it.
    '(?:create|begin|open|new)transaction\\s*\\(',
    // A switch that hands every managed transaction to its queries (orm/implicit-transactions.ts).
    '\\.usecls\\s*\\(',
    'transactionasynclocalstorage',
    // A project's own transaction wrapper, known by the transaction its callback hands on (`{ transaction }`, `{ session }`).
    '\\btransaction\\s*[,}]',
    // A method handed TypeORM's manager or query runner runs in its caller's transaction (orm/handed-transaction.ts).
    ':\\s*(?:entitymanager|queryrunner)\\b',
    // A Prisma upsert that changes nothing when the row exists: a claim that cannot say it came second.
    'update\\s*:\\s*\\{\\s*\\}',
    '\\{\\s*session\\s*\\}',
    'skipduplicates',
    'onconflictdonothing',
    'orignore\\s*\\(',
    'findorcreate\\s*\\(',
    '\\binsert\\s',
    '\\bon\\s+conflict\\b',
    '\\bsql\\s*`',
    // Pools and the connections they hand out (a pool's `connect()` is checked below), and a
    // client known only by its release (`const db = await connectToDb(); ... db.release()`).
    '\\.release\\s*\\(',
    // A TypeORM query runner handed to a releasing helper (require-client-release).
    'createqueryrunner\\s*\\(',
    'getconnection',
    'createpool',
    '\\bnew\\s+[\\w.]*pool\\b',
    // Consumer handlers: registrations and the broker calls around them.
    ...DELIVERY_LIBRARIES.flatMap((library: DeliveryLibrary) => library.anchors ?? []).map(
      (word) => `\\.${escape(word)}\\s*\\(`,
    ),
    '\\bnew\\s+worker\\b',
    '\\.process\\s*\\(',
    '\\.createqueue\\s*\\(',
    '\\.consume\\s*\\(',
    'handlemessage',
    'eachmessage',
    'eachbatch',
    '\\bsqs',
    '[\'"]message[\'"]',
    '\\.(?:ack|nack|reject)\\s*\\(',
    'noack',
    'commitoffsets',
    'resolveoffset',
    'deletemessage',
    'autocommit',
    '\\.post(?:async)?\\s*\\(',
    // A NestJS controller's POST method that is a webhook by its path or its guard.
    '@post\\s*\\(\\s*[\'"\`][^\'"\`]*hook',
    '(?:signature|hmac)guard',
    '\\.openapi\\s*\\(',
    // A project's job registry looked up per job: `jobMap[job.type](job)`.
    '(?:job|task|queue|worker|consumer|message|event|command)s?_?(?:map|registry|handlers|processors|table)\\s*\\[',
    // A Lambda's handler export, which may be invoked asynchronously.
    '\\bexport\\s+(?:(?:const|let|var)\\s+|(?:async\\s+)?function\\s+)handler\\b',
    '\\bexports\\.handler\\b',
    // A project's worker objects and classes (workers.ts).
    '\\bdowork\\b',
    '\\bprocess(?:job|message)\\b',
    '\\bextends\\s+\\w*(?:worker|job|task|consumer|processor|queue)(?:adapter|handler|base|host|rec(?:ei|ie)ver)?\\b',
    // Webhooks by name or by their signature check; Temporal activity methods; SST handlers;
    // Cloudflare Queues' `queue` export.
    'webhook',
    'constructevent',
    // Push deliveries over HTTP: Amazon SNS subscriptions, Google Cloud Tasks targets (webhooks.ts).
    'subscriptionconfirmation',
    'x-amz-sns-message-type',
    'x-cloudtasks-',
    'timingsafeequal',
    'verifysignature',
    'createhmac',
    '@activitymethod',
    '[\'"\`]sst/',
    '\\basync\\s+queue\\s*\\(',
    // Broker publishes, whose bodies and ids must not be minted per attempt.
    'sendtoqueue',
    '\\.publish(?:message)?\\s*\\(',
    // Functions whose first parameter is a delivery: `(job) =>`, `function (msg: Message)`;
    // an `event` parameter only makes an exported function (or one named handler) a handler.
    '\\(\\s*(?:job|msg|message)\\s*[:,)?=]',
    '\\b(?:job|msg|message)\\s*=>',
    '\\bexport\\s+(?:default\\s+)?(?:async\\s+)?function\\s*\\*?\\s*\\w*\\s*\\(\\s*event\\b',
    '(?:\\bexport\\s+(?:const|let|var)\\s+\\w+|\\bexports\\.\\w+|module\\.exports(?:\\.\\w+)?|\\bhandler)\\s*(?::[^=]*)?=\\s*(?:async\\s+)?(?:function\\s*\\w*\\s*)?\\(?\\s*event\\b',
    // Config checks.
    'visibilitytimeout',
    'lockduration',
    'eventsource',
    // Barrels: their re-exports carry other files' facts through.
    '\\bexport\\s*(?:\\*|\\{[^}]*\\})\\s*from\\b',
  ].join('|'),
  'i',
);

/** Case-sensitive anchors: a `POST` route export or method check, and a Lambda's `event.Records`. */
const CASED_ANCHORS = /\bPOST\b|\.Records\b/;

/** Tokens of what a file can tell the files that import it: per-attempt helpers, pools, clients, key headers. */
const FACT_ANCHORS = new RegExp(
  [
    'randomuuid',
    '\\buuid',
    'nanoid',
    'cuid',
    'createid',
    'ulid',
    'date\\.now',
    'new\\s+date\\b',
    'performance\\.now',
    'hrtime',
    'math\\.random',
    'randombytes',
    'getrandomvalues',
    'objectid',
    // Libraries that stamp the current time into what they make (keys/clock-libraries.ts).
    'pdf-lib',
    '\\bpool\\b',
    '\\.(?:create|extend)\\s*\\(',
    'idempoten',
    // A function that takes the database handle and defaults to the pool (`client = db`,
    // `trx?: Knex.Transaction`): a caller in a transaction must hand it the transaction's.
    '\\b(?:tx|trx|task|client|db|conn|connection|transaction)\\s*=\\s*\\w+\\s*[,)]',
    '\\?\\s*:\\s*(?:knex\\.)?transaction\\b',
    // A check of a delivery's sender (handler/webhooks.ts): a route that calls it, or that it
    // wraps, receives deliveries.
    'signature',
    'createhmac',
    'constructevent',
    'verifyandreceive',
    'validateevent',
    '(?:verify|validate)webhook',
    // An instance made once that importers call its class's methods on (analysis/graph.ts `calledFact`).
    '\\bexport\\s+const\\s+\\w+\\s*=\\s*new\\s+\\w',
  ].join('|'),
  'i',
);

/** Anchors that only count together: a pool's `connect()`, a seen-set's `new Set()` and its `has()`. */
const PAIRED_ANCHORS: readonly (readonly [RegExp, RegExp])[] = [
  [/\.connect\s*\(/, /pool/i],
  [/\bnew\s+(?:Map|Set)\b/, /\.has\s*\(/],
  // A Paystack transfer's `reference` beside its `recipient`, a charge's beside the card's
  // `authorization_code` (libraries/key-fields.ts).
  [/\b(?:recipient|authorization_code)\b/, /\breference\b/],
];

/** Paths whose default export a framework calls per delivery: `subscribers/<event>/<name>.ts`. */
const DELIVERY_PATHS = /(?:^|[\\/])subscribers[\\/]/;

/** False when no rule or config check can start anywhere in `text` (at `filename`, when given). */
export function mayMatter(text: string, filename?: string): boolean {
  return (
    RULE_ANCHORS.test(text) ||
    (filename !== undefined && DELIVERY_PATHS.test(filename) && /\bexport\s+default\b/.test(text)) ||
    CASED_ANCHORS.test(text) ||
    PAIRED_ANCHORS.some(([first, second]) => first.test(text) && second.test(text))
  );
}

/** False when nothing in `text` can become a fact that an importing file's rules read. */
export function mayInform(text: string): boolean {
  return FACT_ANCHORS.test(text);
}

/** What a test file can still give other files: a handler registration of an imported function, or a re-export. */
const TEST_FILE_FACTS = new RegExp(
  [
    `['"\`](?:bullmq|sqs-consumer|@temporalio/[\\w-]+)['"\`]`,
    '(?:job|task|queue|worker|consumer|message|event|command)s?_?(?:map|registry|handlers|processors|table)\\s*\\[',
    '\\bexport\\s*(?:\\*|\\{[^}]*\\})\\s*from\\b',
  ].join('|'),
  'i',
);

/**
 * True for a test file (by its path or a test runner's import, which `fileRole` reads before
 * anything else) that holds nothing another file needs from its parse: no rule reports in a
 * test with its default roles and no handler of its own is listed, so what is left are
 * registrations of imported handlers (BullMQ, sqs-consumer, Temporal, a job registry) and
 * re-exports. What it imports and exports is read from TypeScript's parse, as for any file the
 * prefilter sets aside. The caller checks that no `roles` option or setting applies.
 */
export function isInertTest(text: string, filename: string): boolean {
  const where = `/${filename.replace(/\\/g, '/').replace(/^\/+/, '')}`;
  const base = where.slice(where.lastIndexOf('/') + 1);
  return (isTestPath(where, base) || importsTestModule(text)) && !TEST_FILE_FACTS.test(text);
}
