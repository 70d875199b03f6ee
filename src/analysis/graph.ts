import { basename, dirname, relative, resolve as resolvePath } from 'node:path';

import type { Project, SourceFile, Symbol as MorphSymbol } from 'ts-morph';

import type { FunctionSummary, ImportedCall, ImportedFunctionValue, ImportedRegistration } from '../model/effects.js';
import { mergedArgumentKeys } from '../model/effects.js';
import { HTTP_WRITE_EFFECT } from '../model/writes.js';
import type {
  FreshKeyArgument,
  IdempotencySettings,
  ImplicitTransactionLibrary,
  ImportedName,
} from '../model/settings.js';
import type { FileRole } from '../model/roles.js';
import { addFact, withoutFacts, type Summaries, type SummaryField } from '../model/summary.js';
import { NAMESPACE } from '../configs.js';
import { reachedRoles, unreachedFunctions } from './reached-roles.js';
import { componentImports } from './components.js';
import { toPosix } from './files.js';
import { builtSource, packageBinSources, packageEntry, packageScriptSources } from './workspaces.js';
import { Registrars } from './registrars.js';
import { componentsFrom } from '../model/ast/components.js';
import type { ClassShape } from '../model/handler/hand-offs.js';
import type { DeclaredLambda } from './iac/lambdas.js';
import type { ExportFact, FileFacts, Picks } from './facts.js';
import type { FolderPick } from '../model/handler/folder-tables.js';
import type { SlotCall, TypeRef } from '../model/handler/slots.js';
import type { RegistryPick, SelfRegistration } from '../model/handler/service-registries.js';
import type { ImportBinding } from './sources.js';
import type { Finding, PathStep } from '../report/model.js';
import { resolveImport, workspaceSubpath, type LoadedProject } from './project.js';
import {
  defaultHandleImports,
  optionForwardingImports,
  importsWithFact,
  transactionWrapperImports,
} from './orm-handles.js';

/**
 * The import graph: what each file's imports resolve to and what they denote. A file's own
 * exports are its facts (from the facts rule); a name a barrel re-exports (`export … from`,
 * `export *`) is followed by ts-morph's symbol API to the declaration that defines it, in
 * {@link LoadedProject.morph}. The graph turns imports into the `settings.idempotency` the rules
 * read and expands a handler's calls into the effects of the functions it calls in other files.
 */

/** What the passes know about one file. */
/** The rule whose pass-1 findings a process-wide implicit-transaction switch may take back. */
const ESCAPE_RULE = `${NAMESPACE}/no-pool-query-in-transaction`;

/** A registration of an imported function, with the file that makes it. */
export interface RegistrationIn extends ImportedRegistration {
  in: string;
}

/** What calling a function does, composed with everything it calls. */
export interface Composed {
  effects: Set<string>;
  protections: Set<string>;
  /** The first call along the way whose target has no summary, for the verdict's reason. */
  unresolved: string | undefined;
  /**
   * For each effect reached in another module, the functions that lead to it, from the first one
   * called to the one that makes the write (the first such chain found).
   */
  paths: Map<string, PathStep[]>;
  /** The same for each protection reached in another module: the functions that lead to where it is made. */
  protectionPaths: Map<string, PathStep[]>;
  /** Where each effect is made, when a summary says: the file and line of the call that makes it. */
  effectSites: Map<string, { file: string; line: number }>;
  /** Effects made inside durable steps, which a redelivery does not run again, and the steps that record them. */
  memoised: Set<string>;
  steps: Set<string>;
  /**
   * The functions the reached functions pick out of a container per call through a typed slot
   * (a job system's definitions, the handlers a domain-event dispatcher keeps in a `Map`): each
   * runs per delivery of its type, by {@link functionKey}-like key.
   */
  dispatched: Map<string, Dispatched>;
  /**
   * The reached functions of other modules that pick their work by the type of what they are
   * handed (a controller's `this.billing.handle(event)` whose `switch` calls one method per event
   * type), by {@link functionKey}-like key: the inventory lists those whose picks do work.
   */
  dispatchers: Map<string, Dispatched>;
}

/**
 * A function a reached function picks per call, where it is and the type it is picked for when
 * known; `reached` when the pick is made by a function the listed one calls, by what that was handed.
 */
export interface Dispatched {
  file: string;
  name: string;
  fact: ExportFact;
  queue?: string;
  reached?: true;
  /** Picked by a field of what the picking function was handed (handler/type-dispatch.ts `byField`). */
  byField?: true;
  /** The one function the picking function hands what it was handed to (type-dispatch.ts `forwardPicks`). */
  forward?: true;
}

/** A function a delivery in another module waits for, with the fields of the object literals its calls hand it. */
interface DeliveryFunction extends ImportedName {
  argumentKeys?: (string[] | null)[];
}

/** A function another module calls, as the graph knows it: where it is defined and its summary. */
interface CalledFunction {
  key: string;
  file: string;
  summary: FunctionSummary;
  step: PathStep;
  /** Its fact, when it is a function another module's facts describe (what it picks by the type of its input). */
  fact?: ExportFact;
  /**
   * This call hands the function request options that change state where its summary sends its
   * caller's options (`cancellableFetch(url, { method: 'POST' })`): a write of this call, not of
   * every call of the function.
   */
  writes?: true;
}

export interface FileState {
  path: string;
  relative: string;
  facts: FileFacts;
  findings: Finding[];
  fixable: boolean;
  /** Not parsed in pass 1: the prefilter found nothing a rule could start from. */
  skipped: boolean;
  /** For a skipped file: the module specifiers it imports, read from TypeScript's parse. */
  specifiers?: string[];
  /** For a skipped file: the modules it loads at run time (without type-only imports and re-exports). */
  loads?: string[];
  /** For a skipped file: its value imports, read from TypeScript's parse. */
  imports?: ImportBinding[];
  /** For a skipped file: its type-only imports (a value of such a type may call a registrar it declares). */
  typeImports?: ImportBinding[];
  /** For a skipped file: it holds tokens of facts an importer may need (`mayInform`). */
  informs?: boolean;
  /** For a skipped file: the names it exports, when its parse can list them ({@link exportedNames}). */
  exportNames?: string[];
  /** For a skipped file: the types its classes implement, by name ({@link implementedNames}). */
  implements?: string[];
  /** Skipped only because it is outside the run's share (`--shard`, `--files-from`); see shard.ts. */
  deferred?: boolean;
  /** For a deferred file: its text may register another file's function ({@link mayRegister}). */
  registers?: boolean;
}

/**
 * Relative specifiers, workspace packages, `paths` mappings and specifiers under a `baseUrl`
 * (`import { getHeaders } from 'src/common/headers'`) can lead to files in the tree.
 */
function isLocalSpecifier(project: LoadedProject, specifier: string, from: string): boolean {
  const options = project.configOf.get(from)?.options;
  return (
    specifier.startsWith('.') ||
    project.workspacePackages.has(specifier) ||
    workspaceSubpath(project, specifier) !== undefined ||
    options?.paths !== undefined ||
    // Deprecated by TypeScript 6, still in many TS 5 configs (project.ts loads them).
    // eslint-disable-next-line @typescript-eslint/no-deprecated
    options?.baseUrl !== undefined
  );
}

export function resolveLocal(project: LoadedProject, specifier: string, from: string): string | undefined {
  return isLocalSpecifier(project, specifier, from) ? resolveImport(project, specifier, from) : undefined;
}

/** A name as a module exports it: the file and the name its own exports use. */
export interface ExportedName {
  file: string;
  name: string;
}

export class ImportGraph {
  /** Answers of {@link definitionOf} by file and name; a barrel's exports do not change during a scan. */
  private readonly definitions = new Map<string, ExportedName | undefined>();

  constructor(
    private readonly project: LoadedProject,
    private readonly states: ReadonlyMap<string, FileState>,
  ) {}

  resolve(specifier: string, from: string): string | undefined {
    // Bare specifiers of packages outside the tree cost a resolution each; relative ones are the common case.
    return resolveImport(this.project, specifier, from);
  }

  /**
   * Where `name` exported from `file` is defined, when `file` re-exports it: the analysed files'
   * facts are followed through named re-exports and `export *` to the file that declares the
   * name and the name it exports it under. Only when that walk meets what facts do not describe
   * (a file outside the scan, `export =`) does ts-morph resolve the module's exports and the
   * alias chain, with the type checker. Undefined for a name the file does not re-export.
   */
  definitionOf(file: string, name: string): ExportedName | undefined {
    const state = this.states.get(file);
    if (!state || state.skipped) return undefined;
    if (!state.facts.reExports.some((entry) => entry.exported === name || entry.exported === '*')) return undefined;
    const key = `${file}\0${name}`;
    if (this.definitions.has(key)) return this.definitions.get(key);
    const walk = { throughSkipped: false };
    const followed = this.follow(file, name, new Set(), walk);
    const definition =
      followed === 'unknown' ? this.lookUp(file, name) : followed?.file === file ? undefined : followed;
    // A skipped file may be analysed later in the scan, and then say more than "defined here".
    if (!walk.throughSkipped || followed === 'unknown') this.definitions.set(key, definition);
    return definition;
  }

