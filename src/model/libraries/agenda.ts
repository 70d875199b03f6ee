import type { DeliveryLibrary } from './library.js';

/**
 * Agenda: `agenda.define(name, [options,] handler)`; a job locked by a process that dies is run
 * again once its `lockLifetime` passes (https://github.com/agenda/agenda#defining-job-processors).
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
  ],
};
