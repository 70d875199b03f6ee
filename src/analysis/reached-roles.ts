import path from 'node:path';
import { FILE_ROLES, type FileRole } from '../model/roles.js';
import type { ImportBinding } from './sources.js';
import type { FileState } from './graph.js';

/**
 * Roles by reachability: where a module runs is where the entries that load it run. A file whose
 * own path and code decide its role (a `"use client"` component, a command under `cli/`, a route
 * handler, a module that serves) is an entry of that role; so is an undecided file that no
 * analysed file loads (a server's `main`, a Lambda handler, or dead code: all read as server, as
 * the plugin reads them), unless it runs nothing of its own (a package's barrel of re-exports,
 * which no one runs: its modules run where the modules that load them run). An undecided module takes the roles of every entry that loads it,
 * directly or through other undecided modules: a helper only client components import runs in
 * the browser, and a helper a route and a component share is server code.
 *
 * A named import from a barrel (a module that runs nothing of its own) loads the modules that
 * define the names, through its re-exports: a server that imports `initOpenapiSDK` from a client
 * SDK's `index.ts` runs none of the SDK's browser tracker.
 *
 * Two kinds of load give nothing:
 * - A test's. Tests load the modules they test, and a module's production loader is often one
 *   imports do not show (a plugin folder read at startup, a package's entry point), so "only tests
 *   import it" says more about the graph than about the module.
 * - An import of nothing that runs: only exports that are no function or class of the module (a
 *   schema, a constant), as a client form imports a server module's validation schema.
 *
 * Entries the project declares outside any file's code (`entries`: a package's `bin` commands,
 * scripts) give their role like a file that decides its own; single-file components (`.vue`,
 * `.svelte`: `components`, with the modules they load) are browser entries.
 *
 * Dead code is no entry: an undecided module that nothing loads and that only defines (its
 * top level calls nothing and it exports no name a platform calls, model/modules.ts `onlyDefines`)
 * runs only if something calls it. Where the project loads other modules of its folder one by one
 * (a folder of helpers or use cases), nothing does: it is `unreached`, and so is what only such
 * modules load; no rule reports there unless its `roles` name it. Alone in its folder, it may be
 * what a platform runs by a path no file spells, and stays an entry. A module loaded in a way the
 * graph may not see stays an entry: one in a folder some module loads by a computed path, one an
 * infrastructure file declares (`declared`), one whose name an import that resolves nowhere ends
 * with (an alias the loader does not know).
 *
 * Returns, for each undecided file that some entry reaches, the roles reaching it, in
 * {@link FILE_ROLES} order, only where they differ from the `['server']` it has on its own.
 */
