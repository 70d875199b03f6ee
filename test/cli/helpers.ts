import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, expect } from 'vitest';

import { main } from '../../src/cli/main.js';

/** Root of the small repositories the CLI tests scan. */
export const reposRoot = fileURLToPath(new URL('../../fixtures/repos', import.meta.url));

export function repo(name: string): string {
  return join(reposRoot, name);
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `main` in-process with captured streams; `cwd` defaults to the fixtures folder. */
export function runCli(
  argv: readonly string[],
  options: { cwd?: string; env?: Record<string, string>; isTTY?: boolean } = {},
): CliRun {
  let stdout = '';
  let stderr = '';
  const code = main(argv, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    cwd: options.cwd ?? reposRoot,
    env: options.env ?? {},
    isTTY: options.isTTY ?? false,
  });
  return { code, stdout, stderr };
}

/** Temporary folders made by the helpers below, removed when the test file is done. */
const made: string[] = [];
afterAll(() => {
  for (const folder of made.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function temporaryFolder(prefix: string): string {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  made.push(folder);
  return folder;
}

/** A writable copy of a fixture repository in a fresh temporary folder. */
export function copyRepo(name: string): string {
  const target = join(temporaryFolder('idempotency-check-'), name);
  cpSync(repo(name), target, { recursive: true });
  return target;
}

/** A repository written into a fresh temporary folder from `files` (repo-relative path → text). */
export function writeRepo(files: Record<string, string>): string {
  const root = temporaryFolder('idempotency-repo-');
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  }
  return root;
}

/** A handler row of the JSON report, with the fields the tests read. */
export interface HandlerJson {
  file: string;
  line: number;
  broker: string;
  queue?: string;
  name?: string;
  effects: string[];
  protections: string[];
  verdict: string;
  reason: string;
}

/** The JSON report's handler rows for a repository written by {@link writeRepo}; the run writes nothing to stderr. */
export function handlersOfRepo(root: string): HandlerJson[] {
  const run = runCli([root, '--format', 'json'], { cwd: root });
  expect(run.stderr).toBe('');
  return (JSON.parse(run.stdout) as { handlers: HandlerJson[] }).handlers;
}

/** An inventory row, as far as the tests of what is listed read it. */
export interface InventoryRow {
  file: string;
  line: number;
  name?: string;
  broker: string;
}

/** Writes a repository and returns the handler inventory `--format json` reports for it (no stderr allowed). */
export function inventoryOf(files: Record<string, string>): InventoryRow[] {
  const root = writeRepo(files);
  const run = runCli([root, '--format', 'json'], { cwd: root });
  expect(run.stderr).toBe('');
  return (JSON.parse(run.stdout) as { handlers: InventoryRow[] }).handlers.map(({ file, line, name, broker }) => ({
    file,
    line,
    ...(name === undefined ? {} : { name }),
    broker,
  }));
}
