import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { unwrap } from './ast/nodes.js';
import { findProperty, findVariable, resolveValue, staticString } from './ast/values.js';
import { memberPath } from './ast/names.js';
import { importSource, requiredModule } from './modules.js';
import { type AnyRuleContext, type Scope } from './ast/context.js';
import type * as ts from 'typescript';
import { tsNodeOf, typeOf } from './types.js';
import { declaredTypeOf, typeReferenceName } from './ast/declared-types.js';
import { triggerDevWrite } from './keys/keyed-writes.js';
import { findPerAttemptValue } from './keys/per-attempt.js';

/**
 * SDK calls that write to someone else's system and accept an idempotency key, so a
 * redelivered message can replay the first result instead of acting twice.
 *
 * Covered: Stripe (`stripe-node`), whose every non-GET resource method takes a trailing
 * `RequestOptions` with `idempotencyKey` (node_modules/stripe/esm/lib.d.ts). Reads
 * (`retrieve*`, `list*`, `search`, `find`, `pdf`, `preview`) are the GET methods of the
 * generated resources and take no key; `invoices.createPreview` is a POST that only previews.
 */

export interface SdkWrite {
  call: TSESTree.CallExpression;
  sdk: 'stripe' | (string & {});
  /** The method path below the client: `charges.create`, `checkout.sessions.create`. */
  operation: string;
  /** True when the call passes a key, false when it provably does not, 'unknown' when a spread or opaque value might. */
  keyed: boolean | 'unknown';
  /** The argument index where the request options (and the key) go. */
  optionsIndex: number;
  /**
   * It makes a short-lived object a person then uses (a Checkout Session, a portal session): made
   * twice, it moves nothing twice. A key it carries is still a key, read as any other.
   */
  ephemeral?: true;
}

/** The SDK write `call` makes, or undefined when it is not one (a read, or not an SDK call). */
export function getSdkWrite(call: TSESTree.CallExpression, context: AnyRuleContext): SdkWrite | undefined {
  return stripeWrite(call, context) ?? triggerDevWrite(call, context);
}

/** True for any call of a Stripe resource method, read or write: it returns a promise. */
export function isStripeCall(call: TSESTree.CallExpression, context: AnyRuleContext): boolean {
  const scope = context.sourceCode.getScope(call);
  const path = memberPath(call.callee, scope);
  if (!path || path.length < 3) return false;
  const resource = path.slice(path[0] === 'this' ? 2 : 1, -1);
  if (resource[0] === undefined || STRIPE_NOT_RESOURCES.has(resource[0])) return false;
  return isStripeClient(call.callee, path, context, scope);
}

// ---------------------------------------------------------------------------------------------
// Stripe

// `invoices.createPreview` is a POST that creates nothing: "the invoice has not yet been created"
// (its comment in node_modules/stripe/esm/resources/Invoices.d.ts).
const STRIPE_READ = /^(retrieve|list)|^(find|search|pdf|preview|createPreview)$/;
/** Namespaces of the client that are not API resources. */
const STRIPE_NOT_RESOURCES = new Set(['webhooks', 'oauth', 'errors', 'events', 'rawRequest', 'files']);
const STRIPE_CLIENT_NAME = /^_?stripe(Client|Api|Sdk|Instance)?$/i;
/**
 * Creates of short-lived objects a person then uses, which move nothing on their own: a second one
 * is a second link, not a second charge. A Checkout Session expires unpaid after 24 hours and
 * charges only when the customer completes it (https://docs.stripe.com/api/checkout/sessions/create,
 * `expires_at`); a customer portal session is a one-time URL to the portal
 * (https://docs.stripe.com/api/customer_portal/sessions/create); an Account Link is a single-use,
 * expiring onboarding URL (https://docs.stripe.com/api/account_links/create); an Account Session and
 * an ephemeral key are short-lived client credentials (https://docs.stripe.com/api/account_sessions/create);
 * a login link is a single-use Express dashboard URL (https://docs.stripe.com/api/accounts/login_link/create).
 */
const STRIPE_EPHEMERAL = new Set([
  'checkout.sessions.create',
  'billingPortal.sessions.create',
  'accountLinks.create',
  'accountSessions.create',
  'ephemeralKeys.create',
  'accounts.createLoginLink',
]);

function stripeWrite(call: TSESTree.CallExpression, context: AnyRuleContext): SdkWrite | undefined {
  const scope = context.sourceCode.getScope(call);
  const path = memberPath(call.callee, scope);
  if (!path || path.length < 3) return undefined;
  const method = path.at(-1);
  const resource = path.slice(path[0] === 'this' ? 2 : 1, -1);
  if (
    method === undefined ||
    resource[0] === undefined ||
    STRIPE_READ.test(method) ||
    STRIPE_NOT_RESOURCES.has(resource[0])
  )
    return undefined;
  if (!isStripeClient(call.callee, path, context, scope)) return undefined;

  const typed = typedOptionsIndex(call, context);
  const optionsIndex = typed ?? syntacticOptionsIndex(call, method, scope);
  const operation = [...resource, method].join('.');
  return {
    call,
    sdk: 'stripe',
    operation,
    keyed: createsOwnId(call, operation, scope, context) || keyedAt(call, optionsIndex, context, scope),
    optionsIndex,
    ...(STRIPE_EPHEMERAL.has(operation) ? { ephemeral: true as const } : {}),
  };
}

