import { Script, createContext } from 'node:vm';

/**
 * The time budget of one file's pass: a file whose rules run longer is given up and listed as not
 * analysed, and the run goes on. A CI job that hangs on one file gets the tool switched off.
 *
 * Rules are synchronous, so nothing in the process can look at a clock between their steps. V8
 * can: `vm`'s `timeout` starts a watchdog thread that terminates whatever JavaScript runs when the
 * time is up, including functions of the main context called from the script (Node's
 * `lib/vm.js` → `ContextifyScript::EvalMachine` → `Watchdog`, which calls
 * `Isolate::TerminateExecution`). Termination cannot be caught by the code it stops, so a rule's
 * `finally` does not run: what the rules keep per file is keyed by the file's AST and dies with it.
 */

/** The default budget of one file's pass, in milliseconds. */
export const DEFAULT_FILE_BUDGET_MS = 5000;

export class BudgetExceededError extends Error {
  constructor(readonly budgetMs: number) {
    super(`not analysed within the budget of ${formatSeconds(budgetMs)} per file (raise it with --file-budget)`);
    this.name = 'BudgetExceededError';
  }
}

const script = new Script('run()', { filename: 'idempotency-check:file-budget' });
const sandbox = createContext({ run: undefined as (() => unknown) | undefined });

/**
 * `run()`, stopped with a {@link BudgetExceededError} once it has run `budgetMs` milliseconds.
 * Without a budget (undefined or 0) it runs as it is.
 */
export function withinBudget<T>(budgetMs: number | undefined, run: () => T): T {
  if (budgetMs === undefined || budgetMs <= 0) return run();
  (sandbox as { run?: () => unknown }).run = run;
  try {
    return script.runInContext(sandbox, { timeout: budgetMs }) as T;
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT')
      throw new BudgetExceededError(budgetMs);
    throw error;
  } finally {
    (sandbox as { run?: () => unknown }).run = undefined;
  }
}

function formatSeconds(ms: number): string {
  if (ms < 1000) return `${String(ms)} ms`;
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? String(seconds) : seconds.toFixed(1)} s`;
}