  /**
   * The module whose code `name` exported from `file` runs: the file that declares it
   * ({@link definitionOf}), or for a namespace re-exported by name (`export * as openApiClient
   * from './client'`, followed through named re-exports) the module the namespace is of, as `'*'`.
   */
  loadedDefinitionOf(file: string, name: string, depth = 0): ExportedName | undefined {
    const defined = this.definitionOf(file, name);
    if (defined || depth > 8) return defined;
    const state = this.states.get(file);
    const named = state?.skipped === false ? state.facts.reExports.find((entry) => entry.exported === name) : undefined;
    const target = named && resolveLocal(this.project, named.specifier, file);
    if (!named || target === undefined) return undefined;
    return named.imported === '*'
      ? { file: target, name: '*' }
      : this.loadedDefinitionOf(target, named.imported, depth + 1);
  }

  /**
   * The file that declares `name` as `file` exports it, by the facts: its own export, a named
   * re-export followed on, or the one `export *` that provides it (none when two provide different
   * ones, as TypeScript has it). A skipped file declares the names its parse lists (the prefilter
   * keeps every file with `export … from`). `'unknown'` when neither can tell.
   */
  private follow(
    file: string,
    name: string,
    seen: Set<string>,
    walk: { throughSkipped: boolean },
  ): ExportedName | undefined | 'unknown' {
    const state = this.states.get(file);
    if (!state) return 'unknown';
    if (state.skipped) {
      walk.throughSkipped = true;
      if (state.exportNames === undefined) return 'unknown';
      return state.exportNames.includes(name) ? { file, name } : undefined;
    }
    const key = `${file}\0${name}`;
    if (seen.has(key)) return undefined;
    seen.add(key);
    const facts = state.facts;
    if (facts.opaqueExports) return 'unknown';
    const own = facts.ownExports.find((entry) => entry.name === name);
    if (own) {
      // A binding exported under several names is one declaration; its first name stands for it.
      const first = own.local === undefined ? own : facts.ownExports.find((entry) => entry.local === own.local);
      return { file, name: (first ?? own).name };
    }
    const named = facts.reExports.find((entry) => entry.exported === name);
    if (named) {
      // `export * as ns from`: a namespace, declared by no file.
      if (named.imported === '*') return undefined;
      const target = resolveLocal(this.project, named.specifier, file);
      return target === undefined ? undefined : this.follow(target, named.imported, seen, walk);
    }
    if (name === 'default') return undefined;
    const found: ExportedName[] = [];
    for (const entry of facts.reExports) {
      if (entry.exported !== '*') continue;
      const target = resolveLocal(this.project, entry.specifier, file);
      if (target === undefined) continue;
      const inner = this.follow(target, name, seen, walk);
      if (inner === 'unknown') return 'unknown';
      if (inner && !found.some((other) => other.file === inner.file && other.name === inner.name)) found.push(inner);
    }
    return found.length === 1 ? found[0] : undefined;
  }

  private lookUp(file: string, name: string): ExportedName | undefined {
    const morph: Project = this.project.morph;
    // Only the barrel asked about joins the project; its program adds what the barrel re-exports.
    const barrel = morph.getSourceFile(file) ?? morph.addSourceFileAtPathIfExists(file);
    const exported = barrel && exportsOf(barrel).find((symbol) => symbol.getName() === name);
    if (!exported) return undefined;
    const target = exported.isAlias() ? exported.getAliasedSymbol() : exported;
    const declaration = target?.getDeclarations()[0];
    if (!target || !declaration) return undefined;
    const defining = declaration.getSourceFile();
    if (defining === barrel) return undefined;
    const compilerTarget = target.compilerSymbol;
    const own = exportsOf(defining).find(
      (symbol) =>
        symbol.compilerSymbol === compilerTarget ||
        (symbol.isAlias() && symbol.getAliasedSymbol()?.compilerSymbol === compilerTarget),
    );
    return own ? { file: defining.getFilePath(), name: own.getName() } : undefined;
  }

  /** The fact behind `name` exported from `file`: its own export, or what a re-export leads to. */
  exportOf(file: string, name: string, depth = 0): { file: string; fact: ExportFact } | undefined {
    const own = this.states.get(file)?.facts.exports.get(name);
    if (own) return { file, fact: own };
    const definition = this.definitionOf(file, name);
    const fact = definition && this.states.get(definition.file)?.facts.exports.get(definition.name);
    if (definition && fact) return { file: definition.file, fact };
    // A constant an imported factory makes holds the function that factory returns.
    const made = depth < 4 ? this.states.get(file)?.facts.madeExports.find((entry) => entry.name === name) : undefined;
    if (!made) return undefined;
    const factory = this.resolve(made.specifier, file);
    const maker = factory === undefined ? undefined : this.exportOf(factory, made.imported, depth + 1);
    return maker?.fact.returns ? { file: maker.file, fact: maker.fact.returns } : undefined;
  }

  /**
   * What an imported call runs, named as its defining module has it (a re-export may rename
   * it): an exported function, or the method of an exported class (`OrdersService.settle`).
   */
  calledFact(
    file: string,
    call: ImportedCall & { static?: true },
    depth = 0,
  ): { file: string; name: string; fact: ExportFact } | undefined {
    if (call.member === undefined) {
      const found = this.exportOf(file, call.imported);
      const name = found?.file === file ? call.imported : this.definitionOf(file, call.imported)?.name;
      return found && name !== undefined ? { ...found, name } : undefined;
    }
    // `Service.method` of an imported class is a static method; of an imported instance made once
    // (`export const userWorker = new UserWorker()`), which the importer cannot tell apart, the
    // class's instance method, kept under the instance's name.
    const lookup = (facts: FileFacts, key: string): ExportFact | undefined =>
      call.static ? (facts.statics.get(key) ?? facts.members.get(key)) : facts.members.get(key);
    const state = this.states.get(file);
    const own =
      state !== undefined &&
      (lookup(state.facts, `${call.imported}.${call.member}`) !== undefined ||
        state.facts.classes.some((shape) => shape.name === call.imported) ||
        state.facts.instances.some((instance) => instance.name === call.imported));
    const defining = own ? { file, name: call.imported } : this.definitionOf(file, call.imported);
    const owner = defining && this.states.get(defining.file);
    if (!defining || !owner) return undefined;
    const name = `${defining.name}.${call.member}`;
    const fact = lookup(owner.facts, name);
    if (fact) return { file: defining.file, name, fact };
    // An instance made once of a class another module exports (which a caller that names it cannot
    // tell from a class, `static`): that class's method.
    const made = depth < 8 ? owner.facts.instances.find((instance) => instance.name === defining.name) : undefined;
    const binding = made && owner.facts.imports.find((entry) => entry.local === made.class && entry.imported !== '*');
    const target = binding && this.resolve(binding.specifier, defining.file);
    if (binding && target !== undefined)
      return this.calledFact(
        target,
        { specifier: binding.specifier, imported: binding.imported, member: call.member },
        depth + 1,
      );
    return call.static ? undefined : this.inheritedMember(defining.file, defining.name, call.member);
  }

  /**
   * A method a class inherits: the first class up its `extends` chain, across modules, whose
   * facts have it (`this.jobs.create(...)` on a `JobRepository extends BaseRepository`).
   */
  private inheritedMember(
    file: string,
    cls: string,
    member: string,
    depth = 0,
  ): { file: string; name: string; fact: ExportFact } | undefined {
    const shape = depth > 16 ? undefined : this.classShape(file, cls);
    const parent = shape && this.superclassOf(file, shape);
    if (!parent || !('file' in parent)) return undefined;
    const name = `${parent.name}.${member}`;
    const fact = this.states.get(parent.file)?.facts.members.get(name);
    return fact ? { file: parent.file, name, fact } : this.inheritedMember(parent.file, parent.name, member, depth + 1);
  }

  /** The class `cls` that `file` declares, from its facts, or the class of its instance `cls` made once. */
  classShape(file: string, cls: string): ClassShape | undefined {
    const state = this.states.get(file);
    if (!state || state.skipped) return undefined;
    const { classes, instances } = state.facts;
    const made = instances.find((instance) => instance.name === cls);
    return classes.find((shape) => shape.name === (made?.class ?? cls));
  }

  /** The class `shape` of `file` extends: in the tree, by file and local name; outside it, by module and export. */
  superclassOf(file: string, shape: ClassShape): ExportedName | { module: string; name: string } | undefined {
    const base = shape.extends;
    if (!base) return undefined;
    if ('local' in base) return { file, name: base.local };
    const target = this.resolve(base.specifier, file);
    return target === undefined
      ? { module: base.specifier, name: base.imported }
      : this.declaredAs(target, base.imported);
  }

