import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { deserialize, serialize } from 'node:v8';

import { packageInfo } from '../util/package-info.js';

/**
 * `--cache`: what a pass computed for a file, kept between runs and keyed by everything it
 * depends on, so a second run over an unchanged tree reads and hashes the files and lints
 * none of them.
 *
 * - The whole cache is keyed by the run: this build of the checker (its version and its own
 *   compiled files), the options that change results, and the project's configuration files.
 *   A different key starts an empty cache.
 * - Pass 1 (a file's own facts and findings, and the prefilter's verdict) depends only on the
 *   file's text: its entry is keyed by a hash of it.
 * - Pass 2 re-runs a file with the settings that its imports' facts give it: its entry is keyed
 *   by the text and those settings, so a change in an imported file that changes what it tells
 *   its importers reaches them, and one that does not costs nothing.
 * - The inventory is assembled from the facts on every run; it is cheap.
 * - With `--types` a file's findings may depend on any file's types, so the key includes every
 *   file's hash: one change anywhere makes a fresh cache.
 *
 * Entries are stored serialised (`node:v8`), so what a caller later does to a returned value
 * never reaches the cache; only entries this run read or wrote are saved, so the cache does not
 * grow with deleted files.
 */

const FORMAT = 1;

/** A short hash of the parts, each kept apart from the next. */
function hashParts(...parts: readonly string[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\u0000');
  return hash.digest('hex').slice(0, 32);
}

/** This build of the checker: its version and the size and time of each of its compiled files. */
function buildIdentity(): string {
  const stamps: string[] = [packageInfo.version];
  const visit = (folder: string): void => {
    let entries;
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (/\.[cm]?[jt]s$/.test(entry.name)) {
        const stat = statSync(path);
        stamps.push(`${path}:${stat.size}:${stat.mtimeMs}`);
      }
    }
  };
  // src/ when the tests run the sources, dist/src and dist/rules once built.
  const here = dirname(dirname(new URL(import.meta.url).pathname));
  visit(here);
  visit(join(dirname(here), 'rules'));
  return hashParts(...stamps);
}

let build: string | undefined;

/** The key of a run: the build, the options that change results, and the configuration files. */
function runKey(options: unknown, configFiles: readonly string[]): string {
  build ??= buildIdentity();
  const configs = configFiles.map((file) => {
    try {
      return `${file}\u0001${readFileSync(file, 'utf8')}`;
    } catch {
      return `${file}\u0001(unreadable)`;
    }
  });
  return hashParts(String(FORMAT), build, JSON.stringify(options), ...configs);
}

interface Stored {
  format: number;
  key: string;
  entries: Map<string, Buffer>;
}

class ResultCache {
  private readonly stored: Map<string, Buffer>;
  private readonly kept = new Map<string, Buffer>();
  /** Why an existing cache file was not used (one line for stderr); undefined when it was or none existed. */
  readonly discarded: string | undefined;
  hits = 0;
  misses = 0;

  constructor(
    private readonly file: string,
    private readonly key: string,
  ) {
    let stored = new Map<string, Buffer>();
    let discarded: string | undefined;
    let bytes: Buffer | undefined;
    try {
      bytes = readFileSync(file);
    } catch {
      // No cache yet: the first run makes it.
    }
    if (bytes !== undefined) {
      try {
        const value = deserialize(bytes) as Partial<Stored>;
        if (value.format !== FORMAT || !(value.entries instanceof Map)) discarded = 'written by another version';
        // Another key (an upgrade, other options, a changed config) starts an empty cache, quietly.
        else if (value.key === key) stored = value.entries;
      } catch {
        discarded = 'not a cache file this version can read';
      }
    }
    this.stored = stored;
    this.discarded = discarded;
  }

  private static id(kind: string, file: string, hash: string): string {
    return `${kind}\u0000${file}\u0000${hash}`;
  }

  /** A fresh copy of what was stored for this kind of result, file and hash. */
  get(kind: string, file: string, hash: string): unknown {
    const id = ResultCache.id(kind, file, hash);
    const bytes = this.kept.get(id) ?? this.stored.get(id);
    if (bytes === undefined) {
      this.misses += 1;
      return undefined;
    }
    this.hits += 1;
    this.kept.set(id, bytes);
    return deserialize(bytes) as unknown;
  }

  set(kind: string, file: string, hash: string, value: unknown): void {
    this.kept.set(ResultCache.id(kind, file, hash), serialize(value));
  }

