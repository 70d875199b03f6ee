import type { Finding, HandlerEntry, PathStep, Verdict } from '../report/model.js';
import { isDelivery } from '../model/handler/consumer-handler.js';
import { type Composed, type Dispatched, type FileState, type ImportGraph, type RegistrationIn } from './graph.js';
import type { ExportFact, Picks } from './facts.js';
import type { CalleeRef } from '../model/handler/hand-offs.js';
import type { Registrars } from './registrars.js';
import type { FunctionSummary } from '../model/effects.js';
import { REPEATABLE_EFFECTS } from '../model/writes.js';
import { isTypeSplit } from '../model/effects.js';

/**
 * The handler inventory: every consumer handler and webhook the facts found (not ordinary routes
 * nor functions merely shaped like handlers), with the effects it reaches
 * through calls into other files, the protections around them and a verdict.
 */

export function inventory(
  states: ReadonlyMap<string, FileState>,
  graph: ImportGraph,
  findings: readonly Finding[],
): HandlerEntry[] {
  const handlers: HandlerEntry[] = [];
  /** Each row's function, for the functions it dispatches through typed slots. */
  const dispatchers: { file: string; summary: FunctionSummary; broker: string; picks: Dispatched[] }[] = [];
  // The program's registrars, made once for this inventory (a worker's base asks, and the hand-offs).
  let made: Registrars | undefined;
  const registrars = (): Registrars => (made ??= graph.registrars());
  /**
   * What a listed function picks by the type of what it is handed. Its own picks are its delivery's
   * per-type handlers; a pick a function it calls makes (by what that was handed: a build type, a
   * value's `typeof`) is one only when the picked function does work a redelivery repeats.
   */
  const picked = (file: string, fact: Picks): Dispatched[] =>
    graph.picksOf(file, fact).filter((pick) => !pick.reached || graph.doesWork(pick));
  for (const state of states.values()) {
    for (const handler of state.facts.handlers) {
      // A function registered in another file: that registration names the broker and queue.
      const registration =
        handler.broker === 'generic'
          ? graph.registrationsOf(state.path).find((entry) => entry.imported === (handler.exportedAs ?? handler.name))
          : undefined;
      // Only deliveries: an ordinary route or a function merely shaped like a handler is not one.
      if (!registration && !isDelivery(handler.broker)) continue;
      // A subclass of a base named like a worker whose base takes no deliveries (graph.ts `extendsWorker`).
      if (handler.workerClass !== undefined && !graph.extendsWorker(state.path, handler.workerClass, registrars()))
        continue;
      const broker = registration?.broker ?? handler.broker;
      handlers.push(
        entryOf(state, handler, handler.summary, graph, states, findings, {
          broker,
          name: handler.name,
          queue: registration?.queue ?? handler.queue,
          registeredAt: registration && registeredAt(registration, states),
        }),
      );
      // One another file's handler picks hands its delivery on no further (`forward`).
      const picks = picked(state.path, handler).filter((pick) => !(registration?.picked && pick.forward));
      dispatchers.push({ file: state.path, summary: handler.summary, broker, picks });
    }
  }
  // Functions other files (or infrastructure files) say run per delivery, each listed once, and
  // the functions a listed one reaches through a typed slot, until none is new.
  const candidates = [
    ...registeredFunctions(graph, states),
    ...handedOffFunctions(states, graph, registrars()),
    ...declaredLambdas(graph),
    ...temporalFunctions(graph),
    ...decoratedHandlers(graph),
    ...templateOverrides(graph, states),
  ];
  for (const candidate of candidates) {
    const { file, fact, name, broker, queue, registeredAt: at } = candidate;
    const state = states.get(file);
    const position = fact.position;
    if (!state || !position || !fact.summary || isListed(handlers, state.relative, position.line)) continue;
    handlers.push(
      entryOf(state, position, fact.summary, graph, states, findings, { broker, name, queue, registeredAt: at }),
    );
    // What it picks by the delivery's type runs per delivery of that type (type-dispatch.ts), and
    // the function it hands the whole delivery to, on every delivery; not what that one hands on
    // again, which is no longer the delivery.
    const picks = picked(file, fact).filter((each) => !(candidate.picked && each.forward));
    for (const pick of picks.filter((each) => !each.reached))
      candidates.push({
        ...pick,
        name: pick.name || name,
        broker,
        queue: pick.forward ? queue : pick.queue,
        picked: true,
      });
    dispatchers.push({ file, summary: fact.summary, broker, picks: picks.filter((each) => each.reached) });
  }
  // What a listed function, or any function it reaches, picks per call through a typed slot
  // (`definitions[job.name].handler(job)`, a dispatcher's `handlers.get(event.type).handle(event)`).
  // And what a function of another module they reach picks by the type of what it is handed.
  // And what the functions of other modules they reach pick by the type of what they are handed:
  // such a function is the delivery's dispatcher when a pick of it does work, listed with those picks.
  for (let next = dispatchers.shift(); next; next = dispatchers.shift()) {
    const composed = graph.expand(next.summary, next.file);
    const reached: Dispatched[] = [...composed.dispatched.values(), ...next.picks];
    // A function reached as the delivery's dispatcher lists its picks but the pure ones.
    const reachedDispatchers = new Set<Dispatched['fact']>();
    for (const dispatcher of composed.dispatchers.values()) {
      // Picked by a field of what it was handed (a message's type, two named at least), and doing work.
      const picks = graph.picksOf(dispatcher.file, dispatcher.fact);
      const working = isTypeSplit(picks.map(({ queue, byField }) => ({ key: queue, byField })))
        ? picks.filter((pick) => graph.doesWork(pick))
        : [];
      if (working.length > 0) {
        reached.push(dispatcher, ...working);
        reachedDispatchers.add(dispatcher.fact);
      }
    }
    for (const { file, fact, name, queue } of reached) {
      const state = states.get(file);
      const position = fact.position;
      if (!state || !position || !fact.summary || isListed(handlers, state.relative, position.line)) continue;
      handlers.push(
        entryOf(state, position, fact.summary, graph, states, findings, { broker: next.broker, name, queue }),
      );
      // A picked function's own picks are by what it was picked with: its type's handlers too.
      const own = picked(file, fact).filter(
        (each) => !each.forward && (!reachedDispatchers.has(fact) || graph.mayDoWork(each)),
      );
      dispatchers.push({ file, summary: fact.summary, broker: next.broker, picks: own });
    }
  }
  return handlers;
}