  /**
   * Whether the class `cls` of `file`, which extends a base named like a worker (handler/workers.ts),
   * extends one that does a worker's part: a class of a package (`WorkerHost`, a library's queue
   * receiver), or a class of the program that declares a work method typed with a broker's delivery
   * (`abstract perform(jobs: Job<T>[])`, `Job` of pg-boss), or whose file takes deliveries (registers
   * handlers, hands functions to a registrar, or is one), or that itself extends such a class. A base of the
   * program that does none of these (`abstract class CASEvaluationResultProcessor`, a strategy a
   * service picks per record) makes the subclass's `process` an ordinary method. Unknown (a base
   * the scan did not read) counts as a worker.
   */
  extendsWorker(file: string, cls: string, registrars: Registrars, depth = 0): boolean {
    const shape = this.classShape(file, cls);
    const parent = shape && depth < 8 ? this.superclassOf(file, shape) : undefined;
    if (!parent || !('file' in parent)) return true;
    const state = this.states.get(parent.file);
    if (!state || state.skipped) return true;
    const facts = state.facts;
    if (
      this.classShape(parent.file, parent.name)?.worksOnDeliveries ||
      facts.handlers.length > 0 ||
      facts.importedHandlers.length > 0 ||
      facts.parameterRegistrars.length > 0 ||
      facts.handOffs.length > 0 ||
      registrars.inFile(parent.file)
    )
      return true;
    const grandparent = this.classShape(parent.file, parent.name);
    return grandparent?.extends !== undefined && this.extendsWorker(parent.file, parent.name, registrars, depth + 1);
  }

  /** The file that declares `name` as `file` exports it, and the local name it declares it by. */
  declaredAs(file: string, name: string): ExportedName {
    const defined = this.definitionOf(file, name);
    const at = defined?.file ?? file;
    const exported = defined?.name ?? name;
    const own = this.states.get(at)?.facts.ownExports.find((entry) => entry.name === exported);
    return { file: at, name: own?.local ?? exported };
  }

  /**
   * The function a registration hands on, as `file` imports it: the exported function or static
   * method, or for a factory's result (`buildProcessor(deps)`) the function the factory returns.
   */
  registeredFact(
    file: string,
    value: ImportedFunctionValue,
  ): { file: string; name: string; fact: ExportFact } | undefined {
    const called = this.calledFact(file, value);
    if (!called || !value.returned) return called;
    return called.fact.returns && { ...called, fact: called.fact.returns };
  }

  /** The methods of the class `name` exported from `file`, with their facts (none when it is no class the facts know). */
  private methodsOf(file: string, name: string): [string, ExportFact][] {
    const own = this.states.get(file)?.facts.members;
    const defining = own && [...own.keys()].some((key) => key.startsWith(`${name}.`)) ? { file, name } : undefined;
    const found = defining ?? this.definitionOf(file, name);
    const members = found && this.states.get(found.file)?.facts.members;
    if (!found || !members) return [];
    const prefix = `${found.name}.`;
    return [...members].flatMap(([key, fact]): [string, ExportFact][] =>
      key.startsWith(prefix) ? [[key.slice(prefix.length), fact]] : [],
    );
  }

  /**
   * The `settings.idempotency` for one file: the summaries of what its imports resolve to and of
   * its own functions as other modules use them (model/summary.ts), with the process-wide and
   * reached-role facts.
   */
  settingsFor(state: FileState): IdempotencySettings {
    let summaries: Summaries = {};
    const note = (entry: ImportedName, field: SummaryField): void => {
      addFact(summaries, entry.from, entry.name, field);
    };
    for (const binding of state.facts.imports) {
      if (binding.imported === '*' || !isLocalSpecifier(this.project, binding.specifier, state.path)) continue;
      const target = this.resolve(binding.specifier, state.path);
      if (target !== undefined)
        for (const [method, fact] of this.methodsOf(target, binding.imported)) {
          const member = { from: binding.specifier, name: `${binding.imported}.${method}` };
          if (fact.async) note(member, 'async');
          if (fact.kinds.includes('senderCheck')) note(member, 'verifiesSender');
          // `orchestrationQueue.enqueueOrchestration({ eventId })`: an exported instance's method.
          for (const { index, name, property } of fact.keyParameters ?? [])
            addFact(summaries, member.from, member.name, 'keyParameters', keyParameterEntry(index, name, property));
        }
      const found = target === undefined ? undefined : this.exportOf(target, binding.imported);
      if (!found) continue;
      const entry = { from: binding.specifier, name: binding.imported };
      for (const { index, name, property } of found.fact.keyParameters ?? [])
        addFact(summaries, entry.from, entry.name, 'keyParameters', keyParameterEntry(index, name, property));
      if (found.fact.async) note(entry, 'async');
      for (const kind of found.fact.kinds) {
        if (kind === 'pool') note(entry, 'pool');
        // A never-stable key helper that some module writes as a key is reported at itself
        // (writtenAsKey), not at each caller; one that makes other values (a PDF that pdf-lib
        // stamps with the time) is per attempt wherever its result is sent.
        else if (kind === 'perAttemptFunction') {
          if (!found.fact.unstableKeyHelper || !this.isWrittenAsKey(found.file, binding.imported, target))
            note(entry, 'perAttempt');
        } else if (kind === 'keyHeaderSource') note(entry, 'keyHeaderSource');
        else if (kind === 'keyHeaderName') note(entry, 'keyHeaderName');
        else if (kind === 'timeoutlessClient') note(entry, 'timeoutlessClient');
        else if (kind === 'timeoutlessClientFactory') note(entry, 'timeoutlessClientFactory');
        else if (kind === 'ackFunction') note(entry, 'acks');
        else if (kind === 'boundedClient') note(entry, 'boundedClient');
        else if (kind === 'handlerDecorator') note(entry, 'handlerDecorator');
        // `senderCheck`: only a check the function makes itself (or through its own module's helpers):
        // far enough down any call graph something verifies an HMAC (a session's, a user's link).
        else note(entry, 'verifiesSender');
      }
    }
    // Handlers registered elsewhere with a function this file exports.
    // (A static method or a factory's result is listed by the inventory, not named to the rules.)
    let handlesDeliveries = state.facts.handlers.length > 0;
    for (const registered of this.registrationsOf(state.path)) {
      if (registered.member === undefined && !registered.returned) {
        note({ from: registered.specifier, name: registered.imported }, 'consumerHandler');
        handlesDeliveries = true;
      }
    }
    // Functions this file exports whose result another module writes as a key.
    for (const entry of this.keyFunctionsOf(state.path)) note(entry, 'writtenAsKey');
    // Functions this file exports that a delivery elsewhere waits for.
    for (const entry of this.deliveryFunctionsOf(state.path)) {
      note(entry, 'deliveryFunction');
      for (const [index, keys] of (entry.argumentKeys ?? []).entries())
        for (const field of keys ?? []) addFact(summaries, entry.from, entry.name, 'deliveredFields', { index, field });
      handlesDeliveries = true;
    }
    // The cross-file ORM facts (orm-handles.ts) all read this file's local imports through the same lookups.
    const ormLookups = [
      state.facts.imports.filter((binding) => isLocalSpecifier(this.project, binding.specifier, state.path)),
      (specifier: string) => this.resolve(specifier, state.path),
      (file: string, name: string) => this.exportOf(file, name)?.fact,
      (file: string) => this.states.get(file)?.facts.exports,
    ] as const;
    const methodsOf = (file: string, name: string): readonly [string, ExportFact][] => this.methodsOf(file, name);
    // Imported functions that fall back to the pool without a handle (orm-handles.ts).
    for (const entry of defaultHandleImports(...ormLookups)) note(entry, 'defaultHandle');
    // Imported Mongoose transaction wrappers that never hand their session to the callback (orm-handles.ts).
    for (const entry of importsWithFact('sessionless', ...ormLookups, methodsOf)) note(entry, 'sessionlessTransaction');
    // Imported functions and injected services' methods that write through a fork of their own (orm-handles.ts).
    for (const entry of importsWithFact('ownHandle', ...ormLookups, methodsOf)) note(entry, 'ownHandle');
    // Imported wrappers that run a callback inside an ORM transaction, handing it the handle (orm-handles.ts).
    for (const { from, name, index, library } of transactionWrapperImports(...ormLookups, methodsOf))
      addFact(summaries, from, name, 'transactionWrapper', { index, library });
    // Imported functions that forward their options to a Sequelize write (orm-handles.ts).
    for (const { from, name, index, parameter } of optionForwardingImports(...ormLookups, methodsOf))
      addFact(summaries, from, name, 'forwardsOptions', { index, parameter });
    // Key parameters of this file's functions that every caller elsewhere fills with a fresh key.
    for (const { from, name, index, property } of this.freshKeyArgumentsOf(state.path))
      addFact(summaries, from, name, 'freshKeyArguments', property === undefined ? { index } : { index, property });
    // What is async or acks matters only where a delivery runs: elsewhere it would only cost a second pass.
    if (!handlesDeliveries) summaries = withoutFacts(summaries, ['async', 'acks']);
    const settings: IdempotencySettings = {};
    if (Object.keys(summaries).length > 0) settings.summaries = summaries;
    const implicit = this.implicitTransactions();
    if (implicit.length > 0 && state.findings.some((finding) => finding.ruleId === ESCAPE_RULE))
      settings.implicitTransactions = implicit;
    // Only where the rules reported or another setting sends the file to pass 2: the roles an
    // entry gives a file never add a rule the file's own role lacked (every rule that reports in
    // scripts, browsers or tests also reports on servers), so they can only take findings away.
    const roles = state.skipped ? undefined : this.reachedRolesOf(state.path);
    if (roles !== undefined && (state.findings.length > 0 || Object.keys(settings).length > 0))
      settings.reachedRoles = roles;
    const unreached = state.findings.length > 0 ? this.unreachedFunctionsOf(state.path) : undefined;
    if (unreached !== undefined) settings.unreachedFunctions = unreached;
    return settings;
  }