/**
 * Creates that take the object's id from the caller, and refuse a second object with the same id
 * (a `resource_already_exists` error): a product ("you can optionally override this ID, but the
 * ID must be unique across all products in your Stripe account",
 * https://docs.stripe.com/api/products/create#create_product-id), a coupon and a plan (their
 * `id`). A create handed an id made of what it was handed (a static string, the delivery's
 * fields) is sent once, whatever the retries; one made per attempt (`uuid()`, `Date.now()`: the
 * key rules' own test, keys/per-attempt.ts) is new on every attempt and proves nothing.
 */
const STRIPE_OWN_ID = new Set(['products.create', 'coupons.create', 'plans.create']);

function createsOwnId(
  call: TSESTree.CallExpression,
  operation: string,
  scope: Scope,
  context: AnyRuleContext,
): boolean {
  if (!STRIPE_OWN_ID.has(operation) || !call.arguments[0] || call.arguments[0].type === AST_NODE_TYPES.SpreadElement)
    return false;
  const params = unwrap(resolveValue(call.arguments[0], scope));
  if (params.type !== AST_NODE_TYPES.ObjectExpression) return false;
  const id = findProperty(params, (name) => name === 'id', scope);
  return !!id && id !== 'unknown' && findPerAttemptValue(id.value, context) === undefined;
}

/** The object the path starts from (`stripe`, `this.stripe`) is a Stripe client. */
function isStripeClient(
  callee: TSESTree.Node,
  path: readonly string[],
  context: AnyRuleContext,
  scope: Scope,
): boolean {
  // The client expression: the callee minus the resource and method parts.
  const clientDepth = path[0] === 'this' ? 2 : 1;
  let client = unwrap(callee);
  for (let i = path.length; i > clientDepth && client.type === AST_NODE_TYPES.MemberExpression; i--)
    client = unwrap(client.object);
  return isStripeClientValue(client, context, scope);
}

/** How many bindings and choices a client expression is followed through. */
const CLIENT_HOPS = 3;

/**
 * An expression that is a Stripe client: typed so, made by `new Stripe(key)`, annotated `Stripe`,
 * imported from `stripe`, named like one, or a binding of one of those, or a choice between them
 * (`const target = isTest ? this.stripeTest! : this.stripeLive`).
 */
function isStripeClientValue(node: TSESTree.Node, context: AnyRuleContext, scope: Scope, hops = 0): boolean {
  const client = unwrap(node);
  if (client.type === AST_NODE_TYPES.ConditionalExpression || client.type === AST_NODE_TYPES.LogicalExpression) {
    const [a, b] =
      client.type === AST_NODE_TYPES.ConditionalExpression
        ? [client.consequent, client.alternate]
        : [client.left, client.right];
    return (
      hops < CLIENT_HOPS &&
      (isStripeClientValue(a, context, scope, hops + 1) || isStripeClientValue(b, context, scope, hops + 1))
    );
  }
  const typed = typeOf(client, context);
  if (typed) {
    const { type } = typed;
    const name = (type.aliasSymbol ?? type.getSymbol())?.getName();
    if (name === 'Stripe' || name === 'StripeResource') return true;
    // A type we can name that is not Stripe's: an `any` falls through to syntax.
    if (name !== undefined && name !== '__type') return false;
  }

  if (client.type === AST_NODE_TYPES.Identifier) {
    const created = unwrap(resolveValue(client, scope));
    if (isStripeConstruction(created, scope)) return true;
    const variable = findVariable(scope, client);
    const def = variable?.defs[0];
    // A parameter or variable annotated `Stripe`.
    const annotation = def && 'typeAnnotation' in def.name ? def.name.typeAnnotation?.typeAnnotation : undefined;
    if (typeReferenceName(annotation) === 'Stripe') return true;
    // Bound to something else we can see: a client if that is one (`const stripe = this.stripe`).
    if (created !== client && created.type !== AST_NODE_TYPES.Identifier)
      return hops < CLIENT_HOPS && isStripeClientValue(created, context, scope, hops + 1);
    const source = importSource(client, scope);
    if (source?.module === 'stripe') return true;
    return STRIPE_CLIENT_NAME.test(client.name);
  }
  // this.stripe, or a field declared `Stripe` (`private stripeLive: Stripe`)
  if (client.type === AST_NODE_TYPES.MemberExpression) {
    const last = memberPath(client, scope)?.at(-1);
    if (last !== undefined && STRIPE_CLIENT_NAME.test(last)) return true;
    return typeReferenceName(declaredTypeOf(client, scope)) === 'Stripe';
  }
  return false;
}