/** Where a handler function is: its first line and column, and its last line. */
interface Position {
  line: number;
  column: number;
  endLine: number;
}

/** The inventory row of one handler: what it reaches through calls into other files, and the verdict. */
function entryOf(
  state: FileState,
  position: Position,
  summary: FunctionSummary,
  graph: ImportGraph,
  states: ReadonlyMap<string, FileState>,
  findings: readonly Finding[],
  what: {
    broker: string;
    name: string | undefined;
    queue: string | undefined;
    registeredAt?: HandlerEntry['registeredAt'];
  },
): HandlerEntry {
  const composed = graph.expand(summary, state.path);
  const { effects, unresolved } = composed;
  // Effects inside durable steps are recorded by their engine and not made again on a redelivery.
  const protections = new Set(composed.protections);
  if (composed.memoised.size > 0) protections.add('durable-step');
  const inside = findingInside(findings, state.relative, position.line, position.endLine);
  const paths = pathsFrom(composed.paths, states).map(([effect, via]) => ({ effect, via }));
  const guards = pathsFrom(composed.protectionPaths, states).map(([protection, via]) => ({ protection, via }));
  const sites = [...composed.effectSites]
    .filter(([effect]) => effects.has(effect))
    .map(([effect, site]) => ({ effect, file: states.get(site.file)?.relative ?? site.file, line: site.line }))
    .sort((a, b) => (a.effect < b.effect ? -1 : a.effect > b.effect ? 1 : 0));
  const memoised = { effects: composed.memoised, steps: composed.steps };
  return {
    file: state.relative,
    line: position.line,
    column: position.column,
    endLine: position.endLine,
    broker: what.broker,
    effects: [...effects],
    protections: [...protections],
    ...verdictOf(effects, protections, unresolved, inside, memoised),
    ...(paths.length > 0 ? { paths } : {}),
    ...(guards.length > 0 ? { protectionPaths: guards } : {}),
    ...(sites.length > 0 ? { effectSites: sites } : {}),
    ...(what.name === undefined ? {} : { name: what.name }),
    ...(what.queue === undefined ? {} : { queue: what.queue }),
    ...(what.registeredAt === undefined ? {} : { registeredAt: what.registeredAt }),
  };
}