  private loadedPaths = new Map<string, string | undefined>();

  /** The file of the tree a module loads by `specifier` (its source, for a build output's path), once per pair. */
  private resolveLoaded(specifier: string, from: string): string | undefined {
    const key = `${from}\0${specifier}`;
    if (this.loadedPaths.has(key)) return this.loadedPaths.get(key);
    const found = resolveLocal(this.project, specifier, from) ?? builtSource(specifier, from);
    this.loadedPaths.set(key, found);
    return found;
  }

  private reached: Map<string, FileRole[]> | undefined;
  private unreached: Map<string, string[]> | undefined;

  /**
   * Modules a platform loads by a name no import spells: declared Lambdas, a Temporal worker's
   * activities and workflows, a package's entry (its `main` or `exports`: what its users, or a
   * platform deploying the package, load).
   */
  private declaredModules(): Set<string> {
    if (this.declared) return this.declared;
    const entries = [
      this.project.root,
      ...this.project.workspaceFolders.values(),
      ...this.project.packageFolders.values(),
    ]
      .map((folder) => packageEntry(folder)?.entry)
      .filter((entry): entry is string => entry !== undefined);
    this.declared = new Set([
      ...this.project.lambdas.map((lambda) => lambda.file),
      ...this.temporalFiles().keys(),
      ...entries,
    ]);
    return this.declared;
  }

  private declared: Set<string> | undefined;
  private components: { file: string; loads: string[] }[] | undefined;

  /** The modules single-file components and pages load (`.vue`, `.svelte`, a bundler's `index.html`). */
  private componentLoads(): { file: string; loads: string[] }[] {
    return (this.components ??= this.project.components.map((file) => ({
      file,
      loads: componentImports(file).flatMap((specifier) => {
        const target = resolveImport(this.project, specifier, file);
        return target === undefined ? [] : [target];
      }),
    })));
  }

  /** The exported functions of `file` that no module runs (reached-roles.ts `unreachedFunctions`). */
  unreachedFunctionsOf(file: string): string[] | undefined {
    this.unreached ??= unreachedFunctions(
      this.states,
      (specifier, from) => this.resolveLoaded(specifier, from),
      // What components load, they load whole: their templates name what imports do not show.
      new Set([...this.declaredModules(), ...this.componentLoads().flatMap((component) => component.loads)]),
    );
    return this.unreached.get(file);
  }

  /** The roles of the entries that load `file`, where they differ from its own (reached-roles.ts). */
  reachedRolesOf(file: string): FileRole[] | undefined {
    this.reached ??= reachedRoles(
      this.states,
      (specifier, from) => this.resolveLoaded(specifier, from),
      declaredEntries(this.project, this.states),
      this.componentLoads(),
      (file, name) => this.loadedDefinitionOf(file, name),
      this.declaredModules(),
    );
    return this.reached.get(file);
  }

  private implicit: ImplicitTransactionLibrary[] | undefined;

  /** The libraries whose managed transactions some analysed file of the project switches on for the process. */
  private implicitTransactions(): ImplicitTransactionLibrary[] {
    if (this.implicit === undefined) {
      const found = new Set<ImplicitTransactionLibrary>();
      for (const state of this.states.values())
        for (const library of state.facts.implicitTransactions) found.add(library);
      this.implicit = [...found];
    }
    return this.implicit;
  }

  private freshKeyArguments: Map<string, FreshKeyArgument[]> | undefined;

  /**
   * The key parameters of functions `file` exports (those a keyed request with a per-attempt body
   * takes its key from) that every caller in another module fills with a key minted for the call
   * (read once every file is analysed). A caller in a file that was not parsed is one whose
   * argument is unknown, and the parameter is then not listed.
   */
  freshKeyArgumentsOf(file: string): FreshKeyArgument[] {
    if (!this.freshKeyArguments) {
      const counts = new Map<string, { file: string; entry: FreshKeyArgument; sites: number; fresh: number }>();
      const unknown = new Set<string>();
      for (const state of this.states.values()) {
        if (state.skipped) {
          for (const binding of state.imports ?? []) {
            const target = this.resolve(binding.specifier, state.path);
            if (target !== undefined) unknown.add(`${target}\0${binding.imported}`);
          }
          continue;
        }
        for (const call of state.facts.argumentMints) {
          if (!isLocalSpecifier(this.project, call.specifier, state.path)) continue;
          const target = this.resolve(call.specifier, state.path);
          const defined = target === undefined ? undefined : this.calledFact(target, call);
          if (!defined?.fact.keyedBodyParameters) continue;
          for (const path of defined.fact.keyedBodyParameters) {
            const id = `${defined.file}\0${defined.name}\0${path.index}\0${path.property ?? ''}`;
            const known = counts.get(id) ?? {
              file: defined.file,
              entry: {
                from: `./${basename(defined.file).replace(/\.[cm]?[jt]sx?$/, '')}`,
                name: defined.name,
                index: path.index,
                ...(path.property === undefined ? {} : { property: path.property }),
              },
              sites: 0,
              fresh: 0,
            };
            known.sites += call.sites;
            known.fresh +=
              call.fresh.find((other) => other.index === path.index && other.property === path.property)?.count ?? 0;
            counts.set(id, known);
          }
        }
      }
      const found = new Map<string, FreshKeyArgument[]>();
      for (const { file: defining, entry, sites, fresh } of counts.values()) {
        if (sites === 0 || fresh < sites || unknown.has(`${defining}\0${entry.name}`)) continue;
        found.set(defining, [...(found.get(defining) ?? []), entry]);
      }
      this.freshKeyArguments = found;
    }
    return this.freshKeyArguments.get(file) ?? [];
  }

  /** `name` as `importedFrom` exports it is a function whose result some module writes as an idempotency key. */
  private isWrittenAsKey(file: string, name: string, importedFrom: string | undefined): boolean {
    const defined = file === importedFrom ? name : importedFrom && this.definitionOf(importedFrom, name)?.name;
    return defined === undefined || this.keyFunctionsOf(file).some((entry) => entry.name === defined);
  }

  private keyFunctions: Map<string, ImportedName[]> | undefined;

  /**
   * The never-stable key helpers `file` exports whose result another module writes as an
   * idempotency key (read once every file is analysed), named as a sibling module (`./keys`), as
   * the rule matches them.
   */
  keyFunctionsOf(file: string): ImportedName[] {
    if (!this.keyFunctions) {
      const found = new Map<string, ImportedName[]>();
      for (const state of this.states.values()) {
        for (const call of state.facts.keyCalls) {
          if (!isLocalSpecifier(this.project, call.specifier, state.path)) continue;
          const target = this.resolve(call.specifier, state.path);
          const defined = target === undefined ? undefined : this.exportOf(target, call.imported);
          const name =
            defined?.file === target ? call.imported : target && this.definitionOf(target, call.imported)?.name;
          // Only a helper whose output is never stable has something to report.
          if (!defined?.fact.unstableKeyHelper || name === undefined) continue;
          const list = found.get(defined.file) ?? [];
          if (!list.some((entry) => entry.name === name))
            list.push({ from: `./${basename(defined.file).replace(/\.[cm]?[jt]sx?$/, '')}`, name });
          found.set(defined.file, list);
        }
      }
      this.keyFunctions = found;
    }
    return this.keyFunctions.get(file) ?? [];
  }

  private deliveryFunctions: Map<string, DeliveryFunction[]> | undefined;