export function reachedRoles(
  states: ReadonlyMap<string, FileState>,
  resolve: (specifier: string, from: string) => string | undefined,
  entries: ReadonlyMap<string, FileRole> = new Map(),
  components: readonly { file: string; loads: readonly string[] }[] = [],
  definitionOf: (file: string, name: string) => { file: string; name: string } | undefined = () => undefined,
  declared: ReadonlySet<string> = new Set(),
): Map<string, FileRole[]> {
  /** Where each name a barrel re-exports is defined; undefined when one of them cannot be told. */
  const definitions = (barrel: string, names: ReadonlySet<string>): { file: string; name: string }[] | undefined => {
    const found = [...names].map((name) => definitionOf(barrel, name));
    return found.every((definition) => definition !== undefined) ? found : undefined;
  };
  const loads = new Map<string, string[]>();
  const loaded = new Set<string>();
  // Components load what their scripts import, every export of it alike.
  for (const component of components) {
    const targets = component.loads.filter((target) => states.has(target));
    loads.set(component.file, targets);
    for (const target of targets) loaded.add(target);
  }
  for (const state of states.values()) {
    const targets = new Set<string>();
    for (const [target, names] of loadedModules(state, resolve)) {
      if (target === state.path) continue;
      const loadedState = states.get(target);
      if (!loadedState) continue;
      // Names imported from a barrel load the modules that define them, not all it re-exports.
      const defined = names !== 'all' && loadedState.facts.runsNothing ? definitions(target, names) : undefined;
      if (defined) {
        for (const definition of defined) {
          const definingState = states.get(definition.file);
          if (definition.file !== state.path && definingState && loadsCode(definingState, new Set([definition.name])))
            targets.add(definition.file);
        }
        continue;
      }
      if (names !== 'all' && !loadsCode(loadedState, names)) continue;
      targets.add(target);
    }
    loads.set(state.path, [...targets]);
    for (const target of targets) loaded.add(target);
  }
  const dead = deadModules(states, resolve, loads, loaded, entries, declared);
  /** What a file passes on: the roles that reach it, unless it is an entry of its own. */
  const passesOn = (state: FileState | undefined): boolean =>
    state !== undefined && (!state.facts.role.decided || state.facts.role.gives === 'reached');
  const reached = new Map<string, Set<FileRole>>();
  for (const role of FILE_ROLES) {
    if (role === 'test') continue;
    const queue: string[] = [];
    for (const state of states.values()) {
      const own = state.facts.role;
      const gives =
        entries.get(state.path) ??
        (own.decided
          ? (own.gives ?? own.role)
          : loaded.has(state.path) || state.facts.runsNothing
            ? undefined
            : dead.has(state.path)
              ? 'unreached'
              : 'server');
      if (gives === role) queue.push(state.path);
    }
    if (role === 'browser') for (const component of components) queue.push(component.file);
    for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
      for (const target of loads.get(next) ?? []) {
        if (!passesOn(states.get(target))) continue;
        let roles = reached.get(target);
        if (!roles) reached.set(target, (roles = new Set()));
        if (roles.has(role)) continue;
        roles.add(role);
        queue.push(target);
      }
    }
  }
  // An entry the project declares (a package's command) runs in its role, whatever else loads it.
  for (const [file, role] of entries) {
    if (states.get(file)?.facts.role.decided !== false) continue;
    let roles = reached.get(file);
    if (!roles) reached.set(file, (roles = new Set()));
    roles.add(role);
    loaded.add(file);
  }
  const result = new Map<string, FileRole[]>();
  for (const [file, roles] of reached) {
    if (states.get(file)?.facts.role.decided !== false) continue;
    // A file no entry loads stands for itself: its own role, server.
    if (!loaded.has(file)) roles.add('server');
    // Reached by an entry, it is not dead because dead code loads it too.
    if (roles.size > 1) roles.delete('unreached');
    if (roles.size === 1 && roles.has('server')) continue;
    result.set(
      file,
      FILE_ROLES.filter((role) => roles.has(role)),
    );
  }
  for (const file of dead) result.set(file, ['unreached']);
  return result;
}

/**
 * Functions no module runs: in every module, the top-level functions it neither exports nor
 * names; of an undecided module whose every loader names what it imports (no namespace, default
 * or side-effect import, no `require`, no re-export), the exported functions none of them imports
 * and the module does not name itself. An export a platform calls by name, and the modules the
 * graph may not see every loader of (see {@link reachedRoles}), keep theirs. By local name, for
 * each module that has some.
 */
export function unreachedFunctions(
  states: ReadonlyMap<string, FileState>,
  resolve: (specifier: string, from: string) => string | undefined,
  declared: ReadonlySet<string> = new Set(),
): Map<string, string[]> {
  const imported = new Map<string, Set<string> | 'all'>();
  for (const state of states.values())
    for (const [target, names] of loadedModules(state, resolve)) {
      if (target === state.path) continue;
      const previous = imported.get(target);
      if (names === 'all' || previous === 'all') imported.set(target, 'all');
      else imported.set(target, new Set([...(previous ?? []), ...names]));
    }
  const blind = blindSpots(states, resolve);
  const result = new Map<string, string[]>();
  // A function a module neither exports nor names is dead wherever the module runs.
  for (const state of states.values())
    if (!state.skipped && state.facts.unnamedFunctions.length > 0)
      result.set(state.path, [...state.facts.unnamedFunctions]);
  for (const [file, names] of imported) {
    const state = states.get(file);
    if (names === 'all' || !state || state.skipped || state.facts.role.decided || state.facts.opaqueExports) continue;
    // What a test imports, it runs: a module's production loader may be one the graph does not see.
    if (blind.tested.has(file) || declared.has(file) || blind.hidden(file)) continue;
    const named = new Set(state.facts.namedFunctions);
    const dead = state.facts.ownExports.flatMap(({ name, local = name }) =>
      state.facts.exports.has(name) && !names.has(name) && !ENTRY_EXPORT.test(name) && !named.has(local) ? [local] : [],
    );
    if (dead.length > 0) result.set(file, [...(result.get(file) ?? []), ...dead]);
  }
  return result;
}

