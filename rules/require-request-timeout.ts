import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';

import { propertyKeyName } from '../src/model/ast/names.js';
import {
  fetchesLocalResource,
  getOutgoingRequest,
  isBrowserOnly,
  type OutgoingRequest,
} from '../src/model/http/request.js';
import { unboundedSdkClientInDelivery, type SdkConstruction } from '../src/model/http/sdk-clients.js';
import { enclosingConsumerHandler, isDelivery } from '../src/model/handler/consumer-handler.js';
import { runsOnlyOutsideProduction } from '../src/model/development-only.js';
import { createRule } from '../src/util/create-rule.js';
import { addProperty } from '../src/fix/add-property.js';
import { appendArguments } from '../src/fix/append-arguments.js';
import { fixOrSuggest } from '../src/fix/fix-or-suggest.js';

export type Options = [
  {
    fix?: boolean;
    timeoutMs?: number;
    boundedClients?: string[];
    additionalClients?: string[];
    sdkClients?: boolean;
  },
];
export type MessageIds = 'unbounded' | 'disabledTimeout' | 'unboundedSdk' | 'addTimeout';

export default createRule<Options, MessageIds>({
  name: 'require-request-timeout',
  meta: {
    type: 'problem',
    docs: {
      description: 'Require a timeout on every outgoing HTTP request',
      recommended: 'recommended',
      roles: ['server'],
      strictOptions: { sdkClients: true },
    },
    fixable: 'code',
    // The suggestion goes through fixOrSuggest, which this lint rule cannot follow.
    // eslint-disable-next-line eslint-plugin/require-meta-has-suggestions
    hasSuggestions: true,
    messages: {
      unbounded: 'This `{{client}}` request has no timeout or `signal`, so {{why}}.',
      disabledTimeout: '`{{text}}` turns the request timeout off, so {{why}}.',
      unboundedSdk:
        'This `{{client}}` client is built without a request timeout ({{bound}} by default) and used in delivery code, so {{why}}.',
      addTimeout: 'Bound the request with `{{text}}`.',
    },
    schema: [
      {
        type: 'object',
        additionalProperties: false,
        properties: {
          fix: {
            type: 'boolean',
            description: 'Apply the timeout as an autofix instead of offering it as a suggestion.',
          },
          timeoutMs: {
            type: 'integer',
            minimum: 1,
            description: 'Milliseconds used by the fix or suggestion (`AbortSignal.timeout(timeoutMs)`).',
          },
          boundedClients: {
            type: 'array',
            items: { type: 'string' },
            uniqueItems: true,
            description: 'Callees or receivers known to carry a timeout (`api`, `this.http`, `fetchWithTimeout`).',
          },
          additionalClients: {
            type: 'array',
            items: { type: 'string' },
            uniqueItems: true,
            description: 'Fetch-compatible wrappers (`(url, init)`) to check like `fetch` (`fetchJson`, `this.fetch`).',
          },
          sdkClients: {
            type: 'boolean',
            description:
              'Also report AWS SDK v3, OpenAI and Stripe clients built without a request timeout and used in delivery code (on in `strict`).',
          },
        },
      },
    ],
    defaultOptions: [{ fix: false, timeoutMs: 10_000, boundedClients: [], additionalClients: [], sdkClients: false }],
  },
  create(context, [options]) {
    const timeoutMs = options.timeoutMs ?? 10_000;
    // Without options the rule shares the request model's answers with the other rules.
    const modelOptions =
      options.boundedClients?.length || options.additionalClients?.length
        ? { boundedClients: options.boundedClients ?? [], additionalClients: options.additionalClients ?? [] }
        : undefined;

    const checkSdk = (node: TSESTree.NewExpression | TSESTree.CallExpression): void => {
      const client = unboundedSdkClientInDelivery(node, context);
      if (!client) return;
      const fix = sdkTimeoutFix(client, context.sourceCode, timeoutMs);
      const report = {
        node: node.callee,
        messageId: 'unboundedSdk' as const,
        data: {
          client: SDK_LABELS[client.sdk],
          bound: client.defaultBound,
          why: CONSEQUENCES[client.handler.broker === 'webhook' ? 'webhook' : 'consumer'],
        },
      };
      context.report(
        fix
          ? {
              ...report,
              ...fixOrSuggest(options.fix === true, {
                messageId: 'addTimeout',
                data: { text: `timeout: ${timeoutMs}` },
                fix,
              }),
            }
          : report,
      );
    };

    return {
      ...(options.sdkClients === true ? { NewExpression: checkSdk } : {}),
      CallExpression(call) {
        if (options.sdkClients === true) checkSdk(call);
        const request = getOutgoingRequest(call, context, modelOptions);
        if (request?.timeout !== 'unbounded') return;
        if (isBrowserOnly(request, context) || fetchesLocalResource(request, context)) return;
        // A request only development runs never meets production traffic.
        if (runsOnlyOutsideProduction(call, context.sourceCode.getScope(call))) return;

        const disabled = request.disabledTimeout;
        const fix = disabled
          ? replaceValueFix(request, disabled, timeoutMs)
          : insertTimeoutFix(request, context.sourceCode, timeoutMs);
        const text = timeoutText(request, timeoutMs);
        const report = disabled
          ? {
              node: isInlineOptions(request) ? disabled : call.callee,
              messageId: 'disabledTimeout' as const,
              data: { text: context.sourceCode.getText(disabled), why: consequence(call, context) },
            }
          : {
              node: call.callee,
              messageId: 'unbounded' as const,
              data: { client: clientLabel(request), why: consequence(call, context) },
            };
        context.report(
          fix
            ? { ...report, ...fixOrSuggest(options.fix === true, { messageId: 'addTimeout', data: { text }, fix }) }
            : report,
        );
      },
    };
  },
});