  /**
   * The functions `file` exports that some delivery waits for, any number of modules down from a
   * handler whose delivery ends when it settles (read once every file is analysed; each function
   * is visited once, so a chain through the whole program costs its length), named as the module
   * that calls them imports them.
   */
  deliveryFunctionsOf(file: string): DeliveryFunction[] {
    if (!this.deliveryFunctions) {
      const found = new Map<string, DeliveryFunction[]>();
      const seen = new Map<string, DeliveryFunction>();
      let frontier: { file: string; waits: readonly ImportedCall[] }[] = [];
      for (const state of this.states.values())
        for (const handler of state.facts.handlers)
          if (handler.waits) frontier.push({ file: state.path, waits: handler.waits });
      while (frontier.length > 0) {
        const next: typeof frontier = [];
        for (const { file: caller, waits } of frontier) {
          for (const call of waits) {
            if (!isLocalSpecifier(this.project, call.specifier, caller)) continue;
            const target = this.resolve(call.specifier, caller);
            if (target === undefined) continue;
            const defined = this.calledFact(target, call);
            if (!defined) continue;
            const { name } = defined;
            const key = `${defined.file}\0${name}`;
            const known = seen.get(key);
            // Every call a delivery waits for hands it its arguments: their fields together.
            if (known) {
              known.argumentKeys = mergedArgumentKeys(known.argumentKeys, call.argumentKeys);
              continue;
            }
            const entry: DeliveryFunction = {
              // Named as a sibling module (`./notify`): the rule matches the file by its name.
              from: `./${basename(defined.file).replace(/\.[cm]?[jt]sx?$/, '')}`,
              name,
              ...(call.argumentKeys ? { argumentKeys: call.argumentKeys } : {}),
            };
            seen.set(key, entry);
            const list = found.get(defined.file) ?? [];
            list.push(entry);
            found.set(defined.file, list);
            if (defined.fact.waits) next.push({ file: defined.file, waits: defined.fact.waits });
          }
        }
        frontier = next;
      }
      this.deliveryFunctions = found;
    }
    return this.deliveryFunctions.get(file) ?? [];
  }

  private byTarget: Map<string, RegistrationIn[]> | undefined;

  /**
   * The registrations a file makes through another module's worker factory: a call of a function
   * (or a static method) whose file's summary says it registers a parameter as a handler, handed
   * an imported function there (`WorkerManager.register(QueueName.Eval, evalProcessor)`). Read
   * afresh each time: the files the prefilter set aside are analysed as they are reached.
   */
  factoryRegistrations(state: FileState, registrars = this.registrars()): ImportedRegistration[] {
    if (state.skipped) return [];
    return state.facts.registrarCalls.flatMap((call) =>
      registrars.at(state.path, call).flatMap((registrar) => {
        // An object handed for its one function (`createJob(queue, { perform })`) is not the function at that place.
        const handler = registrar.property === undefined ? call.functions[registrar.index] : undefined;
        if (!handler) return [];
        const queue = registrar.queueIndex === undefined ? undefined : call.strings[registrar.queueIndex];
        return [{ ...handler, broker: registrar.broker, queue: queue ?? undefined, line: call.line }];
      }),
    );
  }

  private settled: Registrars | undefined;

  /**
   * The program's registrars (registrars.ts): computed afresh while files are still being reached,
   * since each file analysed may add one; once per scan after {@link settle}.
   */
  registrars(): Registrars {
    if (this.settled) return this.settled;
    const registrars = new Registrars(this.states, this);
    if (this.isSettled) this.settled = registrars;
    return registrars;
  }

  private isSettled = false;

  /** Forgets what was read while files were still being reached: called once every file is analysed. */
  settle(): void {
    this.isSettled = true;
    this.byTarget = undefined;
    this.slots = undefined;
    this.registeredSelves = undefined;
  }

  /** Registrations in any file of a function that `file` exports (read once every file is analysed). */
  registrationsOf(file: string): RegistrationIn[] {
    return this.registrationsByTarget().get(file) ?? [];
  }

  /** Every registration of an imported function value, with the file its specifier resolves to. */
  *registrations(): Generator<{ target: string; registration: RegistrationIn }> {
    for (const [target, list] of this.registrationsByTarget())
      for (const registration of list) yield { target, registration };
  }

  private registrationsByTarget(): Map<string, RegistrationIn[]> {
    if (!this.byTarget) {
      this.byTarget = new Map();
      const registrars = this.registrars();
      for (const other of this.states.values()) {
        for (const registered of [...other.facts.importedHandlers, ...this.factoryRegistrations(other, registrars)]) {
          const target = this.resolve(registered.specifier, other.path);
          if (target === undefined) continue;
          // A POST route that is a webhook only when the function it is handed checks the sender.
          if (
            registered.needsSenderCheck &&
            !this.registeredFact(target, registered)?.fact.kinds.includes('senderCheck')
          )
            continue;
          const list = this.byTarget.get(target) ?? [];
          list.push({ ...registered, in: other.path });
          this.byTarget.set(target, list);
        }
      }
    }
    return this.byTarget;
  }

  /** A file of the tree as the report writes it: relative to the root, with forward slashes. */
  reportPath(file: string): string {
    return toPosix(relative(this.project.root, file));
  }

  /** The Lambdas the tree's infrastructure files declare (iac/lambdas.ts). */
  declaredLambdas(): readonly DeclaredLambda[] {
    return this.project.lambdas;
  }

  /**
   * The files whose exports a Temporal worker runs, with what it runs them as: the activity
   * modules some file's workflows proxy or workers register, and the workflow modules workers load
   * by `workflowsPath`.
   */
  temporalFiles(): Map<string, 'activity' | 'workflow'> {
    const files = new Map<string, 'activity' | 'workflow'>();
    for (const state of this.states.values()) {
      for (const [specifiers, kind] of [
        [state.facts.activityModules, 'activity'],
        [state.facts.workflowModules, 'workflow'],
      ] as const)
        for (const specifier of specifiers) {
          const target = this.resolve(specifier, state.path);
          if (target !== undefined && !files.has(target)) files.set(target, kind);
        }
    }
    return files;
  }

  /**
   * Methods decorated by a decorator another module of the project defines as a library's handler
   * decorator (`@ZeebeWorker(type)` with `ZeebeWorker = (type) => MessagePattern(type)`).
   */
  decoratedHandlers(): { file: string; fact: ExportFact; queue?: string }[] {
    const found: { file: string; fact: ExportFact; queue?: string }[] = [];
    for (const state of this.states.values())
      for (const { specifier, imported, queue, fact } of state.facts.decoratedMethods) {
        const target = this.resolve(specifier, state.path);
        const decorator = target === undefined ? undefined : this.exportOf(target, imported);
        if (decorator?.fact.kinds.includes('handlerDecorator'))
          found.push({ file: state.path, fact, ...(queue === undefined ? {} : { queue }) });
      }
    return found;
  }

  /**
   * Methods marked by a decorator of the project that stores them in a module-level table which a
   * delivery handler of the decorator's module looks up by a computed key (handler/decorator-tables.ts:
   * `@HasuraEvent()` methods in `_events`, looked up by `_events[trigger.name]`), with that handler's broker.
   */
  tableDecoratedHandlers(): { file: string; fact: ExportFact; broker: string }[] {
    const lookedUp = new Map<string, string>();
    for (const state of this.states.values())
      for (const handler of state.facts.handlers)
        for (const table of handler.tableLookups ?? []) lookedUp.set(`${state.path}#${table}`, handler.broker);
    if (lookedUp.size === 0) return [];
    const found: { file: string; fact: ExportFact; broker: string }[] = [];
    for (const state of this.states.values())
      for (const { specifier, imported, fact } of state.facts.decoratedMethods) {
        const target = this.resolve(specifier, state.path);
        const decorator = target === undefined ? undefined : this.exportOf(target, imported);
        const table = decorator?.fact.registersTable;
        const broker = table === undefined ? undefined : lookedUp.get(`${decorator?.file}#${table}`);
        if (broker !== undefined) found.push({ file: state.path, fact, broker });
      }
    return found;
  }

  /**
   * The table decorators ({@link tableDecoratedHandlers}) a delivery handler looks their table up
   * for, as `file\0name` of their exports: a module that imports one marks its handlers with it.
   */
  lookedUpTableDecorators(): Set<string> {
    const lookedUp = new Set<string>();
    for (const state of this.states.values())
      for (const handler of state.facts.handlers)
        for (const table of handler.tableLookups ?? []) lookedUp.add(`${state.path}#${table}`);
    const decorators = new Set<string>();
    if (lookedUp.size === 0) return decorators;
    for (const state of this.states.values())
      for (const [name, fact] of state.facts.exports)
        if (fact.registersTable !== undefined && lookedUp.has(`${state.path}#${fact.registersTable}`))
          decorators.add(`${state.path}\0${name}`);
    return decorators;
  }

  /**
   * The activities Temporal workers take from a factory of another module (`activities:
   * createActivities({ db })`): the functions of the object it returns, with the file that
   * defines them.
   */
  temporalFactoryActivities(): { file: string; fact: ExportFact }[] {
    const found = new Map<string, { file: string; fact: ExportFact }>();
    for (const { file, imported } of this.temporalFactories()) {
      const defined = this.exportOf(file, imported);
      if (!defined) continue;
      for (const fact of defined.fact.returnsTable ?? [])
        found.set(`${defined.file}\0${fact.position?.line}`, { file: defined.file, fact });
    }
    return [...found.values()];
  }

