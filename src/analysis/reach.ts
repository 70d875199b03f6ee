import { basename, dirname, resolve } from 'node:path';

import { emptyFacts } from './facts.js';
import { ImportGraph, resolveLocal, type FileState } from './graph.js';
import { inventory } from './inventory.js';
import type { LoadedProject } from './project.js';
import type { Registrars } from './registrars.js';
import type { FunctionSummary } from '../model/effects.js';

/**
 * Reachability of the files the prefilter set aside: which of them the analysed files' facts
 * lead to after all, so the passes lint them too.
 */

/**
 * The skipped files that the analysed files' facts reach: imported by an analysed file when
 * they may inform it, looked up by the inventory's composition of a handler (a function a handler
 * calls, to the end of the chain over the rounds of the reach), registered as a handler by another
 * file, or importing an analysed file that exports a fact (a pool, a client, a helper defined
 * elsewhere). Only what the results of a `wanted` file (every file, unless a run reports a share
 * of them) depend on is reached.
 */
export function reachedSkippedFiles(
  project: LoadedProject,
  states: ReadonlyMap<string, FileState>,
  graph: ImportGraph,
  wanted: (state: FileState) => boolean = () => true,
): FileState[] {
  const reached = new Map<string, FileState>();
  const skippedTarget = (specifier: string, from: string): FileState | undefined => {
    const target = resolveLocal(project, specifier, from);
    const state = target === undefined ? undefined : states.get(target);
    return state?.skipped ? state : undefined;
  };
  const exportsFacts = new Set<string>();
  const registrars = graph.registrars();
  for (const state of states.values()) {
    if (state.skipped) continue;
    if (
      [...state.facts.exports.values()].some(
        (fact) => fact.kinds.length > 0 || fact.keyParameters !== undefined || fact.keyedBodyParameters !== undefined,
      ) ||
      // A transaction wrapper: its callers open a transaction, though their text may name none.
      [...state.facts.exports.values(), ...state.facts.members.values()].some(
        (fact) => fact.transactionWrapper !== undefined,
      ) ||
      // A registrar: its callers register handlers, though their text may name no broker.
      registrars.inFile(state.path)
    )
      exportsFacts.add(state.path);
    for (const registered of [...state.facts.importedHandlers, ...graph.factoryRegistrations(state, registrars)]) {
      // A route whose handler must check the sender to be a webhook: a file that could not was skipped for it.
      if (registered.needsSenderCheck) continue;
      const target = skippedTarget(registered.specifier, state.path);
      if (target && wanted(target)) reached.set(target.path, target);
    }
    // A function of another module handed to a registrar of the program (`createWorker('mail', sendMail)`).
    for (const handOff of state.facts.handOffs)
      for (const registrar of registrars.at(state.path, handOff.to)) {
        const value = registrar.property === undefined ? handOff.imported?.[registrar.index] : undefined;
        const target = value ? skippedTarget(value.specifier, state.path) : undefined;
        if (target && wanted(target)) reached.set(target.path, target);
      }
  }
  // The modules of a folder another module loads into a table (handler/folder-tables.ts): no import names them.
  for (const state of states.values()) {
    if (state.skipped || state.facts.loadedFolders.length === 0) continue;
    const folders = new Set(state.facts.loadedFolders.map((folder) => resolve(dirname(state.path), folder)));
    for (const other of states.values())
      if (other.skipped && folders.has(dirname(other.path)) && wanted(other)) reached.set(other.path, other);
  }
  // A Lambda an infrastructure file declares runs its module's export for each delivery.
  for (const lambda of project.lambdas) {
    const state = states.get(lambda.file);
    if (!state || !wanted(state)) continue;
    if (state.skipped) reached.set(lambda.file, state);
  }
  // Temporal activity modules and the files their re-exports lead to define handlers (a skipped
  // barrel among them is read whatever its share: only its re-exports tell where they lead).
  const activityQueue = [...graph.temporalFiles().keys(), ...graph.temporalFactoryFiles()];
  const activitySeen = new Set<string>();
  for (let file = activityQueue.shift(); file !== undefined; file = activityQueue.shift()) {
    if (activitySeen.has(file)) continue;
    activitySeen.add(file);
    const state = states.get(file);
    if (!state) continue;
    if (state.skipped) {
      reached.set(file, state);
      continue;
    }
    for (const entry of state.facts.reExports) {
      const target = resolveLocal(project, entry.specifier, file);
      if (target !== undefined) activityQueue.push(target);
    }
  }
  // The modules that declare a typed slot a handler calls through, and those that may store functions in it.
  for (const state of slotFiles(project, states, wanted)) reached.set(state.path, state);
  // The classes that implement a type some function calls a method through: any may be the one called.
  for (const state of implementingFiles(states, wanted)) reached.set(state.path, state);
  // What the inventory's composition of every handler looks up in a skipped file: a function a
  // handler calls (or what that calls, once the file is read, in the next round).
  for (const state of lookedUpByInventory(project, states)) reached.set(state.path, state);
  // Only specifiers that can name a fact-exporting file are resolved: `./db.js` for `db.ts`,
  // `./db` for `db/index.ts`, and bare specifiers (workspace packages, `paths`).
  const factNames = new Set<string>();
  for (const file of exportsFacts) {
    const stem = basename(file).replace(/\.[^.]+$/, '');
    factNames.add(stem);
    if (stem === 'index') factNames.add(basename(dirname(file)));
  }
  const mayNameFactFile = (specifier: string): boolean =>
    !specifier.startsWith('.') || factNames.has(basename(specifier).replace(/\.[cm]?[jt]sx?$/, ''));
  const informing = [...states.values()].some((state) => state.skipped && state.informs);
  // Whether a file's re-exports (file to file, whatever the names) reach a skipped file that may
  // inform: only then is ts-morph asked which file defines a name, since it parses what it follows.
  const leads = new Map<string, boolean>();
  const mayLeadToInforming = (file: string): boolean => {
    const known = leads.get(file);
    if (known !== undefined) return known;
    leads.set(file, false);
    const state = states.get(file);
    let found = state?.skipped === true && state.informs === true;
    if (state && !state.skipped) {
      for (const entry of state.facts.reExports) {
        const target = resolveLocal(project, entry.specifier, file);
        if (target !== undefined && mayLeadToInforming(target)) found = true;
      }
    }
    leads.set(file, found);
    return found;
  };
  const tableDecorators = graph.lookedUpTableDecorators();
  for (const state of states.values()) {
    if (state.skipped) {
      // A module that marks its methods with a table decorator a handler looks up (`@HasuraEvent()`).
      if (tableDecorators.size > 0 && wanted(state) && importsOneOf(project, graph, state, tableDecorators)) {
        reached.set(state.path, state);
        continue;
      }
      if (factNames.size === 0 && !registrars.any()) continue;
      const informed = (state.specifiers ?? []).some((specifier) => {
        const target = mayNameFactFile(specifier) ? resolveLocal(project, specifier, state.path) : undefined;
        return target !== undefined && exportsFacts.has(target);
      });
      // A file that cannot inform its importers is parsed only for the settings its imports get:
      // when none of the names it imports is a fact, linting it would find nothing.
      if (
        wanted(state) &&
        ((informed && (state.informs !== false || importsAFact(state, graph))) ||
          // A registrar or a class that inherits one, through barrels: `import { EmailWorkerService } from '@acme/queue'`.
          (registrars.any() && importsARegistrar(project, graph, registrars, state)))
      ) {
        reached.set(state.path, state);
      }
      continue;
    }
    // What each import names, followed through analysed barrels to the file that defines it;
    // ts-morph is asked only while a skipped file could inform its importers.
    if (!informing || !wanted(state)) continue;
    for (const binding of state.facts.imports) {
      const target = resolveLocal(project, binding.specifier, state.path);
      if (target === undefined || !mayLeadToInforming(target)) continue;
      const defining = skippedDefinition(states, graph, target, binding.imported);
      if (defining?.informs) reached.set(defining.path, defining);
    }
  }
  return [...reached.values()];
}

