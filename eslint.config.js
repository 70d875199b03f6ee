// @ts-check
import eslintPlugin from 'eslint-plugin-eslint-plugin';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

import idempotency from './dist/src/index.js';

export default defineConfig(
  { ignores: ['dist/', 'coverage/', 'fixtures/', 'node_modules/', '**/*.js', '**/*.mjs', '!eslint.config.js'] },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.strictTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-unnecessary-condition': ['error', { allowConstantLoopConditions: true }],
    },
  },
  { files: ['rules/**/*.ts'], extends: [eslintPlugin.configs.recommended] },
  {
    // Linting must never load ts-morph: rules and the model stay on ESTree.
    files: ['rules/**/*.ts', 'src/model/**/*.ts', 'src/util/**/*.ts', 'src/index.ts', 'src/configs.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'ts-morph', message: 'rules/ and src/model/ run inside ESLint and must not load ts-morph.' }],
          patterns: [
            {
              group: ['**/analysis/**', '**/cli/**'],
              message: 'rules/ and src/model/ must not depend on the CLI layers.',
            },
          ],
        },
      ],
    },
  },
  { files: ['src/**/*.ts', 'rules/**/*.ts'], extends: [idempotency.configs.all] },
  {
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
