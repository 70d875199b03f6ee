import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { importSource } from './modules.js';
import { injectedCallee } from './class-members.js';
import { memberName } from './ast/names.js';
import { unwrap } from './ast/nodes.js';
import { ORM_LIBRARIES } from './orm/libraries.js';
import { type AnyRuleContext } from './ast/context.js';
import {
  LIST_FIELDS,
  type Summaries,
  type Summary,
  type SummaryField,
  mergeSummaries,
  sameModule,
  summariesOfLists,
  summariesProblem,
} from './summary.js';

/**
 * Facts about other modules that one file cannot show. Users may write them in ESLint's
 * shared `settings.idempotency`; `idempotency-check` computes them per file from the whole
 * program and passes them in the same shape, so both faces run the same rules.
 *
 * `from` is the module specifier exactly as the importing file writes it (`'./db'`, `'pg'`);
 * `name` is the imported name (`'default'` for a default import).
 */
/** The plugin's namespace: rule ids are `idempotency/<rule>`, shared settings `settings.idempotency`. */
export const NAMESPACE = 'idempotency';

export interface ImportedName {
  from: string;
  name: string;
}

/** A parameter of an imported function that the function writes as an idempotency key when it sends. */
export interface KeyParameter extends ImportedName {
  /** The parameter's position, from 0. */
  index: number;
  /** Its name in the defining module, for messages. */
  parameter: string;
}

/** The libraries `implicitTransactions` may name (orm/implicit-transactions.ts says what each switch covers). */
const IMPLICIT_TRANSACTION_LIBRARIES = ['sequelize', 'mongoose'] as const;
export type ImplicitTransactionLibrary = (typeof IMPLICIT_TRANSACTION_LIBRARIES)[number];
/**
 * A parameter (or a property of a destructured parameter) of a function of this module that every
 * caller in other modules fills with a key minted for the call.
 */
export interface FreshKeyArgument extends ImportedName {
  /** The parameter's position, from 0. */
  index: number;
  /** The property of a destructured parameter (`{ code }`), when the key is one. */
  property?: string;
}

/**
 * An imported function (or `Class.method`) that runs its callback parameter `index` inside a
 * transaction of `library` (an ORM of orm/libraries.ts), handing it the transaction's handle.
 */
export interface TransactionWrapper extends ImportedName {
  index: number;
  library: string;
}

