import { describe, expect, it } from 'vitest';

import { colorEnabled } from '../../src/cli/main.js';
import { repo, runCli } from './helpers.js';

describe('--quiet', () => {
  it('prints the findings and the summary, without the inventory', () => {
    const full = runCli([repo('demo-shop')]);
    const quiet = runCli(['--quiet', repo('demo-shop')]);
    expect(full.stdout).toContain('Handlers:');
    expect(quiet.stdout).not.toContain('Handlers:');
    expect(quiet.code).toBe(full.code);
    // Every finding line is still there, and the summary ends the report.
    const findingLines = (text: string): string[] =>
      text.split('\n').filter((line) => / idempotency\/[\w-]+$/.test(line));
    expect(findingLines(quiet.stdout)).toEqual(findingLines(full.stdout).slice(0, findingLines(quiet.stdout).length));
    expect(findingLines(quiet.stdout).length).toBeGreaterThan(0);
    expect(quiet.stdout.trimEnd().split('\n').at(-1)).toBe(full.stdout.trimEnd().split('\n').at(-1));
  });
});

describe('colour, as Node decides it', () => {
  it.each([
    [{}, true, true],
    [{}, false, false],
    [{ NO_COLOR: '1' }, true, false],
    [{ NO_COLOR: '' }, true, false],
    [{ NODE_DISABLE_COLORS: '1' }, true, false],
    [{ TERM: 'dumb' }, true, false],
    [{ FORCE_COLOR: '1' }, false, true],
    [{ FORCE_COLOR: '' }, false, true],
    [{ FORCE_COLOR: '3' }, false, true],
    [{ FORCE_COLOR: 'true' }, false, true],
    [{ FORCE_COLOR: '0' }, true, false],
    [{ FORCE_COLOR: 'false' }, true, false],
    // FORCE_COLOR wins over NO_COLOR, as in Node.
    [{ FORCE_COLOR: '1', NO_COLOR: '1' }, false, true],
  ])('%j on a terminal: %s → %s', (env, isTTY, expected) => {
    expect(colorEnabled(env, isTTY)).toBe(expected);
  });

  it('colours a piped report with FORCE_COLOR', () => {
    expect(runCli([repo('demo-shop')], { env: { FORCE_COLOR: '1' } }).stdout).toContain('\u001b[');
    expect(runCli([repo('demo-shop')], { env: {} }).stdout).not.toContain('\u001b[');
  });
});
