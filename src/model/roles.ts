import path from 'node:path';

import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext } from './ast/context.js';
import { settingsOf } from './settings.js';
import { isBrowserFile, isClientOnlyModule } from './roles/browser.js';
import {
  isCliPath,
  isRunToCompletion,
  isScriptPath,
  parsesCommandLine,
  readsArgvAtTopLevel,
  SERVES,
} from './roles/script.js';
import { nearestManifest } from './roles/package.js';
import { isServerFrameworkFile, serverDataExports } from './roles/server.js';
import { directives, folders, type RoleSource } from './roles/source.js';
import { hasTopLevelTestCall, importsTestModule, isTestPath } from './roles/test.js';

export { isInTestCallback } from './roles/test.js';

/**
 * Where a file's code runs, which decides what is worth reporting in it: a fresh key per test
 * run is what a test wants; a browser's `fetch` is bounded by the user who clicks again; a
 * one-off script has no broker to redeliver to it. Delivery code (consumer handlers, webhooks)
 * is a property of handlers, not of files, and lives with them.
 */
export type FileRole = 'test' | 'browser' | 'script' | 'server' | 'unreached';

/**
 * Every role, in the order a file is tested for them after the path overrides. `unreached` is
 * code no entry of the program reaches (dead code, a module nothing loads): only
 * `idempotency-check`, which sees every module, can tell (analysis/reached-roles.ts), or a user's
 * `roles` glob; no rule reports there unless its `roles` option names it.
 */
export const FILE_ROLES: readonly FileRole[] = ['test', 'browser', 'script', 'server', 'unreached'];

/**
 * The role of one file from its path and its own code: the plugin sees one file, so nothing
 * here guesses from who imports it. `filename` is best given relative to the project root (a
 * checkout under `/home/me/tests/` is not a test); backslashes are read as separators.
 */
export function fileRole(filename: string, source: string | RoleSource, ast?: TSESTree.Program): FileRole {
  return fileRoleDecision(filename, source, ast).role;
}

/**
 * A file's role and whether its path or code decided it. An undecided file is `server` only
 * because nothing says otherwise: `idempotency-check` gives it the roles of the entries that
 * reach it through imports instead (a helper only client components import runs in the
 * browser). A file that serves (listens, starts a worker, schedules) is decided: it is an entry.
 */
export interface RoleDecision {
  role: FileRole;
  decided: boolean;
  /**
   * What the file gives the modules it loads, when that is not its own role. A Next.js component
   * without `'use client'` is a server component unless a client module loads it: it passes on
   * the roles that reach it (`'reached'`), and an App Router page or layout, rendered on the
   * server, gives `server`.
   */
  gives?: FileRole | 'reached';
  /**
   * In a browser module, the exports its framework runs on the server (a Pages Router page's
   * `getServerSideProps`, a Remix route's `loader`): they and the module's functions they call
   * are server code, where a rule that reports on servers reports.
   */
  serverExports?: string[];
}

/** The App Router's server-rendered files under `app/`: pages, layouts and templates. */
const APP_ROUTER_FILE = /^(?:page|layout|template|default|not-found)\.[cm]?[jt]sx?$/;

export function fileRoleDecision(filename: string, source: string | RoleSource, ast?: TSESTree.Program): RoleDecision {
  const file: RoleSource = typeof source === 'string' ? { text: source, ...(ast && { ast }) } : source;
  const where = `/${filename.replace(/\\/g, '/').replace(/^\/+/, '')}`;
  const base = where.slice(where.lastIndexOf('/') + 1);
  const decided = (role: FileRole): RoleDecision => ({ role, decided: true });
  if (isTestPath(where, base) || importsTestModule(file.text) || hasTopLevelTestCall(file)) return decided('test');
  if (isServerFrameworkFile(where, base, file)) return decided('server');
  const serverExports = serverDataExports(file);
  if (serverExports.length > 0) {
    // A page's component runs in the browser and its data functions on the server; it loads
    // modules for both, and gives them server (what the browser bundle keeps is not told apart).
    if (isBrowserFile(base, file)) return { role: 'browser', decided: true, gives: 'server', serverExports };
    return decided('server');
  }
  if (directives(file).includes('use client') || isClientOnlyModule(where, file)) return decided('browser');
  // A file in a script folder, or an executable (`#!/usr/bin/env node`), that serves or runs on a
  // schedule (`bin/jobs/*.ts` cron jobs, a worker process started by its own command) stays server;
  // a CLI's own local server (an OAuth callback on localhost) does not make it one.
  if (isCliPath(where) || ((isScriptPath(where, base) || file.text.startsWith('#!')) && !SERVES.test(file.text)))
    return decided('script');
  if (readsArgvAtTopLevel(file) || isRunToCompletion(file) || parsesCommandLine(file)) return decided('script');
  if (isBrowserFile(base, file)) {
    if (!file.manifest?.dependencies.has('next')) return decided('browser');
    const page = folders(where).includes('app') && APP_ROUTER_FILE.test(base);
    return { role: 'browser', decided: true, gives: page ? 'server' : 'reached' };
  }
  return { role: 'server', decided: SERVES.test(file.text) };
}

