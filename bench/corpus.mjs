// Builds benchmark and torture corpora at run time from pinned npm tarballs: real
// TypeScript and JavaScript that nobody in this project wrote. Nothing is committed; the
// tarballs and their contents are cached outside the repository.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, relative } from 'node:path';

export const CACHE_DIR =
  process.env.IDEMPOTENCY_CORPUS_CACHE ?? join(homedir(), '.cache', 'eslint-plugin-idempotency', 'corpus');

/** Source-heavy packages for the benchmark (≥ 3,000 files of code). Pinned: results must be comparable run to run. */
export const BENCH_PACKAGES = [
  'rxjs@7.8.2',
  'kafkajs@2.2.4',
  'bullmq@5.58.0',
  'date-fns@4.1.0',
  'axios@1.12.2',
  'pg@8.16.3',
];

/** More real code for the torture run (≥ 20,000 files with the benchmark packages). */
export const TORTURE_PACKAGES = [
  ...BENCH_PACKAGES,
  '@mui/material@7.3.2',
  'core-js@3.45.1',
  'lodash@4.17.21',
  'lodash-es@4.17.21',
  'ramda@0.31.3',
  '@aws-sdk/client-s3@3.888.0',
  '@aws-sdk/client-sqs@3.888.0',
  'typeorm@0.3.26',
  'stripe@18.5.0',
  '@babel/core@7.28.4',
  'eslint@9.35.0',
  'three@0.180.0',
  'effect@3.17.13',
];

const CODE = /\.(?:[cm]?[jt]s|tsx|jsx)$/;

/** Downloads (once) and unpacks each package; returns the unpacked folders. */
export function ensurePackages(specs, log = () => {}) {
  mkdirSync(CACHE_DIR, { recursive: true });
  return specs.map((spec) => {
    const folder = join(CACHE_DIR, spec.replace(/[/@]/g, '_'));
    if (!existsSync(join(folder, 'package'))) {
      log(`fetching ${spec}`);
      mkdirSync(folder, { recursive: true });
      const tarball = execFileSync('npm', ['pack', spec, '--silent', '--pack-destination', folder], {
        encoding: 'utf8',
      })
        .trim()
        .split('\n')
        .pop();
      execFileSync('tar', ['-xzf', join(folder, tarball), '-C', folder]);
    }
    return join(folder, 'package');
  });
}

/** Every code file below the folders (declaration files and minified bundles left out), sorted. */
export function listCodeFiles(folders, { includeDeclarations = false } = {}) {
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(path);
      } else if (entry.isFile() && CODE.test(entry.name) && !entry.name.includes('.min.')) {
        if (!includeDeclarations && /\.d\.[cm]?ts$/.test(entry.name)) continue;
        files.push(path);
      }
    }
  };
  for (const folder of folders) walk(folder);
  return files.sort();
}

export function describeCorpus(files, root = CACHE_DIR) {
  const bytes = files.reduce((sum, file) => sum + statSync(file).size, 0);
  return `${files.length} files, ${(bytes / 1e6).toFixed(1)} MB under ${relative(process.cwd(), root) || root}`;
}
