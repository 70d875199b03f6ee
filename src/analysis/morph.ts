import { createRequire } from 'node:module';

import type * as Morph from 'ts-morph';

/**
 * ts-morph, the whole-program layer: project loading, module resolution and exported
 * declarations. It bundles its own TypeScript (`morph().ts`), a second copy beside the
 * `typescript` the Linter parses with: its nodes, symbols and types never cross to the other
 * copy. Loaded on first use with `require` (as `./typescript.ts` explains), so `--help` and
 * `--version` do not pay for it.
 */
let loaded: typeof Morph | undefined;

export function morph(): typeof Morph {
  loaded ??= createRequire(import.meta.url)('ts-morph') as typeof Morph;
  return loaded;
}

/** ts-morph's TypeScript. */
export type MorphTs = typeof Morph.ts;