/** True when a skipped file imports one of `names` (`file\0name` of the defining export), through barrels. */
function importsOneOf(
  project: LoadedProject,
  graph: ImportGraph,
  state: FileState,
  names: ReadonlySet<string>,
): boolean {
  return (state.imports ?? []).some((binding) => {
    const target = resolveLocal(project, binding.specifier, state.path);
    if (target === undefined) return false;
    const defined = graph.definitionOf(target, binding.imported);
    return names.has(`${defined?.file ?? target}\0${defined?.name ?? binding.imported}`);
  });
}

/**
 * True when a skipped file imports a registrar, a class that has or inherits one, or a type one of
 * whose members an implementation makes one (`consumer: QueueConsumer`, then `consumer.subscribe(…)`):
 * its calls (and a subclass's `this.initWorker(...)`) may register handlers.
 */
function importsARegistrar(
  project: LoadedProject,
  graph: ImportGraph,
  registrars: Registrars,
  state: FileState,
): boolean {
  return [...(state.imports ?? []), ...(state.typeImports ?? [])].some((binding) => {
    const target = resolveLocal(project, binding.specifier, state.path);
    if (target === undefined) return false;
    const defined = graph.definitionOf(target, binding.imported);
    return registrars.registers(defined?.file ?? target, defined?.name ?? binding.imported);
  });
}

/** True when the imports TypeScript's parse read from a skipped file give it cross-file settings. */
function importsAFact(state: FileState, graph: ImportGraph): boolean {
  if (state.imports === undefined) return true;
  const settings = graph.settingsFor({ ...state, facts: { ...emptyFacts(), imports: state.imports } });
  return Object.keys(settings).length > 0;
}

/**
 * The skipped file behind `name` exported from `file`: `file` itself when it is skipped, or the
 * skipped file an analysed barrel's re-export leads to. A name an analysed file defines is
 * already known from its facts.
 */
