import path from 'node:path';
import { fileURLToPath } from 'node:url';

import * as parser from '@typescript-eslint/parser';
import { RuleTester } from '@typescript-eslint/rule-tester';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { Linter } from 'eslint';
import { expect } from 'vitest';

import type { AnyRuleContext } from '../src/model/ast/context.js';

/** Root of the typed fixtures: holds tsconfig.json, file.ts and react.tsx. */
const typedFixturesRoot = fileURLToPath(new URL('../fixtures/rules', import.meta.url));

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
 *
 * `disallowAutomaticSingleRunInference`: with `CI=true` in the environment, typescript-eslint
 * otherwise switches to single-run mode, builds one program from the files on disk and lints
 * `fixtures/rules/file.ts` as it is there, ignoring the snippet (typescript-eslint's RuleTester
 * sets the same option for the same reason).
 */
export function snippetTarget(typed: boolean): {
  cwd: string;
  filename: string;
  parserOptions: Record<string, unknown>;
} {
  return typed
    ? {
        cwd: typedFixturesRoot,
        filename: path.join(typedFixturesRoot, 'file.ts'),
        parserOptions: {
          project: './tsconfig.json',
          tsconfigRootDir: typedFixturesRoot,
          disallowAutomaticSingleRunInference: true,
        },
      }
    : { cwd: '/p', filename: '/p/file.ts', parserOptions: {} };
}

/**
 * Fails when the rule under test cannot have run: a fatal parse error, or a message ESLint wrote
 * itself (no matching configuration, file ignored), which carries no rule id.
 */
export function expectRuleRan(messages: readonly Linter.LintMessage[], where?: string): void {
  expect(
    messages.filter((message) => message.fatal === true || message.ruleId === null),
    where,
  ).toEqual([]);
}

export interface SnippetOptions {
  /** Lint with type information from the typed fixtures. */
  typed?: boolean;
  /** `settings` for the rule (the shared `settings.idempotency` lives under `idempotency`). */
  settings?: Record<string, unknown>;
  /** The file name, relative to the snippet's folder (default `file.ts`). */
  filename?: string;
}

/**
 * Lints `code` through the real Linter and typescript-eslint parser with one rule whose
 * listeners `create` returns: how the model tests put a model function to work on real ASTs.
 * Fails when the rule cannot have run, or ran on another text than `code`.
 */
export function lintSnippet(
  code: string,
  create: (context: AnyRuleContext) => TSESLint.RuleListener,
  options: SnippetOptions = {},
): void {
  const target = snippetTarget(options.typed === true);
  let linted: string | undefined;
  const rule = {
    meta: { type: 'problem', messages: {}, schema: [] },
    create: (context: AnyRuleContext) => {
      linted = context.sourceCode.text;
      return create(context);
    },
  };
  const messages = new Linter({ configType: 'flat', cwd: target.cwd }).verify(
    code,
    [
      {
        files: ['**/*.ts'],
        languageOptions: { parser, sourceType: 'module', parserOptions: target.parserOptions },
        settings: options.settings ?? {},
        plugins: { test: { rules: { snippet: rule as never } } },
        rules: { 'test/snippet': 'error' },
      },
    ],
    options.filename === undefined ? target.filename : path.join(target.cwd, options.filename),
  );
  expectRuleRan(messages);
  expect(linted, 'the rule saw a different text than the snippet').toBe(code);
}

/** Runs `inspect` on every call expression whose line ends with a `// <-` comment. */
export function lintMarkedCalls(
  code: string,
  inspect: (call: TSESTree.CallExpression, context: AnyRuleContext) => void,
  options: SnippetOptions = {},
): void {
  lintSnippet(
    code,
    (context) => {
      const marked = new Set(
        context.sourceCode
          .getAllComments()
          .filter((comment) => comment.value.trim() === '<-')
          .map((comment) => comment.loc.start.line),
      );
      return {
        CallExpression(node: TSESTree.CallExpression) {
          if (marked.has(node.loc.end.line)) inspect(node, context);
        },
      };
    },
    options,
  );
}
