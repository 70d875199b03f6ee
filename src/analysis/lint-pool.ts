import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MessageChannel, type MessagePort, Worker, receiveMessageOnPort } from 'node:worker_threads';

import type { FilePasses, FilePassOutcome, FilePassResult, FilePassTask } from './file-pass.js';
import type { FileRuleConfig, RuleConfigLookup } from './lint.js';

/**
 * The passes over many files, spread over worker threads and the calling thread. `analyze` is
 * synchronous, and so is this: the calling thread hands files to the workers, lints files itself
 * meanwhile, and collects the workers' results with `receiveMessageOnPort`, blocking in
 * `Atomics.wait` only when it has nothing left to lint. Results come back in the order of the
 * tasks, so a run gives the same report whatever thread linted which file.
 *
 * Each worker (`lint-worker.ts`) holds its own Linter and facts rule; a file's project config
 * (`FileRuleConfig`, plain data) is sent with the first task that needs it. Typed runs and
 * `--fix` stay in the calling thread (a TypeScript program cannot be shared between threads).
 */

/** What a worker is started with. */
export interface LintWorkerData {
  root: string;
  budgetMs: number;
  includeSuppressed: boolean;
  port: MessagePort;
  /** Counts the results the workers have posted; the calling thread waits on it. */
  posted: SharedArrayBuffer;
}

/** A task as a worker receives it, with the project config of its file (by id; the config itself the first time). */
export interface LintWorkerTask {
  id: number;
  task: FilePassTask;
  configId?: number;
  config?: FileRuleConfig;
}

export interface LintWorkerResult {
  id: number;
  outcome: FilePassOutcome;
  ms: number;
}

/** Files fewer than this go through the calling thread alone: starting a worker costs about half a second. */
const MIN_TASKS_PER_WORKER = 48;

/** How many files each worker has in hand, so that none waits for the calling thread. */
const IN_FLIGHT = 4;

/** The compiled worker next to this module; absent when the sources run as TypeScript (tests). */
const WORKER_URL = new URL('./lint-worker.js', import.meta.url);

interface PoolWorker {
  worker: Worker;
  port: MessagePort;
  /** Tasks sent and not answered yet, by id, with when each was sent. */
  pending: Map<number, { task: FilePassTask; sent: number }>;
  /** Config ids this worker has been sent. */
  configs: Set<number>;
  dead: boolean;
}

export class LintPool {
  private readonly workers: PoolWorker[] = [];
  private readonly posted = new Int32Array(new SharedArrayBuffer(4));
  private readonly configIds = new WeakMap<FileRuleConfig, number>();
  private nextConfigId = 1;
  /** The most threads any call of {@link runAll} used, the calling thread among them. */
  threadsUsed = 1;

  /** How long a worker may keep a file before it is given up and the file linted here. */
  private readonly stallMs: number;

  constructor(
    private readonly jobs: number,
    private readonly start: Omit<LintWorkerData, 'port' | 'posted'>,
    private readonly ruleConfig: RuleConfigLookup | undefined,
  ) {
    // Each file in hand may take its whole budget; without a budget, a worker is never given up.
    this.stallMs = start.budgetMs > 0 ? (IN_FLIGHT + 1) * start.budgetMs + 30_000 : Number.POSITIVE_INFINITY;
  }

  /** True when this build can start workers (it runs compiled, with the worker beside it). */
  static available(): boolean {
    return WORKER_URL.protocol === 'file:' && existsSync(fileURLToPath(WORKER_URL));
  }

  /**
   * Runs every task, in this thread alone or spread over the workers; results in task order.
   * `onEach` hears how many are done after each one.
   */
  runAll(
    tasks: readonly FilePassTask[],
    here: FilePasses,
    onEach: (done: number) => void = () => {},
  ): FilePassResult[] {
    const results = new Map<number, FilePassResult>();
    const done = (id: number, result: FilePassResult): void => {
      results.set(id, result);
      onEach(results.size);
    };
    const wanted = Math.min(this.jobs - 1, Math.floor(tasks.length / MIN_TASKS_PER_WORKER));
    if (wanted > 0 && LintPool.available()) {
      this.grow(wanted);
      this.spread(tasks, here, done);
    }
    // In order; a file no thread gave back (none, unless a worker was given up late) is linted here.
    return tasks.map((task, id) => results.get(id) ?? here.run(task));
  }

