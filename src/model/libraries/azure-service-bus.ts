import type { DeliveryLibrary } from './library.js';

/**
 * Azure Service Bus: `receiver.subscribe({ processMessage, processError })`; in peek-lock mode a
 * message whose handler throws is abandoned and delivered again
 * (https://learn.microsoft.com/javascript/api/@azure/service-bus/servicebusreceiver#@azure-service-bus-servicebusreceiver-subscribe).
 */
export const azureServiceBus: DeliveryLibrary<'azure-service-bus'> = {
  broker: 'azure-service-bus',
  modules: ['@azure/service-bus'],
  registrations: [
    {
      call: { method: ['subscribe'] },
      receiver: { imports: true },
      handler: { argument: 0, property: ['processMessage'] },
    },
  ],
};