/** A POSIX glob (`**`, `*`, `?`, `{a,b}`) as a regular expression over a whole relative path. */
function globRegExp(glob: string): RegExp {
  let source = '';
  for (let index = 0; index < glob.length; index++) {
    const char = glob.charAt(index);
    if (char === '*' && glob[index + 1] === '*') {
      // `**/` matches zero or more folders; a trailing `**` anything.
      const slash = glob[index + 2] === '/';
      source += slash ? '(?:[^/]*/)*' : '.*';
      index += slash ? 2 : 1;
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else if (char === '{') source += '(?:';
    else if (char === '}') source += ')';
    else if (char === ',') source += '|';
    else source += /[.+^$()|[\]\\]/.test(char) ? `\\${char}` : char;
  }
  return new RegExp(`^${source}$`);
}

const globCache = new Map<string, RegExp>();

/** The role `settings.idempotency.roles` gives this path, if any (test, browser, script, server, unreached, in that order). */
function settingsRole(relative: string, roles: RoleSettings | undefined): FileRole | undefined {
  if (!roles) return undefined;
  for (const role of FILE_ROLES) {
    for (const glob of roles[role] ?? []) {
      let regexp = globCache.get(glob);
      if (!regexp) {
        regexp = globRegExp(glob.replace(/^\.\//, ''));
        globCache.set(glob, regexp);
      }
      if (regexp.test(relative)) return role;
    }
  }
  return undefined;
}

/**
 * `settings.idempotency.roles`: path globs, relative to ESLint's working directory, that give
 * files a role whatever their code says (`{ test: ['qa/**'], server: ['scripts/worker/**'] }`).
 * Users write it; `idempotency-check` computes the other settings and never this one.
 */
type RoleSettings = Partial<Record<FileRole, string[]>>;

function roleSettingsOf(context: AnyRuleContext): RoleSettings | undefined {
  return settingsOf(context).roles;
}

const roleCache = new WeakMap<object, { settings: unknown; decision: RoleDecision }>();

/**
 * The role of the file a rule is linting, once per file: the shared settings' path globs first
 * (`settings.idempotency.roles`, relative to ESLint's working directory), then `fileRole` on the
 * path relative to that directory, so the plugin and `idempotency-check` (whose working
 * directory is the scanned root) classify a file the same way.
 */
export function roleOf(context: AnyRuleContext): FileRole {
  return roleDecisionOf(context).role;
}

/** {@link roleOf} with whether the path or code decided it (a path glob of the settings decides). */
export function roleDecisionOf(context: AnyRuleContext): RoleDecision {
  const sourceCode = context.sourceCode;
  const roles = roleSettingsOf(context);
  const cached = roleCache.get(sourceCode);
  if (cached && cached.settings === roles) return cached.decision;
  const relative = relativePath(context.filename, projectRoot(context));
  const given = settingsRole(relative, roles);
  const decision =
    given === undefined
      ? fileRoleDecision(relative, {
          text: sourceCode.text,
          ast: sourceCode.ast,
          scopeManager: sourceCode.scopeManager,
          manifest: nearestManifest(context.filename),
        })
      : { role: given, decided: true };
  roleCache.set(sourceCode, { settings: roles, decision });
  return decision;
}

const partsCache = new WeakMap<object, readonly (readonly [number, number])[]>();

/**
 * The ranges of a browser module that run on the server (see {@link RoleDecision.serverExports}):
 * the top-level statements declaring those exports and, through the module's own bindings they
 * reference, every top-level function or constant they use, transitively. Undefined when the
 * module has none.
 */
export function serverPartsOf(context: AnyRuleContext): readonly (readonly [number, number])[] | undefined {
  const names = roleDecisionOf(context).serverExports;
  if (!names) return undefined;
  const sourceCode = context.sourceCode;
  const cached = partsCache.get(sourceCode);
  if (cached) return cached;
  const body = sourceCode.ast.body;
  // The top-level statement that declares each module binding, and the statement each reference sits in.
  const declaring = new Map<TSESLint.Scope.Variable, TSESTree.ProgramStatement>();
  const statementAt = (index: number): TSESTree.ProgramStatement | undefined => {
    let low = 0;
    let high = body.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const statement = body[middle];
      if (!statement) return undefined;
      if (index < statement.range[0]) high = middle - 1;
      else if (index >= statement.range[1]) low = middle + 1;
      else return statement;
    }
    return undefined;
  };
  const moduleScope =
    sourceCode.scopeManager?.scopes.find((scope) => scope.type === TSESLint.Scope.ScopeType.module) ??
    sourceCode.scopeManager?.globalScope;
  for (const variable of moduleScope?.variables ?? []) {
    const node = variable.defs[0]?.node;
    const statement = node && statementAt(node.range[0]);
    if (statement) declaring.set(variable, statement);
  }
  const uses = new Map<TSESTree.ProgramStatement, Set<TSESTree.ProgramStatement>>();
  for (const scope of sourceCode.scopeManager?.scopes ?? []) {
    for (const reference of scope.references) {
      const target = reference.resolved && declaring.get(reference.resolved);
      const from = target && statementAt(reference.identifier.range[0]);
      if (!target || !from || from === target) continue;
      const set = uses.get(from) ?? new Set();
      set.add(target);
      uses.set(from, set);
    }
  }
  const parts = new Set<TSESTree.ProgramStatement>();
  const queue = [...declaring].flatMap(([variable, statement]) => (names.includes(variable.name) ? [statement] : []));
  for (let statement = queue.pop(); statement; statement = queue.pop()) {
    if (parts.has(statement)) continue;
    parts.add(statement);
    // An import is the module's edge to others, not code of its own.
    for (const used of uses.get(statement) ?? []) if (used.type !== AST_NODE_TYPES.ImportDeclaration) queue.push(used);
  }
  const ranges = [...parts].map((statement) => statement.range);
  partsCache.set(sourceCode, ranges);
  return ranges;
}

/**
 * The roles the file a rule is linting runs in: its own role when its path (a
 * `settings.idempotency.roles` glob included) or its code decides it; else the roles of the
 * entries that reach it, when `idempotency-check` computed them (`reachedRoles`); else `server`.
 */
export function rolesOf(context: AnyRuleContext): readonly FileRole[] {
  const decision = roleDecisionOf(context);
  const reached = decision.decided ? undefined : settingsOf(context).reachedRoles;
  return reached ?? [decision.role];
}

/**
 * The folder paths are read from: ESLint's working directory, unless that is the file system's
 * root (typescript-eslint's RuleTester lints absolute paths from there), which says nothing of
 * the project; then the `tsconfigRootDir` the parser was given, if the file is under it.
 */
function projectRoot(context: AnyRuleContext): string | undefined {
  const cwd = context.cwd;
  if (cwd && path.parse(cwd).root !== cwd) return cwd;
  const options = context.languageOptions.parserOptions as { tsconfigRootDir?: unknown } | undefined;
  const root = options?.tsconfigRootDir;
  return typeof root === 'string' ? root : cwd;
}

function relativePath(filename: string, cwd: string | undefined): string {
  const posix = filename.replace(/\\/g, '/');
  if (!cwd || !path.isAbsolute(filename)) return posix;
  const relative = path.relative(cwd, filename).replace(/\\/g, '/');
  return relative.startsWith('../') || path.isAbsolute(relative) ? posix : relative;
}
