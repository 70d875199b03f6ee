#!/usr/bin/env node
import { main } from './main.js';

process.exitCode = main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  cwd: process.cwd(),
  env: process.env,
  isTTY: process.stdout.isTTY,
  stderrIsTTY: process.stderr.isTTY,
});
