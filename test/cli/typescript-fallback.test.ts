import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { expect, it } from 'vitest';

import { resolveTypeScriptFromTsMorph } from '../../src/cli/typescript-fallback.js';

it('answers require("typescript") with ts-morph’s copy only where no copy resolves', () => {
  // A folder outside the repository, with no node_modules above it that holds TypeScript.
  const outside = mkdtempSync(join(tmpdir(), 'no-typescript-'));
  writeFileSync(join(outside, 'package.json'), '{}');
  const requireOutside = createRequire(join(outside, 'package.json'));
  expect(() => requireOutside.resolve('typescript')).toThrow(/Cannot find module 'typescript'/);

  const bundled = resolveTypeScriptFromTsMorph();
  expect(bundled).toMatch(/@ts-morph[\\/]common[\\/]dist[\\/]typescript\.js$/);
  expect(requireOutside.resolve('typescript')).toBe(bundled);
  expect((requireOutside('typescript') as { version: string }).version).toMatch(/^\d+\.\d+\./);
  // The repository's own copy still wins here, and other missing modules still fail.
  expect(createRequire(import.meta.url).resolve('typescript')).toMatch(/node_modules[\\/]typescript[\\/]/);
  expect(() => requireOutside.resolve('not-a-module')).toThrow(/Cannot find module/);
});
