import type { DeliveryLibrary } from './library.js';

/**
 * sqs-consumer: `Consumer.create({ queueUrl, handleMessage, handleMessageBatch })` (or `new
 * Consumer(…)`) polls the queue and deletes a message only after its handler resolves; a message
 * not deleted comes back after its visibility timeout (https://github.com/bbc/sqs-consumer#usage).
 */
export const sqsConsumer: DeliveryLibrary<'sqs-consumer'> = {
  broker: 'sqs-consumer',
  modules: ['sqs-consumer'],
  registrations: [
    {
      call: { new: ['Consumer'] },
      handler: { argument: 0, property: ['handleMessage', 'handleMessageBatch'] },
      queue: [{ argument: 0, property: 'queueUrl' }],
    },
    {
      call: { method: ['create'], on: ['Consumer'] },
      handler: { argument: 0, property: ['handleMessage', 'handleMessageBatch'] },
      queue: [{ argument: 0, property: 'queueUrl' }],
    },
  ],
};