export interface IdempotencySettings {
  /** Imported bindings that are connection pools (pg `Pool`, mysql2 / mariadb pools). */
  pools?: ImportedName[];
  /** Imported functions whose result is a fresh per-attempt value (a UUID, a timestamp, randomness). */
  perAttemptFunctions?: ImportedName[];
  /** Imported functions or objects that supply headers carrying an idempotency key. */
  keyHeaderSources?: ImportedName[];
  /** Imported constants whose value is an idempotency header name (`IDEMPOTENCY_HEADER = 'Idempotency-Key'`). */
  keyHeaderNames?: ImportedName[];
  /** Parameters of imported functions that become the key of the request they send (`mutate(url, body, key)`). */
  keyParameters?: KeyParameter[];
  /** Functions of this module whose result another module writes as an idempotency key. */
  keyFunctions?: ImportedName[];
  /** Key parameters of functions of this module that every caller elsewhere fills with a fresh key. */
  freshKeyArguments?: FreshKeyArgument[];
  /** Imported HTTP client instances that carry a default timeout (an axios instance with `timeout`, ky). */
  boundedClients?: ImportedName[];
  /** Imported axios instances created without a timeout: a request through them is bounded only by its own options. */
  timeoutlessClients?: ImportedName[];
  /** Imported functions that return such an instance (a `createApiClient()` helper). */
  timeoutlessClientFactories?: ImportedName[];
  /** Imported functions that are registered as consumer handlers in another module. */
  consumerHandlers?: ImportedName[];
  /** Functions of this module that a delivery in another module waits for (its delivery path). */
  deliveryFunctions?: ImportedName[];
  /**
   * Imported functions that take the database handle to query with as a parameter and fall
   * back to the pool without one (`insertTaxonomy(surveyId, taxonomy, client = db)`).
   */
  defaultHandleFunctions?: ImportedName[];
  /**
   * Imported functions (or `Class.method` of an imported class) that open a Mongoose session
   * transaction around a callback they call without the session (orm/sessionless-wrapper.ts).
   */
  sessionlessTransactions?: ImportedName[];
  /**
   * Imported functions (or `Class.method` of an imported class) that forward their parameter
   * `index` as the options of a Sequelize write (`create(dto, opts) { return Model.create(dto,
   * opts); }`; orm/sequelize-options.ts): a call inside a transaction without it writes outside.
   */
  optionForwardingFunctions?: KeyParameter[];
  /**
   * Libraries whose managed transactions the project hands to every query inside them, switched
   * on in another module (`Sequelize.useCLS(ns)`, Mongoose `transactionAsyncLocalStorage`;
   * orm/implicit-transactions.ts).
   */
  implicitTransactions?: ImplicitTransactionLibrary[];
  /**
   * Imported functions (or `Class.method`) that run a callback inside an ORM transaction,
   * handing it the transaction's handle (`run(fn) { return this.dataSource.transaction(fn); }`;
   * orm/transaction-wrapper.ts).
   */
  transactionWrappers?: TransactionWrapper[];
  /**
   * Imported functions (or `Class.method` of an injected class) that write through a fork of
   * their own MikroORM entity manager (`const em = this.em.fork()`; orm/own-handle.ts): a fork
   * does not carry the transaction context, so called inside a transaction they write outside.
   */
  ownHandleFunctions?: ImportedName[];
  /** Imported functions that return a promise (declared `async` or annotated `Promise`): dropping one leaves its work running. */
  asyncFunctions?: ImportedName[];
  /** Imported functions that acknowledge a delivery (`channel.ack(msg)` inside): calling one acks. */
  ackFunctions?: ImportedName[];
  /**
   * Imported functions that check a delivery's sender (a signature, an HMAC; handler/webhooks.ts),
   * or wrap a handler behind such a check (`withCron(handler)`): a route that calls or is wrapped
   * by one receives another system's deliveries.
   */
  senderChecks?: ImportedName[];
  /**
   * Imported decorators that stand for a library's handler decorator (`export const ZeebeWorker =
   * (type) => MessagePattern(type)`): a method they decorate runs once per delivery.
   */
  handlerDecorators?: ImportedName[];
  /**
   * The roles of the entries that reach this file through imports (`['browser']` for a helper
   * only client components import), computed by `idempotency-check` for a file whose own path
   * and code do not decide its role (roles.ts `fileRoleDecision`). The rules report here when
   * one of these roles is theirs; `roles` globs still win.
   */
  reachedRoles?: (typeof ROLE_NAMES)[number][];
  /**
   * Local names of this module's exported functions that no module of the program imports, where
   * every loader of the module names what it imports: `unreached` code (roles/unreached.ts),
   * computed by `idempotency-check`.
   */
  unreachedFunctions?: string[];
  /**
   * What other modules' functions do, as this file uses them (summary.ts): what
   * `idempotency-check` computes for each file. The lists above fold into the same summaries.
   */
  summaries?: Summaries;
}

/** What users may write: the lists, and path globs per file role (`{ "test": ["qa/**"] }`), read by `roles.ts`. */
export interface UserSettings extends IdempotencySettings {
  roles?: Partial<Record<(typeof ROLE_NAMES)[number], string[]>>;
}

/** The keys that list imported names, each `[{ "from": "./db", "name": "pool" }]` (summary.ts says what each entry states). */
const LIST_KEYS = Object.keys(LIST_FIELDS) as (keyof typeof LIST_FIELDS)[];
/** The file roles `roles` may name: roles.ts' FILE_ROLES (a test keeps the two equal; roles.ts reads these settings). */
const ROLE_NAMES = ['test', 'browser', 'script', 'server', 'unreached'] as const;
const KEYS: readonly string[] = [
  ...LIST_KEYS,
  'implicitTransactions',
  'roles',
  'reachedRoles',
  'unreachedFunctions',
  'summaries',
];

/** JSON for messages; a value JSON cannot show (undefined, a function) as its string. */
const show = (value: unknown): string =>
  value === undefined || typeof value === 'function' ? String(value) : JSON.stringify(value);

/**
 * What is wrong with a `settings.idempotency` value, naming the bad key, or undefined when it is
 * well formed: a misspelt key would otherwise be ignored, and a wrong shape crash a rule.
 */
