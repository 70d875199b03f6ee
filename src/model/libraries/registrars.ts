import { DELIVERY_LIBRARIES, type LibraryBroker } from './index.js';
import type { DeliveryLibrary } from './library.js';

/**
 * Library constructors that register one of their arguments as the handler of a queue: where the
 * program's registrars end (handler/hand-offs.ts). A project's own functions that hand a
 * parameter on to one of these, directly or through each other, register it too. Read off the
 * libraries' rows (`new Worker(name, processor)`: a `new` whose handler is a plain argument).
 */
export interface LibraryRegistrar {
  module: string;
  /** The export: a class whose `member` (`constructor` for `new`) registers. */
  imported: string;
  member?: string;
  /** The argument that is the handler, and the one that names the queue. */
  index: number;
  queueIndex?: number;
  broker: LibraryBroker;
}

export const LIBRARY_REGISTRARS: readonly LibraryRegistrar[] = DELIVERY_LIBRARIES.flatMap(
  (library: DeliveryLibrary<LibraryBroker>) =>
    library.registrations.flatMap(({ call, handler, queue }) => {
      if (!('new' in call) || handler.property || handler.argument === 'last') return [];
      const place = queue?.[0];
      const queueIndex = place && 'argument' in place && !place.property ? place.argument : undefined;
      const index = handler.argument;
      return library.modules.flatMap((module) =>
        call.new.map((imported) => ({
          module,
          imported,
          member: 'constructor',
          index,
          ...(queueIndex === undefined ? {} : { queueIndex }),
          broker: library.broker,
        })),
      );
    }),
);
