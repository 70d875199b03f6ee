import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { RuleTester } from '@typescript-eslint/rule-tester';
import type { Linter } from 'eslint';
import { expect } from 'vitest';

/** Root of the typed fixtures: holds tsconfig.json, file.ts and react.tsx. */
export const typedFixturesRoot = fileURLToPath(new URL('../fixtures/rules', import.meta.url));

/** A RuleTester on the typescript-eslint parser without type information. */
export function syntaxRuleTester(): RuleTester {
  return new RuleTester();
}

/** A RuleTester with full type information from `fixtures/rules/tsconfig.json`. */
export function typedRuleTester(): RuleTester {
  return new RuleTester({
    languageOptions: {
      parserOptions: {
        project: './tsconfig.json',
        tsconfigRootDir: typedFixturesRoot,
      },
    },
  });
}

/**
 * Where a model test lints a snippet. With types, the file sits in the typed fixtures and the
 * Linter's base path is that folder, so the config's `files` match wherever the repository is
 * checked out (a base path of `/` sees a checkout under any `node_modules` folder as ignored,
 * and the rule under test would silently never run).
 */
export function snippetTarget(typed: boolean): { cwd: string; filename: string; parserOptions: Record<string, unknown> } {
  return typed
    ? { cwd: typedFixturesRoot, filename: path.join(typedFixturesRoot, 'file.ts'), parserOptions: { project: './tsconfig.json', tsconfigRootDir: typedFixturesRoot } }
    : { cwd: '/p', filename: '/p/file.ts', parserOptions: {} };
}

/**
 * Fails when the rule under test cannot have run: a fatal parse error, or a message ESLint wrote
 * itself (no matching configuration, file ignored), which carries no rule id.
 */
export function expectRuleRan(messages: readonly Linter.LintMessage[], where?: string): void {
  expect(messages.filter((message) => message.fatal === true || message.ruleId === null), where).toEqual([]);
}
