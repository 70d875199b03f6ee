import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import type { AnyRuleContext } from '../ast/context.js';
import { findProperty, resolveValue } from '../ast/values.js';
import type { DeliveryLibrary } from './library.js';

/**
 * Inngest: `inngest.createFunction(config, trigger, handler)`; a function that throws is retried
 * (https://www.inngest.com/docs/reference/functions/create,
 * https://www.inngest.com/docs/features/inngest-functions/error-retries/retries). The client is
 * often made in another module and named for the project (`orchestrationClient.createFunction`):
 * then the trigger says what the call is, `{ event: 'user/signup' }` or `{ cron: '0 * * * *' }`
 * (or a list of them) beside a configuration with an `id`.
 */
export const inngest: DeliveryLibrary<'inngest'> = {
  broker: 'inngest',
  modules: ['inngest'],
  anchors: ['createFunction'],
  registrations: [
    {
      call: { method: ['createFunction'] },
      receiver: { imports: true, name: /inngest/i, test: hasInngestTrigger },
      arguments: { min: 3, max: 3 },
      handler: { argument: 2 },
      queue: [
        { argument: 1, property: 'event' },
        { argument: 0, property: 'id' },
      ],
    },
  ],
};

/** The first argument names the function (`id`) and the second is an Inngest trigger, or a list of them. */
function hasInngestTrigger(_receiver: TSESTree.Node, call: TSESTree.CallExpression, context: AnyRuleContext): boolean {
  const scope = context.sourceCode.getScope(call);
  const has = (node: TSESTree.Node | undefined, keys: readonly string[]): boolean => {
    const value = node && resolveValue(node, scope);
    if (value?.type !== AST_NODE_TYPES.ObjectExpression) return false;
    return keys.some((key) => {
      const property = findProperty(value, (name) => name === key, scope);
      return property !== undefined && property !== 'unknown';
    });
  };
  const [config, trigger] = call.arguments;
  if (!has(config, ['id'])) return false;
  const triggers = trigger && resolveValue(trigger, scope);
  const list = triggers?.type === AST_NODE_TYPES.ArrayExpression ? triggers.elements : [trigger];
  return list.length > 0 && list.every((element) => element != null && has(element, ['event', 'cron']));
}
