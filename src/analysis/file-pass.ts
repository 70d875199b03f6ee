import type { Rule } from 'eslint';

import type { IdempotencySettings } from '../model/settings.js';
import type { Finding } from '../report/model.js';
import { BudgetExceededError, withinBudget } from './budget.js';
import { createFactsRule, emptyFacts, type FactsSink, type FileFacts } from './facts.js';
import { RuleRunner, toFindings, type FileLintResult, type RuleConfigLookup } from './lint.js';

/**
 * One pass of the rules and the facts rule over one file, as `analyze` asks it of a file: the
 * same in the calling thread and in a worker of the pool (`lint-pool.ts`), so what a file gives
 * does not depend on where it ran.
 */

export interface FilePassTask {
  /** Absolute path. */
  path: string;
  /** Repo-relative POSIX path. */
  relative: string;
  text: string;
  /** The cross-file settings of pass 2; none in pass 1. */
  settings?: IdempotencySettings;
}

/** What one pass over one file gave, or why it gave nothing (`overBudget` when it ran out of time). */
export type FilePassOutcome =
  { facts: FileFacts; findings: Finding[]; fixable: boolean; fixed?: string } | { failure: string; overBudget?: true };

/** A pass over a file: the task, what it gave and how long it took. */
export interface FilePassResult {
  task: FilePassTask;
  outcome: FilePassOutcome;
  ms: number;
}

export interface FilePassOptions {
  /** typescript-eslint `parserOptions.programs` for typed mode. */
  programs?: unknown[];
  /** Apply the fixes and return the fixed text. */
  fix?: boolean;
}

export class FilePasses {
  private readonly sink: FactsSink = { current: emptyFacts() };
  private readonly internalRules: Record<string, Rule.RuleModule> = { facts: createFactsRule(this.sink) };
  /** The Linter behind the passes, for a run without the facts (`--fix --dry-run`'s second run). */
  readonly runner: RuleRunner;

  constructor(
    root: string,
    ruleConfig: RuleConfigLookup | undefined,
    private readonly budgetMs: number,
    private readonly includeSuppressed: boolean,
  ) {
    this.runner = new RuleRunner(root, ruleConfig);
  }

  /** The pass over one file within the budget, and how long it took. */
  run(task: FilePassTask, options: FilePassOptions = {}): FilePassResult {
    const started = performance.now();
    this.sink.current = emptyFacts();
    // Pass 2 (a task with settings) keeps only the handlers of what the facts rule finds.
    this.sink.handlersOnly = task.settings !== undefined;
    const outcome = this.outcomeOf(task, options);
    return { task, outcome, ms: performance.now() - started };
  }

  /** `--fix --dry-run`'s fixes of one file with its settings, without the facts: the fixed text, if any. */
  dryRun(task: FilePassTask): { fixed: string | undefined; ms: number } {
    const started = performance.now();
    const result = this.lint(task, { fix: true }, false);
    return { fixed: 'failure' in result ? undefined : result.fixed, ms: performance.now() - started };
  }

  /** The Linter over one file within the budget, with the facts rule or without; why it failed otherwise. */
  private lint(
    task: FilePassTask,
    options: FilePassOptions,
    facts: boolean,
  ): FileLintResult | { failure: string; overBudget?: true } {
    try {
      return withinBudget(this.budgetMs, () =>
        this.runner.run(task.path, task.text, {
          ...(options.programs ? { programs: options.programs } : {}),
          ...(facts ? { internalRules: this.internalRules } : {}),
          ...(task.settings ? { settings: task.settings } : {}),
          fix: options.fix === true,
        }),
      );
    } catch (error) {
      if (error instanceof BudgetExceededError) return { failure: error.message, overBudget: true };
      // A crash on one file (a parser limit, a rule bug) must not end the scan.
      return { failure: `analysis failed: ${(error as Error).message.split('\n')[0]}` };
    }
  }

  private outcomeOf(task: FilePassTask, options: FilePassOptions): FilePassOutcome {
    const result = this.lint(task, options, true);
    if ('failure' in result) return result;
    if (result.fatal !== undefined) return { failure: result.fatal };
    const outcome: FilePassOutcome = {
      facts: this.sink.current,
      findings: toFindings(result, task.relative, this.includeSuppressed),
      fixable: result.messages.some((message) => message.fix !== undefined),
    };
    if (result.fixed !== undefined) outcome.fixed = result.fixed;
    return outcome;
  }
}
