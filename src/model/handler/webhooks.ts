import path from 'node:path';

import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { type AnyRuleContext } from '../ast/context.js';
import { calleeName, memberPath } from '../ast/names.js';
import { unwrap } from '../ast/nodes.js';
import { isFunction, resolveFunction } from '../ast/function.js';
import { resolveHandlerFunction } from './methods.js';
import { forEachNode, walk } from '../ast/walk.js';
import { calleeSummary, hasSummaryFact } from '../settings.js';

/**
 * Webhooks: routes that receive another system's deliveries, which that system retries until
 * it gets a 2xx. A route is one when its path or name says so, or when its handler verifies the
 * sender's signature; an ordinary `POST` route that a browser calls is not one.
 */

/**
 * Path segments and names that say a sender delivers events there: `/webhook`, `/webhooks/…`,
 * `/hooks/…`, `stripeWebhook`, `/ipn` (PayPal), `/callback` (a provider's delivery callback).
 */
const WEBHOOK_NAME = /web-?hooks?|\bhooks?\b|\bipn\b|\bcallbacks?\b|\binbound\b/i;
/** A sign-in callback is the user's browser coming back, not a delivery. */
const SIGN_IN = /auth|login|sign-?in|sso|saml|oidc/i;

/**
 * Words that say a route or method acts on webhooks rather than receives one: sends, triggers
 * or retries them, or manages their subscriptions, settings and secrets (`/webhook/retry`,
 * `createAWebhook`, `webhook-management.controller.ts`, `/:id/webhook-secret`). `send` is a word of its own: a sender's
 * name that starts with it (`/webhooks/sendgrid`) receives.
 */
const MANAGES_WEBHOOKS =
  /send(?:s|er|ers|ing)?\b|dispatch|emit|trigger|retry|resubscribe|subscribe(?!d)|register(?!ed)|create(?!d)|update(?!d)|delete(?!d)|remove(?!d)|test|sample|setting|config|manage|list|enable(?!d)|disable(?!d)|reset|toggle|\bset\b|\bfind\b|\bsecrets?\b/i;

export function managesWebhooks(name: string | undefined): boolean {
  // Words split at camelCase, so `sendWebhook` sends while a sender named `sendgrid` or `sendblue` does not.
  return name !== undefined && MANAGES_WEBHOOKS.test(name.replace(/([a-z\d])([A-Z])/g, '$1 $2'));
}

