import { REGISTRY_NAME } from './registries.js';

/**
 * Whether a file's text can register a function another file exports, which makes it a handler
 * there: BullMQ's `new Worker(queue, fn)` and sqs-consumer's `handleMessage` with an imported
 * `fn` (`findImportedRegistrations` in effects.ts), a job registry dispatched by key
 * (registries.ts), and a Temporal workflow or worker naming its activity modules (temporal.ts).
 * Each needs its module's name or a registry's name in the text; false means none can.
 */

const REGISTERING_MODULES = /['"`](?:bullmq|sqs-consumer|@temporalio\/(?:workflow|worker))['"`]/;

/** REGISTRY_NAME as a whole word anywhere in the text. */
const REGISTRY_WORD = new RegExp(REGISTRY_NAME.source.replace(/^\^/, '\\b').replace(/\$$/, '\\b'), REGISTRY_NAME.flags);

export function mayRegister(text: string): boolean {
  return REGISTERING_MODULES.test(text) || REGISTRY_WORD.test(text);
}