/** Where another file registers a handler: its repo-relative file and the line of the registering call. */
function registeredAt(
  registration: RegistrationIn,
  states: ReadonlyMap<string, FileState>,
): HandlerEntry['registeredAt'] {
  const state = states.get(registration.in);
  if (!state || registration.line === undefined) return undefined;
  return { file: state.relative, line: registration.line };
}

/** A row is already listed at this file and line. */
function isListed(listed: readonly HandlerEntry[], file: string, line: number): boolean {
  return listed.some((entry) => entry.file === file && entry.line === line);
}

/** A function that runs per delivery, as something outside its file says: where it is defined and as what it is listed. */
interface Candidate {
  file: string;
  fact: ExportFact;
  name: string;
  broker: string;
  queue: string | undefined;
  /** Where another file registers it, when it is a registration that says so. */
  registeredAt?: HandlerEntry['registeredAt'];
  /** Picked by a listed function (by the delivery's type, or as the one it hands the delivery to), not registered. */
  picked?: true;
}

/**
 * The methods a subclass writes for a base class whose own handler calls them on its instance
 * (handler/template-methods.ts): `UserCreatedConsumer.run` of a `Consumer` base whose `eachMessage`
 * calls `this.run()`, up the `extends` chain, across modules; listed with the base handler's broker.
 */
function* templateOverrides(graph: ImportGraph, states: ReadonlyMap<string, FileState>): Generator<Candidate> {
  for (const state of states.values()) {
    if (state.skipped) continue;
    for (const shape of state.facts.classes) {
      if (!shape.extends) continue;
      let base = graph.superclassOf(state.path, shape);
      for (let depth = 0; base && 'file' in base && depth < 8; depth++) {
        const { file, name } = base;
        const template = states
          .get(file)
          ?.facts.handlers.find((handler) => handler.templateCalls?.class === name && isDelivery(handler.broker));
        if (template?.templateCalls) {
          for (const method of template.templateCalls.methods) {
            const fact = shape.methods.includes(method)
              ? state.facts.members.get(`${shape.name}.${method}`)
              : undefined;
            if (fact)
              yield {
                file: state.path,
                fact,
                name: `${shape.name}.${method}`,
                broker: template.broker,
                queue: undefined,
              };
          }
          break;
        }
        const parent = graph.classShape(file, name);
        base = parent && graph.superclassOf(file, parent);
      }
    }
  }
}

/**
 * The functions other modules register that the file's own facts do not list as handlers: a
 * static method of an exported class (`new Worker(q, DlqRetryService.retry)`) and the function a
 * factory returns (`register(q, buildProcessor(deps))`), as the registration hands them on.
 */
function* registeredFunctions(graph: ImportGraph, states: ReadonlyMap<string, FileState>): Generator<Candidate> {
  for (const { target, registration } of graph.registrations()) {
    const found = graph.registeredFact(target, registration);
    if (!found) continue;
    // A factory's processor is named by the call that makes it.
    const name = registration.returned ? `${found.name}()` : (found.fact.position?.name ?? found.name);
    yield {
      file: found.file,
      fact: found.fact,
      name,
      broker: registration.broker,
      queue: registration.queue,
      registeredAt: registeredAt(registration, states),
      ...(registration.picked ? { picked: registration.picked } : {}),
    };
  }
}

/**
 * The functions a file hands to a registrar of the program (registrars.ts): the processor a
 * subclass gives an inherited `this.initWorker(...)`, an inline function given to the project's
 * own `createWorker(queue, fn)` in another module.
 */
