import { createRequire } from 'node:module';

import type * as TS from 'typescript';

/**
 * The TypeScript compiler API, loaded with `require`. Imported as an ES module, Node first scans
 * all of `typescript.js` (9 MB, in a package without `"type"`) to detect its module format and
 * lex its CommonJS exports: about 0.5 s and 35 MB on every start (`node -e "require('typescript')"`
 * 0.55 s against an `import` 1.27 s, measured here). typescript-eslint's parser requires the same
 * copy, so the CLI loads TypeScript once. Types come from `import type * as TS from 'typescript'`.
 */
export const ts: typeof TS = createRequire(import.meta.url)('typescript') as typeof TS;
