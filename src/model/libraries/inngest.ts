import type { DeliveryLibrary } from './library.js';

/**
 * Inngest: `inngest.createFunction(config, trigger, handler)`; a function that throws is retried
 * (https://www.inngest.com/docs/reference/functions/create,
 * https://www.inngest.com/docs/features/inngest-functions/error-retries/retries).
 */
export const inngest: DeliveryLibrary<'inngest'> = {
  broker: 'inngest',
  modules: ['inngest'],
  registrations: [
    {
      call: { method: ['createFunction'] },
      receiver: { imports: true, name: /inngest/i },
      arguments: { min: 3, max: 3 },
      handler: { argument: 2 },
      queue: [
        { argument: 1, property: 'event' },
        { argument: 0, property: 'id' },
      ],
    },
  ],
};
