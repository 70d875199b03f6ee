import type { TSESLint } from '@typescript-eslint/utils';
import type { Linter } from 'eslint';

import type { IdempotencyPluginDocs } from './util/create-rule.js';
import { NAMESPACE } from './model/settings.js';

/** The plugin's namespace: its rules report as `idempotency/<rule>`. */
export { NAMESPACE };

type AnyRule = TSESLint.RuleModule<string, readonly unknown[], IdempotencyPluginDocs>;
export type ConfigName = 'recommended' | 'strict' | 'all';

const LEVELS: Record<ConfigName, ReadonlySet<string | undefined>> = {
  recommended: new Set(['recommended']),
  strict: new Set(['recommended', 'strict']),
  all: new Set(['recommended', 'strict', undefined]),
};

/**
 * Derives the flat configs from each rule's `meta.docs.recommended`, so a rule's
 * config membership is declared once, beside the rule.
 */
export function buildConfigs(
  plugin: TSESLint.FlatConfig.Plugin,
  rules: Record<string, AnyRule>,
): Record<ConfigName, Linter.Config> {
  // ESLint's own config type, so `defineConfig(idempotency.configs.recommended)` type-checks; the
  // plugin's rules are typescript-eslint rule modules, which ESLint runs as they are.
  const make = (name: ConfigName): Linter.Config => ({
    name: `${NAMESPACE}/${name}`,
    plugins: { [NAMESPACE]: plugin as unknown as NonNullable<Linter.Config['plugins']>[string] },
    rules: Object.fromEntries(
      Object.entries(rules)
        .filter(([, rule]) => !rule.meta.deprecated && LEVELS[name].has(rule.meta.docs?.recommended))
        .map(([ruleName, rule]): [string, Linter.RuleEntry] => {
          const strictOptions = name === 'recommended' ? undefined : rule.meta.docs?.strictOptions;
          return [`${NAMESPACE}/${ruleName}`, strictOptions ? ['error', strictOptions] : 'error'];
        }),
    ),
  });
  return { recommended: make('recommended'), strict: make('strict'), all: make('all') };
}
