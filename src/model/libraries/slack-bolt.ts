import type { DeliveryLibrary } from './library.js';

/**
 * Slack's Bolt for JavaScript: `app.message(…)`, `app.event(name, …)`, `app.action(…)`,
 * `app.command(name, …)`, `app.shortcut(…)`, `app.view(…)` and `app.options(…)` register the
 * listener Bolt runs for each request Slack sends (https://docs.slack.dev/tools/bolt-js/concepts/).
 * Slack retries an event it got no 2xx for within three seconds, up to three times, with the
 * `x-slack-retry-num` header (https://docs.slack.dev/apis/events-api/#retries): a retried event
 * runs the listener again. The listener is the last argument; the method names are common, so the
 * file must import Bolt.
 */
export const slackBolt: DeliveryLibrary<'webhook'> = {
  broker: 'webhook',
  modules: ['@slack/bolt'],
  registrations: [
    {
      call: { method: ['message', 'event', 'action', 'command', 'shortcut', 'view', 'options'] },
      receiver: { imports: true },
      arguments: { min: 1 },
      handler: { argument: 'last' },
      queue: [{ argument: 0 }],
    },
  ],
};
