import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';

import { isInstanceSetup } from '../../src/model/keys/instance-setup.js';
import { isRowWriteArgument } from '../../src/model/keys/row-write-arguments.js';
import { DEFAULT_INTENT_PATTERN, intentPattern } from '../../src/model/keys/intent.js';
import { lintSnippet } from '../rule-tester.js';

describe('isInstanceSetup', () => {
  it('is true for a constructor and the once-per-instance NestJS hooks, not for other methods', () => {
    const found: Record<string, boolean> = {};
    lintSnippet(
      `class Gateway {
  constructor() {}
  onModuleInit() {}
  onApplicationBootstrap() {}
  charge() {}
  static create() {}
}
function constructor() {}`,
      () => ({
        FunctionExpression(fn: TSESTree.FunctionExpression) {
          const method = fn.parent;
          if (method.type === AST_NODE_TYPES.MethodDefinition && method.key.type === AST_NODE_TYPES.Identifier)
            found[method.key.name] = isInstanceSetup(fn);
        },
        FunctionDeclaration(fn: TSESTree.FunctionDeclaration) {
          found[`function ${fn.id?.name ?? ''}`] = isInstanceSetup(fn);
        },
      }),
    );
    expect(found).toEqual({
      constructor: true,
      onModuleInit: true,
      onApplicationBootstrap: true,
      charge: false,
      create: false,
      'function constructor': false,
    });
  });
});

describe('isRowWriteArgument', () => {
  /** For each call's first argument, whether the key under `via` is a row's field. */
  function rowWrites(code: string, via: string[]): boolean[] {
    const found: boolean[] = [];
    lintSnippet(code, (context) => ({
      CallExpression(call: TSESTree.CallExpression) {
        if (call.parent.type === AST_NODE_TYPES.AwaitExpression)
          found.push(isRowWriteArgument(call.callee, call.arguments[0], via, context));
      },
    }));
    return found;
  }

  it('knows a row write by a `where` beside the row, or a row-write method of the data layer', () => {
    expect(
      rowWrites(
        `async function f(store: any, repo: any, api: any, mercury: any, id: string) {
  const args = { where: { id }, data: { idempotencyKey: 'k' } };
  await store.updateWaitpoint(args);
  await repo.moveAside({ where: { id }, data: { idempotencyKey: 'k' } });
  await store.createWaitpoint({ data: { idempotencyKey: 'k' } });
  await mercury.createTransaction({ data: { idempotencyKey: 'k' } });
  await api.send({ data: { idempotencyKey: 'k' } });
}`,
        ['data', 'idempotencyKey'],
      ),
    ).toEqual([true, true, true, false, false]);
  });

  it('counts only the row fields, not the request beside them', () => {
    expect(
      rowWrites(
        `async function f(api: any, id: string) { await api.updatePayment({ where: { id }, idempotencyKey: 'k' }); }`,
        ['idempotencyKey'],
      ),
    ).toEqual([false]);
  });
});

describe('DEFAULT_INTENT_PATTERN', () => {
  const pattern = intentPattern(DEFAULT_INTENT_PATTERN);
  it.each([
    'Unique per call — Stripe rejects a reused key on a different request.',
    'the provider refuses reused keys with another body, so each call gets its own',
    'a reused key would be rejected with 422',
    'the key must never be reused',
    'keys must not be reused across checkouts',
    'CSV exports are intentionally non-idempotent',
  ])('takes "%s" as a key unique on purpose', (text) => {
    expect(pattern?.test(text)).toBe(true);
  });
  it.each([
    'auto-generate unique key each request',
    'Generate a unique idempotency key',
    'Unique per call: a fresh key each request.',
    'Reuse the key on retry.',
    'Store the key client-side and reuse on retry',
    'the request is rejected. Reuse the stored key',
  ])('does not take "%s" as an opt-out', (text) => {
    expect(pattern?.test(text)).toBe(false);
  });
});
