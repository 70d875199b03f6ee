import { fileURLToPath } from 'node:url';

import { RuleTester } from '@typescript-eslint/rule-tester';

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
