import type { DeliveryLibrary } from './library.js';

/**
 * Agenda: `agenda.define(name, [options,] handler)` (agenda 5, https://github.com/agenda/agenda#defining-job-processors),
 * and `@hokify/agenda`'s `define(name, processor, options?)`, options last (its `Agenda.define`
 * declaration, https://app.unpkg.com/@hokify/agenda@6.3.0/files/dist/index.d.ts). A job locked
 * by a process that dies is run again once its `lockLifetime` passes.
 */
export const agenda: DeliveryLibrary<'agenda'> = {
  broker: 'agenda',
  modules: ['agenda', '@hokify/agenda'],
  registrations: [
    {
      call: { method: ['define'] },
      receiver: { imports: true, name: /agenda/i },
      arguments: { min: 2 },
      handler: { argument: 'last' },
      queue: [{ argument: 0 }],
    },
    {
      call: { method: ['define'] },
      receiver: { imports: true, name: /agenda/i },
      arguments: { min: 3, max: 3 },
      handler: { argument: 1 },
      queue: [{ argument: 0 }],
    },
  ],
};
