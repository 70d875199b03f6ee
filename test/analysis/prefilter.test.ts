import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { mayMatter } from '../../src/analysis/prefilter.js';
import { main } from '../../src/cli/main.js';
import type { Report } from '../../src/report/model.js';
import { reposRoot } from '../cli/helpers.js';

const docsRoot = fileURLToPath(new URL('../../docs/rules', import.meta.url));

/** The ```ts blocks under each doc's "❌ Incorrect" heading. */
function incorrectExamples(): [string, string][] {
  const examples: [string, string][] = [];
  for (const file of readdirSync(docsRoot).filter((name) => name.endsWith('.md'))) {
    const text = readFileSync(join(docsRoot, file), 'utf8');
    for (const section of text.split(/^### /m).filter((part) => part.startsWith('❌'))) {
      for (const match of section.matchAll(/```(?:ts|js|typescript|javascript)\n([\s\S]*?)```/g)) examples.push([file, match[1] ?? '']);
    }
  }
  return examples;
}

describe('mayMatter', () => {
  it('keeps every ❌ example of the rule docs', () => {
    const examples = incorrectExamples();
    expect(examples.length).toBeGreaterThan(0);
    expect(examples.filter(([, code]) => !mayMatter(code))).toEqual([]);
  });

  it('keeps every fixture file that has a finding', () => {
    for (const name of readdirSync(reposRoot)) {
      let stdout = '';
      main([join(reposRoot, name), '--format', 'json'], { stdout: { write: (text: string) => (stdout += text) }, stderr: { write: () => true }, cwd: reposRoot, env: {}, isTTY: false });
      if (stdout === '') continue;
      for (const finding of (JSON.parse(stdout) as Report).findings) {
        expect(mayMatter(readFileSync(join(reposRoot, name, finding.file), 'utf8')), finding.file).toBe(true);
      }
    }
  });

  it.each([
    ['export const RETRIES = 3;\nexport type Id = string;\n', false],
    ["import { cn } from './cn';\nexport function Button(props: { label: string }) { return cn(props.label); }\n", false],
    ["export * from './keys.js';\n", true],
    ['await fetch(url);', true],
    ["export async function handle(job) { await charge(job.data); }", true],
  ])('%j → %s', (text, expected) => {
    expect(mayMatter(text)).toBe(expected);
  });
});
