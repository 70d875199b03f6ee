/**
 * Providers' deduplication keys that carry a plain name (`identifier`, `reference`): a field that is
 * a key only in the provider's own payload, known by what the payload spells beside it. One row per
 * payload, as data; what the provider does with a repeated value is checked in its documentation,
 * cited on the row. Each of these providers refuses or ignores a repeated value whatever the rest of
 * the payload says: a key sent fresh on each attempt is the mistake (`no-per-attempt-key`), but none
 * compares a body under the key, so none is a key for `no-per-attempt-body`.
 */
export interface KeyField {
  /** The provider, for the docs and tests. */
  provider: string;
  /** The field that carries the key. */
  field: string;
  /** Fields the same object spells beside it, all of them. */
  beside?: readonly string[];
  /** A field of the same object with this literal value (Paystack's `source: 'balance'`). */
  literal?: { field: string; value: string };
  /** The property the object is the value of, or an element of the array that is (PayPal's `sender_batch_header`). */
  under?: readonly string[];
  /** A name of the call the object is handed to (`paystack.transfer.create(…)`, a project's `initiateTransfer(…)`). */
  handedTo?: RegExp;
}

export const KEY_FIELDS: readonly KeyField[] = [
  // https://docs.stripe.com/api/billing/meter-event/create: an event's `identifier`, "We will enforce
  // uniqueness within a rolling period of at least 24 hours. The enforcement of uniqueness primarily
  // addresses issues arising from accidental retries"; an event spells the `event_name` and `payload`
  // it requires.
  { provider: 'Stripe meter events', field: 'identifier', beside: ['event_name', 'payload'] },
  // https://developers.klaviyo.com/en/reference/create_event: "If the unique_id is repeated for the
  // same profile and metric, only the first processed event will be recorded"; the attributes spell
  // the `metric` and `profile` they require.
  { provider: 'Klaviyo events', field: 'unique_id', beside: ['metric', 'profile'] },
  // https://developer.paypal.com/api/payments.payouts-batch/v1/definitions/sender_batch_header:
  // "PayPal does not process duplicate payouts. If you specify a sender_batch_id that was used in
  // the last 30 days, the API rejects the request [...] If you receive an HTTP 5nn status code, you
  // can safely retry the request with the same sender_batch_id." The REST body's snake case, and the
  // camel case of PayPal's server SDK (`senderBatchHeader: { senderBatchId }`).
  { provider: 'PayPal Payouts', field: 'sender_batch_id', under: ['sender_batch_header'] },
  { provider: 'PayPal Payouts', field: 'senderBatchId', under: ['senderBatchHeader'] },
  // https://paystack.com/docs/transfers/single-transfers (Generate a transfer reference): "Transfer
  // references allow you to prevent double crediting as you can retry a non-conclusive transfer
  // rather than initiate a new request." A transfer draws on `source: 'balance'` and names its
  // `recipient`; a bulk transfer's items (`transfers: [{ amount, recipient, reference }]`) likewise,
  // and the `{ amount, recipient, reference }` an SDK or a project's client takes to make a transfer
  // (`paystack.transfer.create`, `initiateTransfer`), which adds the source itself.
  {
    provider: 'Paystack transfers',
    field: 'reference',
    beside: ['recipient'],
    literal: { field: 'source', value: 'balance' },
  },
  { provider: 'Paystack transfers', field: 'reference', beside: ['amount', 'recipient'], under: ['transfers'] },
  { provider: 'Paystack transfers', field: 'reference', beside: ['amount', 'recipient'], handedTo: /transfer/i },
  // https://paystack.com/docs/api/transaction/#charge-authorization: a charge of a saved card's
  // `authorization_code` takes a `reference`, "Unique transaction reference", and Paystack refuses a
  // reference it has seen with "Duplicate Transaction Reference" (drupal.org/node/3539432, where one
  // reference per order blocked every later attempt). A charge names the `authorization_code`,
  // `email` and `amount` it requires.
  {
    provider: 'Paystack charges',
    field: 'reference',
    beside: ['authorization_code', 'email', 'amount'],
  },
  // https://docs.wise.com/api-reference/transfer/transfercreate (Avoiding duplicate transfers): "The
  // customerTransactionId field is used to avoid duplicate transfer requests. If your initial call
  // to create a transfer fails (error or timeout), retry the call using the same
  // customerTransactionId value." A transfer names the `targetAccount` it pays.
  { provider: 'Wise transfers', field: 'customerTransactionId', beside: ['targetAccount'] },
];

/**
 * Providers' deduplication keys sent as a header with a plain name: a key only beside the headers
 * that provider's requests always carry (names compared without case, as HTTP does). Like the key
 * fields above, a repeated value is refused whatever the body says, so none is a key for
 * `no-per-attempt-body`.
 */
export interface KeyHeader {
  provider: string;
  header: string;
  /** Headers the same object spells beside it, all of them. */
  beside: readonly string[];
}

export const KEY_HEADERS: readonly KeyHeader[] = [
  // MTN MoMo (momodeveloper.mtn.com, "Common Error Codes"): "409 RESOURCE_ALREADY_EXIST. Duplicated
  // Reference ID. Every request must have a unique reference ID; using an ID of the previous
  // request will result in this error response." A request to pay, a transfer or a refund names the
  // `X-Target-Environment` it runs in; the sandbox's one-off `apiuser` provisioning does not.
  { provider: 'MTN MoMo', header: 'x-reference-id', beside: ['x-target-environment'] },
];

/** Text a file spells when it may hold one of these payloads, for the rules' cheap file test. */
export const KEY_FIELD_TEXT =
  /sender_?batch_?id|unique_id|event_name|x-reference-id|customerTransactionId|\b(?:recipient|authorization_code)\b[^]{0,400}?\breference\b|\breference\b[^]{0,400}?\b(?:recipient|authorization_code)\b/i;
