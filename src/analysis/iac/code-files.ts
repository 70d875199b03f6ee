import { readFileSync } from 'node:fs';

import { SKIPPED_DIRECTORIES } from '../ignore.js';
import { ts } from '../typescript.js';

/** Tests, specs and declarations: no infrastructure is declared there. */
const NOT_INFRASTRUCTURE = /\.(?:test|spec|d)\.[cm]?[jt]s$/;

/**
 * The code files under `folder` (to `depth` folders down, sorted) that may declare infrastructure
 * (a CDK stack, a Serverless function written in TypeScript): no tests, no skipped or `skip`
 * folders, and only those whose text matches `spells`; each with its text.
 */
export function infrastructureCode(
  folder: string,
  depth: number,
  skip: readonly string[],
  spells: (text: string) => boolean,
): { file: string; text: string }[] {
  const files = ts.sys.readDirectory(
    folder,
    ['.ts', '.js', '.mts', '.mjs', '.cts', '.cjs'],
    [...SKIPPED_DIRECTORIES, 'test', '__tests__', ...skip].map((name) => `**/${name}`),
    ['**/*'],
    depth,
  );
  return files
    .sort()
    .filter((file) => !NOT_INFRASTRUCTURE.test(file))
    .map((file) => ({ file, text: readFileSync(file, 'utf8') }))
    .filter(({ text }) => spells(text));
}
