import { describe, expect, it } from 'vitest';

import { BudgetExceededError, withinBudget } from '../../src/analysis/budget.js';

describe('withinBudget', () => {
  it('stops synchronous work that runs past the budget, and the process goes on', () => {
    const started = performance.now();
    let spins = 0;
    expect(() =>
      withinBudget(50, () => {
        for (;;) spins++;
      }),
    ).toThrow(new BudgetExceededError(50));
    expect(spins).toBeGreaterThan(0);
    expect(performance.now() - started).toBeLessThan(5000);
    // The next run is not affected by the one that was stopped.
    expect(withinBudget(1000, () => 'next')).toBe('next');
  });

  it("returns the work's value and passes its own errors through as they are", () => {
    expect(withinBudget(1000, () => ({ answer: 42 }))).toEqual({ answer: 42 });
    const own = new TypeError('a rule bug');
    expect(() =>
      withinBudget(1000, () => {
        throw own;
      }),
    ).toThrow(own);
  });

  it('runs without a limit for a budget of 0 or none', () => {
    expect(withinBudget(0, () => 1)).toBe(1);
    expect(withinBudget(undefined, () => 2)).toBe(2);
  });

  it('says how to raise the budget, in milliseconds under a second', () => {
    expect(new BudgetExceededError(500).message).toBe(
      'not analysed within the budget of 500 ms per file (raise it with --file-budget)',
    );
    expect(new BudgetExceededError(5000).message).toBe(
      'not analysed within the budget of 5 s per file (raise it with --file-budget)',
    );
  });
});