function* handedOffFunctions(
  states: ReadonlyMap<string, FileState>,
  graph: ImportGraph,
  registrars: Registrars,
): Generator<Candidate> {
  for (const state of states.values()) {
    if (state.skipped) continue;
    for (const handOff of state.facts.handOffs) {
      for (const registrar of registrars.at(state.path, handOff.to)) {
        // A table of handlers (`consumer.subscribe('billing', { record: fn })`): each under its key.
        if (registrar.table) {
          for (const { key, fn } of handOff.tables?.[registrar.index] ?? [])
            yield { file: state.path, fact: fn, name: fn.position?.name ?? key, broker: registrar.broker, queue: key };
          continue;
        }
        const queue = registrar.queueIndex === undefined ? undefined : handOff.strings[registrar.queueIndex];
        // An object whose one function runs per delivery (`createJob(queue, { perform })`).
        const fact =
          registrar.property === undefined
            ? handOff.functions[registrar.index]
            : handOff.tables?.[registrar.index]?.find(({ key }) => key === registrar.property)?.fn;
        // A function of another module handed there (`createWorker('mail', sendMail)`), where it is defined.
        const value = fact || registrar.property !== undefined ? undefined : handOff.imported?.[registrar.index];
        const defined = value ? graph.importedFunction(state.path, value) : undefined;
        const handed = fact ? { file: state.path, fact } : defined;
        if (!handed) continue;
        yield {
          file: handed.file,
          fact: handed.fact,
          name: handed.fact.position?.name ?? `${calleeName(handOff.to)}(…)`,
          broker: registrar.broker,
          queue: queue ?? undefined,
        };
      }
    }
  }
}

/** A callee as its call names it: `initWorker`, `createWorker`, `Worker`. */
function calleeName(ref: CalleeRef): string {
  if ('local' in ref) return ref.local;
  if ('specifier' in ref) return ref.member === undefined || ref.member === 'constructor' ? ref.imported : ref.member;
  if ('slot' in ref) return ref.member;
  return ref.member === 'constructor' ? 'super' : ref.member;
}