  /** Hands the tasks to the live workers and runs them here meanwhile, until every one is back. */
  private spread(
    tasks: readonly FilePassTask[],
    here: FilePasses,
    done: (id: number, result: FilePassResult) => void,
  ): void {
    const live = this.workers.filter((entry) => !entry.dead);
    this.threadsUsed = Math.max(this.threadsUsed, live.length + 1);
    const queue = tasks.map((task, id) => ({ id, task }));
    const send = (entry: PoolWorker): void => {
      while (!entry.dead && entry.pending.size < IN_FLIGHT) {
        const next = queue.shift();
        if (!next) return;
        try {
          entry.worker.postMessage(this.message(entry, next.id, next.task));
        } catch {
          // A project config that cannot be copied to a thread (a function in its settings):
          // that file is linted here.
          done(next.id, here.run(next.task));
          continue;
        }
        entry.pending.set(next.id, { task: next.task, sent: performance.now() });
      }
    };
    const collect = (): boolean => {
      let any = false;
      for (const entry of live)
        for (let received = receiveMessageOnPort(entry.port); received; received = receiveMessageOnPort(entry.port)) {
          const result = received.message as LintWorkerResult;
          const pending = entry.pending.get(result.id);
          entry.pending.delete(result.id);
          // A late answer from a worker given up: its file was linted here already.
          if (pending) done(result.id, { task: pending.task, outcome: result.outcome, ms: result.ms });
          any = true;
        }
      return any;
    };
    const open = (): boolean => live.some((entry) => entry.pending.size > 0);
    for (;;) {
      collect();
      for (const entry of live) send(entry);
      // The calling thread takes the next file itself while the workers have theirs.
      const next = queue.shift();
      if (next) {
        done(next.id, here.run(next.task));
        continue;
      }
      if (!open()) return;
      const seen = Atomics.load(this.posted, 0);
      if (collect()) continue;
      Atomics.wait(this.posted, 0, seen, 1000);
      this.takeBackStalled(live, here, done);
    }
  }

  /** Ends the workers; the process does not wait for them. */
  close(): void {
    for (const entry of this.workers) void entry.worker.terminate();
    this.workers.length = 0;
  }

  private grow(count: number): void {
    while (this.workers.filter((entry) => !entry.dead).length < count) {
      const { port1, port2 } = new MessageChannel();
      const workerData: LintWorkerData = {
        ...this.start,
        port: port2,
        posted: this.posted.buffer,
      };
      const worker = new Worker(WORKER_URL, { workerData, transferList: [port2] });
      worker.unref();
      const entry: PoolWorker = { worker, port: port1, pending: new Map(), configs: new Set(), dead: false };
      // A worker that dies (out of memory) answers nothing more: its files are taken back.
      worker.on('error', () => {
        entry.dead = true;
      });
      this.workers.push(entry);
    }
  }

  private message(entry: PoolWorker, id: number, task: FilePassTask): LintWorkerTask {
    const config = this.ruleConfig?.(task.path);
    if (config === undefined) return { id, task };
    let configId = this.configIds.get(config);
    if (configId === undefined) {
      configId = this.nextConfigId++;
      this.configIds.set(config, configId);
    }
    if (entry.configs.has(configId)) return { id, task, configId };
    entry.configs.add(configId);
    return { id, task, configId, config };
  }

  /**
   * Files a worker has kept longer than their budgets allow (a worker that died, or hangs): the
   * worker is given up and its files are linted here.
   */
  private takeBackStalled(
    live: readonly PoolWorker[],
    here: FilePasses,
    done: (id: number, result: FilePassResult) => void,
  ): void {
    const now = performance.now();
    for (const entry of live) {
      if (entry.dead || [...entry.pending.values()].every(({ sent }) => now - sent < this.stallMs)) continue;
      entry.dead = true;
      void entry.worker.terminate();
      for (const [id, { task }] of entry.pending) done(id, here.run(task));
      entry.pending.clear();
    }
  }
}
