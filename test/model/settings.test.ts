import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';

import plugin from '../../src/index.js';
import { FILE_ROLES } from '../../src/model/roles.js';
import { settingsProblem } from '../../src/model/settings.js';

/** Lints a small consumer with `configs.all` and these shared settings, through ESLint itself. */
function lintWith(settings: unknown): Linter.LintMessage[] {
  return new Linter({ configType: 'flat' }).verify(
    "import { Pool } from 'pg';\nconst pool = new Pool();\nexport const run = () => pool.query('BEGIN');\n",
    [plugin.configs.all, { settings: { idempotency: settings } }],
    'src/consumer.js',
  );
}

describe('settings.idempotency', () => {
  it('accepts every documented key and every file role', () => {
    const entry = [{ from: './db', name: 'pool' }];
    const keys = ['pools', 'perAttemptFunctions', 'keyHeaderSources', 'boundedClients', 'timeoutlessClients'];
    const settings = {
      ...Object.fromEntries(
        [...keys, 'timeoutlessClientFactories', 'consumerHandlers', 'keyHeaderNames'].map((key) => [key, entry]),
      ),
      keyParameters: [
        { from: './ledger', name: 'postEntry', index: 1, parameter: 'key' },
        { from: './queues', name: 'orchestrationQueue.enqueue', index: 0, parameter: 'data', property: 'eventId' },
      ],
      implicitTransactions: ['sequelize', 'mongoose'],
      freshKeyArguments: [
        { from: './stripe', name: 'openCheckout', index: 0, property: 'code' },
        { from: './stripe', name: 'refund', index: 1 },
      ],
      transactionWrappers: [{ from: './tx', name: 'TransactionService.run', index: 0, library: 'typeorm' }],
      roles: Object.fromEntries(FILE_ROLES.map((role) => [role, ['x/**']])),
      reachedRoles: [...FILE_ROLES],
      summaries: {
        './ledger': { postEntry: { keyParameters: [{ index: 1, parameter: 'key' }], async: true } },
        './stripe': { openCheckout: { freshKeyArguments: [{ index: 0, property: 'code' }, { index: 1 }] } },
      },
    };
    expect(settingsProblem(settings)).toBeUndefined();
    expect(() => lintWith(settings)).not.toThrow();
  });

  it.each([
    ['pool', 'expected an object, got "pool"'],
    [{ pools: 'pool' }, '"pools" must be a list of { "from": module, "name": export }, got "pool"'],
    [{ pools: [{ from: './db' }] }, '"pools[0]" must be { "from": module, "name": export }, got {"from":"./db"}'],
    [{ pools: [{ from: './db', name: 'pool', kind: 'pg' }] }, '"pools[0]" must be { "from": module, "name": export }'],
    [{ boundedClient: [] }, 'unknown key "boundedClient"; expected one of pools,'],
    [
      { keyParameters: [{ from: './ledger', name: 'postEntry' }] },
      '"keyParameters[0]" must be { "from": module, "name": export, "index": position, "parameter": name, "property"?: name }',
    ],
    [
      { keyParameters: [{ from: './ledger', name: 'postEntry', index: -1, parameter: 'key' }] },
      '"keyParameters[0]" must be { "from": module, "name": export, "index": position, "parameter": name, "property"?: name }',
    ],
    [
      { freshKeyArguments: [{ from: './stripe', name: 'openCheckout', index: 0, property: 1 }] },
      '"freshKeyArguments[0]" must be { "from": module, "name": export, "index": position, "property"?: name }',
    ],
    [
      { transactionWrappers: [{ from: './tx', name: 'run', index: 0, library: 'TypeORM' }] },
      '"transactionWrappers[0]" must be { "from": module, "name": export, "index": position, "library": prisma | drizzle',
    ],
    [
      { keyHeaderNames: [{ from: './h', name: 'H', index: 0 }] },
      '"keyHeaderNames[0]" must be { "from": module, "name": export }',
    ],
    [{ implicitTransactions: 'sequelize' }, '"implicitTransactions" must be a list of "sequelize" or "mongoose"'],
    [
      { implicitTransactions: ['prisma'] },
      '"implicitTransactions" must be a list of "sequelize" or "mongoose", got ["prisma"]',
    ],
    [{ roles: ['test'] }, '"roles" must be an object of role → path globs'],
    [
      { reachedRoles: [] },
      '"reachedRoles" must be a non-empty list of "test", "browser", "script", "server", "unreached", got []',
    ],
    [
      { reachedRoles: ['client'] },
      '"reachedRoles" must be a non-empty list of "test", "browser", "script", "server", "unreached", got ["client"]',
    ],
    [{ roles: { tests: ['qa/**'] } }, '"roles": unknown role "tests"; expected one of test, browser, script, server'],
    [{ roles: { test: 'qa/**' } }, '"roles.test" must be a list of path globs'],
    [{ summaries: [] }, '"summaries" must be an object of module → name → summary, got []'],
    [{ summaries: { './db': ['pool'] } }, '"summaries../db" must be an object of name → summary'],
    [
      { summaries: { './db': { pool: { pools: true } } } },
      '"summaries../db.pool": unknown fact "pools"; expected one of pool,',
    ],
    [{ summaries: { './db': { pool: { pool: 'yes' } } } }, '"summaries../db.pool".pool must be true, got "yes"'],
    [
      { summaries: { './ledger': { postEntry: { keyParameters: [{ index: 1 }] } } } },
      '"summaries../ledger.postEntry".keyParameters must be a list of { "index", "parameter", "property" }, got [{"index":1}]',
    ],
    [
      { summaries: { './tx': { run: { transactionWrapper: [{ index: 0, library: 'TypeORM' }] } } } },
      '"summaries../tx.run".transactionWrapper must be a list of { "index", "library" }',
    ],
  ])('names the bad key of %j, in ESLint too', (settings, message) => {
    expect(settingsProblem(settings)).toContain(message);
    expect(() => lintWith(settings)).toThrow(`eslint-plugin-idempotency: settings.idempotency: ${message}`);
  });
});

describe('settings.idempotency.summaries', () => {
  const source = "import { db } from './db';\nexport const run = () => db.query('BEGIN');\n";
  const lint = (settings: unknown): string[] =>
    new Linter({ configType: 'flat' })
      .verify(source, [plugin.configs.all, { settings: { idempotency: settings } }], 'src/consumer.js')
      .map((message) => `${message.line}:${message.ruleId}`);

  it('is read as the lists are: a pool stated as a summary is the pool the list names', () => {
    const listed = lint({ pools: [{ from: './db', name: 'db' }] });
    expect(listed).toContain('2:idempotency/no-pool-transaction');
    expect(lint({ summaries: { './db': { db: { pool: true } } } })).toEqual(listed);
    expect(lint({})).not.toContain('2:idempotency/no-pool-transaction');
  });

  it('joins a list and a summary of the same module', () => {
    const joined = lint({
      pools: [{ from: './db', name: 'other' }],
      summaries: { './db': { db: { pool: true } } },
    });
    expect(joined).toContain('2:idempotency/no-pool-transaction');
  });
});