export function namesWebhook(name: string | undefined): boolean {
  // A path's parameters name no action: `/webhook/:secret` is a delivery's URL that carries a token.
  if (name === undefined || !WEBHOOK_NAME.test(name) || managesWebhooks(name.replace(/[:{[][^/]*/g, ''))) return false;
  return /web-?hooks?|\bhooks?\b|\bipn\b/i.test(name) || !SIGN_IN.test(name);
}

/**
 * Calls and headers by which a receiver checks a delivery's signature: Stripe's
 * `webhooks.constructEvent(Async)`, Svix and Standard Webhooks' `new Webhook(secret).verify`,
 * `@octokit/webhooks`' `verify`/`verifyAndReceive`, Polar's `validateEvent`, QStash's
 * `verifySignature*` / `Receiver#verify`, Saleor's webhook handlers, Paddle's
 * `webhooks.unmarshal(body, secret, signature)` (it verifies the `Paddle-Signature` header and
 * returns the event: https://developer.paddle.com/webhooks/signature-verification), the Bot
 * Framework adapter's `processActivity(req, res, logic)` (it authenticates the Bot Connector's
 * token before it runs the bot's logic: learn.microsoft.com/azure/bot-service/rest-api/
 * bot-framework-rest-connector-authentication), and HMACs compared with `timingSafeEqual`; and
 * the signature headers of the common senders.
 */
const SIGNATURE_CALLS =
  /\b(?:constructEvent(?:Async)?|processActivity|webhooks\.unmarshal|verifyAndReceive|validateEvent|(?:verify|validate)Webhook(?!Url)\w*|verifyHmac\w*|validateRequest(?:WithBody)?|(?:is|verify|validate|check|assert)\w*Signature\w*)\s*[(<]/i;
/**
 * Headers only a sender's delivery carries: its signature (`stripe-signature`,
 * `x-hub-signature-256`), a shared secret named for its webhooks (`stigg-webhooks-secret`,
 * `x-webhook-token`), or its event and delivery ids (`x-github-event`, `x-gitlab-event`, Sentry's
 * `sentry-hook-resource`, docs.sentry.io/organization/integrations/integration-platform/webhooks/).
 */
const SIGNATURE_HEADERS =
  /['"`](?:[\w-]*webhooks?-(?:secret|token|signature)|stripe-signature|x-hub-signature(?:-256)?|svix-signature|webhook-signature|x-shopify-hmac-sha256|x-slack-signature|x-twilio-signature|upstash-signature|x-signature|x-webhook-signature|x-hook-signature|paypal-transmission-sig|x-gitlab-token|x-razorpay-signature|x-cal-signature-256|x-polar-signature|paddle-signature|x-github-event|x-github-delivery|sentry-hook-signature|sentry-hook-resource|x-gitlab-event|x-gitea-event|x-gogs-event|x-shopify-topic|x-shopify-webhook-id|svix-id)['"`]/i;
/**
 * The protocol of a push delivery over HTTP, which the sender retries until it gets a 2xx: Amazon
 * SNS's HTTP/S subscriptions (the `x-amz-sns-message-type` header, a `SubscriptionConfirmation`
 * message whose `SubscribeURL` the endpoint must visit; docs.aws.amazon.com/sns/latest/dg/
 * sns-http-https-endpoint-as-subscriber.html) and Google Cloud Tasks' HTTP targets (the
 * `X-CloudTasks-TaskRetryCount` family of headers; cloud.google.com/tasks/docs/creating-http-target-tasks),
 * and Slack's Events API (the `url_verification` challenge an endpoint answers when it is set up,
 * docs.slack.dev/reference/events/url_verification, and the `X-Slack-Retry-Num` header of the
 * retries Slack sends when it gets no 2xx within three seconds, docs.slack.dev/apis/events-api/#retries).
 */
const PUSH_PROTOCOL =
  /['"`](?:SubscriptionConfirmation|x-amz-sns-message-type|x-cloudtasks-\w+|url_verification|x-slack-retry-(?:num|reason))['"`]|\bSubscribeURL\b/i;
/**
 * Hasura's event triggers: Hasura POSTs each change of a table as `{ event: { op, data: { old,
 * new } }, trigger: { name }, table }` and retries the delivery until it gets a 2xx, up to the
 * trigger's `retry_conf` (hasura.io/docs/latest/event-triggers/payload/,
 * hasura.io/docs/latest/event-triggers/invocation-logs/): a route that reads the trigger's name
 * and the event's operation or data receives them.
 */
const HASURA_TRIGGER = /\btrigger\s*(?:\?\.|\.)\s*name\b/;
const HASURA_EVENT = /\bevent\s*(?:\?\.|\.)\s*(?:op|data)\b/;
/** `timingSafeEqual` proves a sender only when what it compares is an HMAC, not a bearer API key. */
const TIMING_SAFE = /\btimingSafeEqual\s*\(/;

/**
 * `webhooks.verify(…)`, `new Webhook(secret).verify(…)`, `wh.verify(…)` after `new Webhook(…)`,
 * Twilio's validating middleware `twilio.webhook(authToken, options)`, and Shopify's app
 * templates' `authenticate.webhook(request)`, which checks the `X-Shopify-Hmac-Sha256` header
 * before it returns the topic and payload
 * (https://shopify.dev/docs/api/shopify-app-remix/latest/authenticate/webhook).
 */
const WEBHOOK_VERIFY = /\bwebhooks?\b[^;]{0,80}\.verify\s*\(|\btwilio\.webhook\s*\(|\bauthenticate\.webhook\s*\(/i;

/** An HMAC computed and compared by hand: `createHmac(...)...digest() === signature`. */
const HMAC = /\bcreateHmac\s*\(/;
const HMAC_COMPARED =
  /[!=]==?\s*[\w.]*(?:signature|sig|hmac|hash|digest)|(?:signature|sig|hmac|hash|digest\([^)]*\))\w*\s*[!=]==?/i;

/** How many levels of same-file calls a signature check is looked for in. */
const HELPER_DEPTH = 2;

/**
 * True when `fn` verifies a sender's signature: in its own text, in a function of the same file
 * it calls (`if (!verifyRequest(event, secret)) return 401`, two calls deep), or by calling a
 * function of another module that does (its summary's `verifiesSender`).
 */
export function verifiesSignature(
  fn: TSESTree.Node,
  context: AnyRuleContext,
  { hmacNeedsHeaders = false }: { hmacNeedsHeaders?: boolean } = {},
): boolean {
  const imported = hasSummaryFact(context, 'verifiesSender');
  const seen = new Set<TSESTree.Node>();
  const visit = (node: TSESTree.Node, depth: number): boolean => {
    if (seen.has(node)) return false;
    seen.add(node);
    if (textVerifies(context.sourceCode.getText(node), hmacNeedsHeaders)) return true;
    if (depth >= HELPER_DEPTH && !imported) return false;
    const callees: TSESTree.FunctionLike[] = [];
    const found = { imported: false };
    forEachNode(node, context, (inner) => {
      if (found.imported || inner.type !== AST_NODE_TYPES.CallExpression) return;
      if (imported && handsOnParameter(inner, node, context) && calleeSummary(inner.callee, context)?.verifiesSender)
        found.imported = true;
      if (depth >= HELPER_DEPTH) return;
      const callee = resolveFunction(inner.callee, context.sourceCode.getScope(inner));
      if (callee && callee !== node) callees.push(callee);
    });
    return found.imported || callees.some((callee) => visit(callee, depth + 1));
  };
  return visit(fn, 0);
}

/**
 * True when `call` is handed one of `fn`'s parameters (the request, or something made from it in
 * place: `verifyQstashSignature({ req, rawBody })`): a check of this request, not of a value the
 * function has from elsewhere.
 */
function handsOnParameter(call: TSESTree.CallExpression, fn: TSESTree.Node, context: AnyRuleContext): boolean {
  if (!isFunction(fn)) return false;
  const parameters = context.sourceCode
    .getDeclaredVariables(fn)
    .filter((variable) => variable.defs.some((def) => def.type === TSESLint.Scope.DefinitionType.Parameter));
  return call.arguments.some((arg) =>
    parameters.some((variable) =>
      variable.references.some(
        (reference) => arg.range[0] <= reference.identifier.range[0] && reference.identifier.range[1] <= arg.range[1],
      ),
    ),
  );
}

/**
 * True when another module may take `fn` for a check of a delivery's sender (the summaries'
 * `verifiesSender`): {@link verifiesSignature}, where an HMAC compared by hand counts only beside
 * a read of the request's headers. Shared helpers also sign users' links (an unsubscribe token's
 * HMAC, read from the body): a route that checks one serves a person, not a sender.
 */
export function checksSender(fn: TSESTree.Node, context: AnyRuleContext): boolean {
  return fileMayCheckSender(context) && verifiesSignature(fn, context, { hmacNeedsHeaders: true });
}

const fileChecks = new WeakMap<object, boolean>();

/** Whether any function of the file can check a sender by itself: the whole text, read once per file. */
function fileMayCheckSender(context: AnyRuleContext): boolean {
  const { sourceCode } = context;
  let may = fileChecks.get(sourceCode);
  if (may === undefined) fileChecks.set(sourceCode, (may = textVerifies(sourceCode.text, false)));
  return may;
}

function textVerifies(text: string, hmacNeedsHeaders: boolean): boolean {
  const hmac = !hmacNeedsHeaders || /\bheaders\b/.test(text);
  return (
    SIGNATURE_CALLS.test(text) ||
    SIGNATURE_HEADERS.test(text) ||
    PUSH_PROTOCOL.test(text) ||
    (HASURA_TRIGGER.test(text) && HASURA_EVENT.test(text)) ||
    WEBHOOK_VERIFY.test(text) ||
    (hmac && HMAC.test(text) && (HMAC_COMPARED.test(text) || TIMING_SAFE.test(text))) ||
    (hmac && TIMING_SAFE.test(text) && /signature/i.test(text))
  );
}

/**
 * Reading a signed-in user's session (`getServerSession(req, res)`, `@CurrentUser()`, a JWT
 * guard): the caller is a person in a browser or an app, never a sender retrying a delivery.
 */
const USER_SESSION =
  /\b(?:getServerSession|getServerAuthSession|unstable_getServerSession|getSession|currentUser|getCurrentUser)\s*\(|@(?:Logined|Current|Auth|Session)User\s*\(|\b(?:Jwt|Session|User)\w*Guard\b|\{\s*(?:user\s*,\s*session|session\s*,\s*user)\b[^}]*\}\s*=/;

export function readsUserSession(text: string): boolean {
  return USER_SESSION.test(text);
}

/** A guard's name that says it checks a delivery: `verifyStripeSignature`, `hmacAuth`, `webhookAuth`. */
const GUARD_NAME = /signature|hmac|web-?hooks?/i;

/**
 * True when a middleware in front of a route checks the sender: its name says so
 * (`verifySignature`, `validateWebhook(secret)`) or, defined in this file, it verifies a signature.
 */
function guardVerifies(guard: TSESTree.Node, context: AnyRuleContext): boolean {
  const value = unwrap(guard);
  const name = value.type === AST_NODE_TYPES.CallExpression ? guardCallName(value) : memberPath(value)?.at(-1);
  if (name !== undefined && GUARD_NAME.test(name)) return true;
  // A guard or guard factory of another module that checks the sender (`withCron(handler)`).
  const callee = value.type === AST_NODE_TYPES.CallExpression ? value.callee : value;
  if (hasSummaryFact(context, 'verifiesSender') && calleeSummary(callee, context)?.verifiesSender) return true;
  // The guard itself, or the factory of this file that makes it (`headerValidator(url)`).
  const scope = context.sourceCode.getScope(value);
  const fn =
    resolveHandlerFunction(value, scope) ??
    (value.type === AST_NODE_TYPES.CallExpression ? resolveFunction(value.callee, scope) : undefined);
  return fn !== undefined && verifiesSignature(fn, context);
}

/** A guard call's name: the factory's (`validateWebhook(secret)`), or the bound method's (`this.verifyRequestSignature.bind(this)`). */
function guardCallName(call: TSESTree.CallExpression): string | undefined {
  const callee = unwrap(call.callee);
  if (callee.type === AST_NODE_TYPES.MemberExpression && memberPath(callee)?.at(-1) === 'bind')
    return memberPath(callee.object)?.at(-1);
  return calleeName(call);
}

/** Names of middleware that check a sender when mounted on a router. */
const MOUNTED_GUARD = /signature|hmac|verifyWebhook|validateWebhook/i;

const mountedGuards = new WeakMap<object, boolean>();

/** `router.use(verifySignature)`, `app.use('/hooks', hmacAuth(secret))`: a guard mounted on the file's router. */
function mountsSenderGuard(context: AnyRuleContext): boolean {
  const sourceCode = context.sourceCode;
  let mounts = mountedGuards.get(sourceCode);
  if (mounts === undefined) {
    mounts = false;
    forEachNode(sourceCode.ast, context, (node) => {
      if (mounts || node.type !== AST_NODE_TYPES.CallExpression) return;
      const callee = unwrap(node.callee);
      if (callee.type !== AST_NODE_TYPES.MemberExpression || memberPath(callee)?.at(-1) !== 'use') return;
      mounts = node.arguments.some((arg) => {
        const value = unwrap(arg);
        const name = value.type === AST_NODE_TYPES.CallExpression ? calleeName(value) : memberPath(value)?.at(-1);
        return name !== undefined && MOUNTED_GUARD.test(name);
      });
    });
    mountedGuards.set(sourceCode, mounts);
  }
  return mounts;
}

/**
 * The words of a route's path when a helper builds it (`this.routerPath('set')`): its string
 * literals, which still say what the route does.
 */
function pathWords(registration: TSESTree.Node, context: AnyRuleContext): string | undefined {
  if (registration.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const first = registration.arguments[0];
  if (!first || first.type === AST_NODE_TYPES.Literal || first.type === AST_NODE_TYPES.TemplateLiteral)
    return undefined;
  const words: string[] = [];
  forEachNode(first, context, (node) => {
    if (node.type === AST_NODE_TYPES.Literal && typeof node.value === 'string') words.push(node.value);
  });
  return words.length > 0 ? words.join('/') : undefined;
}

/**
 * A router or a route file whose routes are managed resources (`put`, `patch`, `delete` beside
 * `post`: `router.delete('/…')`, `case 'DELETE':` on the request's method, an App Router
 * `export function DELETE`): a CRUD API, not a receiver. A sender delivers with `POST` only.
 */
const MANAGES_RESOURCES =
  /\.(?:put|patch|delete)\s*\(\s*['"`/]|\bcase\s+['"`](?:PUT|PATCH|DELETE)['"`]|\bmethod\s*===?\s*['"`](?:PUT|PATCH|DELETE)['"`]|\bexport\s+(?:async\s+)?function\s+(?:PUT|PATCH|DELETE)\b/;

/**
 * True for a route handler that receives deliveries: its path or (for a file-routed handler)
 * its file says webhook, its registration goes through a webhook library, or it verifies a
 * signature.
 */
export function isWebhookRoute(
  fn: TSESTree.FunctionLike,
  path: string | undefined,
  registration: TSESTree.Node,
  context: AnyRuleContext,
  guards: readonly TSESTree.Node[] = [],
): boolean {
  if (registrationChecksSender(path, registration, context, guards)) return true;
  // A signed-in user's route is not a delivery, whatever its path (`/teams/[teamId]/webhooks`
  // lists the team's webhook settings) or a call's name (Lucia's `validateRequest(req)`).
  if (readsUserSession(context.sourceCode.getText(fn))) return false;
  if (verifiesSignature(fn, context) || handsRequestToWebhookHandler(fn, context)) return true;
  // A route that answers with a redirect sends a browser on (an OAuth or form flow's callback): a
  // sender's delivery wants a 2xx, and most senders count a 3xx as a failure and do not follow it
  // (Chargebee, Asaas, Emailit, Netlify), so no name makes it a webhook.
  if (answersWithRedirect(fn, context)) return false;
  return routeNamesWebhook(path, registration, context);
}

/**
 * `res.redirect(…)`, `reply.redirect(…)`, `c.redirect(…)`, `redirect(…)`, `Response.redirect(…)` in
 * the route's own body: it sends a browser on, so no name makes it a webhook.
 */
export function answersWithRedirect(fn: TSESTree.FunctionLike, context: AnyRuleContext): boolean {
  if (!fn.body) return false;
  return walk(fn.body, context, (node) => (calleeName(node) === 'redirect' ? 'stop' : undefined), {
    enterFunctions: false,
  });
}

/**
 * What a route's registration says of its sender without its handler's code: it goes through a
 * webhook library, or a middleware in front of it (or mounted on the file's router) checks the sender.
 */
export function registrationChecksSender(
  path: string | undefined,
  registration: TSESTree.Node,
  context: AnyRuleContext,
  guards: readonly TSESTree.Node[] = [],
): boolean {
  if (registeredThroughWebhookLibrary(registration)) return true;
  if (guards.some((guard) => guardVerifies(guard, context))) return true;
  return path !== undefined && mountsSenderGuard(context);
}

/** A route whose path, or whose file's, says webhook (`/payment/webhook`, `routes/webhooks.js`). */
export function routeNamesWebhook(
  path: string | undefined,
  registration: TSESTree.Node,
  context: AnyRuleContext,
): boolean {
  if (namesWebhook(path)) return true;
  const words = path ?? pathWords(registration, context);
  // A file-routed handler, or a router file of webhooks (`routes/webhooks.js`, `patient-webhook.ts`),
  // that does not also manage them as resources (`pages/api/teams/[slug]/webhooks/index.ts`
  // serving `GET`, `POST` and `DELETE` of a team's webhook endpoints).
  return (
    namesWebhook(routeFile(context)) && !managesWebhooks(words) && !MANAGES_RESOURCES.test(context.sourceCode.text)
  );
}

/**
 * True when the route hands its request to a function named for handling webhooks
 * (`handleMessagingWebhookRoute({ request, platform: 'teams' })`, `stripeWebhookHandler(req)`):
 * the receiver's work, the check of the sender among it, is done there, often inside a vendor's
 * SDK the checker does not read. A name that acts on webhooks (`createWebhook`, `sendWebhook`) is not one.
 */
/** A name that says it handles a delivery: `handleMessagingWebhookRoute`, `stripeWebhookHandler`, `processWebhook`. */
const WEBHOOK_HANDLER =
  /(?:handle|process|receive|ingest|consume)\w*web-?hooks?|web-?hooks?\w*(?:handler|route|receiver|listener|processor)/i;

function handsRequestToWebhookHandler(fn: TSESTree.FunctionLike, context: AnyRuleContext): boolean {
  if (!fn.body) return false;
  let found = false;
  forEachNode(fn.body, context, (node) => {
    if (found || node.type !== AST_NODE_TYPES.CallExpression) return;
    const name = calleeName(node);
    if (
      name !== undefined &&
      WEBHOOK_HANDLER.test(name) &&
      !managesWebhooks(name) &&
      handsOnParameter(node, fn, context)
    )
      found = true;
  });
  return found;
}

/**
 * The part of a file name that routes, relative to the working directory (a checkout under
 * `~/webhooks/` says nothing): `app/api/webhooks/stripe/route.ts` → `app/api/webhooks/stripe/route`.
 */
function routeFile(context: AnyRuleContext): string {
  const { filename, cwd } = context;
  const relative = cwd && path.isAbsolute(filename) ? path.relative(cwd, filename) : filename;
  const inside = relative.startsWith('..') || path.isAbsolute(relative) ? filename : relative;
  return inside.replace(/\\/g, '/').replace(/\.[cm]?[jt]sx?$/, '');
}

/** `webhooks.on('push', fn)`, `stripeWebhook.createHandler(fn)`, `makeGitHubWebhookHandler(...)`. */
function registeredThroughWebhookLibrary(registration: TSESTree.Node): boolean {
  if (registration.type !== AST_NODE_TYPES.CallExpression) return false;
  return memberPath(registration.callee)?.some((part) => /webhook/i.test(part)) ?? false;
}
