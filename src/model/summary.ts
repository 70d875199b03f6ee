/**
 * What another module's function (or value) does, as a file that uses it sees it: the one channel
 * for facts one file cannot show. `idempotency-check` computes a summary for each name a file
 * imports (and for the file's own functions that other modules use in a way that matters here)
 * from the whole program and hands the file `settings.idempotency.summaries`; the lists users
 * write in `settings.idempotency` (`pools`, `keyParameters`, …) fold into the same summaries, so
 * every rule reads one shape whichever face runs it.
 *
 * `summaries[from][name]`: `from` is the module specifier as the using file writes it (`'./db'`),
 * or, for the file's own functions, a sibling module's name (`'./notify'`, matched by file name);
 * `name` is the exported name, `Class.method` for a method of an exported class.
 */
export interface Summary {
  /** A connection pool (pg `Pool`, mysql2 / mariadb pools). */
  pool?: true;
  /** Its result is a fresh per-attempt value (a UUID, a timestamp, randomness). */
  perAttempt?: true;
  /** It supplies headers carrying an idempotency key. */
  keyHeaderSource?: true;
  /** A constant whose value is an idempotency header name (`IDEMPOTENCY_HEADER = 'Idempotency-Key'`). */
  keyHeaderName?: true;
  /** The parameters it writes as the key of the request it sends (`mutate(url, body, key)`). */
  keyParameters?: { index: number; parameter: string; property?: string }[];
  /** Own: a never-stable helper whose result another module writes as an idempotency key. */
  writtenAsKey?: true;
  /** Own: key parameters that every caller elsewhere fills with a key minted for the call. */
  freshKeyArguments?: { index: number; property?: string }[];
  /** An HTTP client instance with a default timeout (an axios instance with `timeout`, ky). */
  boundedClient?: true;
  /** An axios instance created without a timeout. */
  timeoutlessClient?: true;
  /** A function that returns such an instance (a `createApiClient()` helper). */
  timeoutlessClientFactory?: true;
  /** Own: registered as a consumer handler in another module. */
  consumerHandler?: true;
  /** Own: a delivery in another module waits for it (its delivery path). */
  deliveryFunction?: true;
  /**
   * Own: the fields of the object literals the deliveries' calls hand parameter `index`, each
   * call's fields together (a parameter no entry names is handed something else, or unknown).
   */
  deliveredFields?: { index: number; field: string }[];
  /** It takes the database handle as a parameter and falls back to the pool without one. */
  defaultHandle?: true;
  /** It opens a Mongoose session transaction around a callback it calls without the session. */
  sessionlessTransaction?: true;
  /** It forwards parameter `index` as the options of a Sequelize write. */
  forwardsOptions?: { index: number; parameter: string }[];
  /** It runs callback parameter `index` inside a transaction of `library`, handing it the handle. */
  transactionWrapper?: { index: number; library: string }[];
  /** It writes through a fork of its own MikroORM entity manager. */
  ownHandle?: true;
  /** It returns a promise: dropping one leaves its work running. */
  async?: true;
  /** Calling it acknowledges a delivery. */
  acks?: true;
  /**
   * It checks a delivery's sender (a signature, an HMAC) before the code it guards runs: a route
   * that calls it, or that it wraps (`export const POST = withCron(handler)`), receives deliveries.
   */
  verifiesSender?: true;
  /**
   * A decorator of the project that stands for a library's handler decorator (`export const
   * ZeebeWorker = (type) => MessagePattern(type)`): a method it decorates runs per delivery.
   */
  handlerDecorator?: true;
}

/** `from` names this file when its last path segment, without extension, is the file's basename. */
export function sameModule(from: string, filename: string): boolean {
  const strip = (path: string): string => (path.split(/[\\/]/).pop() ?? path).replace(/\.[cm]?[jt]sx?$/, '');
  const base = strip(filename);
  return (
    strip(from) === base ||
    (base === 'index' && strip(filename.replace(/[\\/]index\.[cm]?[jt]sx?$/, '')) === strip(from))
  );
}

