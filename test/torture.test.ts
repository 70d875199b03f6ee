import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { runTorture } from '../bench/torture.mjs';
import plugin from '../src/index.js';

// CI's slice of `npm run torture`: real code from the packages this project installs
// (nobody here wrote it), every rule with every fix and suggestion applied.
const nodeModules = fileURLToPath(new URL('../node_modules', import.meta.url));
const PACKAGES = [
  'axios',
  'pg',
  'pg-pool',
  'bullmq',
  'stripe',
  'mysql2',
  '@aws-sdk/client-sqs',
  'eslint',
  'ts-morph',
  'vitest',
];
// About 800 files under 200 KB keeps this slice to a minute or two on a CI machine.
const SLICE = 800;
const MAX_BYTES = 200_000;

function codeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(?:[cm]?[jt]s|tsx)$/.test(entry.name) && !entry.name.includes('.min.'))
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((file) => statSync(file).size <= MAX_BYTES);
}

describe('torture slice over installed packages', () => {
  const all = PACKAGES.filter((name) => existsSync(join(nodeModules, name)))
    .flatMap((name) => codeFiles(join(nodeModules, name)))
    .sort();
  const step = Math.max(1, Math.ceil(all.length / SLICE));
  const files = all.filter((_, index) => index % step === 0);

  it('lints, fixes and re-lints real code without a crash, a broken fix or an unstable fix', () => {
    expect(files.length).toBeGreaterThan(600);
    const result = runTorture(files, { plugin });
    expect(result.crashes).toEqual([]);
    expect(result.brokenFixes).toEqual([]);
    expect(result.unstableFixes).toEqual([]);
    expect(result.brokenSuggestions).toEqual([]);
    expect(result.files - result.unparseable).toBeGreaterThan(files.length * 0.9);
  }, 300_000);
});
