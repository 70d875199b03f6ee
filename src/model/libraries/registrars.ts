/**
 * Library constructors and functions that register one of their arguments as the handler of a
 * queue: where the program's registrars end (handler/hand-offs.ts). A project's own functions that
 * hand a parameter on to one of these, directly or through each other, register it too.
 */
export interface LibraryRegistrar {
  module: string;
  /** The export: a function, or a class whose `member` (`constructor` for `new`) registers. */
  imported: string;
  member?: string;
  /** The argument that is the handler, and the one that names the queue. */
  index: number;
  queueIndex?: number;
  broker: 'bullmq';
}

export const LIBRARY_REGISTRARS: readonly LibraryRegistrar[] = [
  // `new Worker(name, processor, opts)`: https://docs.bullmq.io/guide/workers
  { module: 'bullmq', imported: 'Worker', member: 'constructor', index: 1, queueIndex: 0, broker: 'bullmq' },
  // BullMQ Pro's `WorkerPro` takes the same arguments: https://docs.bullmq.io/bullmq-pro/introduction
  {
    module: '@taskforcesh/bullmq-pro',
    imported: 'WorkerPro',
    member: 'constructor',
    index: 1,
    queueIndex: 0,
    broker: 'bullmq',
  },
];