  /** The files that define Temporal activity factories other modules hand to workers (before the facts say what they return). */
  temporalFactoryFiles(): string[] {
    return [...new Set(this.temporalFactories().map(({ file }) => file))];
  }

  /** The activity factories workers take, resolved to the file each is imported from. */
  private temporalFactories(): { file: string; imported: string }[] {
    return [...this.states.values()].flatMap((state) =>
      state.facts.activityFactories.flatMap((factory) => {
        const file = this.resolve(factory.specifier, state.path);
        return file === undefined ? [] : [{ file, imported: factory.imported }];
      }),
    );
  }

  /**
   * The functions a module exports, its own and those its re-exports (`export *`, named, or an
   * import exported again) lead to, with the file that defines each.
   */
  exportedFunctionsOf(file: string, seen = new Set<string>()): { file: string; name: string; fact: ExportFact }[] {
    if (seen.has(file)) return [];
    seen.add(file);
    const state = this.states.get(file);
    if (!state) return [];
    const found: { file: string; name: string; fact: ExportFact }[] = [];
    for (const [name, fact] of state.facts.exports) if (fact.summary) found.push({ file, name, fact });
    for (const entry of state.facts.reExports) {
      const target = this.resolve(entry.specifier, file);
      if (target === undefined) continue;
      if (entry.imported === '*') {
        found.push(...this.exportedFunctionsOf(target, seen));
        continue;
      }
      const own = this.states.get(target)?.facts.exports.get(entry.imported);
      const defined = own ? { file: target, fact: own } : this.exportOf(target, entry.imported);
      if (defined?.fact.summary) found.push({ file: defined.file, name: entry.exported, fact: defined.fact });
    }
    return found;
  }

  /**
   * Where a type a file names is declared: the file itself, or the module it imports the type from
   * (through re-exports). Undefined for a type of a package or of a file outside the scan.
   */
  private typeDeclaration(file: string, type: TypeRef): ExportedName | undefined {
    if (type.specifier === undefined) return { file, name: type.name };
    const target = resolveLocal(this.project, type.specifier, file);
    if (target === undefined) return undefined;
    return this.definitionOf(target, type.name) ?? { file: target, name: type.name };
  }

  /**
   * The slot a call goes through, as `file` names it (handler/slots.ts): the declaration of the
   * type that holds the called property, followed from the declared type of the call's receiver
   * through the named types of the properties on the way (`job.config.run` → `Job.config` is a
   * `JobConfig` → `JobConfig.run`), as a key.
   */
  private slotOf(file: string, call: SlotCall): string | undefined {
    let declaration = call.exportedValue
      ? this.exportedValueType(file, call.type)
      : this.typeDeclaration(file, call.type);
    for (const property of call.path.slice(0, -1)) {
      if (!declaration) return undefined;
      const member = this.states.get(declaration.file)?.facts.slotTypes.get(declaration.name)?.get(property);
      declaration =
        member === undefined || member === 'function' ? undefined : this.typeDeclaration(declaration.file, member);
    }
    return declaration && `${declaration.file}\0${declaration.name}\0${call.path.at(-1) ?? ''}`;
  }

  /**
   * The declaration of the type another module declares a value it exports with (`export const
   * workers: Worker[]` gives `Worker`'s), for a slot called on that value as `file` imports it.
   */
  private exportedValueType(file: string, value: TypeRef): ExportedName | undefined {
    if (value.specifier === undefined) return undefined;
    const target = resolveLocal(this.project, value.specifier, file);
    if (target === undefined) return undefined;
    const defined = this.definitionOf(target, value.name) ?? { file: target, name: value.name };
    const type = this.states.get(defined.file)?.facts.valueTypes.get(defined.name);
    return type && this.typeDeclaration(defined.file, type);
  }

  private slots: Map<string, { file: string; name: string; fact: ExportFact }[]> | undefined;

  /**
   * The functions stored in each slot, by {@link slotOf}'s key: the function properties of object
   * literals of the slot's type, named where they are written or by the parameter of the imported
   * function they are handed to (`job({ name, run })` with `job(config: JobConfig)`).
   */
  private slotValues(): Map<string, { file: string; name: string; fact: ExportFact }[]> {
    if (this.slots) return this.slots;
    const slots = new Map<string, { file: string; name: string; fact: ExportFact }[]>();
    for (const state of this.states.values()) {
      for (const value of state.facts.slotValues) {
        let declaration: ExportedName | undefined;
        if (value.type) declaration = this.typeDeclaration(state.path, value.type);
        else if (value.argumentOf) {
          const target = resolveLocal(this.project, value.argumentOf.specifier, state.path);
          const callee = target === undefined ? undefined : this.calledFact(target, value.argumentOf);
          const type = callee?.fact.parameterTypes?.[value.argumentOf.index];
          declaration = callee && type ? this.typeDeclaration(callee.file, type) : undefined;
        }
        if (!declaration) continue;
        // Under the alias it is declared with and each named type the alias is made of.
        for (const type of this.unfolded(declaration)) {
          const key = `${type.file}\0${type.name}\0${value.property}`;
          const list = slots.get(key) ?? [];
          list.push({ file: state.path, name: value.name, fact: value.fact });
          slots.set(key, list);
        }
      }
    }
    this.slots = slots;
    return slots;
  }

  /** A type's declaration and, for a type alias, those of the named types it is made of, through aliases of aliases. */
  private unfolded(declaration: ExportedName): ExportedName[] {
    const found: ExportedName[] = [];
    const seen = new Set<string>();
    const queue = [declaration];
    for (let next = queue.shift(); next && found.length < ALIAS_LIMIT; next = queue.shift()) {
      const key = `${next.file}\0${next.name}`;
      if (seen.has(key)) continue;
      seen.add(key);
      found.push(next);
      for (const type of this.states.get(next.file)?.facts.typeAliases.get(next.name) ?? []) {
        const made = this.typeDeclaration(next.file, type);
        if (made) queue.push(made);
      }
    }
    return found;
  }

  /**
   * The functions a summary's calls through typed slots may run (handler/slots.ts); with
   * `only: 'dispatched'`, only those it takes out of a container per call, as a job system does;
   * with `'picked'`, only those it picks by a key read from what it was handed.
   */
  slotTargetsOf(
    summary: FunctionSummary,
    file: string,
    only?: 'dispatched' | 'picked',
  ): { file: string; name: string; fact: ExportFact }[] {
    if (!summary.slots) return [];
    return summary.slots.flatMap((call) => {
      if ((only === 'dispatched' && !call.dispatched) || (only === 'picked' && !call.picked)) return [];
      const key = this.slotOf(file, call);
      return key === undefined ? [] : [...(this.slotValues().get(key) ?? []), ...this.declaredMethod(key)];
    });
  }

  /**
   * The method a slot names when its type is a class (`opts.billing.charge()` with `billing:
   * BillingService`): the class's own method, which every value of the type runs.
   */
  private declaredMethod(key: string): { file: string; name: string; fact: ExportFact }[] {
    const [file = '', cls = '', member = ''] = key.split('\0');
    const name = `${cls}.${member}`;
    const fact = this.states.get(file)?.facts.members.get(name);
    return fact ? [{ file, name, fact }] : [];
  }

  /**
   * What the function `fact` describes picks by the type of what it is handed (handler/type-dispatch.ts):
   * the functions of its file, and those of other modules its calls name, resolved here.
   */
  picksOf(file: string, fact: Picks): Dispatched[] {
    const found: Dispatched[] = [];
    for (const pick of fact.picks ?? [])
      found.push({ file, name: pick.fact.position?.name ?? pick.key ?? '', fact: pick.fact, ...pickFlags(pick) });
    for (const pick of fact.importedPicks ?? []) {
      const target = this.resolve(pick.call.specifier, file);
      const called = target === undefined ? undefined : this.calledFact(target, pick.call);
      if (called?.fact.position) found.push({ ...called, ...pickFlags(pick) });
    }
    for (const pick of fact.folderPicks ?? []) found.push(...this.folderElements(file, pick));
    for (const pick of fact.registryPicks ?? []) found.push(...this.registryElements(file, pick));
    return found;
  }

  /**
   * The methods a call through an injected registry's getter may run (handler/service-registries.ts):
   * that method of each class that hands itself to the registry's store, under the keys it
   * registers with. The registry is the class the getter's file declares; a class registers with it
   * when its own import of the registry's class names the same declaration.
   */
  private registryElements(file: string, pick: RegistryPick): Dispatched[] {
    const target = this.resolve(pick.specifier, file);
    if (target === undefined) return [];
    const registry = this.declaredAs(target, pick.imported);
    const store = this.states
      .get(registry.file)
      ?.facts.registries.find((entry) => entry.class === registry.name && entry.getters.includes(pick.getter))?.store;
    if (!store) return [];
    const found: Dispatched[] = [];
    const key = `${registry.file}\0${registry.name}\0${store.method}\0${String(store.index)}`;
    for (const { file, entry } of this.selfRegistrationsByStore().get(key) ?? []) {
      const fact = this.states.get(file)?.facts.members.get(`${entry.class}.${pick.member}`);
      if (!fact?.position) continue;
      found.push({
        file,
        name: `${entry.class}.${pick.member}`,
        fact,
        ...(entry.keys.length > 0 ? { queue: entry.keys.join('.') } : {}),
        byField: true,
      });
    }
    return found;
  }

