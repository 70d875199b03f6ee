// @ts-check
import { join } from 'node:path';

import js from '@eslint/js';
import eslintPlugin from 'eslint-plugin-eslint-plugin';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

import { isStale } from './scripts/build-freshness.mjs';

// The project lints itself with its own rules, from dist/. A dist/ older than the sources would
// lint with yesterday's rules and pass silently, so say so instead.
const root = import.meta.dirname;
if (isStale(root, join(root, 'dist/src/index.js')))
  throw new Error('eslint.config.js: dist/ is missing or older than src/ or rules/; run `npm run build` first.');
const { default: idempotency } = await import('./dist/src/index.js');

export default defineConfig(
  {
    ignores: [
      'dist/',
      'coverage/',
      'fixtures/',
      'node_modules/',
      '**/*.js',
      '!eslint.config.js',
      '!.eslint-doc-generatorrc.js',
    ],
  },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.strictTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: root } },
    rules: {
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-unnecessary-condition': ['error', { allowConstantLoopConditions: true }],
    },
  },
  {
    // Scripts and benchmarks: plain Node ESM/CommonJS, linted without type information.
    files: ['**/*.mjs', '**/*.cjs', 'eslint.config.js', '.eslint-doc-generatorrc.js'],
    extends: [js.configs.recommended],
    languageOptions: { globals: globals.node },
  },
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs' } },
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
