import type { TSESTree } from '@typescript-eslint/utils';

import { importSource } from './modules.js';
import { type AnyRuleContext } from './ast/context.js';

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

export interface IdempotencySettings {
  /** Imported bindings that are connection pools (pg `Pool`, mysql2 / mariadb pools). */
  pools?: ImportedName[];
  /** Imported functions whose result is a fresh per-attempt value (a UUID, a timestamp, randomness). */
  perAttemptFunctions?: ImportedName[];
  /** Imported functions or objects that supply headers carrying an idempotency key. */
  keyHeaderSources?: ImportedName[];
  /** Imported HTTP client instances that carry a default timeout (an axios instance with `timeout`, ky). */
  boundedClients?: ImportedName[];
  /** Imported axios instances created without a timeout: a request through them is bounded only by its own options. */
  timeoutlessClients?: ImportedName[];
  /** Imported functions that return such an instance (a `createApiClient()` helper). */
  timeoutlessClientFactories?: ImportedName[];
  /** Imported functions that are registered as consumer handlers in another module. */
  consumerHandlers?: ImportedName[];
}

/** The plugin's shared settings, never undefined. */
export function settingsOf(context: AnyRuleContext): IdempotencySettings {
  const settings = context.settings as Partial<Record<typeof NAMESPACE, IdempotencySettings>> | undefined;
  return settings?.[NAMESPACE] ?? {};
}

/** True when `identifier` is bound to an import listed in `names`. */
export function isListedImport(
  identifier: TSESTree.Identifier,
  context: AnyRuleContext,
  names: readonly ImportedName[] | undefined,
): boolean {
  if (!names?.length) return false;
  const source = importSource(identifier, context.sourceCode.getScope(identifier));
  if (!source) return false;
  return names.some((entry) => entry.from === source.module && entry.name === source.imported);
}