/** The composed paths to effects or protections in other modules, with repo-relative files, sorted by what they reach. */
function pathsFrom(paths: Composed['paths'], states: ReadonlyMap<string, FileState>): [string, PathStep[]][] {
  return [...paths]
    .filter(([, via]) => via.length > 0)
    .map(([what, via]): [string, PathStep[]] => [
      what,
      via.map((step) => ({
        file: states.get(step.file)?.relative ?? step.file,
        ...(step.line === undefined ? {} : { line: step.line }),
        name: step.name,
      })),
    ])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The first unsuppressed finding between two lines of a file: a rule reports inside the handler. */
function findingInside(findings: readonly Finding[], file: string, line: number, endLine: number): Finding | undefined {
  return findings.find(
    (finding) => !finding.suppressed && finding.file === file && finding.line >= line && finding.line <= endLine,
  );
}

/**
 * The exports an infrastructure file declares as Lambdas invoked by a queue, a topic, a stream or
 * a schedule (`Handler: src/jobs/sync.handler` with an `SQS` event), listed under the event
 * source's broker.
 */
function* declaredLambdas(graph: ImportGraph): Generator<Candidate> {
  for (const lambda of graph.declaredLambdas()) {
    const found = graph.exportOf(lambda.file, lambda.exportName);
    if (found)
      yield {
        file: found.file,
        fact: found.fact,
        name: lambda.exportName,
        broker: lambda.trigger,
        queue: undefined,
        // The template or serverless.yml entry that wires the Lambda to its queue or stream.
        registeredAt: { file: graph.reportPath(lambda.declaredAt.file), line: lambda.declaredAt.line },
      };
  }
}

/**
 * Methods decorated by the project's own name for a handler decorator (`@ZeebeWorker(type)`), and
 * those a decorator stores in a table a delivery handler looks up (`@HasuraEvent()`), each under
 * its own name, which is the key deliveries name it by.
 */
function* decoratedHandlers(graph: ImportGraph): Generator<Candidate> {
  for (const { file, fact, queue } of graph.decoratedHandlers())
    yield { file, fact, name: fact.position?.name ?? 'handler', broker: 'nestjs-microservices', queue };
  for (const { file, fact, broker } of graph.tableDecoratedHandlers())
    yield { file, fact, name: fact.position?.name ?? 'handler', broker, queue: fact.position?.name };
}

/**
 * The functions exported by the modules a Temporal worker runs (its activities and its workflows,
 * `workflowsPath`), and those of the objects its activity factories return.
 */
function* temporalFunctions(graph: ImportGraph): Generator<Candidate> {
  for (const [file, kind] of graph.temporalFiles()) {
    for (const { file: defining, name, fact } of graph.exportedFunctionsOf(file)) {
      // A workflow returns a promise (`Workflow` in @temporalio/common: `(...args) => Promise<any>`):
      // the module's synchronous helpers (an id generator, a comparator) are exported, not run.
      if (kind === 'workflow' && !fact.async) continue;
      yield { file: defining, fact, name: fact.position?.name ?? name, broker: 'temporal', queue: undefined };
    }
  }
  for (const { file, fact } of graph.temporalFactoryActivities())
    yield { file, fact, name: fact.position?.name ?? 'activity', broker: 'temporal', queue: undefined };
}

/** Database writes: an idempotency key sent onward does not make writing the row twice harmless. */
const DATABASE_EFFECTS = new Set(['sql-write', 'db-write']);

/**
 * protected: every effect is covered (a checked claim covers all; an idempotency key covers
 * outgoing writes, not database writes) and no rule reports inside the handler. unprotected: a
 * finding inside, or an effect nothing covers. unknown: no effect seen, but calls lead where the
 * analysis stops. With a one-line reason that says why.
 */
export function verdictOf(
  allEffects: ReadonlySet<string>,
  protections: ReadonlySet<string>,
  unresolved: string | undefined,
  inside: Finding | undefined,
  memoised: { effects: ReadonlySet<string>; steps: ReadonlySet<string> } = { effects: new Set(), steps: new Set() },
): { verdict: Verdict; reason: string } {
  if (inside) return { verdict: 'unprotected', reason: `\`${inside.ruleId}\` reports inside it (line ${inside.line})` };
  const deletes = [...allEffects].filter((effect) => REPEATABLE_EFFECTS.has(effect)).sort();
  const effects = new Set([...allEffects].filter((effect) => !REPEATABLE_EFFECTS.has(effect)));
  const stepped = [...memoised.effects].filter((effect) => !REPEATABLE_EFFECTS.has(effect)).sort();
  if (effects.size === 0 && stepped.length > 0)
    return {
      verdict: 'protected',
      reason: `its effects (${stepped.join(', ')}) run inside durable steps (${[...memoised.steps]
        .sort()
        .map((call) => `\`${call}\``)
        .join(', ')}), whose results are recorded and not made again on a redelivery`,
    };
  if (effects.size === 0) {
    const seen = deletes.length === 0 ? 'no effect seen' : `only deletes seen (${deletes.join(', ')})`;
    if (unresolved !== undefined)
      return { verdict: 'unknown', reason: `${seen}, but it calls ${unresolved}, which the analysis does not follow` };
    return deletes.length === 0
      ? { verdict: 'protected', reason: 'no write or request that a redelivery would repeat' }
      : {
          verdict: 'protected',
          reason: `its only writes delete (${deletes.join(', ')}): run again, they find nothing more to delete`,
        };
  }
  const list = [...effects].sort().join(', ');
  if (protections.has('claim')) return { verdict: 'protected', reason: `a checked claim guards its effects (${list})` };
  const uncovered = [...effects]
    .sort()
    .filter((effect) => DATABASE_EFFECTS.has(effect) || !protections.has('idempotency-key'));
  if (uncovered.length > 0) {
    const keyed = protections.has('idempotency-key') ? ' (an idempotency key does not cover a database write)' : '';
    return {
      verdict: 'unprotected',
      reason: `${uncovered.join(', ')} would repeat on a redelivery: no checked claim${keyed}`,
    };
  }
  return { verdict: 'protected', reason: `an idempotency key goes with every write (${list})` };
}
