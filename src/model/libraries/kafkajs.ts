import type { DeliveryLibrary } from './library.js';

/**
 * kafkajs: `consumer.run({ eachMessage, eachBatch })`; offsets are committed after the handler
 * returns, so a crash or a rebalance before the commit hands the message to a consumer again
 * (https://kafka.js.org/docs/consuming). The options' property names say it: no import is needed.
 */
export const kafkajs: DeliveryLibrary<'kafkajs'> = {
  broker: 'kafkajs',
  modules: ['kafkajs'],
  registrations: [{ call: { method: ['run'] }, handler: { argument: 0, property: ['eachMessage', 'eachBatch'] } }],
};
