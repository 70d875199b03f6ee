import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { type AnyRuleContext } from '../ast/context.js';
import { memberPath } from '../ast/names.js';

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

export function namesWebhook(name: string | undefined): boolean {
  if (name === undefined || !WEBHOOK_NAME.test(name)) return false;
  return /web-?hooks?|\bhooks?\b|\bipn\b/i.test(name) || !SIGN_IN.test(name);
}

/**
 * Calls and headers by which a receiver checks a delivery's signature: Stripe's
 * `webhooks.constructEvent(Async)`, Svix and Standard Webhooks' `new Webhook(secret).verify`,
 * `@octokit/webhooks`' `verify`/`verifyAndReceive`, Polar's `validateEvent`, QStash's
 * `verifySignature*` / `Receiver#verify`, Saleor's webhook handlers, and HMACs compared with
 * `timingSafeEqual`; and the signature headers of the common senders.
 */
const SIGNATURE_CALLS =
  /\b(?:constructEvent(?:Async)?|verifyAndReceive|validateEvent|verifySignature\w*|verifyWebhook\w*|validateWebhook\w*|verifyHmac\w*|validateSignature\w*|isValidSignature\w*|timingSafeEqual|validateRequest(?:WithBody)?)\s*[(<]/;
const SIGNATURE_HEADERS =
  /['"`](?:stripe-signature|x-hub-signature(?:-256)?|svix-signature|webhook-signature|x-shopify-hmac-sha256|x-slack-signature|x-twilio-signature|upstash-signature|x-signature|x-webhook-signature|x-hook-signature|paypal-transmission-sig|x-gitlab-token|x-razorpay-signature|x-cal-signature-256|x-polar-signature)['"`]/i;

/** `webhooks.verify(…)`, `new Webhook(secret).verify(…)`, `wh.verify(…)` after `new Webhook(…)`. */
const WEBHOOK_VERIFY = /\bwebhooks?\b[^;]{0,80}\.verify\s*\(/i;

/** True when `fn`'s own text verifies a sender's signature. */
export function verifiesSignature(fn: TSESTree.Node, context: AnyRuleContext): boolean {
  const text = context.sourceCode.getText(fn);
  return SIGNATURE_CALLS.test(text) || SIGNATURE_HEADERS.test(text) || WEBHOOK_VERIFY.test(text);
}

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
): boolean {
  if (namesWebhook(path)) return true;
  if (path === undefined && namesWebhook(routeFile(context.filename))) return true;
  if (registeredThroughWebhookLibrary(registration)) return true;
  return verifiesSignature(fn, context);
}

/** The part of a file name that routes: `app/api/webhooks/stripe/route.ts` → `api/webhooks/stripe/route`. */
function routeFile(filename: string): string {
  return filename.replace(/\\/g, '/').replace(/\.[cm]?[jt]sx?$/, '');
}

/** `webhooks.on('push', fn)`, `stripeWebhook.createHandler(fn)`, `makeGitHubWebhookHandler(...)`. */
function registeredThroughWebhookLibrary(registration: TSESTree.Node): boolean {
  if (registration.type !== AST_NODE_TYPES.CallExpression) return false;
  return memberPath(registration.callee)?.some((part) => /webhook/i.test(part)) ?? false;
}
