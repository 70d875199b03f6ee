import { type TSESTree } from '@typescript-eslint/utils';

import { memberPath } from '../ast/names.js';
import { unwrap } from '../ast/nodes.js';
import { type AnyRuleContext } from '../ast/context.js';
import { importSource } from '../modules.js';
import { rootIdentifier } from './minting.js';

/**
 * What a provider does when a key it has seen comes back with a different request. Most compare:
 * Stripe answers `idempotency_error` ("re-used on a request that does not match the first
 * request's API endpoint and parameters"), Twilio error 17534 (payload mismatch), TrueLayer an
 * error response; a body that differs per attempt turns their retry into a failure, which is what
 * `no-per-attempt-body` reports. Some replay the first result for the key and never look at the
 * body, so a differing body is never seen:
 *
 * - Svix: the server's idempotency layer keys its cache on a hash of the auth token, the key and
 *   the URL only (svix-server `core/idempotency.rs`) and answers a repeat with the stored response.
 * - trigger.dev: `trigger` / `batchTrigger` (and their `AndWait` forms) return the existing run for
 *   a known key, without comparing payloads; its waits (`waitForDuration`, `createWaitpointToken`)
 *   the existing waitpoint.
 *
 * An unknown provider is taken to compare, as the rule's default.
 */

interface ReplayingProvider {
  /** Module names of its SDK. */
  modules: ReadonlySet<string>;
  /** How code names the provider's client or a wrapper of it (`svix.message.create`, `sendSvixEvent`). */
  named?: RegExp;
  /** Methods that replay whatever their receiver (the provider's own verbs). */
  methods?: ReadonlySet<string>;
}

const REPLAYING_PROVIDERS: readonly ReplayingProvider[] = [
  { modules: new Set(['svix']), named: /svix/i },
  {
    modules: new Set(['@trigger.dev/sdk', '@trigger.dev/sdk/v3']),
    // `wait.for` / `wait.createToken` under a known key return the waitpoint made first.
    methods: new Set([
      'trigger',
      'batchTrigger',
      'triggerAndWait',
      'batchTriggerAndWait',
      'waitForDuration',
      'createWaitpointToken',
    ]),
  },
];

/**
 * True when the keyed call goes to a provider that replays the first result for a key without
 * comparing the request: a trigger.dev trigger, the Svix SDK, or a wrapper the code names for
 * Svix (a function or client whose name, or whose import path, says `svix`).
 */
export function replaysWithoutComparing(call: TSESTree.CallExpression, context: AnyRuleContext): boolean {
  const callee = unwrap(call.callee);
  const path = memberPath(callee) ?? [];
  const method = path.at(-1);
  const root = rootIdentifier(callee);
  const source = root && importSource(root, context.sourceCode.getScope(root));
  return REPLAYING_PROVIDERS.some(
    (provider) =>
      (method !== undefined && provider.methods?.has(method) === true) ||
      (source !== undefined && provider.modules.has(source.module)) ||
      (provider.named !== undefined &&
        (path.some((name) => provider.named?.test(name) === true) ||
          (source !== undefined && provider.named.test(source.module)))),
  );
}