export type SummaryField = keyof Summary;
export type Summaries = Record<string, Record<string, Summary>>;

/** The fields that hold a list of parameter facts, each with the keys an entry has besides `index`. */
const PARAMETER_FIELDS: Partial<Record<SummaryField, { required: string[]; optional: string[] }>> = {
  keyParameters: { required: ['parameter'], optional: ['property'] },
  forwardsOptions: { required: ['parameter'], optional: [] },
  transactionWrapper: { required: ['library'], optional: [] },
  freshKeyArguments: { required: [], optional: ['property'] },
  deliveredFields: { required: ['field'], optional: [] },
};

/** Every field a summary may hold. */
export const SUMMARY_FIELDS: readonly SummaryField[] = [
  'pool',
  'perAttempt',
  'keyHeaderSource',
  'keyHeaderName',
  'keyParameters',
  'writtenAsKey',
  'freshKeyArguments',
  'boundedClient',
  'timeoutlessClient',
  'timeoutlessClientFactory',
  'consumerHandler',
  'deliveryFunction',
  'deliveredFields',
  'defaultHandle',
  'sessionlessTransaction',
  'forwardsOptions',
  'transactionWrapper',
  'ownHandle',
  'async',
  'acks',
  'verifiesSender',
  'handlerDecorator',
];

/** The user's list keys (`settings.idempotency.pools`, …) and the summary field each entry sets. */
export const LIST_FIELDS = {
  pools: 'pool',
  perAttemptFunctions: 'perAttempt',
  keyHeaderSources: 'keyHeaderSource',
  keyHeaderNames: 'keyHeaderName',
  keyParameters: 'keyParameters',
  keyFunctions: 'writtenAsKey',
  freshKeyArguments: 'freshKeyArguments',
  boundedClients: 'boundedClient',
  timeoutlessClients: 'timeoutlessClient',
  timeoutlessClientFactories: 'timeoutlessClientFactory',
  consumerHandlers: 'consumerHandler',
  deliveryFunctions: 'deliveryFunction',
  defaultHandleFunctions: 'defaultHandle',
  sessionlessTransactions: 'sessionlessTransaction',
  optionForwardingFunctions: 'forwardsOptions',
  transactionWrappers: 'transactionWrapper',
  ownHandleFunctions: 'ownHandle',
  asyncFunctions: 'async',
  ackFunctions: 'acks',
  senderChecks: 'verifiesSender',
  handlerDecorators: 'handlerDecorator',
} as const satisfies Record<string, SummaryField>;

/** A parameter fact as a list entry or a summary holds it: `index` and the field's own keys. */
type ParameterFact = { index: number } & Record<string, unknown>;

/**
 * Adds `fact` to the summary of `from`/`name` in `summaries`: `true` for a flag field, an entry
 * (`{ index, … }`) for a parameter field, kept once. Returns whether anything was added.
 */
export function addFact(
  summaries: Summaries,
  from: string,
  name: string,
  field: SummaryField,
  fact: true | ParameterFact = true,
): boolean {
  // Names are the program's own (`toString`, `constructor`): own properties only.
  if (from === '__proto__' || name === '__proto__') return false;
  const module = (Object.hasOwn(summaries, from) && summaries[from]) || (summaries[from] = {});
  const summary = (Object.hasOwn(module, name) && module[name]) || (module[name] = {});
  if (fact === true) {
    if (summary[field] === true) return false;
    (summary as Record<string, unknown>)[field] = true;
    return true;
  }
  const list = ((summary as Record<string, unknown>)[field] ??= []) as ParameterFact[];
  const same = (known: ParameterFact): boolean =>
    Object.keys(fact).length === Object.keys(known).length &&
    Object.entries(fact).every(([key, value]) => known[key] === value);
  if (list.some(same)) return false;
  list.push(fact);
  return true;
}

