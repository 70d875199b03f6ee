import { ESLintUtils } from '@typescript-eslint/utils';

/** Docs fields every rule of this plugin declares; configs are derived from them. */
export interface IdempotencyPluginDocs {
  /** The lowest config that enables the rule: `recommended` ⊂ `strict` ⊂ `all`. Absent: only in `all`. */
  recommended?: 'recommended' | 'strict';
  /** True when the rule reports nothing useful without type information. */
  requiresTypeChecking?: boolean;
}

export const REPO_DOCS_URL = 'https://github.com/eslint-plugin-idempotency/eslint-plugin-idempotency/blob/main/docs/rules';

export const createRule = ESLintUtils.RuleCreator<IdempotencyPluginDocs>(
  (name) => `${REPO_DOCS_URL}/${name}.md`,
);
