import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';

import { rules } from '../rules/index.js';
import plugin from '../src/index.js';
import { packageInfo } from '../src/util/package-info.js';

// One consistency test over every rule (eslint-plugin-unicorn's and typescript-eslint's habit):
// a rule that drifts from the house conventions fails here, not in review.

const root = fileURLToPath(new URL('..', import.meta.url));
const at = (path: string): string => `${root}${path}`;

const ruleFiles = readdirSync(at('rules'))
  .filter((file) => file.endsWith('.ts') && file !== 'index.ts')
  .map((file) => file.slice(0, -'.ts'.length))
  .sort();
const ruleNames = Object.keys(rules);
const ruleEntries = Object.entries(rules);

/** The meta keys in the order STYLE.md prescribes. */
const META_ORDER = ['type', 'docs', 'fixable', 'hasSuggestions', 'messages', 'schema', 'defaultOptions'];

/** The parts of a JSON schema this test reads. */
interface Schema {
  type?: unknown;
  description?: unknown;
  properties?: Record<string, Schema>;
  items?: Schema | Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  additionalProperties?: boolean | Schema;
}

/** The options object of a rule: STYLE.md allows one object, nothing else. */
function optionsSchema(schema: unknown): Schema | undefined {
  if (Array.isArray(schema)) return schema[0] as Schema | undefined;
  return undefined;
}

/** Every object schema inside `schema`, the root included, found through the usual combinators. */
function objectSchemas(schema: Schema): Schema[] {
  const found: Schema[] = [];
  const visit = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      node.forEach(visit);
      return;
    }
    const current = node as Schema;
    if (current.type === 'object' || current.properties) found.push(current);
    for (const child of Object.values(current.properties ?? {})) visit(child);
    visit(current.items);
    visit(current.anyOf);
    visit(current.oneOf);
    visit(current.allOf);
    if (typeof current.additionalProperties === 'object') visit(current.additionalProperties);
  };
  visit(schema);
  return found;
}

function ruleSource(name: string): string {
  return readFileSync(at(`rules/${name}.ts`), 'utf8');
}

function ruleDoc(name: string): string {
  return readFileSync(at(`docs/rules/${name}.md`), 'utf8');
}

describe('rules/index.ts', () => {
  it('exports every file in rules/ under its file name', () => {
    expect(ruleNames.slice().sort()).toEqual(ruleFiles);
  });

  it('keeps the map sorted by name', () => {
    expect(ruleNames).toEqual(ruleNames.slice().sort());
  });

  it('has no doc without a rule', () => {
    const docs = readdirSync(at('docs/rules'))
      .filter((file) => file.endsWith('.md'))
      .map((file) => file.slice(0, -'.md'.length));
    expect(docs.filter((doc) => !ruleNames.includes(doc))).toEqual([]);
  });

  it('has no rule test without a rule', () => {
    const tests = readdirSync(at('test/rules'))
      .filter((file) => file.endsWith('.test.ts'))
      .map((file) => file.slice(0, -'.test.ts'.length));
    expect(tests.filter((test) => !ruleNames.includes(test))).toEqual([]);
  });
});

describe('the plugin object', () => {
  it('has meta with the package name, version and namespace', () => {
    expect(plugin.meta).toEqual({ name: packageInfo.name, version: packageInfo.version, namespace: 'idempotency' });
    expect(plugin.meta.name).toBe('eslint-plugin-idempotency');
  });

  it('exposes the same rule objects as rules/index.ts', () => {
    expect(plugin.rules).toBe(rules);
  });

  it('has exactly the configs recommended, strict and all', () => {
    expect(Object.keys(plugin.configs).sort()).toEqual(['all', 'recommended', 'strict']);
  });
});