export function settingsProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return `expected an object, got ${show(value)}`;
  for (const [key, entry] of Object.entries(value as Record<string, unknown>)) {
    if (!KEYS.includes(key)) return `unknown key "${key}"; expected one of ${KEYS.join(', ')}`;
    if (key === 'roles') {
      if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
        return `"roles" must be an object of role → path globs, got ${show(entry)}`;
      for (const [role, globs] of Object.entries(entry as Record<string, unknown>)) {
        if (!(ROLE_NAMES as readonly string[]).includes(role))
          return `"roles": unknown role "${role}"; expected one of ${ROLE_NAMES.join(', ')}`;
        if (!Array.isArray(globs) || globs.some((glob) => typeof glob !== 'string'))
          return `"roles.${role}" must be a list of path globs, got ${show(globs)}`;
      }
      continue;
    }
    if (key === 'reachedRoles') {
      if (
        !Array.isArray(entry) ||
        entry.length === 0 ||
        entry.some((role) => !(ROLE_NAMES as readonly unknown[]).includes(role))
      )
        return `"reachedRoles" must be a non-empty list of ${ROLE_NAMES.map((name) => `"${name}"`).join(', ')}, got ${show(entry)}`;
      continue;
    }
    if (key === 'unreachedFunctions') {
      if (!Array.isArray(entry) || entry.some((name) => typeof name !== 'string'))
        return `"unreachedFunctions" must be a list of function names, got ${show(entry)}`;
      continue;
    }
    if (key === 'summaries') {
      const problem = summariesProblem(entry, ORM_LIBRARIES);
      if (problem !== undefined) return problem;
      continue;
    }
    if (key === 'implicitTransactions') {
      if (
        !Array.isArray(entry) ||
        entry.some((library) => !(IMPLICIT_TRANSACTION_LIBRARIES as readonly unknown[]).includes(library))
      )
        return `"implicitTransactions" must be a list of ${IMPLICIT_TRANSACTION_LIBRARIES.map((name) => `"${name}"`).join(' or ')}, got ${show(entry)}`;
      continue;
    }
    if (!Array.isArray(entry))
      return `"${key}" must be a list of { "from": module, "name": export }, got ${show(entry)}`;
    for (const [index, item] of entry.entries()) {
      const named = item as Partial<Record<string, unknown>> | null;
      const parameter = key === 'keyParameters' || key === 'optionForwardingFunctions';
      const fresh = key === 'freshKeyArguments';
      const wrapper = key === 'transactionWrappers';
      // A key parameter may name the field of its object that becomes the key (`data.eventId`).
      const byField = key === 'keyParameters';
      const extra = parameter ? 'parameter' : wrapper ? 'library' : undefined;
      const fields =
        extra !== undefined
          ? ['from', 'name', 'index', extra, ...(byField ? ['property'] : [])]
          : fresh
            ? ['from', 'name', 'index', 'property']
            : ['from', 'name'];
      if (
        typeof named !== 'object' ||
        named === null ||
        typeof named.from !== 'string' ||
        typeof named.name !== 'string' ||
        (extra !== undefined &&
          (!Number.isInteger(named.index) || (named.index as number) < 0 || typeof named[extra] !== 'string')) ||
        (wrapper && !ORM_LIBRARIES.includes(named.library as string)) ||
        (byField && named.property !== undefined && typeof named.property !== 'string') ||
        (fresh &&
          (!Number.isInteger(named.index) ||
            (named.index as number) < 0 ||
            (named.property !== undefined && typeof named.property !== 'string'))) ||
        Object.keys(named).some((field) => !fields.includes(field))
      )
        return extra !== undefined
          ? `"${key}[${index}]" must be { "from": module, "name": export, "index": position, "${extra}": ${parameter ? 'name' : ORM_LIBRARIES.join(' | ')}${byField ? ', "property"?: name' : ''} }, got ${show(item)}`
          : fresh
            ? `"${key}[${index}]" must be { "from": module, "name": export, "index": position, "property"?: name }, got ${show(item)}`
            : `"${key}[${index}]" must be { "from": module, "name": export }, got ${show(item)}`;
    }
  }
  return undefined;
}

const checked = new WeakSet<object>();

