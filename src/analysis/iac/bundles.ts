import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

import type * as TS from 'typescript';

import { isSourceFile } from '../files.js';
import { SKIPPED_DIRECTORIES } from '../ignore.js';
import { ts } from '../typescript.js';

/**
 * The named entries of a bundler's config (webpack's `entry: { 'google-pubsub':
 * './src/pubsub/google.ts' }`, esbuild's `entryPoints: { googleoauth2: './src/lambdas/googleOauth2.ts' }`):
 * the bundle each name builds, which a template's `Handler: google-pubsub.handler` runs. A config
 * is read, not run: every property of an object literal in it whose value is a string naming a
 * source file of the tree is an entry, wherever the object is built (`const entries = {…}`,
 * returned by a function of the environment). The first config to name an entry wins.
 */

const CONFIG = /^(?:webpack|esbuild|rollup|tsup)\.config\.[cm]?[jt]s$/;

/** How deep under the root bundler configs are looked for. */
const CONFIG_DEPTH = 4;

export function bundleEntries(root: string): Map<string, string> {
  const entries = new Map<string, string>();
  const configs = ts.sys
    .readDirectory(
      root,
      ['.js', '.cjs', '.mjs', '.ts', '.cts', '.mts'],
      [...SKIPPED_DIRECTORIES].map((name) => `**/${name}`),
      ['**/*.config.*'],
      CONFIG_DEPTH,
    )
    .filter((file) => CONFIG.test(file.slice(file.lastIndexOf('/') + 1)))
    .sort();
  for (const config of configs) {
    const directory = dirname(config);
    const source = ts.createSourceFile(config, readFileSync(config, 'utf8'), ts.ScriptTarget.Latest, false);
    const visit = (node: TS.Node): void => {
      if (
        ts.isPropertyAssignment(node) &&
        (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name)) &&
        ts.isStringLiteralLike(node.initializer)
      ) {
        const path = resolve(directory, node.initializer.text);
        if (isSourceFile(path) && existsSync(path) && !entries.has(node.name.text)) entries.set(node.name.text, path);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return entries;
}