  private registeredSelves: Map<string, { file: string; entry: SelfRegistration }[]> | undefined;

  /**
   * The program's self-registrations by the store they call: the registry class's declaration and
   * the method and parameter that keep them. Read once per settled program, so a pick is a lookup.
   */
  private selfRegistrationsByStore(): Map<string, { file: string; entry: SelfRegistration }[]> {
    if (this.registeredSelves) return this.registeredSelves;
    const byStore = new Map<string, { file: string; entry: SelfRegistration }[]>();
    for (const state of this.states.values()) {
      if (state.skipped) continue;
      for (const entry of state.facts.selfRegistrations) {
        const at = this.resolve(entry.specifier, state.path);
        if (at === undefined) continue;
        const declared = this.declaredAs(at, entry.imported);
        const key = `${declared.file}\0${declared.name}\0${entry.member}\0${String(entry.index)}`;
        byStore.set(key, [...(byStore.get(key) ?? []), { file: state.path, entry }]);
      }
    }
    if (this.isSettled) this.registeredSelves = byStore;
    return byStore;
  }

  /**
   * The functions of the modules of a folder table that a pick calls (handler/folder-tables.ts):
   * for each module in each folder the picked table's module loads, the element's member the
   * pick calls (its export of that name, or that member of its first export: `export const job =
   * createJob({ handle })`), or, for a call of the element itself, its default export.
   */
  private folderElements(file: string, pick: FolderPick): Dispatched[] {
    const loader = this.resolve(pick.specifier, file);
    const state = loader === undefined ? undefined : this.states.get(loader);
    if (!loader || !state || state.skipped || state.facts.loadedFolders.length === 0) return [];
    const folders = new Set(state.facts.loadedFolders.map((folder) => resolvePath(dirname(loader), folder)));
    const found: Dispatched[] = [];
    for (const element of this.states.values()) {
      if (element.path === loader || !folders.has(dirname(element.path)) || element.skipped) continue;
      const facts = element.facts;
      const member = pick.member;
      const fact =
        member === undefined
          ? facts.exports.get('default')
          : (facts.exports.get(member) ??
            [...facts.members].find(
              ([key]) => key.endsWith(`.${member}`) && !key.slice(0, -member.length - 1).includes('.'),
            )?.[1]);
      if (fact?.position) found.push({ file: element.path, name: fact.position.name ?? member ?? 'default', fact });
    }
    return found;
  }

  /**
   * The function an imported function value names, where it is defined: an exported function, a
   * class's method, or (`returned`) the function a factory returns.
   */
  importedFunction(file: string, value: ImportedFunctionValue): { file: string; fact: ExportFact } | undefined {
    const target = this.resolve(value.specifier, file);
    const called = target === undefined ? undefined : this.calledFact(target, value);
    if (!called) return undefined;
    const fact = value.returned ? called.fact.returns : called.fact;
    return fact?.position ? { file: called.file, fact } : undefined;
  }

  /** Whether running a picked function does something a redelivery repeats: an effect, here or in what it calls. */
  doesWork(picked: Dispatched): boolean {
    const summary = picked.fact.summary;
    return summary !== undefined && (summary.effects.length > 0 || this.expand(summary, picked.file).effects.size > 0);
  }

  /** Whether a picked function is not known to be pure: it does work, or calls something the analysis does not follow. */
  mayDoWork(picked: Dispatched): boolean {
    const summary = picked.fact.summary;
    return summary === undefined || this.doesWork(picked) || this.expand(summary, picked.file).unresolved !== undefined;
  }

  /** What each function reached through imports does, composed with what it calls, by its {@link functionKey}. */
  private readonly composed = new Map<string, Composed>();

  /**
   * What running `summary` (a function of `file`) does: its own effects and protections with those
   * of every function it calls in other modules, and what they call, to the end of the chain (a
   * fixpoint, not a fixed depth). Each function's composition is computed once, for its strongly
   * connected component of the call graph at a time (Tarjan's algorithm), so a program's handlers
   * cost one pass over the functions they reach. `unresolved` names the first call, in call order,
   * whose target has no summary (a package, a file the scan did not read).
   */
  expand(summary: FunctionSummary, file: string): Composed {
    const result = emptyComposed();
    addDispatched(result, this.slotTargetsOf(summary, file, 'dispatched'));
    for (const effect of summary.effects) result.effects.add(effect);
    addSites(result, summary, file);
    for (const protection of summary.protections) {
      result.protections.add(protection);
      // Made by the handler itself: no other function leads to it.
      result.protectionPaths.set(protection, []);
    }
    for (const step of this.callsOf(summary, file)) {
      if ('unresolved' in step) {
        result.unresolved ??= step.unresolved;
        continue;
      }
      if (step.writes) addEffect(result, HTTP_WRITE_EFFECT, [step.step]);
      mergeInto(result, this.composeFrom(step));
    }
    addMemoised(result, summary.memoised, this.memoisedCallsOf(summary, file));
    return result;
  }

  /** What the functions a summary calls inside durable steps do, composed. */
  private memoisedCallsOf(summary: FunctionSummary, file: string): Composed[] {
    if (!summary.memoised) return [];
    // A callee whose composition is under way (a cycle through a durable step) adds nothing more.
    return this.directCallsOf({ ...summary, calls: summary.memoised.calls }, file).flatMap((step) =>
      'unresolved' in step || this.opened.has(step.key) ? [] : [this.composeFrom(step)],
    );
  }

  /** The functions whose composition has started and not ended: an open Tarjan walk's nodes. */
  private readonly opened = new Set<string>();

  /** The calls of a summary, each resolved to the function it runs or named as unresolved. */
  private callsOf(summary: FunctionSummary, file: string): (CalledFunction | { unresolved: string })[] {
    const dispatched = this.slotTargetsOf(summary, file).flatMap(slotCallee);
    // A function the caller was handed and runs (a registration wrapper's processor): what it does
    // is the wrapper's callers' to say, so what this summary does is unknown past it.
    const handed = (summary.handed ?? []).map((name) => ({ unresolved: `\`${name}\`, a function it is handed` }));
    return [...this.directCallsOf(summary, file), ...dispatched, ...handed];
  }

  /** The calls of a summary to imported functions and methods, each resolved or named as unresolved. */
  private directCallsOf(summary: FunctionSummary, file: string): (CalledFunction | { unresolved: string })[] {
    return summary.calls.flatMap((call): (CalledFunction | { unresolved: string })[] => {
      const target = this.resolve(call.specifier, file);
      if (target === undefined) return [];
      const factory = this.calledFact(target, call);
      // `factory(deps)(req, res)` runs the function the factory returns.
      const found = call.returned
        ? factory && factory.fact.returns && { ...factory, fact: factory.fact.returns }
        : factory;
      if (!found) {
        // A method of a value of an interface type (an injected `DomainEventMessageHandlerInterface`):
        // the classes that implement it (handler/slots.ts), any of which it may be.
        const implementations = this.implementationsCalled(file, call);
        if (implementations.length > 0) return implementations;
      }
      // A method of an imported object the graph knows nothing of (a logger, a client): not a call of the program's.
      if (!found && call.bound) return [];
      if (!found?.fact.summary) {
        const name = call.member === undefined ? call.imported : `${call.imported}.${call.member}`;
        return [{ unresolved: `\`${name}\` of \`${call.specifier}\`` }];
      }
      const step: PathStep = { file: found.file, name: found.name };
      if (found.fact.position) step.line = found.fact.position.line;
      const called: CalledFunction = {
        // The function a factory returns is a function of its own, beside the factory.
        key: `${found.file}\0${found.name}${call.returned ? '()' : ''}`,
        file: found.file,
        summary: found.fact.summary,
        step,
        fact: found.fact,
      };
      const options = found.fact.summary.requestOptions ?? [];
      if (call.writeOptions?.some((index) => options.includes(index))) called.writes = true;
      return [called];
    });
  }

  /** The methods a call of `call.member` on a value of the imported type `call.imported` may run: its implementations'. */
  private implementationsCalled(file: string, call: ImportedCall): CalledFunction[] {
    if (call.member === undefined || call.imported.includes('.')) return [];
    const key = this.slotOf(file, { type: { name: call.imported, specifier: call.specifier }, path: [call.member] });
    return (key === undefined ? [] : (this.slotValues().get(key) ?? [])).flatMap(slotCallee);
  }