/** The names a platform calls a module's export by: a Lambda's `handler`, a main, a default export, a route's HTTP method. */
const ENTRY_EXPORT = /^(?:handler|main|default|GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)$/;

/**
 * Modules a framework loads by their file's name: Next.js's `instrumentation.ts` (its `register`,
 * nextjs.org/docs/app/guides/instrumentation), `middleware.ts` and its successor `proxy.ts`.
 */
const FRAMEWORK_ENTRY_FILE = /^(?:instrumentation(?:-client)?|middleware|proxy)\.[cm]?[jt]sx?$/;

/** Undecided modules that nothing loads and that only define: dead code (see {@link reachedRoles}). */
function deadModules(
  states: ReadonlyMap<string, FileState>,
  resolve: (specifier: string, from: string) => string | undefined,
  loads: ReadonlyMap<string, readonly string[]>,
  loaded: ReadonlySet<string>,
  entries: ReadonlyMap<string, FileRole>,
  declared: ReadonlySet<string>,
): Set<string> {
  const dead = new Set<string>();
  const candidates = [...states.values()].filter(
    ({ path: file, skipped, facts }) =>
      !skipped &&
      !facts.role.decided &&
      facts.onlyDefines &&
      !facts.runsNothing &&
      !facts.opaqueExports &&
      facts.handlers.length === 0 &&
      !loaded.has(file) &&
      !entries.has(file) &&
      !declared.has(file) &&
      !FRAMEWORK_ENTRY_FILE.test(path.basename(file)) &&
      !facts.ownExports.some((entry) => ENTRY_EXPORT.test(entry.name)),
  );
  if (candidates.length === 0) return dead;
  // A folder whose modules the live program loads one by one is a library of its own: the one it
  // does not load is dead. Live: what the program's entries (modules that decide their role, those
  // the project declares, and those nothing loads but the candidates and barrels, which no one
  // runs) load, transitively; the candidates' own loads say nothing of it.
  const blind = blindSpots(states, resolve);
  const candidateFiles = new Set(candidates.map((state) => state.path));
  const live = [...states.values()]
    .filter(
      ({ path: file, facts }) =>
        !candidateFiles.has(file) &&
        (facts.role.decided || entries.has(file) || (!loaded.has(file) && !facts.runsNothing)),
    )
    .map((state) => state.path);
  const reached = new Set(live);
  const loadedFolders = new Set<string>();
  for (let next = live.pop(); next !== undefined; next = live.pop())
    for (const target of loads.get(next) ?? []) {
      loadedFolders.add(path.dirname(target));
      if (!reached.has(target)) {
        reached.add(target);
        live.push(target);
      }
    }
  for (const { path: file } of candidates) {
    const folder = path.dirname(file);
    if (!loadedFolders.has(folder)) continue;
    // A module some file imports at all (a test, or an import of what reads as constants only: a
    // table of imported handlers loads their code all the same) is no dead module.
    if (blind.imported.has(file) || blind.hidden(file)) continue;
    dead.add(file);
  }
  return dead;
}

/**
 * How modules are loaded where the graph may not see it: `imported`, every module some file
 * imports whatever names it takes; `tested`, those a test imports; `hidden`, a module of a folder
 * some module loads by a computed path, or whose name an import that resolves nowhere ends with
 * (an alias the loader does not know). Once per program.
 */
interface BlindSpots {
  imported: ReadonlySet<string>;
  tested: ReadonlySet<string>;
  hidden: (file: string) => boolean;
}

const blindSpotsCache = new WeakMap<ReadonlyMap<string, FileState>, BlindSpots>();

