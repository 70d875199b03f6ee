#!/usr/bin/env node
import { setFlagsFromString } from 'node:v8';

import { resolveTypeScriptFromTsMorph } from './typescript-fallback.js';

// A scan allocates an AST per file and drops it: a larger young generation lets those die
// young instead of being promoted, which roughly halves GC time and peak memory.
setFlagsFromString('--max-semi-space-size=64');
// Before main's imports load TypeScript: ts-morph's copy when the project has none.
resolveTypeScriptFromTsMorph();
const { main } = await import('./main.js');

process.exitCode = main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  cwd: process.cwd(),
  env: process.env,
  isTTY: process.stdout.isTTY,
  stderrIsTTY: process.stderr.isTTY,
});
