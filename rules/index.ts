import noAckBeforeWork from './no-ack-before-work.js';
import noFloatingHandlerWork from './no-floating-handler-work.js';
import noKeyOnRead from './no-key-on-read.js';
import noPerAttemptBody from './no-per-attempt-body.js';
import noPerAttemptKey from './no-per-attempt-key.js';
import noPoolQueryInTransaction from './no-pool-query-in-transaction.js';
import noPoolTransaction from './no-pool-transaction.js';
import noShortLockDuration from './no-short-lock-duration.js';
import noShortVisibilityTimeout from './no-short-visibility-timeout.js';
import noUnboundedDedupeCache from './no-unbounded-dedupe-cache.js';
import requireAtomicClaim from './require-atomic-claim.js';
import requireClaimCheck from './require-claim-check.js';
import requireClientRelease from './require-client-release.js';
import requireIdempotencyKey from './require-idempotency-key.js';
import requireRequestTimeout from './require-request-timeout.js';
import requireRollback from './require-rollback.js';

/** Every rule of the plugin, by name, sorted. */
export const rules = {
  'no-ack-before-work': noAckBeforeWork,
  'no-floating-handler-work': noFloatingHandlerWork,
  'no-key-on-read': noKeyOnRead,
  'no-per-attempt-body': noPerAttemptBody,
  'no-per-attempt-key': noPerAttemptKey,
  'no-pool-query-in-transaction': noPoolQueryInTransaction,
  'no-pool-transaction': noPoolTransaction,
  'no-short-lock-duration': noShortLockDuration,
  'no-short-visibility-timeout': noShortVisibilityTimeout,
  'no-unbounded-dedupe-cache': noUnboundedDedupeCache,
  'require-atomic-claim': requireAtomicClaim,
  'require-claim-check': requireClaimCheck,
  'require-client-release': requireClientRelease,
  'require-idempotency-key': requireIdempotencyKey,
  'require-request-timeout': requireRequestTimeout,
  'require-rollback': requireRollback,
};
