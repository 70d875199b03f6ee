import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import type { AnyRuleContext } from '../ast/context.js';
import { memberName } from '../ast/names.js';
import { unwrap } from '../ast/nodes.js';
import { staticString } from '../ast/values.js';
import type { DeliveryLibrary } from './library.js';

/**
 * Telegraf, the Telegram bot framework: `bot.on(updateType, handler)`, `bot.command(name, …)`,
 * `bot.hears(trigger, …)`, `bot.action(data, …)` and `bot.start(…)` register middleware it runs for
 * each update (https://telegraf.js.org/classes/Telegraf-1.html). Telegram delivers an update to a
 * webhook again until it gets a 2xx (https://core.telegram.org/bots/api#setwebhook: "in case of an
 * unsuccessful request … we will give up after a reasonable amount of attempts"), and Telegraf's
 * `webhookCallback` answers only once the middleware settles. The handler is the last argument.
 * The file must import Telegraf, and `on` (every emitter's method) must name an update type.
 */
export const telegraf: DeliveryLibrary<'webhook'> = {
  broker: 'webhook',
  modules: ['telegraf'],
  registrations: [
    {
      call: { method: ['on', 'command', 'hears', 'action', 'start'] },
      receiver: { test: isTelegrafRegistration },
      arguments: { min: 1 },
      handler: { argument: 'last' },
      queue: [{ argument: 0 }],
    },
  ],
};

/** The update types and message subtypes of Telegram's Bot API that `on` filters by (core.telegram.org/bots/api#update). */
const UPDATE_TYPES: ReadonlySet<string> = new Set([
  'message',
  'edited_message',
  'channel_post',
  'edited_channel_post',
  'callback_query',
  'inline_query',
  'chosen_inline_result',
  'shipping_query',
  'pre_checkout_query',
  'poll',
  'poll_answer',
  'my_chat_member',
  'chat_member',
  'chat_join_request',
  'text',
  'photo',
  'document',
  'video',
  'voice',
  'audio',
  'sticker',
  'location',
  'contact',
]);

function isTelegrafRegistration(
  _receiver: TSESTree.Node,
  call: TSESTree.CallExpression,
  context: AnyRuleContext,
  imports: ReadonlySet<string>,
): boolean {
  if (!imports.has('telegraf')) return false;
  const callee = unwrap(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression || memberName(callee) !== 'on') return true;
  const [event] = call.arguments;
  const name = event && staticString(event, context.sourceCode.getScope(call));
  return name !== undefined && UPDATE_TYPES.has(name);
}