  /** The composition of one called function, computing its component's first when not known yet. */
  private composeFrom(start: CalledFunction): Composed {
    const known = this.composed.get(start.key);
    if (known) return known;
    // A component is composed once all the components it calls are, and every function in it gets
    // the same answer; a callee composed meanwhile (by a durable step's walk) is not walked again.
    const nodes = new Map<string, CalledFunction>([[start.key, start]]);
    const composed = this.composed;
    const opened = this.opened;
    const steps = (key: string): CalledFunction[] => {
      const node = nodes.get(key);
      return node ? this.callsOf(node.summary, node.file).flatMap((step) => ('unresolved' in step ? [] : [step])) : [];
    };
    componentsFrom(
      start.key,
      function* callees(key: string): Generator<string> {
        opened.add(key);
        for (const step of steps(key)) {
          if (composed.has(step.key)) continue;
          if (!nodes.has(step.key)) nodes.set(step.key, step);
          yield step.key;
        }
      },
      (component) => {
        this.composeComponent(component.flatMap((key) => nodes.get(key) ?? []));
        for (const key of component) opened.delete(key);
      },
    );
    return this.composed.get(start.key) ?? emptyComposed();
  }

  /** One component: the union of its members' own effects and of what they call outside it. */
  private composeComponent(members: readonly CalledFunction[]): void {
    const inside = new Set(members.map((member) => member.key));
    const result = emptyComposed();
    for (const member of members) {
      for (const effect of member.summary.effects) {
        result.effects.add(effect);
        if (!result.paths.has(effect)) result.paths.set(effect, [member.step]);
      }
      addSites(result, member.summary, member.file);
      for (const protection of member.summary.protections) {
        result.protections.add(protection);
        if (!result.protectionPaths.has(protection)) result.protectionPaths.set(protection, [member.step]);
      }
      // Past the handler itself, only a pick by what was handed on (a dispatcher's `handlers.get(event.type)`):
      // a walk over every value of a type a callee keeps (an in-process bus's subscribers) is what it does, not a handler's dispatch.
      addDispatched(result, this.slotTargetsOf(member.summary, member.file, 'picked'));
      // A function another module's handler reaches that picks the work by the type of what it is
      // handed (a webhook controller's `this.billing.handle(event)` whose `switch` calls one method
      // per event type): it is the delivery's dispatcher, and what it picks runs per delivery.
      if (member.fact && (member.fact.picks || member.fact.importedPicks)) {
        const key = `${member.file}\0${member.step.name}`;
        if (!result.dispatchers.has(key))
          result.dispatchers.set(key, { file: member.file, name: member.step.name, fact: member.fact });
      }
    }
    for (const member of members) {
      for (const step of this.callsOf(member.summary, member.file)) {
        if ('unresolved' in step) {
          result.unresolved ??= step.unresolved;
          continue;
        }
        if (step.writes) addEffect(result, HTTP_WRITE_EFFECT, [member.step, step.step]);
        const inner = inside.has(step.key) ? undefined : this.composed.get(step.key);
        if (inner) mergeInto(result, inner, member.step);
      }
      // A durable step's callees are composed on their own: they are not members of this component's cycle.
      addMemoised(result, member.summary.memoised, this.memoisedCallsOf(member.summary, member.file));
    }
    // Every member reaches what the component does: its paths start at the member itself.
    for (const member of members)
      this.composed.set(member.key, {
        ...result,
        paths: startingAt(result.paths, member),
        protectionPaths: startingAt(result.protectionPaths, member),
      });
  }
}

/** A function kept in a typed slot, as a callee: keyed by its line too (two literals may both name theirs `run`). */
function slotCallee(found: { file: string; name: string; fact: ExportFact }): CalledFunction[] {
  const position = found.fact.position;
  if (!found.fact.summary || !position) return [];
  const step: PathStep = { file: found.file, name: found.name, line: position.line };
  return [
    { key: `${found.file}\0${found.name}\0${position.line}`, file: found.file, summary: found.fact.summary, step },
  ];
}

/** How many types one alias is unfolded into, at most. */
const ALIAS_LIMIT = 16;

/** What a pick of a fact says of itself, as a {@link Dispatched} has it: the type's key as its queue, and its flags. */
function pickFlags(pick: {
  key?: string;
  reached?: true;
  byField?: true;
  forward?: true;
}): Pick<Dispatched, 'queue' | 'reached' | 'byField' | 'forward'> {
  return {
    ...(pick.key === undefined ? {} : { queue: pick.key }),
    ...(pick.reached ? { reached: pick.reached } : {}),
    ...(pick.byField ? { byField: pick.byField } : {}),
    ...(pick.forward ? { forward: pick.forward } : {}),
  };
}

/** Functions picked per call through typed slots, each once. */
function addDispatched(result: Composed, targets: readonly Dispatched[]): void {
  for (const target of targets) {
    const key = `${target.file}\0${target.name}\0${target.fact.position?.line ?? ''}`;
    if (!result.dispatched.has(key)) result.dispatched.set(key, target);
  }
}

function addEffect(result: Composed, effect: string, path: PathStep[]): void {
  result.effects.add(effect);
  if (!result.paths.has(effect)) result.paths.set(effect, path);
}

/** The lines where a function of `file` makes its effects, for the effects `result` has no site of yet. */
function addSites(result: Composed, summary: FunctionSummary, file: string): void {
  for (const [effect, line] of Object.entries(summary.effectLines ?? {}))
    if (!result.effectSites.has(effect)) result.effectSites.set(effect, { file, line });
}

function emptyComposed(): Composed {
  return {
    effects: new Set(),
    protections: new Set(),
    unresolved: undefined,
    paths: new Map(),
    protectionPaths: new Map(),
    effectSites: new Map(),
    memoised: new Set(),
    steps: new Set(),
    dispatched: new Map(),
    dispatchers: new Map(),
  };
}

/** What a summary does inside durable steps, with what the functions those steps call do, all memoised. */
function addMemoised(result: Composed, memoised: FunctionSummary['memoised'], inner: readonly Composed[]): void {
  if (!memoised) return;
  for (const effect of memoised.effects) result.memoised.add(effect);
  for (const step of memoised.steps) result.steps.add(step);
  for (const composed of inner) {
    for (const effect of [...composed.effects, ...composed.memoised]) result.memoised.add(effect);
    for (const step of composed.steps) result.steps.add(step);
  }
}

/** `inner`, what a called function does, added to `result`; its paths behind `caller` when one is given. */
function mergeInto(result: Composed, inner: Composed, caller?: PathStep): void {
  for (const [made, paths] of [
    [inner.effects, 'paths'],
    [inner.protections, 'protectionPaths'],
  ] as const)
    for (const what of made) {
      const path = inner[paths].get(what) ?? [];
      if (!result[paths].has(what)) result[paths].set(what, caller ? [caller, ...path] : path);
    }
  for (const effect of inner.effects) result.effects.add(effect);
  for (const [effect, site] of inner.effectSites)
    if (!result.effectSites.has(effect)) result.effectSites.set(effect, site);
  for (const protection of inner.protections) result.protections.add(protection);
  for (const effect of inner.memoised) result.memoised.add(effect);
  for (const step of inner.steps) result.steps.add(step);
  for (const [key, target] of inner.dispatched) if (!result.dispatched.has(key)) result.dispatched.set(key, target);
  for (const [key, target] of inner.dispatchers) if (!result.dispatchers.has(key)) result.dispatchers.set(key, target);
  result.unresolved ??= inner.unresolved;
}

/** A component's paths (to effects or protections) as seen from one of its members: each starts at that member. */
function startingAt(paths: ReadonlyMap<string, PathStep[]>, member: CalledFunction): Map<string, PathStep[]> {
  const result = new Map<string, PathStep[]>();
  for (const [effect, path] of paths) result.set(effect, path[0] === member.step ? path : [member.step, ...path]);
  return result;
}

/** A module's exports as the checker sees them, `export *` included. */
function exportsOf(file: SourceFile): MorphSymbol[] {
  const symbol = file.getSymbol();
  return symbol ? file.getProject().getTypeChecker().getExportsOfModule(symbol) : [];
}

/** A key parameter as a summary holds it: `property` only when the key is a field of the parameter's object. */
function keyParameterEntry(
  index: number,
  parameter: string,
  property: string | undefined,
): { index: number; parameter: string; property?: string } {
  return property === undefined ? { index, parameter } : { index, parameter, property };
}

/**
 * The entries the project's manifests declare: each package's commands (`bin`) are scripts, and so
 * are the files its scripts run by hand (`"codegen": "tsx src/codegen.ts"`, not `start` or `dev`)
 * whose own code does not say what they are (a file that listens is a server, however it is run).
 */
function declaredEntries(project: LoadedProject, states: ReadonlyMap<string, FileState>): Map<string, FileRole> {
  const entries = new Map<string, FileRole>();
  for (const folder of [project.root, ...project.workspaceFolders.values(), ...project.packageFolders.values()]) {
    for (const file of packageBinSources(folder)) entries.set(file, 'script');
    for (const file of packageScriptSources(folder))
      if (states.get(file)?.facts.role.decided === false) entries.set(file, 'script');
  }
  return entries;
}
