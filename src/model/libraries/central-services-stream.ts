import type { DeliveryLibrary } from './library.js';

/**
 * Mojaloop's Kafka wrapper, `@mojaloop/central-services-stream`:
 * `Consumer.createHandler(topicName, config, command)` (its `Util.Consumer`) connects a
 * node-rdkafka consumer to the topics and runs `command(error, messages)` for what it consumes;
 * messages are committed by the handler or by auto-commit after delivery, so a crash or a
 * rebalance before the commit hands them to a consumer again (`src/util/consumer.js`,
 * https://github.com/mojaloop/central-services-stream).
 */
export const centralServicesStream: DeliveryLibrary<'kafka'> = {
  broker: 'kafka',
  modules: ['@mojaloop/central-services-stream'],
  registrations: [
    {
      call: { method: ['createHandler'] },
      receiver: { imports: true },
      arguments: { min: 3, max: 3 },
      handler: { argument: 2 },
      queue: [{ argument: 0 }],
    },
  ],
};
