import * as parser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';

import { createRule } from '../../src/util/create-rule.js';
import { snippetTarget } from '../rule-tester.js';

type Options = [{ limit: number; names: string[] }];

/** A rule that reports the options it was created with, and whether they can be changed. */
function probe(seen: Readonly<Options>[]) {
  return createRule<Options, 'options'>({
    name: 'probe',
    meta: {
      type: 'problem',
      docs: { description: 'probe', roles: ['server', 'script'] },
      messages: { options: '{{options}}' },
      schema: [
        {
          type: 'object',
          properties: { limit: { type: 'number' }, names: { type: 'array', items: { type: 'string' } } },
          additionalProperties: false,
        },
      ],
      defaultOptions: [{ limit: 10, names: [] }],
    },
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- RuleCreator reads the top-level copy too
    defaultOptions: [{ limit: 10, names: [] }],
    create(context, options) {
      seen.push(options);
      return {
        Program(node) {
          context.report({ node, messageId: 'options', data: { options: JSON.stringify(options[0]) } });
        },
      };
    },
  });
}

function lint(
  rule: ReturnType<typeof probe>,
  options: unknown[],
  code = 'await fetch(url);',
  settings: Record<string, unknown> = {},
  typed = false,
  filename?: string,
): string[] {
  const target = snippetTarget(typed);
  const messages = new Linter({ configType: 'flat', cwd: target.cwd }).verify(
    code,
    [
      {
        files: ['**/*.ts'],
        languageOptions: { parser, parserOptions: target.parserOptions },
        settings,
        plugins: { test: { rules: { probe: rule as never } } },
        rules: { 'test/probe': ['error', ...options] as Linter.RuleEntry },
      },
    ],
    filename === undefined ? target.filename : `${target.cwd}/${filename}`,
  );
  expect(messages.filter((message) => message.ruleId !== 'test/probe')).toEqual([]);
  return messages.map((message) => message.message);
}

describe('createRule', () => {
  it('merges the options with the defaults as RuleCreator does, once per distinct options', () => {
    const seen: Readonly<Options>[] = [];
    const rule = probe(seen);
    expect(rule.meta.docs?.url).toMatch(/\/docs\/rules\/probe\.md$/);
    expect(lint(rule, [])).toEqual(['{"limit":10,"names":[]}']);
    expect(lint(rule, [{ limit: 3 }])).toEqual(['{"limit":3,"names":[]}']);
    expect(lint(rule, [{ names: ['a'] }])).toEqual(['{"limit":10,"names":["a"]}']);
    expect(lint(rule, [{ limit: 3 }])).toEqual(['{"limit":3,"names":[]}']);
    expect(seen).toHaveLength(4);
    // The same options give the same merged object; other options another one.
    expect(seen[3]).toBe(seen[1]);
    expect(seen[1]).not.toBe(seen[0]);
  });

  it('registers no listeners in a file the prefilter rules out, unless options or settings can make it matter', () => {
    const rule = probe([]);
    const plain = 'export const total = [1, 2].reduce((a, b) => a + b, 0);';
    expect(lint(rule, [], plain)).toEqual([]);
    expect(lint(rule, [{ limit: 10, names: [] }], plain)).toEqual([]);
    expect(lint(rule, [{ limit: 3 }], plain)).toEqual(['{"limit":3,"names":[]}']);
    expect(lint(rule, [], plain, { idempotency: { consumerHandlers: [{ from: './worker', name: 'total' }] } })).toEqual(
      ['{"limit":10,"names":[]}'],
    );
    expect(lint(rule, [], plain, { idempotency: { consumerHandlers: [] } })).toEqual([]);
    // With types a receiver can be a pool or an SDK client by its type alone.
    expect(lint(rule, [], plain, {}, true)).toEqual(['{"limit":10,"names":[]}']);
  });

  it('hands every file the same frozen options, so no rule can change them for the next file', () => {
    const seen: Readonly<Options>[] = [];
    lint(probe(seen), [{ names: ['a'] }]);
    const [options] = seen;
    expect(Object.isFrozen(options)).toBe(true);
    expect(Object.isFrozen(options?.[0].names)).toBe(true);
    expect(() => (options?.[0].names as string[]).push('b')).toThrow(TypeError);
  });

  it('adds a roles option to the schema, with the declared roles as its default', () => {
    const rule = probe([]);
    const [options] = rule.meta.schema as unknown as { properties: Record<string, unknown> }[];
    expect(Object.keys(options?.properties ?? {})).toEqual(['limit', 'names', 'roles']);
    expect(rule.meta.defaultOptions).toEqual([{ limit: 10, names: [], roles: ['server', 'script'] }]);
  });

  it('registers no listeners in a file outside its roles; the roles option replaces them and never reaches the rule', () => {
    const seen: Readonly<Options>[] = [];
    const rule = probe(seen);
    expect(lint(rule, [], undefined, {}, false, 'src/pay.ts')).toEqual(['{"limit":10,"names":[]}']);
    expect(lint(rule, [], undefined, {}, false, 'scripts/backfill.ts')).toEqual(['{"limit":10,"names":[]}']);
    expect(lint(rule, [], undefined, {}, false, 'src/pay.test.ts')).toEqual([]);
    expect(lint(rule, [{ roles: ['test'] }], undefined, {}, false, 'src/pay.test.ts')).toEqual([
      '{"limit":10,"names":[]}',
    ]);
    expect(lint(rule, [{ roles: ['test'] }], undefined, {}, false, 'src/pay.ts')).toEqual([]);
    expect(lint(rule, [{ roles: ['server'], limit: 3 }], undefined, {}, false, 'src/pay.ts')).toEqual([
      '{"limit":3,"names":[]}',
    ]);
    expect(seen.every((options) => !('roles' in options[0]))).toBe(true);
    // With only `roles`, the options are the defaults and the prefilter still applies.
    const plain = 'export const total = 1;';
    expect(lint(rule, [{ roles: ['server'] }], plain, {}, false, 'src/pay.ts')).toEqual([]);
  });

  it('reads settings.idempotency.roles: path globs that give a file its role', () => {
    const rule = probe([]);
    const settings = { idempotency: { roles: { test: ['qa/**'], server: ['scripts/worker/**'] } } };
    expect(lint(rule, [], undefined, settings, false, 'qa/pay.ts')).toEqual([]);
    expect(lint(rule, [], undefined, settings, false, 'src/pay.ts')).toEqual(['{"limit":10,"names":[]}']);
    expect(lint(rule, [{ roles: ['server'] }], undefined, settings, false, 'scripts/worker/run.ts')).toEqual([
      '{"limit":10,"names":[]}',
    ]);
    expect(lint(rule, [{ roles: ['server'] }], undefined, {}, false, 'scripts/worker/run.ts')).toEqual([]);
  });
});
