import type { CalleeRef, ClassShape, Forward } from '../model/handler/hand-offs.js';
import { LIBRARY_REGISTRARS } from '../model/libraries/registrars.js';
import type { ExportedName, FileState } from './graph.js';

/** What the program graph knows of modules and classes, for resolving a callee. */
export interface ClassLookup {
  resolve(specifier: string, from: string): string | undefined;
  /** The file that declares `name` as `file` exports it, and its local name there. */
  declaredAs(file: string, name: string): ExportedName;
  /** The class `cls` of `file`, from the file's facts. */
  classShape(file: string, cls: string): ClassShape | undefined;
  /** The class `shape` extends: in the tree, by file and local name; outside it, by module and export. */
  superclassOf(file: string, shape: ClassShape): ExportedName | { module: string; name: string } | undefined;
}

/**
 * A function that registers its argument `index` as a handler of `broker`, and names the queue
 * with `queueIndex`; with `table`, the argument is an object of handlers, each under its key.
 */
export interface Registrar {
  index: number;
  queueIndex?: number;
  broker: string;
  table?: true;
  /** The argument is an object, and its function under this name is the handler (`createJob(queue, { perform })`). */
  property?: string;
}

/**
 * The program's registrars (model/handler/hand-offs.ts), to a fixpoint: a library's own
 * (`new Worker(queue, processor)`) and a function whose handler runs what it is handed
 * (`addJob(name, processor)` registering `async (job) => processor(job)`), then every function that hands a parameter to a registrar,
 * until no function is new. A call is resolved the way its file names the callee: a function of
 * the file, `this.method` through the class and what it extends (across modules), a method of an
 * injected service's class, or an import, through re-exports to the file that defines it.
 */
export class Registrars {
  private readonly table = new Map<string, Registrar[]>();
  /** The registering names of each file: functions, `Class.method`, and the classes of those methods. */
  private readonly named = new Map<string, Set<string>>();

  constructor(
    states: ReadonlyMap<string, FileState>,
    private readonly classes: ClassLookup,
  ) {
    // Each forward resolved once, by the function it calls; then a worklist from the library's
    // registrars out to every function that hands a parameter on to one, each step once.
    const callers = new Map<string, { from: string; forward: Forward }[]>();
    for (const state of states.values()) {
      if (state.skipped) continue;
      for (const forward of state.facts.forwards) {
        const key = this.keyOf(state.path, forward.to);
        if (key === undefined) continue;
        const list = callers.get(key) ?? [];
        list.push({ from: `${state.path}\0${forward.from}`, forward });
        callers.set(key, list);
      }
    }
    // The seeds: the libraries' registrars, and the program's functions whose handlers run what
    // their callers hand them (hand-offs.ts parameterRegistrars).
    const queue = [...callers.keys()].filter((key) => libraryRegistrars(key).length > 0);
    for (const state of states.values()) {
      if (state.skipped) continue;
      for (const { from, index, broker, table, property, slot } of state.facts.parameterRegistrars) {
        const key = slot ? this.slotKey(state.path, slot, from) : `${state.path}\0${from}`;
        const entry = { index, broker, ...(table ? { table } : {}), ...(property === undefined ? {} : { property }) };
        if (key !== undefined && this.add(key, entry)) queue.push(key);
      }
    }
    for (let key = queue.pop(); key !== undefined; key = queue.pop()) {
      const registrars = this.table.get(key) ?? libraryRegistrars(key);
      for (const { from, forward } of callers.get(key) ?? []) {
        for (const registrar of registrars) {
          for (const entry of forwarded(forward, registrar)) if (this.add(from, entry)) queue.push(from);
        }
      }
    }
  }

  /** The registrars a call in `file` reaches through its callee. */
  at(file: string, ref: CalleeRef): readonly Registrar[] {
    const key = this.keyOf(file, ref);
    if (key === undefined) return [];
    return this.table.get(key) ?? libraryRegistrars(key);
  }

  /** Whether `name` (a function, or a class with a method that registers, its own or inherited) of `file` registers. */
  registers(file: string, name: string, depth = 0): boolean {
    if (this.named.get(file)?.has(name)) return true;
    const shape = depth < 16 ? this.classes.classShape(file, name) : undefined;
    // An instance made once of a class that registers (`export const broadcast = new Broadcast()`).
    if (shape && shape.name !== name && this.named.get(file)?.has(shape.name)) return true;
    const parent = shape && this.classes.superclassOf(file, shape);
    return parent !== undefined && 'file' in parent && this.registers(parent.file, parent.name, depth + 1);
  }

  /** Whether any function of `file` registers. */
  inFile(file: string): boolean {
    return this.named.has(file);
  }

  /** Whether the program has registrars of its own. */
  any(): boolean {
    return this.named.size > 0;
  }