/** The plugin's shared settings, never undefined; a malformed value throws once, naming the bad key. */
export function settingsOf(context: AnyRuleContext): UserSettings {
  const settings = context.settings as Partial<Record<typeof NAMESPACE, unknown>> | undefined;
  const own = settings?.[NAMESPACE];
  if (own === undefined) return {};
  if (typeof own !== 'object' || own === null || !checked.has(own)) {
    const problem = settingsProblem(own);
    if (problem !== undefined) throw new Error(`eslint-plugin-idempotency: settings.${NAMESPACE}: ${problem}`);
    checked.add(own as object);
  }
  return own as UserSettings;
}

/** What one settings object says about other modules' functions, read once per object. */
interface SummaryIndex {
  summaries: Summaries;
  /** The fields some summary holds. */
  fields: Set<SummaryField>;
  /** The summaries of a file's own functions, by file name. */
  own: Map<string, Record<string, Summary>>;
}

const indexes = new WeakMap<object, SummaryIndex>();
const NO_SUMMARIES: SummaryIndex = { summaries: {}, fields: new Set(), own: new Map() };

/** The summaries the file's settings give: the user's lists folded in with the checker's `summaries`. */
function summaryIndex(context: AnyRuleContext): SummaryIndex {
  const settings = settingsOf(context);
  if (Object.keys(settings).length === 0) return NO_SUMMARIES;
  let index = indexes.get(settings);
  if (index === undefined) {
    const summaries = mergeSummaries(summariesOfLists(settings as Record<string, unknown>), settings.summaries);
    const fields = new Set<SummaryField>();
    for (const names of Object.values(summaries))
      for (const summary of Object.values(names))
        for (const field of Object.keys(summary) as SummaryField[]) fields.add(field);
    index = { summaries, fields, own: new Map() };
    indexes.set(settings, index);
  }
  return index;
}

/** The summary of `name` as imported from `from`, when the settings give one. */
export function summaryAt(context: AnyRuleContext, from: string, name: string): Summary | undefined {
  const { summaries } = summaryIndex(context);
  const names = Object.hasOwn(summaries, from) ? summaries[from] : undefined;
  return names && Object.hasOwn(names, name) ? names[name] : undefined;
}

/** True when the file is given any summary of another module's functions. */
export function hasSummaries(context: AnyRuleContext): boolean {
  return summaryIndex(context).fields.size > 0;
}

/** True when some summary the file is given holds `field` (a cheap guard before looking one up). */
export function hasSummaryFact(context: AnyRuleContext, field: SummaryField): boolean {
  return summaryIndex(context).fields.has(field);
}

/** The summary of the import `identifier` is bound to. */
export function importedSummary(identifier: TSESTree.Identifier, context: AnyRuleContext): Summary | undefined {
  if (summaryIndex(context).fields.size === 0) return undefined;
  const source = importSource(identifier, context.sourceCode.getScope(identifier));
  return source && summaryAt(context, source.module, source.imported);
}

/**
 * The summary of what `callee` calls in another module: an imported function (`f(...)`), a
 * namespace's member (`Repo.f(...)`), or an injected service's method (`this.orders.settle(...)`,
 * summarised as `OrdersService.settle`).
 */
export function calleeSummary(callee: TSESTree.Node, context: AnyRuleContext): Summary | undefined {
  if (summaryIndex(context).fields.size === 0) return undefined;
  const target = unwrap(callee);
  if (target.type === AST_NODE_TYPES.Identifier) return importedSummary(target, context);
  if (target.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const scope = context.sourceCode.getScope(target);
  const injected = injectedCallee(target, scope);
  if (injected) return summaryAt(context, injected.specifier, `${injected.imported}.${injected.member}`);
  const object = unwrap(target.object);
  const method = memberName(target);
  if (object.type !== AST_NODE_TYPES.Identifier || method === undefined) return undefined;
  const source = importSource(object, scope);
  return source && summaryAt(context, source.module, method);
}

/** The summary of `name`, a function of the file being linted, that other modules' use of it gives. */
export function ownSummary(name: string, context: AnyRuleContext): Summary | undefined {
  const index = summaryIndex(context);
  if (index.fields.size === 0) return undefined;
  let own = index.own.get(context.filename);
  if (own === undefined) {
    // Several specifiers can name the file (`./notify`, `./notify.js`): their summaries together.
    let merged: Summaries = {};
    for (const [from, names] of Object.entries(index.summaries))
      if (sameModule(from, context.filename)) merged = mergeSummaries(merged, { '': names });
    own = merged[''] ?? {};
    index.own.set(context.filename, own);
  }
  return Object.hasOwn(own, name) ? own[name] : undefined;
}