describe.each(ruleEntries)('rule %s', (name, rule) => {
  const { meta } = rule;
  const docs = meta.docs!;
  const options = optionsSchema(meta.schema);
  const optionNames = Object.keys(options?.properties ?? {});

  it('orders meta as type, docs, fixable, hasSuggestions, messages, schema, defaultOptions', () => {
    const keys = Object.keys(meta).filter((key) => META_ORDER.includes(key));
    expect(keys).toEqual(META_ORDER.filter((key) => keys.includes(key)));
  });

  it('has a type', () => {
    expect(['problem', 'suggestion', 'layout']).toContain(meta.type);
  });

  it('describes itself with Enforce, Require or Disallow and no final period', () => {
    expect(docs.description).toMatch(/^(Enforce|Require|Disallow) \S/);
    expect(docs.description).not.toMatch(/\.$/);
  });

  it('declares its config level as recommended, strict or nothing', () => {
    expect([undefined, 'recommended', 'strict']).toContain(docs.recommended);
  });

  it('works without type information', () => {
    // Type information sharpens, never gates: `recommended` must work with the plain parser.
    expect(docs.requiresTypeChecking ?? false).toBe(false);
  });

  it('links its docs at docs/rules/<name>.md, and that file exists', () => {
    expect(docs.url).toMatch(new RegExp(`/docs/rules/${name}\\.md$`));
    expect(existsSync(at(`docs/rules/${name}.md`))).toBe(true);
  });

  it('has a test file at test/rules/<name>.test.ts', () => {
    expect(existsSync(at(`test/rules/${name}.test.ts`))).toBe(true);
  });

  it('has camelCase messageIds and messages that are sentences ending in a period', () => {
    const messages = Object.entries(meta.messages);
    expect(messages.length).toBeGreaterThan(0);
    for (const [id, message] of messages) {
      expect(id, `messageId ${id}`).toMatch(/^[a-z][a-zA-Z0-9]*$/);
      expect(message, `message ${id}`).toMatch(/^[A-Z`{]/);
      expect(message, `message ${id}`).toMatch(/\.$/);
      expect(message, `message ${id}`).not.toMatch(/\s$|\s{2}/);
    }
  });

  it('takes at most one options object, closed, with every property described', () => {
    expect(Array.isArray(meta.schema)).toBe(true);
    expect((meta.schema as unknown[]).length).toBeLessThanOrEqual(1);
    if (!options) return;
    expect(options.type).toBe('object');
    for (const [property, schema] of Object.entries(options.properties ?? {})) {
      expect(schema.description, `option ${property}`).toEqual(expect.stringMatching(/\S/));
    }
    for (const object of objectSchemas(options)) {
      expect(object.additionalProperties, JSON.stringify(object)).toBe(false);
    }
  });

  it('declares its defaults once, in meta.defaultOptions, valid against its schema', () => {
    // The deprecated top-level copy is gone: ESLint 9.22+ and RuleCreator both read meta.
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- asserting it is absent
    expect(rule.defaultOptions).toBeUndefined();
    if (!options) {
      expect(meta.defaultOptions ?? []).toEqual([]);
      return;
    }
    expect(meta.defaultOptions).toBeDefined();
    const validate = new Ajv({ strict: false, allErrors: true }).compile({
      type: 'array',
      items: meta.schema as Schema[],
      minItems: 0,
      maxItems: (meta.schema as Schema[]).length,
    });
    expect(validate(meta.defaultOptions), JSON.stringify(validate.errors)).toBe(true);
  });

  it('declares meta.fixable and meta.hasSuggestions exactly when it fixes or suggests', () => {
    // ESLint itself throws when a rule fixes or suggests without declaring it, as soon as a test
    // reaches that report; this catches the opposite drift, a declaration nothing backs.
    const source = ruleSource(name);
    // fixOrSuggest (src/fix) reports either, so it counts as both.
    const suggests = /\bsuggest\s*:|\bfixOrSuggest\(/.test(source);
    const fixes = /\bfix\s*(?:\(|:)|\bfixOrSuggest\(/.test(source);
    expect(meta.hasSuggestions ?? false, 'hasSuggestions').toBe(suggests);
    if (meta.fixable) expect(fixes, 'a fixer in the rule').toBe(true);
    if (fixes && !suggests) expect(meta.fixable).toMatch(/^(code|whitespace)$/);
  });

  it('has a doc that starts with its name and the generated header marker', () => {
    const doc = ruleDoc(name);
    expect(doc.startsWith(`# ${name}\n`)).toBe(true);
    expect(doc).toContain('<!-- end auto-generated rule header -->');
    expect(doc).toMatch(/^## Examples$/m);
    expect(doc).toMatch(/^### ❌ Incorrect$/m);
    expect(doc).toMatch(/^### ✅ Correct$/m);
    expect(doc).toMatch(/^## When not to use it$/m);
  });

  it('documents every option under ## Options', () => {
    if (optionNames.length === 0) return;
    const doc = ruleDoc(name);
    const section = /^## Options$([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(doc)?.[1] ?? '';
    expect(section, 'an ## Options section').not.toBe('');
    for (const option of optionNames) {
      expect(section, `option ${option}`).toContain(`\`${option}\``);
    }
  });
});

describe('configs', () => {
  const configRules = (config: 'recommended' | 'strict' | 'all'): string[] =>
    Object.keys(plugin.configs[config].rules ?? {}).sort();

  it.each(['recommended', 'strict', 'all'] as const)(
    '%s is named idempotency/%s and registers the plugin',
    (config) => {
      expect(plugin.configs[config].name).toBe(`idempotency/${config}`);
      expect(plugin.configs[config].plugins).toEqual({ idempotency: plugin });
    },
  );

  it.each(['recommended', 'strict', 'all'] as const)(
    '%s enables its rules as errors under the idempotency/ prefix',
    (config) => {
      for (const [ruleId, entry] of Object.entries(plugin.configs[config].rules ?? {})) {
        expect(ruleId).toMatch(/^idempotency\//);
        const name = ruleId.slice('idempotency/'.length);
        expect(ruleNames).toContain(name);
        // strict and all add a rule's strictOptions, when it declares some.
        const strictOptions =
          config === 'recommended' ? undefined : rules[name as keyof typeof rules].meta.docs?.strictOptions;
        expect(entry).toEqual(strictOptions ? ['error', strictOptions] : 'error');
      }
    },
  );

  it('recommended ⊆ strict ⊆ all', () => {
    const recommended = configRules('recommended');
    const strict = configRules('strict');
    const all = configRules('all');
    expect(recommended.filter((id) => !strict.includes(id))).toEqual([]);
    expect(strict.filter((id) => !all.includes(id))).toEqual([]);
    expect(recommended.length).toBeGreaterThan(0);
  });

  it('all has every rule that is not deprecated', () => {
    const live = ruleEntries.filter(([, rule]) => !rule.meta.deprecated).map(([name]) => `idempotency/${name}`);
    expect(configRules('all')).toEqual(live.sort());
  });
});
