import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import type { AnyRuleContext } from '../ast/context.js';
import { chainRoot } from '../ast/nodes.js';
import { checksSender, managesWebhooks, namesWebhook } from '../handler/webhooks.js';
import { importSource } from '../modules.js';
import type { DeliveryLibrary } from './library.js';

/**
 * Cloud Functions for Firebase (`firebase-functions`). Event-driven functions run at least once
 * per event: "Cloud Functions guarantees at-least-once execution of an event-driven function for
 * each event emitted by an event source", and one with retries on runs again until it succeeds
 * (https://firebase.google.com/docs/functions/retries,
 * https://cloud.google.com/functions/docs/bestpractices/retries).
 * - 1st gen: a trigger builder chained from the module (`functions.firestore.document(path)`,
 *   `functions.pubsub.topic(t)`, `functions.pubsub.schedule(s)`, `functions.storage.object()`,
 *   `functions.auth.user()`, `functions.database.ref(path)`, `functions.tasks.taskQueue()`, through
 *   `region(…)` and `runWith(…)`) ended by its event method, which takes the handler
 *   (https://firebase.google.com/docs/reference/functions/firebase-functions).
 * - 2nd gen: the trigger functions of `firebase-functions/v2/*` (`onDocumentCreated(path,
 *   handler)`, `onMessagePublished(topic, handler)`, `onSchedule(schedule, handler)`,
 *   `onTaskDispatched(options, handler)`, `onObjectFinalized(…)`, `onValueWritten(…)`), the handler last.
 * An HTTPS function (`functions.https.onRequest(handler)`, v2 `onRequest`) is a request, and a
 * webhook when it checks the sender (`firebaseWebhooks`).
 */
const MODULES = [
  'firebase-functions',
  'firebase-functions/v1',
  'firebase-functions/v2',
  'firebase-functions/v2/firestore',
  'firebase-functions/v2/pubsub',
  'firebase-functions/v2/scheduler',
  'firebase-functions/v2/tasks',
  'firebase-functions/v2/storage',
  'firebase-functions/v2/database',
  'firebase-functions/v2/eventarc',
  'firebase-functions/v2/identity',
  'firebase-functions/firestore',
  'firebase-functions/pubsub',
  'firebase-functions/scheduler',
  'firebase-functions/tasks',
  'firebase-functions/storage',
  'firebase-functions/database',
];

/** 1st gen event methods of the trigger builders. */
const EVENT_METHODS = [
  'onCreate',
  'onUpdate',
  'onDelete',
  'onWrite',
  'onPublish',
  'onRun',
  'onFinalize',
  'onArchive',
  'onMetadataUpdate',
  'onDispatch',
];

/** 2nd gen trigger functions. */
const TRIGGERS = [
  'onDocumentCreated',
  'onDocumentUpdated',
  'onDocumentDeleted',
  'onDocumentWritten',
  'onDocumentCreatedWithAuthContext',
  'onDocumentUpdatedWithAuthContext',
  'onDocumentDeletedWithAuthContext',
  'onDocumentWrittenWithAuthContext',
  'onMessagePublished',
  'onSchedule',
  'onTaskDispatched',
  'onObjectFinalized',
  'onObjectArchived',
  'onObjectDeleted',
  'onObjectMetadataUpdated',
  'onValueCreated',
  'onValueUpdated',
  'onValueDeleted',
  'onValueWritten',
  'onCustomEventPublished',
];

export const firebaseFunctions: DeliveryLibrary<'firebase-functions'> = {
  broker: 'firebase-functions',
  modules: MODULES,
  registrations: [
    {
      call: { method: EVENT_METHODS },
      receiver: { test: (receiver, _call, context) => fromFirebase(receiver, context) },
      arguments: { min: 1, max: 1 },
      handler: { argument: 0 },
      queue: [{ receiver: true }],
    },
    { call: { function: TRIGGERS }, handler: { argument: 'last' }, queue: [{ argument: 0 }] },
    { call: { method: TRIGGERS, on: 'module' }, handler: { argument: 'last' }, queue: [{ argument: 0 }] },
  ],
};

/** HTTPS functions that check who sent them: a provider's webhook (Stripe's `constructEvent`, an HMAC). */
export const firebaseWebhooks: DeliveryLibrary<'webhook'> = {
  broker: 'webhook',
  modules: MODULES.filter(
    (module) => module === 'firebase-functions' || module.endsWith('/v1') || module.endsWith('/v2'),
  ).concat('firebase-functions/v2/https', 'firebase-functions/https'),
  registrations: [
    {
      call: { method: ['onRequest'] },
      receiver: { test: (receiver, _call, context) => fromFirebase(receiver, context) },
      arguments: { min: 1, max: 2 },
      handler: { argument: 'last' },
      handlerTest: receivesWebhooks,
    },
    { call: { function: ['onRequest'] }, handler: { argument: 'last' }, handlerTest: receivesWebhooks },
  ],
};

/**
 * An HTTPS function that checks the sender, or that its module exports under a webhook's name
 * (`export const stripeWebhook = functions.https.onRequest(…)`): its URL is the one a provider is given.
 */
function receivesWebhooks(fn: TSESTree.FunctionLike, _receiver: TSESTree.Node, context: AnyRuleContext): boolean {
  if (checksSender(fn, context)) return true;
  const holder = fn.parent.type === AST_NODE_TYPES.CallExpression ? fn.parent.parent : undefined;
  return (
    holder?.type === AST_NODE_TYPES.VariableDeclarator &&
    holder.id.type === AST_NODE_TYPES.Identifier &&
    namesWebhook(holder.id.name) &&
    !managesWebhooks(holder.id.name)
  );
}

/** A chain that starts at a binding imported from firebase-functions (`functions.region('eu').firestore.document(p)`). */
function fromFirebase(receiver: TSESTree.Node, context: AnyRuleContext): boolean {
  const node = chainRoot(receiver);
  if (node.type !== AST_NODE_TYPES.Identifier) return false;
  const source = importSource(node, context.sourceCode.getScope(node));
  return !!source && (MODULES.includes(source.module) || source.module === 'firebase-functions/v2/https');
}