function skippedDefinition(
  states: ReadonlyMap<string, FileState>,
  graph: ImportGraph,
  file: string,
  name: string,
): FileState | undefined {
  const state = states.get(file);
  if (!state || state.skipped) return state;
  if (name === '*' || state.facts.exports.has(name)) return undefined;
  const definition = graph.definitionOf(file, name);
  const defining = definition && states.get(definition.file);
  return defining?.skipped ? defining : undefined;
}

/**
 * The files a handler's calls through typed slots reach (model/handler/slots.ts): the skipped
 * ones among the module that declares the slot's type and the modules that import it, which may
 * store functions in the slot (a job definition `satisfies JobDefinition`, `job({ run })`).
 */
function slotFiles(
  project: LoadedProject,
  states: ReadonlyMap<string, FileState>,
  wanted: (state: FileState) => boolean,
): FileState[] {
  const declaring = new Set<string>();
  for (const state of states.values()) {
    if (state.skipped) continue;
    // The slots its handlers call through, and those of the functions it hands to a registrar
    // of the program (`workerSubscribe(…, (message) => worker.handler(message))`).
    const summaries = [
      ...state.facts.handlers.map((handler) => handler.summary),
      ...state.facts.handOffs.flatMap((handOff) =>
        handOff.functions.flatMap((fn) => (fn?.summary ? [fn.summary] : [])),
      ),
    ];
    for (const summary of summaries)
      for (const slot of summary.slots ?? []) {
        const target =
          slot.type.specifier === undefined ? state.path : resolveLocal(project, slot.type.specifier, state.path);
        if (target === undefined) continue;
        declaring.add(target);
        // A slot of a value another module exports: the module that declares the value's type too.
        const valueType = slot.exportedValue ? states.get(target)?.facts.valueTypes.get(slot.type.name) : undefined;
        const typeFile =
          valueType &&
          (valueType.specifier === undefined ? target : resolveLocal(project, valueType.specifier, target));
        if (typeFile !== undefined) declaring.add(typeFile);
      }
  }
  if (declaring.size === 0) return [];
  // Only specifiers that can name a declaring file are resolved (`./job`, `../client/_internal/job.js`, `@acme/jobs` for its index).
  const stems = new Set<string>();
  for (const file of declaring) {
    const stem = basename(file).replace(/\.[^.]+$/, '');
    stems.add(stem);
    if (stem === 'index') stems.add(basename(dirname(file)));
  }
  const reached: FileState[] = [];
  for (const state of states.values()) {
    if (!state.skipped || !wanted(state)) continue;
    const importsDeclaring = (state.specifiers ?? []).some((specifier) => {
      if (!stems.has(basename(specifier).replace(/\.[cm]?[jt]sx?$/, ''))) return false;
      const target = resolveLocal(project, specifier, state.path);
      return target !== undefined && declaring.has(target);
    });
    if (declaring.has(state.path) || importsDeclaring) reached.push(state);
  }
  return reached;
}

/**
 * The skipped files whose classes implement a type that an analysed function calls a method
 * through: a typed slot (`handlers.get(event.type).handle(event)`) or an injected value of that
 * type (`this.handler.handleMessage(body)`). Matched by the type's name, as the files write it.
 */
function implementingFiles(states: ReadonlyMap<string, FileState>, wanted: (state: FileState) => boolean): FileState[] {
  if (![...states.values()].some((state) => state.skipped && state.implements)) return [];
  const called = new Set<string>();
  const note = (summary: FunctionSummary | undefined): void => {
    for (const slot of summary?.slots ?? []) called.add(slot.type.name);
    for (const call of summary?.calls ?? []) if (call.member !== undefined && !call.bound) called.add(call.imported);
  };
  for (const state of states.values()) {
    if (state.skipped) continue;
    for (const handler of state.facts.handlers) note(handler.summary);
    for (const facts of [state.facts.exports, state.facts.members, state.facts.statics])
      for (const fact of facts.values()) note(fact.summary);
  }
  return [...states.values()].filter(
    (state) => state.skipped && wanted(state) && state.implements?.some((name) => called.has(name)),
  );
}

/** The states of a scan, recording each skipped file a lookup asks for. */
class RecordedStates extends Map<string, FileState> {
  readonly asked = new Map<string, FileState>();

  override get(file: string): FileState | undefined {
    const state = super.get(file);
    if (state?.skipped) this.asked.set(file, state);
    return state;
  }
}

/**
 * The skipped files the inventory's composition asks about: the inventory is composed, as it will
 * be at the end of the scan, over a graph of what the analysed files say, and every skipped file
 * a handler's calls, registrations, slots or re-exports lead to is one whose facts it lacks. A
 * file read for that is composed in the next round, so a chain of calls is followed to its end,
 * one file at a time, and only the files on it are read (not every module a handler's file imports).
 */
function lookedUpByInventory(project: LoadedProject, states: ReadonlyMap<string, FileState>): FileState[] {
  const recorded = new RecordedStates(states);
  inventory(recorded, new ImportGraph(project, recorded), []);
  return [...recorded.asked.values()];
}
