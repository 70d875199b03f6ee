#!/usr/bin/env node
// Torture run: every rule, with every fix and suggestion applied, over real code nobody here
// wrote. Asserts: no rule throws, every fixed file and every suggestion still parses, and a
// second fix pass changes nothing. Prints findings per rule so absurd counts stand out.
//
//   npm run torture                 # the full run (≥ 20,000 files from pinned npm tarballs)
//   npm run torture -- --limit 2000 # a slice
import { readFileSync, statSync } from 'node:fs';
import { extname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';

const JSX_EXTENSIONS = new Set(['.js', '.jsx', '.mjs', '.cjs', '.tsx']);

/** The flat config the torture run lints with: `all`, with every opt-in autofix turned on. */
export function tortureConfig(plugin) {
  const rules = { ...plugin.configs.all.rules };
  const fixOption = plugin.rules['require-request-timeout']?.meta.schema?.[0]?.properties?.fix;
  if (fixOption) rules['idempotency/require-request-timeout'] = ['error', { fix: true }];
  return (jsx) => [
    {
      files: ['**/*.{js,mjs,cjs,jsx,ts,mts,cts,tsx}'],
      languageOptions: { parser: tsParser, sourceType: 'module', parserOptions: { ecmaFeatures: { jsx } } },
      plugins: { idempotency: plugin },
      // Real code carries directives for rules and plugins it was written with; none apply here.
      linterOptions: { noInlineConfig: true, reportUnusedDisableDirectives: 'off' },
      rules,
    },
  ];
}

/**
 * Lints, fixes and re-lints each file; never throws for one file's sake.
 * @returns {{ files: number, tooLarge: number, unparseable: number, findings: Record<string, number>, fixedFiles: number,
 *   suggestionsChecked: number, crashes: string[], brokenFixes: string[], unstableFixes: string[], brokenSuggestions: string[] }}
 */
export function runTorture(files, { plugin, onProgress = () => {}, maxBytes = 1_000_000 }) {
  const linter = new Linter({ configType: 'flat' });
  const configFor = tortureConfig(plugin);
  const parseOnly = (jsx) => [
    {
      files: ['**/*.{js,mjs,cjs,jsx,ts,mts,cts,tsx}'],
      languageOptions: { parser: tsParser, sourceType: 'module', parserOptions: { ecmaFeatures: { jsx } } },
      linterOptions: { noInlineConfig: true },
    },
  ];
  const result = {
    files: 0,
    tooLarge: 0,
    unparseable: 0,
    findings: {},
    fixedFiles: 0,
    suggestionsChecked: 0,
    crashes: [],
    brokenFixes: [],
    unstableFixes: [],
    brokenSuggestions: [],
  };
  const parses = (code, filename, jsx) => !linter.verify(code, parseOnly(jsx), { filename }).some((m) => m.fatal);

  for (const [index, file] of files.entries()) {
    onProgress(index, files.length);
    const extension = extname(file);
    const jsx = JSX_EXTENSIONS.has(extension);
    // The TS parser reads any of these; the name only selects the dialect.
    const filename = `input${extension === '.js' || extension === '.jsx' ? (jsx ? '.tsx' : '.ts') : extension}`;
    const config = configFor(jsx);
    let code;
    try {
      // Bundles over the limit are skipped as idempotency-check skips them: ESLint's own parse of
      // a multi-megabyte file takes minutes.
      if (statSync(file).size > maxBytes) {
        result.tooLarge++;
        continue;
      }
      code = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    result.files++;
    try {
      const messages = linter.verify(code, config, { filename });
      if (messages.some((m) => m.fatal)) {
        result.unparseable++;
        continue;
      }
      for (const message of messages) {
        // A file no configuration matches would be skipped silently: the run itself is wrong.
        if (message.ruleId === null && message.message.startsWith('No matching configuration'))
          throw new Error(`linter: ${message.message}`);
        // Notes on the file's own inline directives, which this run ignores.
        if (message.ruleId === null) continue;
        result.findings[message.ruleId] = (result.findings[message.ruleId] ?? 0) + 1;
        for (const suggestion of message.suggestions ?? []) {
          result.suggestionsChecked++;
          const { range, text } = suggestion.fix;
          const suggested = code.slice(0, range[0]) + text + code.slice(range[1]);
          if (!parses(suggested, filename, jsx))
            result.brokenSuggestions.push(`${file}:${message.line} ${message.ruleId}`);
        }
      }
      const fixed = linter.verifyAndFix(code, config, { filename });
      if (fixed.fixed) {
        result.fixedFiles++;
        if (!parses(fixed.output, filename, jsx)) result.brokenFixes.push(file);
        else if (linter.verifyAndFix(fixed.output, config, { filename }).fixed) result.unstableFixes.push(file);
      }
    } catch (error) {
      result.crashes.push(`${file}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
    }
  }
  return result;
}

export function formatTorture(result, seconds) {
  const lines = [
    `files linted:        ${result.files} (${result.unparseable} not parseable as TS/JS; ${result.tooLarge} over 1 MB, skipped)`,
    `time:                ${seconds.toFixed(1)} s`,
    `rule crashes:        ${result.crashes.length}`,
    `files fixed:         ${result.fixedFiles}; fixed output that does not parse: ${result.brokenFixes.length}; changed again by a second pass: ${result.unstableFixes.length}`,
    `suggestions applied: ${result.suggestionsChecked}; that do not parse: ${result.brokenSuggestions.length}`,
    'findings per rule:',
    ...Object.entries(result.findings)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([rule, count]) => `  ${rule.padEnd(44)} ${String(count).padStart(6)}`),
  ];
  for (const [label, list] of [
    ['CRASH', result.crashes],
    ['BROKEN FIX', result.brokenFixes],
    ['UNSTABLE FIX', result.unstableFixes],
    ['BROKEN SUGGESTION', result.brokenSuggestions],
  ]) {
    for (const entry of list.slice(0, 20)) lines.push(`${label}: ${entry}`);
  }
  return lines.join('\n');
}

async function main() {
  const { values } = parseArgs({ options: { limit: { type: 'string' } } });
  const { ensurePackages, listCodeFiles, describeCorpus, TORTURE_PACKAGES } = await import('./corpus.mjs');
  const plugin = (await import(pathToFileURL(fileURLToPath(new URL('../dist/src/index.js', import.meta.url))).href))
    .default;
  let files = listCodeFiles(
    ensurePackages(TORTURE_PACKAGES, (m) => console.error(m)),
    { includeDeclarations: true },
  );
  if (values.limit) files = files.filter((_, i) => i % Math.ceil(files.length / Number(values.limit)) === 0);
  console.log(`corpus: ${describeCorpus(files)}`);
  const tty = process.stderr.isTTY && !process.env.CI;
  const start = performance.now();
  const result = runTorture(files, {
    plugin,
    onProgress: (i, n) => tty && i % 200 === 0 && process.stderr.write(`\r${i}/${n}`),
  });
  if (tty) process.stderr.write('\r');
  console.log(formatTorture(result, (performance.now() - start) / 1000));
  const failed =
    result.crashes.length + result.brokenFixes.length + result.unstableFixes.length + result.brokenSuggestions.length;
  process.exitCode = failed ? 1 : 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