const CONSEQUENCES = {
  consumer:
    'a hung call holds the job past its visibility timeout or lock and the broker hands a copy to another worker',
  webhook:
    "a hung call outlasts the sender's wait and the sender retries the webhook while the first attempt may still complete",
  server:
    'a hung call holds the request until its caller gives up and retries it while the first attempt may still complete',
} as const;

/** What a hang costs where the call runs: in a consumer, a webhook, or other server code. */
function consequence(node: TSESTree.Node, context: Readonly<TSESLint.RuleContext<MessageIds, Options>>): string {
  const handler = enclosingConsumerHandler(node, context);
  if (!handler || !isDelivery(handler.broker)) return CONSEQUENCES.server;
  return CONSEQUENCES[handler.broker === 'webhook' ? 'webhook' : 'consumer'];
}

/** The client as the code names it: `https.request`, not the model's `node-http`. */
function clientLabel(request: OutgoingRequest): string {
  return request.client === 'node-http' ? 'http' : request.client;
}

/**
 * Each client's own way to bound a request: got's per-phase `timeout`, the `timeout` of the
 * request package and ofetch, needle's response and read timeouts (its `timeout` bounds only
 * connecting), superagent's `.timeout(ms)`; everything else takes a signal.
 */
function timeoutText(request: OutgoingRequest, timeoutMs: number): string {
  switch (request.client) {
    case 'got':
      return `timeout: { request: ${timeoutMs} }`;
    case 'request':
    case 'ofetch':
      return `timeout: ${timeoutMs}`;
    case 'needle':
      return `response_timeout: ${timeoutMs}, read_timeout: ${timeoutMs}`;
    case 'superagent':
      return `.timeout(${timeoutMs})`;
    default:
      return `signal: AbortSignal.timeout(${timeoutMs})`;
  }
}

/** `timeout: 0` → `timeout: <ms>` (got: `{ request: <ms> }`), only on the request's own options literal. */
function replaceValueFix(
  request: OutgoingRequest,
  property: TSESTree.Property,
  timeoutMs: number,
): TSESLint.ReportFixFunction | undefined {
  if (!isInlineOptions(request)) return undefined;
  const value = request.client === 'got' ? `{ request: ${timeoutMs} }` : String(timeoutMs);
  return (fixer) => fixer.replaceText(property.value, value);
}

/**
 * Adds the timeout to the request's own options: a new options argument when there is
 * none, a new property when they are an object literal written in the call. Options held
 * elsewhere (a variable, a parameter) are left alone: another request may share them.
 */
function insertTimeoutFix(
  request: OutgoingRequest,
  sourceCode: Readonly<TSESLint.SourceCode>,
  timeoutMs: number,
): TSESLint.ReportFixFunction | undefined {
  const { call, optionsIndex } = request;
  const text = timeoutText(request, timeoutMs);
  const args = call.arguments;

  // superagent: `superagent.post(url)` → `superagent.post(url).timeout(ms)`, ahead of the rest of its chain.
  if (request.client === 'superagent') return (fixer) => fixer.insertTextAfter(call, text);
  // A call without an options argument (graphql-request's positional form) has nowhere to put one.
  if (optionsIndex < 0) return undefined;

  if (args.length <= optionsIndex) {
    // axios.post(url) takes its config third: pass `undefined` for the data.
    return appendArguments(
      call,
      [...Array<string>(optionsIndex - args.length).fill('undefined'), `{ ${text} }`],
      sourceCode,
    );
  }

  if (!isInlineOptions(request)) return undefined;
  const object = request.options;
  if (!object) return undefined;
  const keys = text.split(', ').map((entry) => entry.slice(0, entry.indexOf(':')));
  // A second property of the same name would be an error in TypeScript.
  if (
    object.properties.some(
      (property) => property.type === AST_NODE_TYPES.Property && keys.includes(propertyKeyName(property) ?? ''),
    )
  )
    return undefined;
  return addProperty(object, text, sourceCode);
}

/** True when the options object literal is written as the call's own argument. */
function isInlineOptions(request: OutgoingRequest): boolean {
  const argument = request.call.arguments[request.optionsIndex];
  return argument !== undefined && request.options !== undefined && argument === request.options;
}

const SDK_LABELS: Readonly<Record<SdkConstruction['sdk'], string>> = {
  'aws-sdk': 'AWS SDK',
  openai: 'OpenAI',
  stripe: 'Stripe',
};

/**
 * OpenAI's and Stripe's `timeout` option, added to the config written in the construction or
 * as a new config after Stripe's key; the AWS SDK's goes in a request handler, left to the reader.
 */
function sdkTimeoutFix(
  client: SdkConstruction,
  sourceCode: Readonly<TSESLint.SourceCode>,
  timeoutMs: number,
): TSESLint.ReportFixFunction | undefined {
  if (client.sdk === 'aws-sdk') return undefined;
  const text = `timeout: ${timeoutMs}`;
  const index = client.sdk === 'stripe' ? 1 : 0;
  const args = client.node.arguments;
  if (args.length === index) {
    // `new OpenAI()`: the config goes between its parentheses.
    const close = sourceCode.getLastToken(client.node);
    if (index === 0) return close?.value === ')' ? (fixer) => fixer.insertTextBefore(close, `{ ${text} }`) : undefined;
    return appendArguments(client.node, [`{ ${text} }`], sourceCode);
  }
  const object = client.config;
  if (!object || args[index] !== object) return undefined;
  if (
    object.properties.some(
      (property) => property.type === AST_NODE_TYPES.Property && propertyKeyName(property) === 'timeout',
    )
  )
    return undefined;
  return addProperty(object, text, sourceCode);
}
