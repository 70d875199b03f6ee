import type { TSESLint } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';

import { rules } from '../rules/index.js';
import { buildConfigs } from '../src/configs.js';
import plugin from '../src/index.js';
import { createRule } from '../src/util/create-rule.js';

type Level = 'recommended' | 'strict' | undefined;

/** The configs a rule at `level` belongs to: each level is included in the ones above it. */
const MEMBERSHIP: Record<string, { recommended: boolean; strict: boolean; all: boolean }> = {
  recommended: { recommended: true, strict: true, all: true },
  strict: { recommended: false, strict: true, all: true },
  none: { recommended: false, strict: false, all: true },
};

function fakeRule(name: string, level: Level, deprecated = false) {
  return createRule<[], 'fake'>({
    name,
    meta: {
      type: 'problem',
      docs: { description: `Disallow ${name}`, roles: ['server'], ...(level ? { recommended: level } : {}) },
      ...(deprecated ? { deprecated: true } : {}),
      messages: { fake: 'Fake.' },
      schema: [],
      defaultOptions: [],
    },
    create: () => ({}),
  });
}

describe('configs of the real plugin follow each rule’s meta.docs.recommended', () => {
  it.each(Object.entries(rules))('%s', (name, rule) => {
    const level = rule.meta.docs?.recommended ?? 'none';
    const id = `idempotency/${name}`;
    const expected = MEMBERSHIP[level];
    expect(expected, `unknown level ${level}`).toBeDefined();
    expect({
      recommended: id in (plugin.configs.recommended.rules ?? {}),
      strict: id in (plugin.configs.strict.rules ?? {}),
      all: id in (plugin.configs.all.rules ?? {}),
    }).toEqual(expected);
  });

  it('has at least one rule in recommended and one only in strict', () => {
    const levels = Object.values(rules).map((rule) => rule.meta.docs?.recommended);
    expect(levels).toContain('recommended');
    expect(levels).toContain('strict');
  });
});

describe('buildConfigs', () => {
  const fakes = {
    'level-recommended': fakeRule('level-recommended', 'recommended'),
    'level-strict': fakeRule('level-strict', 'strict'),
    'level-none': fakeRule('level-none', undefined),
    'level-deprecated': fakeRule('level-deprecated', 'recommended', true),
  };
  const fakePlugin: TSESLint.FlatConfig.Plugin = { meta: { name: 'fake' }, rules: fakes };
  const configs = buildConfigs(fakePlugin, fakes);

  it('puts a recommended rule in every config', () => {
    expect(configs.recommended.rules).toEqual({ 'idempotency/level-recommended': 'error' });
  });

  it('puts a strict rule in strict and all but not in recommended', () => {
    expect(configs.strict.rules).toEqual({
      'idempotency/level-recommended': 'error',
      'idempotency/level-strict': 'error',
    });
  });

  it('puts a rule without a level only in all, and a deprecated rule nowhere', () => {
    expect(configs.all.rules).toEqual({
      'idempotency/level-recommended': 'error',
      'idempotency/level-strict': 'error',
      'idempotency/level-none': 'error',
    });
  });

  it('names each config and registers the plugin it was given', () => {
    expect(configs.recommended.name).toBe('idempotency/recommended');
    expect(configs.strict.name).toBe('idempotency/strict');
    expect(configs.all.name).toBe('idempotency/all');
    expect(configs.all.plugins).toEqual({ idempotency: fakePlugin });
  });
});
