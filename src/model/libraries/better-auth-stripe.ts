import type { DeliveryLibrary } from './library.js';

/**
 * Better Auth's Stripe plugin (`@better-auth/stripe`): `stripe({ stripeWebhookSecret, onEvent,
 * subscription: { onSubscriptionComplete, … } })` serves the Stripe webhook endpoint itself
 * (`/api/auth/stripe/webhook`, its signature checked with `stripeWebhookSecret`) and calls these
 * options from it, once per event Stripe delivers: `onEvent` for every event, and the subscription
 * callbacks for the checkout and subscription events that change a subscription. Stripe retries
 * a delivery that gets no 2xx, so each runs again for the same event
 * (https://www.better-auth.com/docs/plugins/stripe; `StripeOptions` and `SubscriptionOptions` in
 * packages/stripe/src/types.ts of better-auth/better-auth). Options that run on a user's request
 * (`authorizeReference`, `getCheckoutSessionParams`, `onCustomerCreate` at sign-up) are not
 * deliveries.
 */
export const betterAuthStripe: DeliveryLibrary<'webhook'> = {
  broker: 'webhook',
  modules: ['@better-auth/stripe'],
  registrations: [
    {
      call: { function: ['stripe'] },
      handler: {
        argument: 0,
        property: [
          'onEvent',
          'subscription.onSubscriptionComplete',
          'subscription.onSubscriptionCreated',
          'subscription.onSubscriptionUpdate',
          'subscription.onSubscriptionCancel',
          'subscription.onSubscriptionDeleted',
        ],
      },
    },
  ],
};