  /** Writes what this run used, through a temporary file so a crash never leaves half a cache. */
  save(): void {
    const value: Stored = { format: FORMAT, key: this.key, entries: this.kept };
    mkdirSync(dirname(this.file), { recursive: true });
    const temporary = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temporary, serialize(value));
    renameSync(temporary, this.file);
  }
}

/** The cache as the passes use it: keyed by a file's text (and what else a result depends on). */
export interface FileCache<Kinds> {
  get<K extends keyof Kinds & string>(kind: K, file: string, text: string, extra?: string): Kinds[K] | undefined;
  /** Stores `value` and returns it. */
  put<K extends keyof Kinds & string>(kind: K, file: string, text: string, value: Kinds[K], extra?: string): Kinds[K];
  /** The stored value, or `compute()`'s, stored. */
  remember<K extends keyof Kinds & string>(kind: K, file: string, text: string, compute: () => Kinds[K]): Kinds[K];
  /** Saves the cache; the figures for the result, or undefined when no cache was used. */
  finish(): { hits: number; misses: number; discarded?: string } | undefined;
}

function noCache<Kinds>(): FileCache<Kinds> {
  return {
    get: () => undefined,
    put: (_kind, _file, _text, value) => value,
    remember: (_kind, _file, _text, compute) => compute(),
    finish: () => undefined,
  };
}

interface CacheOptions {
  cache?: string;
  fix?: string;
  types: boolean;
  includeSuppressed: boolean;
  maxFileSize?: number;
  prefilter?: boolean;
}

interface CachedProject {
  root: string;
  files: readonly string[];
  configs: readonly { path?: string; options: object }[];
}

/** The nearest package.json of each file, up to the root: what a file's role may read. */
function manifestsOf(project: CachedProject): string[] {
  const found = new Map<string, string | undefined>();
  const nearest = (folder: string): string | undefined => {
    if (found.has(folder)) return found.get(folder);
    const candidate = join(folder, 'package.json');
    let result: string | undefined;
    try {
      statSync(candidate);
      result = candidate;
    } catch {
      const parent = dirname(folder);
      result = folder === project.root || parent === folder ? undefined : nearest(parent);
    }
    found.set(folder, result);
    return result;
  };
  const manifests = new Set<string>();
  for (const file of project.files) {
    const manifest = nearest(dirname(file));
    if (manifest !== undefined) manifests.add(manifest);
  }
  return [...manifests].sort();
}

/** The run's cache, or one that keeps nothing when `--cache` is not given or the run fixes files. */
export function cacheFor<Kinds>(
  options: CacheOptions,
  project: CachedProject,
  configOf: (file: string) => unknown = () => undefined,
): FileCache<Kinds> {
  if (options.cache === undefined || options.fix !== undefined) return noCache();
  const results = {
    types: options.types,
    includeSuppressed: options.includeSuppressed,
    maxFileSize: options.maxFileSize ?? null,
    prefilter: options.prefilter ?? true,
    configs: project.configs.map((config) => [config.path ?? null, config.options]),
  };
  const tree = options.types
    ? project.files.map((file) => {
        try {
          return `${file}\u0001${hashParts(readFileSync(file, 'utf8'))}`;
        } catch {
          return `${file}\u0001(unreadable)`;
        }
      })
    : [];
  const store = new ResultCache(options.cache, runKey({ results, tree }, manifestsOf(project)));
  const configs = new Map<string, string>();
  const configKey = (file: string): string => {
    let key = configs.get(file);
    if (key === undefined) {
      key = JSON.stringify(configOf(file) ?? null);
      configs.set(file, key);
    }
    return key;
  };
  const id = (file: string, text: string, extra: string | undefined): string =>
    hashParts(text, configKey(file), extra ?? '');
  const cache: FileCache<Kinds> = {
    get: (kind, file, text, extra) => store.get(kind, file, id(file, text, extra)) as Kinds[typeof kind] | undefined,
    put: (kind, file, text, value, extra) => {
      store.set(kind, file, id(file, text, extra), value);
      return value;
    },
    remember: (kind, file, text, compute) => cache.get(kind, file, text) ?? cache.put(kind, file, text, compute()),
    finish: () => {
      store.save();
      return { hits: store.hits, misses: store.misses, ...(store.discarded ? { discarded: store.discarded } : {}) };
    },
  };
  return cache;
}
