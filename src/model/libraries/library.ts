import type { TSESTree } from '@typescript-eslint/utils';
import type { AnyRuleContext } from '../ast/context.js';

/**
 * What the model knows of one broker or job runner, as data: where its deliveries enter the
 * program. One file per library (`bullmq.ts`, `pg-boss.ts`, …), each a {@link DeliveryLibrary},
 * listed in `index.ts`; one engine (handler/library-registrations.ts) reads them all. Teaching
 * the model a new job runner is adding its file, a test and its doc rows.
 */
export interface DeliveryLibrary<B extends string = string> {
  /** The broker name the inventory and the messages use. */
  broker: B;
  /** The modules the library is imported from. */
  modules: readonly string[];
  /** The calls that hand the library a function it runs once per delivery. */
  registrations: readonly Registration[];
  /**
   * Words that may show a registration in a file that does not import the library (the method
   * name of a call the receiver does not gate): the prefilter passes a file that has one.
   */
  anchors?: readonly string[];
  /** Types that make a variable annotated with them an object of named tasks (graphile-worker's `TaskList`). */
  taskTables?: readonly string[];
  /** Types that make a function declared (`const task: Task = …`) or cast (`fn as Task`) with them one task (graphile-worker's `Task`). */
  taskTypes?: readonly string[];
  /**
   * Modules every type of which makes a function declared or cast with it one task: the framework
   * generates one type per declared job (Wasp's `wasp/server/jobs`, `const job: DailyStatsJob = …`).
   */
  taskTypeModules?: readonly string[];
}

/** One call shape that registers a handler, with where its handler and its queue's name are. */
export interface Registration {
  call: RegistrationCall;
  /**
   * For a method on an instance, whose module the call does not show: the file imports one of the
   * library's modules, or the receiver's name says what it is (`boss.work`), or the library's own
   * test of the receiver (how it was created). Absent: the call's shape alone says it (kafkajs'
   * `run({ eachMessage })`).
   */
  receiver?: {
    imports?: true;
    name?: RegExp;
    test?: (
      receiver: TSESTree.Node,
      call: TSESTree.CallExpression,
      context: AnyRuleContext,
      imports: ReadonlySet<string>,
    ) => boolean;
  };
  /** How many arguments the call takes. */
  arguments?: { min?: number; max?: number };
  /**
   * Properties the options object at the handler's argument must have besides the handler, when
   * the library's own option names say what the call is (cadence-mq's `{ taskName, handler }`).
   */
  options?: readonly string[];
  /** An argument that names the event (`on('message', fn)`). */
  event?: { index: number; value: string };
  handler: HandlerPlace;
  /** Where the queue's name is; the first that is a static string wins. */
  queue?: readonly QueuePlace[];
  /** A test of the handler itself, where the receiver cannot tell (Pub/Sub's handler acks its message). */
  handlerTest?: (
    fn: TSESTree.FunctionLike,
    receiver: TSESTree.Node,
    context: AnyRuleContext,
    imports: ReadonlySet<string>,
  ) => boolean;
}

/** How the registering call is written. */
type RegistrationCall =
  /** `new Worker(…)`: a class the library exports, or a global of that name nothing in the file binds. */
  | { new: readonly string[] }
  /** `task(…)`: a function the library exports. */
  | { function: readonly string[] }
  /**
   * `receiver.work(…)`. With `on`, the receiver is the library's export of that name (`Worker.create`),
   * or any binding imported from the library (`'module'`: `schedules.task`, `sdk.task`).
   */
  | { method: readonly string[]; on?: readonly string[] | 'module' };

/**
 * The handler: an argument (`'last'`: the last one), a property of an options object there (each
 * name a handler of its own: `{ eachMessage, eachBatch }`; a dotted name is a path into nested
 * options, `subscription.onSubscriptionDeleted`), or, with `table`, every function of an
 * object of named tasks (`taskList: { sendEmail, resize }`), each under its key as the queue.
 */
interface HandlerPlace {
  argument: number | 'last';
  property?: readonly string[];
  table?: true;
}

/** A static string argument, a property of an options object there, or the first argument of the call that made the receiver (`new Queue('mail')`). */
export type QueuePlace = { argument: number; property?: string } | { receiver: true };