  private add(key: string, registrar: Registrar): boolean {
    const list = this.table.get(key) ?? [];
    const known = list.find((entry) => entry.index === registrar.index && entry.property === registrar.property);
    if (known) {
      // Reached again through a path that names the queue (the library's own registrar behind a
      // wrapper that took the same parameter): the queue is kept, and callers learn it.
      if (known.queueIndex !== undefined || registrar.queueIndex === undefined) return false;
      known.queueIndex = registrar.queueIndex;
      return true;
    }
    list.push(registrar);
    this.table.set(key, list);
    // By file: the function's name and, for a method, its class's.
    const [file = '', name = ''] = key.split('\0');
    const names = this.named.get(file) ?? new Set<string>();
    names.add(name);
    const dot = name.indexOf('.');
    if (dot > 0) names.add(name.slice(0, dot));
    this.named.set(file, names);
    return true;
  }

  /** The table key of what `ref` calls from `file`: `file\0name`, or `lib:module\0export.member` outside the tree. */
  private keyOf(file: string, ref: CalleeRef): string | undefined {
    if ('local' in ref) {
      const dot = ref.local.indexOf('.');
      return dot < 0
        ? `${file}\0${ref.local}`
        : this.methodKey(file, ref.local.slice(0, dot), ref.local.slice(dot + 1));
    }
    if ('this' in ref) return this.methodKey(file, ref.this, ref.member);
    if ('slot' in ref) return this.slotKey(file, ref.slot, ref.member);
    if ('super' in ref) {
      const shape = this.classes.classShape(file, ref.super);
      const parent = shape && this.classes.superclassOf(file, shape);
      if (!parent) return undefined;
      return 'file' in parent
        ? this.methodKey(parent.file, parent.name, ref.member)
        : `lib:${parent.module}\0${parent.name}.${ref.member}`;
    }
    const target = this.classes.resolve(ref.specifier, file);
    if (target === undefined)
      return `lib:${ref.specifier}\0${ref.imported}${ref.member === undefined ? '' : `.${ref.member}`}`;
    const defined = this.classes.declaredAs(target, ref.imported);
    return ref.member === undefined
      ? `${defined.file}\0${defined.name}`
      : this.methodKey(defined.file, defined.name, ref.member);
  }

  /**
   * `Type.member` where the type's module declares it (`QueueConsumer.subscribe`): a call through a
   * value of the type and the function an object of the type keeps there meet at one key.
   */
  private slotKey(file: string, type: { name: string; specifier?: string }, member: string): string | undefined {
    if (type.specifier === undefined) return `${file}\0${type.name}.${member}`;
    const target = this.classes.resolve(type.specifier, file);
    if (target === undefined) return undefined;
    const defined = this.classes.declaredAs(target, type.name);
    return `${defined.file}\0${defined.name}.${member}`;
  }

  /** `Class.member` as `file` declares it, or as the first class it extends that declares it. */
  private methodKey(file: string, cls: string, member: string, depth = 0): string | undefined {
    const shape = this.classes.classShape(file, cls);
    if (!shape) return undefined;
    if (shape.methods.includes(member)) return `${file}\0${shape.name}.${member}`;
    const parent = depth < 16 ? this.classes.superclassOf(file, shape) : undefined;
    if (!parent) return undefined;
    return 'file' in parent
      ? this.methodKey(parent.file, parent.name, member, depth + 1)
      : `lib:${parent.module}\0${parent.name}.${member}`;
  }
}

/**
 * What a function registers by handing its parameters to a registrar (`forward`): the parameter it
 * hands there as it is, with the registrar's table or property (an object of handlers handed on),
 * and the parameters the functions it hands there run (a wrapper around its processor, an object
 * literal whose `perform` calls its own `perform`).
 */
function forwarded(forward: Forward, registrar: Registrar): Registrar[] {
  const { params } = forward;
  const found: Registrar[] = [];
  const index = params[registrar.index];
  if (index !== null && index !== undefined) {
    const queueIndex = registrar.queueIndex === undefined ? null : (params[registrar.queueIndex] ?? null);
    found.push({
      index,
      ...(queueIndex === null ? {} : { queueIndex }),
      broker: registrar.broker,
      ...(registrar.table ? { table: registrar.table } : {}),
      ...(registrar.property === undefined ? {} : { property: registrar.property }),
    });
  }
  // A table's functions run each under its own key: a wrapper there is not one the registrar names.
  if (registrar.table) return found;
  for (const wrapped of forward.wrapped ?? []) {
    if (wrapped.argument !== registrar.index || wrapped.key !== registrar.property) continue;
    const queueIndex = registrar.queueIndex === undefined ? null : (params[registrar.queueIndex] ?? null);
    found.push({
      index: wrapped.index,
      ...(queueIndex === null ? {} : { queueIndex }),
      broker: registrar.broker,
      ...(wrapped.property === undefined ? {} : { property: wrapped.property }),
    });
  }
  return found;
}

function libraryRegistrars(key: string): readonly Registrar[] {
  if (!key.startsWith('lib:')) return [];
  const [module, name] = key.slice(4).split('\0');
  return LIBRARY_REGISTRARS.filter(
    (entry) =>
      entry.module === module && `${entry.imported}${entry.member === undefined ? '' : `.${entry.member}`}` === name,
  );
}