function blindSpots(
  states: ReadonlyMap<string, FileState>,
  resolve: (specifier: string, from: string) => string | undefined,
): BlindSpots {
  const known = blindSpotsCache.get(states);
  if (known) return known;
  const imported = new Set<string>();
  const tested = new Set<string>();
  const unresolved = new Set<string>();
  const folders: string[] = [];
  for (const state of states.values()) {
    const test = state.facts.role.decided && state.facts.role.role === 'test';
    for (const specifier of state.skipped ? (state.loads ?? []) : state.facts.specifiers) {
      const target = resolve(specifier, state.path);
      if (target === undefined) unresolved.add(stemOf(specifier));
      else {
        imported.add(target);
        if (test) tested.add(target);
      }
    }
    for (const folder of [...state.facts.loadedFolders, ...state.facts.computedLoadFolders])
      folders.push(path.resolve(path.dirname(state.path), folder));
  }
  const hidden = (file: string): boolean => {
    const folder = path.dirname(file);
    return (
      unresolved.has(stemOf(file)) ||
      folders.some((loaded) => folder === loaded || folder.startsWith(`${loaded}${path.sep}`))
    );
  };
  const spots = { imported, tested, hidden };
  blindSpotsCache.set(states, spots);
  return spots;
}

/** The name a specifier or a file is loaded by: its last segment without extension, or its folder's for an index. */
function stemOf(specifier: string): string {
  const segments = specifier
    .replace(/\\/g, '/')
    .split('/')
    .filter((segment) => segment !== '' && segment !== '.');
  const last = (segments.at(-1) ?? '').replace(/\.[cm]?[jt]sx?$/, '');
  return last === 'index' && segments.length > 1 ? (segments.at(-2) ?? last) : last;
}

/**
 * The modules a file loads, each with the names it imports from it, or `'all'` for a load that
 * may run any of its code (a namespace or default import, a re-export, `require`, `import()`, an
 * import for its side effects). Tests load nothing here (see {@link reachedRoles}).
 */
function loadedModules(
  state: FileState,
  resolve: (specifier: string, from: string) => string | undefined,
): Map<string, Set<string> | 'all'> {
  const modules = new Map<string, Set<string> | 'all'>();
  if (state.facts.role.decided && state.facts.role.role === 'test') return modules;
  const bindings: readonly ImportBinding[] = state.skipped ? (state.imports ?? []) : state.facts.imports;
  const named = new Map<string, Set<string>>();
  for (const binding of bindings) {
    let names = named.get(binding.specifier);
    if (!names) named.set(binding.specifier, (names = new Set()));
    names.add(binding.imported);
  }
  const specifiers = state.skipped ? (state.loads ?? []) : state.facts.specifiers;
  for (const specifier of specifiers) {
    const target = resolve(specifier, state.path);
    if (target === undefined) continue;
    const names = named.get(specifier);
    // A specifier also re-exported or loaded another way than by named imports loads it all.
    const reExported = !state.skipped && state.facts.reExports.some((entry) => entry.specifier === specifier);
    const previous = modules.get(target);
    if (names === undefined || reExported || names.has('*') || names.has('default') || previous === 'all')
      modules.set(target, 'all');
    else modules.set(target, new Set([...(previous ?? []), ...names]));
  }
  return modules;
}

/**
 * Whether importing these names from a module can run its code: one of them is a function, a
 * class, a value holding functions (an MCP tool's `{ handler }`, a table of handlers) or something
 * the facts cannot tell (a re-exported name, a module set aside), not only a constant such as a
 * schema.
 */
function loadsCode(state: FileState, names: ReadonlySet<string>): boolean {
  const facts = state.facts;
  if (state.skipped || facts.opaqueExports) return true;
  // A class is code, its static methods alone too (`EnrichmentSourceServiceFactory.getSource(…)`).
  const classes = new Set(
    [...facts.members.keys(), ...facts.statics.keys()].map((key) => key.slice(0, key.indexOf('.'))),
  );
  const declaredClasses = new Set(facts.classes.map((shape) => shape.name));
  const own = new Set(
    facts.ownExports
      .filter((entry) => !entry.holdsCode && !declaredClasses.has(entry.local ?? entry.name))
      .map((entry) => entry.name),
  );
  return [...names].some((name) => facts.exports.has(name) || classes.has(name) || !own.has(name));
}