/** Every fact of `summaries`, one at a time. */
function* factsOf(
  summaries: Summaries | undefined,
): Generator<[from: string, name: string, field: SummaryField, fact: true | ParameterFact]> {
  for (const [from, names] of Object.entries(summaries ?? {}))
    for (const [name, summary] of Object.entries(names))
      for (const [field, value] of Object.entries(summary) as [SummaryField, unknown][]) {
        if (value === true) yield [from, name, field, true];
        else for (const fact of value as ParameterFact[]) yield [from, name, field, fact];
      }
}

/** The summaries of `a` and `b` together (neither is changed). */
export function mergeSummaries(a: Summaries | undefined, b: Summaries | undefined): Summaries {
  const merged: Summaries = {};
  for (const source of [a, b])
    for (const [from, name, field, fact] of factsOf(source))
      addFact(merged, from, name, field, fact === true ? fact : { ...fact });
  return merged;
}

/** `summaries` without `fields` (and without the summaries left with no fact). */
export function withoutFacts(summaries: Summaries, fields: readonly SummaryField[]): Summaries {
  const kept: Summaries = {};
  for (const [from, name, field, fact] of factsOf(summaries))
    if (!fields.includes(field)) addFact(kept, from, name, field, fact);
  return kept;
}

/** The summaries the user's lists describe: `{ pools: [{ from, name }] }` as `{ [from]: { [name]: { pool: true } } }`. */
export function summariesOfLists(settings: Record<string, unknown>): Summaries {
  const summaries: Summaries = {};
  for (const [key, field] of Object.entries(LIST_FIELDS) as [string, SummaryField][]) {
    const list = settings[key] as ({ from: string; name: string } & Record<string, unknown>)[] | undefined;
    for (const { from, name, ...rest } of list ?? [])
      addFact(summaries, from, name, field, PARAMETER_FIELDS[field] ? (rest as ParameterFact) : true);
  }
  return summaries;
}

const show = (value: unknown): string =>
  value === undefined || typeof value === 'function' ? String(value) : JSON.stringify(value);
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** What is wrong with a `summaries` value, naming the bad entry, or undefined when it is well formed. */
export function summariesProblem(value: unknown, libraries: readonly string[]): string | undefined {
  if (!isRecord(value)) return `"summaries" must be an object of module → name → summary, got ${show(value)}`;
  for (const [from, names] of Object.entries(value)) {
    if (!isRecord(names)) return `"summaries.${from}" must be an object of name → summary, got ${show(names)}`;
    for (const [name, summary] of Object.entries(names)) {
      const at = `"summaries.${from}.${name}"`;
      if (!isRecord(summary)) return `${at} must be an object of facts, got ${show(summary)}`;
      for (const [field, fact] of Object.entries(summary)) {
        if (!(SUMMARY_FIELDS as readonly string[]).includes(field))
          return `${at}: unknown fact "${field}"; expected one of ${SUMMARY_FIELDS.join(', ')}`;
        const shape = PARAMETER_FIELDS[field as SummaryField];
        if (!shape) {
          if (fact !== true) return `${at}.${field} must be true, got ${show(fact)}`;
          continue;
        }
        const keys = ['index', ...shape.required, ...shape.optional];
        const wellFormed = (entry: unknown): boolean =>
          isRecord(entry) &&
          Number.isInteger(entry.index) &&
          (entry.index as number) >= 0 &&
          shape.required.every((key) => typeof entry[key] === 'string') &&
          shape.optional.every((key) => entry[key] === undefined || typeof entry[key] === 'string') &&
          Object.keys(entry).every((key) => keys.includes(key)) &&
          (field !== 'transactionWrapper' || libraries.includes(entry.library as string));
        if (!Array.isArray(fact) || !fact.every(wellFormed))
          return `${at}.${field} must be a list of { ${keys.map((key) => `"${key}"`).join(', ')} }, got ${show(fact)}`;
      }
    }
  }
  return undefined;
}
