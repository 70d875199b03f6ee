import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

// scripts/new-rule.mjs runs against a temporary root holding a copy of rules/index.ts, and (for
// the typecheck) links to the real src/, test/rule-tester.ts and node_modules/.

const repo = fileURLToPath(new URL('../..', import.meta.url));
const script = join(repo, 'scripts/new-rule.mjs');

let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'new-rule-'));
  mkdirSync(join(root, 'rules'));
  copyFileSync(join(repo, 'rules/index.ts'), join(root, 'rules/index.ts'));
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function newRule(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [script, ...args, '--root', root], { encoding: 'utf8' });
}

const read = (path: string): string => readFileSync(join(root, path), 'utf8');

describe('npm run new-rule <name>', () => {
  it('writes the rule, its doc and its test, and adds it to rules/index.ts in sorted order', () => {
    const run = newRule('no-double-charge');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('src/model/prefilter.ts');

    const rule = read('rules/no-double-charge.ts');
    expect(rule).toContain("name: 'no-double-charge',");
    expect(rule).toContain("export type MessageIds = 'doubleCharge';");
    expect(rule).toContain('export type Options = [];');
    expect(rule).toContain("description: 'Disallow TODO',");
    expect(rule).toContain("import { createRule } from '../src/util/create-rule.js';");
    const metaKeys = ['type', 'docs', 'messages', 'schema'].map((key) => rule.indexOf(`    ${key}: `));
    expect(metaKeys).toEqual(metaKeys.slice().sort((a, b) => a - b));
    expect(metaKeys).not.toContain(-1);

    const doc = read('docs/rules/no-double-charge.md');
    expect(doc.startsWith('# no-double-charge\n')).toBe(true);
    for (const line of [
      '<!-- end auto-generated rule header -->',
      '## Examples',
      '### ❌ Incorrect',
      '### ✅ Correct',
      '## When not to use it',
    ])
      expect(doc.split('\n')).toContain(line);

    const test = read('test/rules/no-double-charge.test.ts');
    expect(test).toContain("import rule from '../../rules/no-double-charge.js';");
    expect(test).toContain("syntaxRuleTester().run('no-double-charge', rule, {");
    expect(test).toContain("messageId: 'doubleCharge'");

    const index = read('rules/index.ts');
    const original = readFileSync(join(repo, 'rules/index.ts'), 'utf8');
    expect(index.split('\n').length).toBe(original.split('\n').length + 2);
    const imports = [...index.matchAll(/^import \w+ from '\.\/([\w-]+)\.js';$/gm)].map((match) => match[1]);
    const entries = [...index.matchAll(/^ {2}'([\w-]+)': (\w+),$/gm)].map((match) => match[1]);
    expect(imports).toContain('no-double-charge');
    expect(entries).toContain('no-double-charge');
    expect(imports).toEqual(imports.slice().sort());
    expect(entries).toEqual(entries.slice().sort());
    expect(index).toContain("import noDoubleCharge from './no-double-charge.js';");
    expect(index).toContain("  'no-double-charge': noDoubleCharge,");
  });

  it('puts a name that sorts last at the end of the map', () => {
    expect(newRule('require-zzz').status).toBe(0);
    const lines = read('rules/index.ts').trimEnd().split('\n');
    expect(lines.at(-2)).toBe("  'require-zzz': requireZzz,");
    expect(lines.at(-1)).toBe('};');
  });

  it('writes a rule and a test that typecheck', () => {
    expect(newRule('prefer-stable-key').status).toBe(0);
    symlinkSync(join(repo, 'src'), join(root, 'src'), 'dir');
    symlinkSync(join(repo, 'node_modules'), join(root, 'node_modules'), 'dir');
    symlinkSync(join(repo, 'test/rule-tester.ts'), join(root, 'test/rule-tester.ts'));
    writeFileSync(join(root, 'package.json'), '{ "type": "module" }\n');
    writeFileSync(
      join(root, 'tsconfig.json'),
      JSON.stringify({
        extends: join(repo, 'tsconfig.json'),
        compilerOptions: { rootDir: '.' },
        include: [],
        files: ['rules/prefer-stable-key.ts', 'test/rules/prefer-stable-key.test.ts'],
      }),
    );
    const tsc = spawnSync(
      process.execPath,
      [join(repo, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.json'), '--noEmit'],
      { encoding: 'utf8' },
    );
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  });

  it.each([
    ['Bad_Name', "new-rule: 'Bad_Name' is not kebab-case."],
    ['no-double--charge', "new-rule: 'no-double--charge' is not kebab-case."],
    ['no-', "new-rule: 'no-' is not kebab-case."],
    ['double-charge', "new-rule: 'double-charge' must start with no-, require- or prefer- (STYLE.md)."],
    ['no', "new-rule: 'no' must start with no-, require- or prefer- (STYLE.md)."],
  ])('refuses %s with one line and exit 2', (name, message) => {
    const run = newRule(name);
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(`${message}\n`);
    expect(run.stdout).toBe('');
    expect(read('rules/index.ts')).toBe(readFileSync(join(repo, 'rules/index.ts'), 'utf8'));
  });

  it('refuses a rule that already exists, in rules/index.ts or as a file', () => {
    const existing = newRule('no-ack-before-work');
    expect(existing.status).toBe(2);
    expect(existing.stderr).toBe("new-rule: 'no-ack-before-work' already exists (rules/index.ts).\n");

    expect(newRule('no-double-charge').status).toBe(0);
    const again = newRule('no-double-charge');
    expect(again.status).toBe(2);
    expect(again.stderr).toBe(
      "new-rule: 'no-double-charge' already exists (rules/no-double-charge.ts, docs/rules/no-double-charge.md, test/rules/no-double-charge.test.ts).\n",
    );
  });

  it('refuses a missing name with the usage line', () => {
    const run = newRule();
    expect(run.status).toBe(2);
    expect(run.stderr).toBe('usage: npm run new-rule <name> [-- --root <dir>]\n');
    expect(existsSync(join(root, 'rules/index.ts'))).toBe(true);
  });
});
