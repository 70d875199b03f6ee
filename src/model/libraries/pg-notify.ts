import type { TSESTree } from '@typescript-eslint/utils';
import type { AnyRuleContext } from '../ast/context.js';
import { fileMemo } from '../ast/memo.js';
import { lastName } from '../ast/names.js';
import type { DeliveryLibrary } from './library.js';

/**
 * PostgreSQL's LISTEN/NOTIFY: node-postgres' `client.on('notification', (msg) => …)` on a
 * connection that ran `LISTEN channel` (https://node-postgres.com/apis/client#notification,
 * https://www.postgresql.org/docs/current/sql-notify.html: each notification goes to every session
 * listening on its channel), and pg-listen's `subscriber.notifications.on(channel, handler)`
 * (https://github.com/andywer/pg-listen#usage). Every listening instance runs the listener for one
 * notification, so it is a delivery's handler; nothing acknowledges one.
 */
export const pgNotify: DeliveryLibrary<'pg-notify'> = {
  broker: 'pg-notify',
  modules: ['pg', 'pg-listen', 'postgres'],
  registrations: [
    {
      call: { method: ['on', 'addListener'] },
      event: { index: 0, value: 'notification' },
      receiver: { test: (_receiver, _call, context) => listens(context) },
      arguments: { min: 2, max: 2 },
      handler: { argument: 1 },
    },
    {
      call: { method: ['on'] },
      receiver: { test: isPgListenNotifications },
      arguments: { min: 2, max: 2 },
      handler: { argument: 1 },
      queue: [{ argument: 0 }],
    },
  ],
};

/** A `LISTEN channel` statement in a string of the file: the connection it runs on gets notifications. */
const LISTEN = /['"`]\s*LISTEN\s+["\w]/i;

function listens(context: AnyRuleContext): boolean {
  return fileMemo(context, 'pg-notify:listens', () => LISTEN.test(context.sourceCode.text));
}

/** `subscriber.notifications.on(channel, handler)` in a file that imports pg-listen. */
function isPgListenNotifications(
  receiver: TSESTree.Node,
  _call: TSESTree.CallExpression,
  context: AnyRuleContext,
  imports: ReadonlySet<string>,
): boolean {
  return imports.has('pg-listen') && lastName(receiver, context.sourceCode.getScope(receiver)) === 'notifications';
}
