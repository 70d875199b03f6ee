// The floor for a syntax scan: read every code file below a folder and parse it with
// `ts.createSourceFile`, nothing else.
import { readFileSync } from 'node:fs';

import ts from 'typescript';

import { listCodeFiles } from './corpus.mjs';

let nodes = 0;
for (const file of listCodeFiles([process.argv[2]])) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  nodes += source.statements.length;
}
console.log(`parsed; ${nodes} top-level statements`);