/** `new Stripe(key)`, `Stripe(key)`, `require('stripe')(key)`, `new (require('stripe'))(key)`. */
function isStripeConstruction(node: TSESTree.Node, scope: Scope): boolean {
  if (node.type !== AST_NODE_TYPES.NewExpression && node.type !== AST_NODE_TYPES.CallExpression) return false;
  const callee = unwrap(node.callee);
  if (callee.type === AST_NODE_TYPES.CallExpression) return requiresStripe(callee);
  if (callee.type !== AST_NODE_TYPES.Identifier) return false;
  const source = importSource(callee, scope);
  if (source) return source.module === 'stripe';
  const init = resolveValue(callee, scope);
  if (init.type === AST_NODE_TYPES.CallExpression && requiresStripe(init)) return true;
  return callee.name === 'Stripe' && !findVariable(scope, callee)?.defs.length;
}

function requiresStripe(call: TSESTree.CallExpression): boolean {
  return requiredModule(call) === 'stripe';
}

/** With types: the index of the parameter typed `RequestOptions` in the resolved signature. */
function typedOptionsIndex(call: TSESTree.CallExpression, context: AnyRuleContext): number | undefined {
  const at = tsNodeOf(call, context);
  if (!at) return undefined;
  const signature = at.checker.getResolvedSignature(at.tsNode as ts.CallLikeExpression);
  if (!signature) return undefined;
  const index = signature.parameters.findIndex((parameter) => {
    const declaration = parameter.valueDeclaration;
    const type = declaration ? at.checker.getTypeOfSymbolAtLocation(parameter, declaration) : undefined;
    const name = type && (type.aliasSymbol ?? type.getSymbol())?.getName();
    return name === 'RequestOptions' || name === 'RawRequestOptions';
  });
  return index === -1 ? undefined : index;
}

/**
 * Without types: resource methods take `(...ids, params, options)`, positionally (stripe-node
 * 23 no longer sniffs an options hash out of the params slot). `create` takes no id unless
 * leading arguments look like ids; every other write takes at least one.
 */
function syntacticOptionsIndex(call: TSESTree.CallExpression, method: string, scope: Scope): number {
  const args = call.arguments;
  const leading = args.findIndex((arg) => !isIdLike(arg, scope));
  const ids = leading === -1 ? args.length : leading;
  return (method === 'create' ? ids : Math.max(ids, 1)) + 1;
}

function isIdLike(node: TSESTree.Node, scope: Scope): boolean {
  const target = unwrap(node);
  if (target.type === AST_NODE_TYPES.Literal) return typeof target.value === 'string';
  if (target.type === AST_NODE_TYPES.TemplateLiteral) return true;
  if (staticString(target, scope) !== undefined) return true;
  const last = memberPath(target, scope)?.at(-1);
  return last !== undefined && /(^id|Id|ID|_id)$/.test(last);
}

/** Whether the options at `index` carry an `idempotencyKey` (also `idempotency_key`). */
export function keyedAt(
  call: TSESTree.CallExpression,
  index: number,
  context: AnyRuleContext,
  scope: Scope,
): boolean | 'unknown' {
  const arg = call.arguments[index];
  if (!arg) {
    // A spread before the options position could supply them.
    return call.arguments.some((item) => item.type === AST_NODE_TYPES.SpreadElement) ? 'unknown' : false;
  }
  if (arg.type === AST_NODE_TYPES.SpreadElement) return 'unknown';
  const value = unwrap(resolveValue(arg, scope));
  if (value.type === AST_NODE_TYPES.ObjectExpression) {
    // idempotency_key: the spelling of stripe-node before v8, still in old code.
    const property = findProperty(value, (name) => name === 'idempotencyKey' || name === 'idempotency_key', scope);
    if (property === 'unknown') return 'unknown';
    if (!property) return false;
    const key = unwrap(property.value);
    return key.type === AST_NODE_TYPES.Identifier && key.name === 'undefined' ? false : true;
  }
  if (value.type === AST_NODE_TYPES.Identifier && value.name === 'undefined') return false;
  return typedKeyed(arg, context) ?? 'unknown';
}

/** With types: an options value whose type has a required `idempotencyKey` is keyed. */
function typedKeyed(arg: TSESTree.Node, context: AnyRuleContext): boolean | 'unknown' | undefined {
  const typed = typeOf(arg, context);
  if (!typed) return undefined;
  const { type } = typed;
  const property = type.getProperty('idempotencyKey');
  if (!property) return type.getProperties().length > 0 && !type.isUnion() ? false : undefined;
  // Optional (RequestOptions itself): maybe set, maybe not.
  return (property.flags & 16777216) /* ts.SymbolFlags.Optional */ !== 0 ? 'unknown' : true;
}
