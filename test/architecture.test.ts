import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The layers and which of them each may import (STYLE.md, "Dependency direction"). A layer is
 * named by the folder (or file) a module lives in; a module may always import its own layer.
 * `plugin` is the package entry and its configs; `util` holds the rule creator and package info.
 */
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  rules: ['model', 'util', 'fix'],
  fix: [],
  plugin: ['rules', 'util', 'model'],
  util: ['model'],
  model: [],
  analysis: ['plugin', 'rules', 'model', 'util', 'report'],
  report: [],
  cli: ['analysis', 'report', 'util', 'plugin'],
};

/** Packages only the whole-program layers may load: linting must not pay for them. */
const CLI_ONLY_PACKAGES = ['ts-morph'];

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function layerOf(file: string): string {
  const path = relative(root, file).split(/[\\/]/);
  if (path[0] === 'rules') return 'rules';
  if (path[1] === 'index.ts' || path[1] === 'configs.ts') return 'plugin';
  const layer = path[1];
  if (path[0] !== 'src' || layer === undefined) throw new Error(`no layer for ${file}`);
  return layer;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every import and re-export specifier of a file, `import type` included. */
function specifiers(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, false);
  return info.importedFiles.map((entry) => entry.fileName);
}

const files = [...sourceFiles(join(root, 'src')), ...sourceFiles(join(root, 'rules'))];

/** Every import that goes against the layers, as `file -> target (why)`. */
function violations(): string[] {
  const found: string[] = [];
  for (const file of files) {
    const from = layerOf(file);
    for (const specifier of specifiers(file)) {
      const name = relative(root, file);
      if (!specifier.startsWith('.')) {
        if (
          (from === 'rules' || from === 'model' || from === 'plugin' || from === 'util') &&
          CLI_ONLY_PACKAGES.includes(specifier)
        )
          found.push(`${name} -> ${specifier} (linting must not load it)`);
        continue;
      }
      const target = resolve(dirname(file), specifier.replace(/\.js$/, '.ts'));
      const to = layerOf(target);
      if (to !== from && !ALLOWED[from]?.includes(to))
        found.push(`${name} -> ${relative(root, target)} (${from} may not import ${to})`);
    }
  }
  return found;
}

describe('architecture', () => {
  it('reads the imports of every source file', () => {
    expect(files.length).toBeGreaterThan(50);
    expect(specifiers(join(root, 'rules/no-per-attempt-key.ts'))).toContain('../src/util/create-rule.js');
  });

  it('keeps every import in the allowed direction', () => {
    expect(violations()).toEqual([]);
  });
});
