import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import tsParser from '@typescript-eslint/parser';
import { Linter, type ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

import { rules } from '../rules/index.js';
import plugin from '../src/index.js';

import { expectRuleRan } from './rule-tester.js';

/*
 * The examples in docs/rules/<name>.md are tests.
 *
 * - A ```ts, ```tsx, ```js or ```jsx block under `### ❌ Incorrect` must make the rule report at
 *   least once; a block under `### ✅ Correct` must make it report nothing. A `####` heading inside
 *   either section keeps the section; any `#`, `##` or `###` heading ends it.
 * - The rule runs alone, with its default options and NO type information (the
 *   @typescript-eslint/parser without a project), as a user without type-aware linting sees it.
 * - To run a block with options, put an HTML comment on the line(s) right before its fence:
 *     <!-- options: { "timeoutMs": 5000 } -->
 *   The JSON is the rule's options object (the one element of its options array).
 * - Blocks in other languages (```sh, ```json, ```text) are not linted.
 * - Each doc must hold at least one ❌ block and one ✅ block.
 * - Where the rule fixes a ❌ block, the fixed code must parse and a second fix pass change nothing.
 */

const docsDir = fileURLToPath(new URL('../docs/rules/', import.meta.url));
const LINTED = new Set(['ts', 'tsx', 'js', 'jsx']);

interface Example {
  kind: 'incorrect' | 'correct';
  lang: string;
  /** 1-based line of the opening fence in the doc. */
  line: number;
  code: string;
  options: unknown[];
}

/** The linted examples of one doc, in order. */
function examplesOf(markdown: string, doc: string): Example[] {
  const lines = markdown.split('\n');
  const examples: Example[] = [];
  let section: Example['kind'] | undefined;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? '';
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      const [, hashes = '', title = ''] = heading;
      if (hashes.length <= 3) {
        section = /^❌ Incorrect$/.test(title.trim())
          ? 'incorrect'
          : /^✅ Correct$/.test(title.trim())
            ? 'correct'
            : undefined;
      }
      continue;
    }
    const fence = /^(`{3,})\s*([\w-]*)/.exec(line);
    if (!fence) continue;
    const [, ticks = '```', lang = ''] = fence;
    const start = index;
    const body: string[] = [];
    for (index++; index < lines.length && !(lines[index] ?? '').startsWith(ticks); index++)
      body.push(lines[index] ?? '');
    if (!section || !LINTED.has(lang)) continue;
    examples.push({
      kind: section,
      lang,
      line: start + 1,
      code: body.join('\n') + '\n',
      options: optionsBefore(lines, start, doc),
    });
  }
  return examples;
}

/** The `<!-- options: {...} -->` comment on the non-blank line right before a fence, if any. */
function optionsBefore(lines: readonly string[], fence: number, doc: string): unknown[] {
  let index = fence - 1;
  while (index >= 0 && (lines[index] ?? '').trim() === '') index--;
  const comment = /^<!--\s*options:\s*([\s\S]*?)\s*-->$/.exec((lines[index] ?? '').trim());
  if (!comment) return [];
  try {
    return [JSON.parse(comment[1] ?? '') as unknown];
  } catch (error) {
    throw new Error(`${doc}:${index + 1}: the options comment is not JSON: ${String(error)}`, { cause: error });
  }
}

const linter = new Linter({ configType: 'flat' });

function configFor(ruleName: string, options: unknown[], lang: string): Linter.Config[] {
  return [
    {
      files: ['**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}'],
      languageOptions: {
        parser: tsParser,
        parserOptions: { ecmaFeatures: { jsx: lang === 'tsx' || lang === 'jsx' } },
      },
      plugins: { idempotency: plugin as unknown as ESLint.Plugin },
      rules: { [`idempotency/${ruleName}`]: ['error', ...options] },
    },
  ];
}

function describeMessages(messages: readonly Linter.LintMessage[]): string {
  return messages
    .map((message) => `${message.line}:${message.column} ${message.ruleId ?? 'fatal'} ${message.message}`)
    .join('\n');
}

const docs = readdirSync(docsDir)
  .filter((file) => file.endsWith('.md'))
  .map((file) => file.slice(0, -'.md'.length))
  .sort();

it('every rule has a doc', () => {
  expect(Object.keys(rules).filter((name) => !docs.includes(name))).toEqual([]);
});

describe.each(docs)('docs/rules/%s.md', (name) => {
  const path = `${docsDir}${name}.md`;
  const examples = examplesOf(readFileSync(path, 'utf8'), `docs/rules/${name}.md`);
  const ruleId = `idempotency/${name}`;

  it('has at least one ❌ and one ✅ example', () => {
    expect(examples.filter((example) => example.kind === 'incorrect').length).toBeGreaterThan(0);
    expect(examples.filter((example) => example.kind === 'correct').length).toBeGreaterThan(0);
  });

  const cases = examples.map(
    (example) => [`${example.kind === 'incorrect' ? '❌' : '✅'} line ${example.line}`, example] as const,
  );
  if (cases.length === 0) return;

  it.each(cases)('%s', (_, example) => {
    const filename = `example.${example.lang}`;
    const config = configFor(name, example.options, example.lang);
    const messages = linter.verify(example.code, config, { filename });
    const where = `docs/rules/${name}.md:${example.line}\n${example.code}\n${describeMessages(messages)}`;
    expectRuleRan(messages, where);
    const own = messages.filter((message) => message.ruleId === ruleId);
    if (example.kind === 'correct') {
      expect(own, where).toEqual([]);
      return;
    }
    expect(own.length, where).toBeGreaterThan(0);

    const fixed = linter.verifyAndFix(example.code, config, { filename });
    if (!fixed.fixed) return;
    expectRuleRan(fixed.messages, `fixed:\n${fixed.output}`);
    expect(linter.verifyAndFix(fixed.output, config, { filename }).output, 'a second fix pass').toBe(fixed.output);
  });
});
