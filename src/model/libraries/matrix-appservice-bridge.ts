import type { DeliveryLibrary } from './library.js';

/**
 * matrix-appservice-bridge, the Matrix application-service framework: `new Bridge({ controller: {
 * onEvent, onEphemeralEvent } })` calls `onEvent` for each room event and `onEphemeralEvent` for
 * each typing, receipt or presence event in the transactions the homeserver PUTs to the
 * application service (https://matrix-org.github.io/matrix-appservice-bridge/, `BridgeController`
 * in src/bridge.ts of matrix-org/matrix-appservice-bridge). The homeserver sends a transaction
 * again until the service answers it (the Application Service API's
 * `PUT /_matrix/app/v1/transactions/{txnId}`: "the homeserver should retry", spec.matrix.org),
 * so each runs again for the same events when the first answer did not arrive. The service answers
 * before its callbacks settle: matrix-appservice's `onTransaction` emits each event to its
 * listeners without waiting for them, and the bridge's `onConsume` drops what `onEvent` returns
 * (matrix-org/matrix-appservice-node `src/app-service.ts`, matrix-appservice-bridge
 * `src/bridge.ts`), so nothing a callback leaves floating is lost that awaiting it would keep
 * (handler/ack.ts `ackedOnSettle`).
 */
export const matrixAppserviceBridge: DeliveryLibrary<'matrix-appservice'> = {
  broker: 'matrix-appservice',
  modules: ['matrix-appservice-bridge'],
  registrations: [
    {
      call: { new: ['Bridge'] },
      handler: { argument: 0, property: ['controller.onEvent', 'controller.onEphemeralEvent'] },
    },
  ],
};
