import { ESLintUtils } from '@typescript-eslint/utils';

/** Docs fields every rule of this plugin declares; configs are derived from them. */
export interface IdempotencyPluginDocs {
  /** The lowest config that enables the rule: `recommended` ⊂ `strict` ⊂ `all`. Absent: only in `all`. */
  recommended?: 'recommended' | 'strict';
  /** True when the rule reports nothing useful without type information. */
  requiresTypeChecking?: boolean;
}

export const REPO_DOCS_URL = 'https://github.com/eslint-plugin-idempotency/eslint-plugin-idempotency/blob/main/docs/rules';

const ruleCreator = ESLintUtils.RuleCreator<IdempotencyPluginDocs>((name) => `${REPO_DOCS_URL}/${name}.md`);

/**
 * typescript-eslint's `RuleCreator`, with the options merged once per distinct options instead
 * of once per file and rule: RuleCreator's `create` deep-clones the defaults (`applyDefault`, a
 * `structuredClone`) every time, about a fifteenth of what the rules cost on a large lint. The
 * merge is `applyDefault`'s own; the merged options are frozen, since every file shares them.
 */
export function createRule<Options extends readonly unknown[], MessageIds extends string>(
  rule: Readonly<ESLintUtils.RuleWithMetaAndName<Options, MessageIds, IdempotencyPluginDocs>>,
): ReturnType<typeof ruleCreator<Options, MessageIds>> {
  const created = ruleCreator(rule);
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- RuleCreator reads the top-level copy too
  const defaults: Readonly<Options> = rule.meta.defaultOptions ?? rule.defaultOptions ?? ([] as unknown as Options);
  const merged = new Map<string, Readonly<Options>>();
  return {
    ...created,
    create(context) {
      const key = context.options.length === 0 ? '' : JSON.stringify(context.options);
      let options = merged.get(key);
      if (!options) {
        options = deepFreeze(ESLintUtils.applyDefault<Options, Options>(defaults, context.options));
        merged.set(key, options);
      }
      return rule.create(context, options);
    },
  };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
