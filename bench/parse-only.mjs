// The floor for a syntax scan: read every code file below a folder and parse it with
// `ts.createSourceFile`, nothing else.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

import { listCodeFiles } from './corpus.mjs';

// Loaded with `require`, as the checker loads it (src/analysis/typescript.ts): an ES import would
// add half a second of module-format detection to the floor.
const ts = createRequire(import.meta.url)('typescript');

let nodes = 0;
for (const file of listCodeFiles([process.argv[2]])) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  nodes += source.statements.length;
}
console.log(`parsed; ${nodes} top-level statements`);
