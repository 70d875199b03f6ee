import { ESLintUtils } from '@typescript-eslint/utils';

import { mayMatter } from '../model/prefilter.js';
import type { AnyRuleContext } from '../model/ast/context.js';
import { settingsOf } from '../model/settings.js';

/** Docs fields every rule of this plugin declares; configs are derived from them. */
export interface IdempotencyPluginDocs {
  /** The lowest config that enables the rule: `recommended` ⊂ `strict` ⊂ `all`. Absent: only in `all`. */
  recommended?: 'recommended' | 'strict';
  /** True when the rule reports nothing useful without type information. */
  requiresTypeChecking?: boolean;
}

export const REPO_DOCS_URL =
  'https://github.com/eslint-plugin-idempotency/eslint-plugin-idempotency/blob/main/docs/rules';

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
  const defaults: Readonly<Options> = rule.meta.defaultOptions ?? ([] as unknown as Options);
  const merged = new Map<string, Readonly<Options>>();
  const defaultsKey = JSON.stringify(defaults);
  return {
    ...created,
    create(context) {
      const key = context.options.length === 0 ? '' : JSON.stringify(context.options);
      // Options can name clients or wrappers no word gives away; with the defaults, a file the
      // prefilter rules out cannot produce a finding, so the rule registers no listeners there.
      if ((key === '' || key === defaultsKey) && !mayMatterHere(context)) return {};
      let options = merged.get(key);
      if (!options) {
        options = deepFreeze(ESLintUtils.applyDefault<Options, Options>(defaults, context.options));
        merged.set(key, options);
      }
      return rule.create(context, options);
    },
  };
}

const matterCache = new WeakMap<object, boolean>();

/**
 * The prefilter (`src/model/prefilter.ts`, the one `idempotency-check` uses), read once per file:
 * false when the file's text holds none of the shapes any rule starts from. Type information and
 * the shared settings can make a file matter without those words (a `Pool` known by its type, a
 * handler registered in another module), so with either the answer is true.
 */
function mayMatterHere(context: AnyRuleContext): boolean {
  if (Object.values(settingsOf(context)).some((list: unknown[] | undefined) => list !== undefined && list.length > 0))
    return true;
  const sourceCode = context.sourceCode;
  let answer = matterCache.get(sourceCode);
  if (answer === undefined) {
    answer = sourceCode.parserServices?.program != null || mayMatter(sourceCode.text);
    matterCache.set(sourceCode, answer);
  }
  return answer;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
