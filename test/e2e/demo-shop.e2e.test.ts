import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';

import plugin from '../../src/index.js';

/*
 * `npm run demo` shows fixtures/repos/demo-shop, whose files mark their code with comments:
 * `// ✅` starts a region of correct code, `// ❌` a region of wrong code; a region runs to the
 * next marker or the end of the file. With `recommended` + `strict` and no type information,
 * every ❌ region must draw at least one finding and every other line none, so the demo stays
 * honest as the rules change.
 */

const shop = fileURLToPath(new URL('../../fixtures/repos/demo-shop/src/', import.meta.url));
const linter = new Linter({ configType: 'flat', cwd: shop });
const config: Linter.Config[] = [
  { files: ['**/*.ts'], languageOptions: { parser: tsParser } },
  plugin.configs.recommended,
  plugin.configs.strict,
];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

interface Region {
  kind: 'correct' | 'wrong' | 'unmarked';
  /** 1-based, inclusive. */
  from: number;
  to: number;
}

function regionsOf(code: string): Region[] {
  const lines = code.split('\n');
  const regions: Region[] = [{ kind: 'unmarked', from: 1, to: lines.length }];
  lines.forEach((line, index) => {
    const marker = /^\s*\/\/ (✅|❌)/.exec(line)?.[1];
    if (!marker) return;
    regions.at(-1)!.to = index;
    regions.push({ kind: marker === '✅' ? 'correct' : 'wrong', from: index + 1, to: lines.length });
  });
  return regions.filter((region) => region.to >= region.from);
}

const files = sources(shop).sort();

it('has files with both kinds of marker', () => {
  const kinds = new Set(files.flatMap((file) => regionsOf(readFileSync(file, 'utf8')).map((region) => region.kind)));
  expect(kinds).toEqual(new Set(['correct', 'wrong', 'unmarked']));
});

describe.each(files.map((file) => [relative(shop, file), file]))('%s', (_, file) => {
  it('draws findings in its ❌ regions and nowhere else', () => {
    const code = readFileSync(file, 'utf8');
    const messages = linter.verify(code, config, { filename: file });
    expect(messages.filter((message) => message.fatal === true)).toEqual([]);
    const summary = messages.map((message) => `${message.line} ${message.ruleId ?? ''}`).join('\n');
    for (const region of regionsOf(code)) {
      const inside = messages.filter((message) => message.line >= region.from && message.line <= region.to);
      const where = `${region.kind} lines ${region.from}-${region.to}\n${summary}`;
      if (region.kind === 'wrong') expect(inside.length, where).toBeGreaterThan(0);
      else expect(inside, where).toEqual([]);
    }
  });
});
