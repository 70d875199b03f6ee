import type { DeliveryLibrary } from './library.js';

/**
 * DEFRA's `ffc-messaging`, the Azure Service Bus client its services share: `new
 * MessageReceiver(config, action)` subscribes `action` as the receiver's message handler once
 * `subscribe()` is called, with `autoCompleteMessages` off unless the config turns it on, so a
 * message the action does not complete is delivered again when its lock expires
 * (github.com/DEFRA/ffc-messaging, `app/messaging/message-receiver.js`: `receiverHandler` awaits
 * `this.action(message)` under `receiver.subscribe({ processMessage })`).
 */
export const ffcMessaging: DeliveryLibrary<'ffc-messaging'> = {
  broker: 'ffc-messaging',
  modules: ['ffc-messaging'],
  registrations: [{ call: { new: ['MessageReceiver'] }, handler: { argument: 1 } }],
};
