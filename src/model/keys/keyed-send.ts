import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';

import { unwrap } from '../ast/nodes.js';
import { findVariable } from '../ast/values.js';
import { memberPath } from '../ast/names.js';
import { type AnyRuleContext } from '../ast/context.js';
import { importSource } from '../modules.js';
import { getSdkWrite } from '../sdk.js';
import { rootIdentifier } from './minting.js';

const { DefinitionType } = TSESLint.Scope;

/**
 * Providers whose APIs take an idempotency key and compare the request sent under it (their
 * documentation: Stripe, Resend, Square, Adyen, Twilio, PayPal), by the name code gives their
 * client or a wrapper of it (`stripe.refunds.create`, `resend.emails.send`), which holds when
 * the client comes from a factory the file cannot see (`const stripe = getStripe()`).
 */
const KEYED_PROVIDER = /^(stripe|resend|square|adyen|twilio|paypal)/i;

/** Verbs of an HTTP client wrapper (`apiClient.post(url, body, { idempotencyKey })`). */
const HTTP_VERBS = new Set(['post', 'put', 'patch', 'delete', 'request']);
const HTTP_CLIENT = /(client|api|http|axios|fetcher)$/i;
/** An SDK client's method (`client.payments.create`, `api.createTransaction`, `this.squareClient.refunds.refund`). */
const SDK_CLIENT = /(client|sdk|api)$/i;

/**
 * True when a call that is handed an idempotency key sends it to another system, which then
 * sees the body beside it: a known SDK write, a method of a provider's client (named for the
 * provider, imported from a package, or made with `new` from a package's class), a method of a
 * client (`client.payments.create`, `api.createTransaction`), or an HTTP verb of a client wrapper. A local function, a repository or ORM write, an in-process service
 * or workflow, or an array's `push` keeps the key in this process: nothing is compared.
 */
export function sendsKeyedRequest(call: TSESTree.CallExpression, context: AnyRuleContext): boolean {
  if (getSdkWrite(call, context)) return true;
  const callee = unwrap(call.callee);
  // A plain function call is the project's own code unless it is a package's export.
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return false;
  const path = memberPath(callee) ?? [];
  const method = path.at(-1);
  const receiver = path.at(-2);
  if (path.slice(0, -1).some((name) => KEYED_PROVIDER.test(name))) return true;
  if (method !== undefined && HTTP_VERBS.has(method) && receiver !== undefined && HTTP_CLIENT.test(receiver))
    return true;
  const client = path.filter((name) => name !== 'this');
  if (client.length >= 2 && SDK_CLIENT.test(client[0] ?? '')) return true;
  const root = rootIdentifier(callee);
  return root !== undefined && isPackageClient(root, context);
}

/** `import { resend } from 'x'` or `const client = new Resend(...)` with `Resend` from a package. */
function isPackageClient(root: TSESTree.Identifier, context: AnyRuleContext): boolean {
  const scope = context.sourceCode.getScope(root);
  if (isPackageModule(importSource(root, scope)?.module)) return true;
  const variable = findVariable(scope, root);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (def?.type !== DefinitionType.Variable || !def.node.init) return false;
  const init = unwrap(def.node.init);
  if (init.type !== AST_NODE_TYPES.NewExpression) return false;
  const made = unwrap(init.callee);
  if (made.type !== AST_NODE_TYPES.Identifier) return false;
  return isPackageModule(importSource(made, context.sourceCode.getScope(made))?.module);
}

/** A bare module specifier (`resend`, `@unkey/resend`), not a relative path or a path alias (`@/lib`, `~/x`). */
function isPackageModule(module: string | undefined): boolean {
  if (module === undefined) return false;
  return !module.startsWith('.') && !module.startsWith('/') && !module.startsWith('@/') && !module.startsWith('~');
}
