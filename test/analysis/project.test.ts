import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

import { describe, expect, it } from 'vitest';

import { analyze } from '../../src/analysis/analyze.js';
import { verdictOf } from '../../src/analysis/inventory.js';
import { loadProject, ProjectError, resolveImport } from '../../src/analysis/project.js';
import type { Finding } from '../../src/report/model.js';
import { pnpmWorkspaceGlobs } from '../../src/analysis/workspaces.js';
import { copyRepo, repo, writeRepo } from '../cli/helpers.js';

function files(root: string, options: { paths?: string[]; ignore?: string[] } = {}): string[] {
  const project = loadProject({ root, paths: options.paths ?? [], ignore: options.ignore ?? [] });
  return project.files.map((file) => relative(root, file).split('\\').join('/'));
}

describe('loadProject', () => {
  it('loads a solution tsconfig with references and finds the workspace packages', () => {
    const root = repo('monorepo-references');
    const project = loadProject({ root, paths: [], ignore: [] });
    expect(files(root)).toEqual(['packages/db/src/index.ts', 'packages/worker/src/jobs.ts']);
    expect(
      project.configs.map((config) =>
        relative(root, config.path ?? '')
          .split('\\')
          .join('/'),
      ),
    ).toEqual(['tsconfig.json', 'packages/db/tsconfig.json', 'packages/worker/tsconfig.json']);
    expect([...project.workspacePackages.keys()]).toEqual(['@acme/db']);
    const jobs = join(root, 'packages/worker/src/jobs.ts');
    expect(resolveImport(project, '@acme/db', jobs)).toBe(join(root, 'packages/db/src/index.ts'));
    expect(resolveImport(project, 'pg', jobs)).toBeUndefined();
  });

  it("reads a config that extends a workspace package's shared config, as an install would link it", () => {
    const root = writeRepo({
      'package.json': JSON.stringify({ name: 'acme', private: true, workspaces: ['packages/*'] }),
      'packages/tsconfig/package.json': JSON.stringify({ name: '@acme/tsconfig', private: true }),
      'packages/tsconfig/node.json': JSON.stringify({
        compilerOptions: { baseUrl: '.', paths: { '~/*': ['./src/*'] } },
      }),
      'packages/worker/package.json': JSON.stringify({ name: '@acme/worker' }),
      'packages/worker/tsconfig.json': JSON.stringify({
        extends: '@acme/tsconfig/node.json',
        compilerOptions: { baseUrl: '.' },
        include: ['src'],
      }),
      'packages/worker/src/jobs.ts': "import { id } from '~/ids';\nexport const job = () => id();\n",
      'packages/worker/src/ids.ts': 'export const id = () => 1;\n',
      'packages/web/package.json': JSON.stringify({ name: '@acme/web' }),
      'packages/web/tsconfig.json': JSON.stringify({ extends: '@acme/missing/base.json', include: ['src'] }),
      'packages/web/src/page.ts': 'export const page = 1;\n',
    });
    const project = loadProject({ root, paths: [], ignore: [] });
    expect(project.problems).toEqual([
      {
        file: 'packages/web/tsconfig.json',
        reason: "File '@acme/missing/base.json' not found.; read without its extends",
      },
    ]);
    const jobs = join(root, 'packages/worker/src/jobs.ts');
    expect(resolveImport(project, '~/ids', jobs)).toBe(join(root, 'packages/worker/src/ids.ts'));
  });

  it('resolves tsconfig paths of a TypeScript 5 config', () => {
    const root = repo('ts5-config');
    const project = loadProject({ root, paths: [], ignore: [] });
    expect(resolveImport(project, '@lib/ids', join(root, 'src/pay.ts'))).toBe(join(root, 'src/lib/ids.ts'));
  });

  it('walks a repository without a tsconfig, with allowJs', () => {
    const root = repo('js-only');
    const project = loadProject({ root, paths: [], ignore: [] });
    expect(files(root)).toEqual(['lib/consumer.js', 'lib/db.js', 'lib/keys.mjs', 'lib/send.mjs']);
    expect(project.configs[0]?.options.allowJs).toBe(true);
    expect(resolveImport(project, './db', join(root, 'lib/consumer.js'))).toBe(join(root, 'lib/db.js'));
  });

  it('applies --ignore globs and path restrictions', () => {
    const root = repo('js-only');
    expect(files(root, { ignore: ['*.mjs'] })).toEqual(['lib/consumer.js', 'lib/db.js']);
    expect(files(root, { ignore: ['lib/'] })).toEqual([]);
    expect(files(root, { paths: [join(root, 'lib/db.js')] })).toEqual(['lib/db.js']);
  });

  it('reads pnpm-workspace.yaml in any YAML style: flow sequences, comments, quotes', () => {
    const texts = [
      'packages: [\'packages/*\', "apps/*"] # flow style\n',
      '# the workspaces\npackages:\n  - "packages/*" # quoted\n  - apps/*\ncatalog:\n  pg: ^8\n',
      'packages:\n- packages/*\n- apps/*\n',
    ];
    for (const text of texts) expect(pnpmWorkspaceGlobs(text), text).toEqual(['packages/*', 'apps/*']);
    expect(pnpmWorkspaceGlobs('packages: [unclosed\n')).toEqual([]);
    expect(pnpmWorkspaceGlobs('catalog: {}\n')).toEqual([]);
    // A flow-style file finds the packages, whose names resolve to their sources without node_modules.
    const root = writeRepo({
      'pnpm-workspace.yaml': "packages: ['packages/*']\n",
      'packages/db/package.json': JSON.stringify({ name: '@acme/db', main: 'dist/index.js' }),
      'packages/db/src/index.ts': 'export const db = 1;\n',
    });
    const project = loadProject({ root, paths: [], ignore: [] });
    expect(project.workspacePackages.get('@acme/db')).toBe(join(root, 'packages/db/src/index.ts'));
  });

  it('expands workspace globs with a double star to every folder below that holds a package.json', () => {
    const root = writeRepo({
      'pnpm-workspace.yaml': "packages:\n  - apps/*\n  - 'packages/**/*'\n",
      'apps/web/package.json': JSON.stringify({ name: 'web' }),
      'packages/db/package.json': JSON.stringify({ name: '@acme/db' }),
      'packages/db/src/index.ts': 'export const db = 1;\n',
      'packages/notifications/pagerduty/package.json': JSON.stringify({
        name: '@acme/pagerduty',
        main: 'src/index.ts',
      }),
      'packages/notifications/pagerduty/src/index.ts': 'export const send = () => 1;\n',
      'packages/notifications/pagerduty/node_modules/dep/package.json': JSON.stringify({ name: 'dep' }),
    });
    const project = loadProject({ root, paths: [], ignore: [] });
    expect([...project.workspacePackages.keys()].sort()).toEqual(['@acme/db', '@acme/pagerduty']);
    expect(project.workspacePackages.get('@acme/pagerduty')).toBe(
      join(root, 'packages/notifications/pagerduty/src/index.ts'),
    );
  });

  it("resolves a workspace package's subpaths to their sources without node_modules", () => {
    const root = writeRepo({
      'package.json': JSON.stringify({ workspaces: ['packages/*'] }),
      'packages/lib/package.json': JSON.stringify({ name: 'backend-lib', exports: { './*': './dist/*.js' } }),
      'packages/lib/src/temporal/workflows.ts': 'export async function flow() {}\n',
      'packages/db/package.json': JSON.stringify({ name: '@acme/db', main: 'dist/index.js' }),
      'packages/db/src/client.ts': 'export const client = 1;\n',
      'packages/db/src/index.ts': "export * from './client';\n",
      'packages/worker/package.json': JSON.stringify({ name: 'worker' }),
      'packages/worker/src/main.ts': 'export {};\n',
    });
    const project = loadProject({ root, paths: [], ignore: [] });
    const from = join(root, 'packages/worker/src/main.ts');
    expect(resolveImport(project, 'backend-lib/src/temporal/workflows', from)).toBe(
      join(root, 'packages/lib/src/temporal/workflows.ts'),
    );
    expect(resolveImport(project, '@acme/db/dist/client.js', from)).toBe(join(root, 'packages/db/src/client.ts'));
    expect(resolveImport(project, '@acme/db/src', from)).toBe(join(root, 'packages/db/src/index.ts'));
    expect(resolveImport(project, 'backend-lib/src/missing', from)).toBeUndefined();
    expect(resolveImport(project, 'other-lib/src/x', from)).toBeUndefined();
  });

  it("reads an Nx monorepo (a tsconfig.base.json at the root, a tsconfig per app) with each app's tsconfig", () => {
    const root = writeRepo({
      'package.json': JSON.stringify({ name: 'monorepo' }),
      'tsconfig.base.json': JSON.stringify({
        compilerOptions: { baseUrl: '.', paths: { '@@orders/*': ['apps/orders/src/*'] } },
      }),
      'apps/orders/tsconfig.json': JSON.stringify({
        extends: '../../tsconfig.base.json',
        files: [],
        references: [{ path: './tsconfig.app.json' }],
      }),
      'apps/orders/tsconfig.app.json': JSON.stringify({ extends: './tsconfig.json', include: ['src/**/*.ts'] }),
      'apps/orders/src/app/db.ts': 'export const db = 1;\n',
      'apps/orders/src/app/orders.ts': "import { db } from '@@orders/app/db';\nexport const orders = db;\n",
      'tools/seed.js': 'module.exports = 1;\n',
    });
    const project = loadProject({ root, paths: [], ignore: [] });
    expect(files(root)).toEqual(['apps/orders/src/app/db.ts', 'apps/orders/src/app/orders.ts', 'tools/seed.js']);
    const orders = join(root, 'apps/orders/src/app/orders.ts');
    expect(project.configOf.get(orders)?.path).toBe(join(root, 'apps/orders/tsconfig.app.json'));
    expect(resolveImport(project, '@@orders/app/db', orders)).toBe(join(root, 'apps/orders/src/app/db.ts'));
    expect(project.configOf.get(join(root, 'tools/seed.js'))?.options.allowJs).toBe(true);
  });

  it('reads sources no tsconfig covers: with the nearest unloaded tsconfig above them, else with the defaults', () => {
    const root = writeRepo({
      'package.json': JSON.stringify({ workspaces: ['packages/api'] }),
      'tsconfig.json': JSON.stringify({ files: [], references: [{ path: 'packages/api' }] }),
      'packages/api/tsconfig.json': JSON.stringify({ include: ['src'] }),
      'packages/api/src/app.ts': 'export const app = 1;\n',
      'packages/api/scripts/seed.ts': 'export const seed = 1;\n',
      'packages/lambdas/tsconfig.json': JSON.stringify({ compilerOptions: { allowJs: true }, include: ['src'] }),
      'packages/lambdas/src/handler.ts': 'export const handler = async () => {};\n',
      'packages/lambdas/.build/handler.js': 'exports.handler = 1;\n',
      'packages/lambdas/vendor/lib.js': 'module.exports = 1;\n',
      'web/public/app.min.js': 'var a=1;\n',
      'tools/gen.mjs': 'export {};\n',
    });
    const project = loadProject({ root, paths: [], ignore: [] });
    expect(files(root)).toEqual([
      'packages/api/scripts/seed.ts',
      'packages/api/src/app.ts',
      'packages/lambdas/src/handler.ts',
      'tools/gen.mjs',
    ]);
    const configOf = (file: string) => project.configOf.get(join(root, file))?.path;
    expect(configOf('packages/lambdas/src/handler.ts')).toBe(join(root, 'packages/lambdas/tsconfig.json'));
    expect(configOf('packages/api/scripts/seed.ts')).toBeUndefined();
    expect(configOf('tools/gen.mjs')).toBeUndefined();
  });

  it('keeps to an explicit --tsconfig', () => {
    const root = writeRepo({
      'tsconfig.json': JSON.stringify({ include: ['src'] }),
      'src/app.ts': 'export const app = 1;\n',
      'scripts/seed.ts': 'export const seed = 1;\n',
    });
    expect(files(root)).toEqual(['scripts/seed.ts', 'src/app.ts']);
    expect(
      loadProject({ root, paths: [], ignore: [], tsconfig: join(root, 'tsconfig.json') }).files.map((file) =>
        relative(root, file),
      ),
    ).toEqual([join('src', 'app.ts')]);
  });

  it('uses --tsconfig instead of the root tsconfig', () => {
    const root = copyRepo('cross-file-pool');
    writeFileSync(
      join(root, 'tsconfig.only-db.json'),
      JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext' }, files: ['src/db.ts'] }),
    );
    expect(
      loadProject({ root, paths: [], ignore: [], tsconfig: join(root, 'tsconfig.only-db.json') }).files.map((file) =>
        relative(root, file),
      ),
    ).toEqual([join('src', 'db.ts')]);
  });

  it('reports a reference to a tsconfig that does not exist, and goes on', () => {
    const root = copyRepo('monorepo-references');
    writeFileSync(join(root, 'tsconfig.json'), JSON.stringify({ files: [], references: [{ path: 'packages/gone' }] }));
    const project = loadProject({ root, paths: [], ignore: [] });
    expect(project.problems).toEqual([
      {
        file: 'packages/gone/tsconfig.json',
        reason: expect.stringMatching(/^tsconfig not found: .*; its folder is read with default options$/) as string,
      },
    ]);
  });

  it('still rejects a --tsconfig that does not exist', () => {
    const root = copyRepo('monorepo-references');
    expect(() => loadProject({ root, paths: [], ignore: [], tsconfig: join(root, 'nope.json') })).toThrow(ProjectError);
  });
});

describe('analyze', () => {
  it('computes the cross-file settings the rules read, per file', () => {
    const settings = (name: string) =>
      analyze({ root: repo(name), paths: [], ignore: [], types: false, includeSuppressed: true }).settings;
    expect(settings('cross-file-pool')).toEqual({
      'src/billing.ts': {
        summaries: { './db.js': { db: { pool: true } }, './billing.js': { applyTopUp: { consumerHandler: true } } },
      },
    });
    expect(settings('key-helper-module')).toEqual({
      'src/charge.ts': { summaries: { './keys.js': { newIdempotencyKey: { perAttempt: true } } } },
    });
    expect(settings('shared-header-factory')).toEqual({
      'src/orders.ts': {
        summaries: {
          './headers.js': {
            // The factory writes its parameter as the key: a caller decides whether it is stable.
            apiHeaders: { keyHeaderSource: true, keyParameters: [{ index: 0, parameter: 'messageId' }] },
          },
        },
      },
    });
    // The GET that sends the factory's headers carries its key; the POST does not count.
    const sharedHeaders = analyze({
      root: repo('shared-header-factory'),
      paths: [],
      ignore: [],
      types: false,
      includeSuppressed: true,
    });
    expect(
      sharedHeaders.findings.map((finding) => [
        finding.file,
        finding.line,
        finding.column,
        finding.ruleId,
        finding.enclosingFunction,
      ]),
    ).toEqual([['src/orders.ts', 4, 21, 'idempotency/no-key-on-read', 'loadOrder']]);
    expect(sharedHeaders.fixes).toEqual([]);
    expect(settings('monorepo-references')).toEqual({
      'packages/worker/src/jobs.ts': { summaries: { '@acme/db': { store: { pool: true } } } },
    });
    expect(settings('js-only')).toEqual({
      'lib/consumer.js': { summaries: { './db': { conn: { pool: true } } } },
      'lib/send.mjs': { summaries: { './keys.mjs': { mintKey: { perAttempt: true } } } },
    });
  });

  it('follows re-exports through a barrel file', () => {
    const root = copyRepo('key-helper-module');
    mkdirSync(join(root, 'src/util'), { recursive: true });
    writeFileSync(
      join(root, 'src/util/index.ts'),
      "export * from '../keys.js';\nexport { newIdempotencyKey as mintKey } from '../keys.js';\n",
    );
    writeFileSync(
      join(root, 'src/refund.ts'),
      "import { mintKey, keyFor } from './util/index.js';\nexport const refund = (id: string) => fetch('https://pay.test/refunds', { method: 'POST', headers: { 'Idempotency-Key': mintKey(), 'X-Trace': keyFor(id) } });\n",
    );
    const result = analyze({ root, paths: [], ignore: [], types: false, includeSuppressed: true });
    // Nothing loads refund.ts beside the handler module its folder holds: dead code, `unreached`.
    expect(result.settings['src/refund.ts']).toEqual({
      summaries: { './util/index.js': { mintKey: { perAttempt: true } } },
      reachedRoles: ['unreached'],
    });
  });
});

describe('cross-file HTTP clients', () => {
  it('checks requests through an axios instance another module builds without a timeout, and only those', () => {
    const root = writeRepo({
      'src/paypal.ts':
        "import axios from 'axios';\nexport async function createPaypalClient() {\n  const client = axios.create({ baseURL: 'https://api.paypal.test' });\n  return client;\n}\n",
      'src/bounded.ts':
        "import axios from 'axios';\nexport const billing = axios.create({ baseURL: 'https://billing.test', timeout: 5000 });\n",
      'src/guarded.ts':
        "import axios from 'axios';\nexport const ledger = axios.create({ baseURL: 'https://ledger.test' });\nledger.interceptors.request.use((config) => ({ ...config, timeout: 5000 }));\n",
      'src/capture.ts':
        "import { createPaypalClient } from './paypal.js';\nimport { billing } from './bounded.js';\nimport { ledger } from './guarded.js';\nexport async function capture(id: string) {\n  const paypal = await createPaypalClient();\n  await paypal.post(`/v2/checkout/orders/${id}/capture`, {});\n  await billing.post('/invoices', { id });\n  await ledger.post('/entries', { id });\n}\n",
    });
    const result = analyze({ root, paths: [], ignore: [], types: false, includeSuppressed: true });
    expect(result.findings.map((finding) => `${finding.file}:${finding.line} ${finding.ruleId}`)).toEqual([
      'src/capture.ts:6 idempotency/require-request-timeout',
    ]);
    expect(result.settings['src/capture.ts']).toEqual({
      summaries: {
        './bounded.js': { billing: { boundedClient: true } },
        './paypal.js': { createPaypalClient: { timeoutlessClientFactory: true } },
      },
    });
  });
});

describe('cross-file Mongoose transaction wrappers', () => {
  it('reports writes in the callback of an injected wrapper that never hands out its session, and only there', () => {
    const root = writeRepo({
      'src/db.service.ts':
        "import { Connection } from 'mongoose';\nexport class DBService {\n  constructor(public readonly connection: Connection) {}\n  async transaction(fn: () => Promise<void>) {\n    const session = await this.connection.startSession();\n    try {\n      session.startTransaction();\n      await fn();\n      await session.commitTransaction();\n    } catch (error) {\n      await session.abortTransaction();\n      throw error;\n    } finally {\n      await session.endSession();\n    }\n  }\n  async withSession(fn: (session: unknown) => Promise<void>) {\n    const session = await this.connection.startSession();\n    await session.withTransaction(() => fn(session));\n  }\n}\n",
      'src/expire.ts':
        "import { Model } from 'mongoose';\nimport { DBService } from './db.service.js';\nexport class Expire {\n  constructor(private readonly db: DBService, private readonly orderModel: Model<unknown>) {}\n  async run(order: { save(options?: object): Promise<void> }) {\n    await this.db.transaction(async () => {\n      await order.save();\n    });\n    await this.db.withSession(async (session) => {\n      await order.save({ session });\n    });\n  }\n}\n",
    });
    const result = analyze({ root, paths: [], ignore: [], types: false, includeSuppressed: true });
    expect(result.settings['src/expire.ts']?.summaries?.['./db.service.js']).toEqual({
      'DBService.transaction': { sessionlessTransaction: true },
    });
    expect(
      result.findings
        .filter((finding) => finding.ruleId === 'idempotency/no-pool-query-in-transaction')
        .map((finding) => `${finding.file}:${finding.line}`),
    ).toEqual(['src/expire.ts:7']);
  });
});

describe('cross-file MikroORM services that fork their own manager', () => {
  it('reports calls inside a transaction of injected methods that write through a fork of their own, and only those', () => {
    const root = writeRepo({
      'src/orders.service.ts':
        "import { EntityManager } from '@mikro-orm/core';\nexport class OrdersService {\n  constructor(private readonly em: EntityManager) {}\n  async createFromRegistration(id: string) {\n    const em = this.em.fork();\n    const order = em.create('Order', { id });\n    await em.persistAndFlush(order);\n    return order;\n  }\n  async createInContext(id: string) {\n    const em = this.em.fork({ keepTransactionContext: true });\n    await em.persistAndFlush(em.create('Order', { id }));\n  }\n  async find(id: string) {\n    const em = this.em.fork();\n    return em.findOne('Order', { id });\n  }\n  async createWith(id: string, given?: EntityManager) {\n    const em = given ?? this.em.fork();\n    await em.persistAndFlush(em.create('Order', { id }));\n  }\n}\n",
      'src/checkout.ts':
        "import { EntityManager } from '@mikro-orm/core';\nimport { OrdersService } from './orders.service.js';\nexport class Checkout {\n  constructor(private readonly em: EntityManager, private readonly ordersService: OrdersService) {}\n  async run(id: string) {\n    await this.em.fork().transactional(async (tx) => {\n      await this.ordersService.createFromRegistration(id);\n      await this.ordersService.createInContext(id);\n      await this.ordersService.find(id);\n      await this.ordersService.createWith(id, tx);\n    });\n  }\n}\n",
    });
    const result = analyze({ root, paths: [], ignore: [], types: false, includeSuppressed: true });
    expect(result.settings['src/checkout.ts']?.summaries?.['./orders.service.js']).toEqual({
      'OrdersService.createFromRegistration': { ownHandle: true },
    });
    expect(
      result.findings
        .filter((finding) => finding.ruleId === 'idempotency/no-pool-query-in-transaction')
        .map((finding) => `${finding.file}:${finding.line}`),
    ).toEqual(['src/checkout.ts:7']);
  });
});

describe('cross-file services that write through a Prisma client of their own', () => {
  it('reports a call inside a Prisma transaction of an injected method that writes through its own client', () => {
    const root = writeRepo({
      'src/credit.service.ts':
        "import { PrismaClient } from '@prisma/client';\nexport class CreditService {\n  constructor(private readonly prisma: PrismaClient) {}\n  async createRecharge(uid: string) {\n    await this.prisma.creditRecharge.create({ data: { uid } });\n  }\n  async createWith(uid: string, tx: PrismaClient) {\n    await tx.creditRecharge.create({ data: { uid } });\n  }\n}\n",
      'src/subscription.service.ts':
        "import { PrismaClient } from '@prisma/client';\nimport { CreditService } from './credit.service.js';\nexport class SubscriptionService {\n  constructor(private readonly prisma: PrismaClient, private readonly creditService: CreditService) {}\n  async subscribe(uid: string) {\n    await this.prisma.$transaction(async (tx) => {\n      await tx.subscription.create({ data: { uid } });\n      await this.creditService.createRecharge(uid);\n      await this.creditService.createWith(uid, tx);\n    });\n  }\n}\n",
    });
    const result = analyze({ root, paths: [], ignore: [], types: false, includeSuppressed: true });
    expect(result.settings['src/subscription.service.ts']?.summaries?.['./credit.service.js']).toEqual({
      'CreditService.createRecharge': { ownHandle: true },
    });
    expect(
      result.findings
        .filter((finding) => finding.ruleId === 'idempotency/no-pool-query-in-transaction')
        .map((finding) => `${finding.file}:${finding.line}`),
    ).toEqual(['src/subscription.service.ts:8']);
  });
});

describe('cross-file services that fall back to a client of their own only when handed none', () => {
  it('does not read a write in the fallback of an absent handle as one through the service’s own client', () => {
    const root = writeRepo({
      'src/credit.service.ts':
        "import { PrismaClient, Prisma } from '@prisma/client';\nexport class CreditService {\n  constructor(private readonly prisma: PrismaClient) {}\n  async createRecharge(uid: string, tx: Prisma.TransactionClient) {\n    if (tx) await tx.creditRecharge.create({ data: { uid } });\n    else await this.prisma.creditRecharge.create({ data: { uid } });\n  }\n  async audit(uid: string, tx: Prisma.TransactionClient) {\n    await tx.creditRecharge.create({ data: { uid } });\n    await this.prisma.audit.create({ data: { uid } });\n  }\n}\n",
      'src/subscription.service.ts':
        "import mongoose from 'mongoose';\nimport { PrismaClient } from '@prisma/client';\nimport { CreditService } from './credit.service.js';\nexport class SubscriptionService {\n  constructor(private readonly prisma: PrismaClient, private readonly creditService: CreditService) {}\n  async subscribe(uid: string) {\n    const session = await mongoose.startSession();\n    session.startTransaction();\n    await this.prisma.$transaction(async (tx) => {\n      await tx.subscription.create({ data: { uid } });\n      await this.creditService.createRecharge(uid, tx);\n      await this.creditService.audit(uid, tx);\n    });\n    await session.commitTransaction();\n  }\n}\n",
    });
    const result = analyze({ root, paths: [], ignore: [], types: false, includeSuppressed: true });
    expect(result.settings['src/subscription.service.ts']?.summaries?.['./credit.service.js']).toEqual({
      'CreditService.audit': { ownHandle: true },
    });
    expect(
      result.findings
        .filter((finding) => finding.ruleId === 'idempotency/no-pool-query-in-transaction')
        .map((finding) => `${finding.file}:${finding.line}`),
    ).toEqual(['src/subscription.service.ts:12']);
  });
});

describe('implicit transactions switched on elsewhere', () => {
  const service =
    "import { sequelize } from './models/index.js';\nexport async function transfer(User: any, id: number) {\n  await sequelize.transaction(async (t) => {\n    await User.update({ n: 1 }, { where: { id }, transaction: t });\n    await User.create({ id });\n  });\n}\n";
  it('reads a managed Sequelize transaction as joined when the project turns on CLS where it connects', () => {
    const root = writeRepo({
      'src/models/index.ts':
        "import { Sequelize } from 'sequelize';\nimport { createNamespace } from 'cls-hooked';\nSequelize.useCLS(createNamespace('app'));\nexport const sequelize = new Sequelize('postgres://');\n",
      'src/transfer.ts': service,
    });
    const result = analyze({ root, paths: [], ignore: [], types: false, includeSuppressed: true });
    expect(result.settings['src/transfer.ts']?.implicitTransactions).toEqual(['sequelize']);
    expect(result.findings.filter((finding) => finding.ruleId === 'idempotency/no-pool-query-in-transaction')).toEqual(
      [],
    );
  });

  it('does not take a test setup that turns on CLS for the service', () => {
    const root = writeRepo({
      'src/models/index.ts':
        "import { Sequelize } from 'sequelize';\nexport const sequelize = new Sequelize('postgres://');\n",
      'test/setup.test.ts':
        "import { Sequelize } from 'sequelize';\nimport { createNamespace } from 'cls-hooked';\nSequelize.useCLS(createNamespace('test'));\n",
      'src/transfer.ts': service,
    });
    const result = analyze({ root, paths: [], ignore: [], types: false, includeSuppressed: true });
    expect(result.settings['src/transfer.ts']?.implicitTransactions).toBeUndefined();
    expect(
      result.findings
        .filter((finding) => finding.ruleId === 'idempotency/no-pool-query-in-transaction')
        .map((finding) => `${finding.file}:${finding.line}`),
    ).toEqual(['src/transfer.ts:5']);
  });
});

describe('cross-file ORM transaction wrappers', () => {
  it('opens a TypeORM transaction where an injected wrapper hands its callback to dataSource.transaction, and only there', () => {
    const root = writeRepo({
      'src/transaction.service.ts':
        "import { DataSource, EntityManager } from 'typeorm';\nexport class TransactionService {\n  constructor(private readonly dataSource: DataSource) {}\n  async run<T>(fn: (manager: EntityManager) => Promise<T>, outer?: EntityManager): Promise<T> {\n    if (outer) return fn(outer);\n    return this.dataSource.transaction(fn);\n  }\n  async timed<T>(fn: () => Promise<T>): Promise<T> {\n    return fn();\n  }\n}\n",
      'src/arrivals.ts':
        "import { TransactionService } from './transaction.service.js';\nimport { NotificationService } from './notification.service.js';\nexport class Arrivals {\n  constructor(private readonly transactionService: TransactionService, private readonly notificationService: NotificationService) {}\n  async arrive(ids: number[]) {\n    await this.transactionService.run(async (manager) => {\n      await manager.save('Arrival', { ids });\n      await this.notificationService.createMultiple(ids);\n      await this.notificationService.createMultiple(ids, manager);\n    });\n    await this.transactionService.timed(async () => {\n      await this.notificationService.createMultiple(ids);\n    });\n  }\n}\n",
      'src/notification.service.ts':
        'export class NotificationService {\n  async createMultiple(ids: number[], manager?: unknown) {\n    return { ids, manager };\n  }\n}\n',
    });
    const result = analyze({ root, paths: [], ignore: [], types: false, includeSuppressed: true });
    expect(result.settings['src/arrivals.ts']?.summaries?.['./transaction.service.js']).toEqual({
      'TransactionService.run': { transactionWrapper: [{ index: 0, library: 'typeorm' }] },
    });
    expect(
      result.findings
        .filter((finding) => finding.ruleId === 'idempotency/no-pool-query-in-transaction')
        .map((finding) => `${finding.file}:${finding.line}`),
    ).toEqual(['src/arrivals.ts:8']);
  });
});

describe("a wrapper's handler that runs what the wrapper is handed", () => {
  it('makes the wrapper a registrar: what its callers hand it, here or in another module, is a handler', () => {
    const root = writeRepo({
      'src/queue.ts':
        "import Queue from 'bull';\nexport function consume(name: string, handler: (data: unknown) => Promise<void>) {\n  const queue = new Queue(name);\n  queue.process(async (job) => {\n    await handler(job.data);\n  });\n}\n",
      'src/jobs.ts':
        "import { consume } from './queue.js';\nimport { chargeCard } from './charge.js';\nconsume('receipts', async (data) => {\n  await fetch('https://mail.example.com/send', { method: 'POST', body: JSON.stringify(data) });\n});\nconsume('charges', chargeCard);\nexport function later(run: () => void) {\n  setTimeout(() => run(), 10);\n}\nlater(() => console.log('not a delivery'));\n",
      'src/charge.ts':
        "export async function chargeCard(data: unknown) {\n  await fetch('https://pay.example.com/charge', { method: 'POST', body: JSON.stringify(data) });\n}\n",
    });
    const result = analyze({ root, paths: [], ignore: [], types: false, includeSuppressed: true });
    expect(result.handlers.map(({ file, line, broker, effects }) => ({ file, line, broker, effects }))).toEqual([
      { file: 'src/charge.ts', line: 1, broker: 'bull', effects: ['http-write'] },
      { file: 'src/queue.ts', line: 4, broker: 'bull', effects: [] },
      { file: 'src/jobs.ts', line: 3, broker: 'bull', effects: ['http-write'] },
    ]);
  });
});

describe("a library's handlers imported from another module", () => {
  it('follows a const that holds what an imported factory returns', () => {
    const root = writeRepo({
      'src/worker.ts':
        "import { Worker } from 'bullmq';\nimport { buildProcessor } from './build.js';\nconst processor = buildProcessor({ retries: 3 });\nnew Worker('mail', processor);\n",
      'src/build.ts':
        "export function buildProcessor(options: { retries: number }) {\n  return async (job: { data: unknown }) => {\n    await fetch('https://mail.example.com/send', { method: 'POST', body: JSON.stringify(job.data) });\n  };\n}\n",
    });
    const result = analyze({ root, paths: [], ignore: [], types: false, includeSuppressed: true });
    expect(result.handlers.map(({ file, line, name, broker, queue }) => ({ file, line, name, broker, queue }))).toEqual(
      [{ file: 'src/build.ts', line: 2, name: 'buildProcessor()', broker: 'bullmq', queue: 'mail' }],
    );
  });

  it('lists each in its own file, with the broker and queue of the registration', () => {
    const root = writeRepo({
      'src/worker.ts':
        "import { run } from 'graphile-worker';\nimport { Worker as RedisWorker } from '@trigger.dev/redis-worker';\nimport { sendEmail } from './tasks/send-email.js';\nimport { resize } from './tasks/resize.js';\nawait run({ connectionString, taskList: { send_email: sendEmail } });\nnew RedisWorker({ name: 'media', catalog, jobs: { resize } });\n",
      'src/tasks/send-email.ts':
        "export async function sendEmail(payload: { to: string }) {\n  await fetch('https://mail.example.com/send', { method: 'POST', body: JSON.stringify(payload) });\n}\n",
      'src/tasks/resize.ts':
        'export const resize = async ({ payload }: { payload: { id: string } }) => {\n  console.log(payload.id);\n};\n',
    });
    const result = analyze({ root, paths: [], ignore: [], types: false, includeSuppressed: true });
    expect(
      result.handlers.map(({ file, line, broker, queue, effects }) => ({ file, line, broker, queue, effects })),
    ).toEqual([
      { file: 'src/tasks/resize.ts', line: 1, broker: 'trigger.dev-redis-worker', queue: 'resize', effects: [] },
      {
        file: 'src/tasks/send-email.ts',
        line: 1,
        broker: 'graphile-worker',
        queue: 'send_email',
        effects: ['http-write'],
      },
    ]);
  });
});

describe("what a delivery's handler picks by the delivery's type, from another module", () => {
  it("lists each function a webhook's switch on the event's type calls, in its own file, with the type", () => {
    const root = writeRepo({
      'app/api/stripe/route.ts':
        "import Stripe from 'stripe';\nimport { handlePaid, handleDeleted } from '../../../lib/billing/handlers';\nconst stripe = new Stripe(process.env.KEY!);\nexport async function POST(request: Request) {\n  const event = stripe.webhooks.constructEvent(await request.text(), request.headers.get('stripe-signature')!, 'whsec');\n  switch (event.type) {\n    case 'invoice.paid':\n      return handlePaid(event);\n    case 'customer.subscription.deleted':\n      return handleDeleted(event);\n  }\n  return new Response(null);\n}\n",
      'lib/billing/handlers.ts':
        "export async function handlePaid(event: { data: unknown }) {\n  await fetch('https://crm.example.com/paid', { method: 'POST', body: JSON.stringify(event.data) });\n}\nexport async function handleDeleted(event: { data: unknown }) {\n  console.log(event.data);\n}\n",
    });
    const result = analyze({ root, paths: [], ignore: [], types: false, includeSuppressed: true });
    expect(result.handlers.map(({ file, line, broker, queue }) => ({ file, line, broker, queue }))).toEqual([
      { file: 'app/api/stripe/route.ts', line: 4, broker: 'webhook', queue: undefined },
      { file: 'lib/billing/handlers.ts', line: 1, broker: 'webhook', queue: 'invoice.paid' },
      { file: 'lib/billing/handlers.ts', line: 4, broker: 'webhook', queue: 'customer.subscription.deleted' },
    ]);
  });
});

describe('the classes that implement a type a dispatcher picks by the delivery’s type', () => {
  it('lists the method each implementing class runs per delivery, through an injected interface, and not an in-process bus’s subscribers', () => {
    const root = writeRepo({
      'src/events.ts':
        'export interface DomainEvent { type: string; payload: unknown }\nexport interface EventHandler { handle(event: DomainEvent): Promise<void> }\nexport interface MessageHandler { handleMessage(body: string): Promise<void> }\nexport interface Publisher { publish(event: DomainEvent): Promise<void> }\n',
      'src/subscriber.ts':
        "import { Consumer } from 'sqs-consumer';\nimport { MessageHandler } from './events';\nexport class Subscriber {\n  constructor(private queueUrl: string, private messageHandler: MessageHandler) {}\n  start() {\n    Consumer.create({ queueUrl: this.queueUrl, handleMessage: this.handleMessage.bind(this) }).start();\n  }\n  async handleMessage(message: { Body?: string }) {\n    await this.messageHandler.handleMessage(message.Body as string);\n  }\n}\n",
      'src/dispatcher.ts':
        "import { EventHandler, MessageHandler, DomainEvent } from './events';\nexport class Dispatcher implements MessageHandler {\n  constructor(private handlers: Map<string, EventHandler>) {}\n  async handleMessage(body: string) {\n    const event: DomainEvent = JSON.parse(body);\n    const handler = this.handlers.get(event.type);\n    if (!handler) return;\n    await handler.handle(event);\n  }\n}\n",
      'src/charge.ts':
        "import { EventHandler, DomainEvent, Publisher } from './events';\nexport class ChargeHandler implements EventHandler {\n  constructor(private publisher: Publisher) {}\n  async handle(event: DomainEvent) {\n    await fetch('https://pay.example.com/charge', { method: 'POST', body: JSON.stringify(event.payload) });\n    await this.publisher.publish({ type: 'CHARGED', payload: event.payload });\n  }\n}\n",
      'src/welcome.ts':
        "import { EventHandler, DomainEvent } from './events';\nexport class WelcomeHandler implements EventHandler {\n  async handle(event: DomainEvent) {\n    console.log(event.type);\n  }\n}\n",
      'src/in-process.ts':
        "import { Publisher, MessageHandler, DomainEvent } from './events';\nexport class InProcessPublisher implements Publisher {\n  constructor(private handlers: MessageHandler[]) {}\n  async publish(event: DomainEvent) {\n    await Promise.all(this.handlers.map((handler) => handler.handleMessage(JSON.stringify(event))));\n  }\n}\nexport class AuditHandler implements MessageHandler {\n  async handleMessage(body: string) {\n    console.log(body);\n  }\n}\n",
    });
    const result = analyze({ root, paths: [], ignore: [], types: false, includeSuppressed: true });
    expect(
      result.handlers.map(({ file, line, broker, name, effects }) => ({ file, line, broker, name, effects })),
    ).toEqual([
      { file: 'src/subscriber.ts', line: 8, broker: 'sqs-consumer', name: undefined, effects: ['http-write'] },
      { file: 'src/welcome.ts', line: 3, broker: 'sqs-consumer', name: 'WelcomeHandler.handle', effects: [] },
      { file: 'src/charge.ts', line: 4, broker: 'sqs-consumer', name: 'ChargeHandler.handle', effects: ['http-write'] },
    ]);
  });
});

describe("a JavaScript project's jsconfig.json", () => {
  it('resolves its paths aliases, so a worker factory of another module is followed through them', () => {
    const root = writeRepo({
      'packages/backend/package.json': '{ "name": "backend", "type": "module" }',
      'packages/backend/jsconfig.json': JSON.stringify({
        compilerOptions: { baseUrl: '.', paths: { '@/workers/*': ['src/workers/*'], '@/jobs/*': ['src/jobs/*'] } },
      }),
      'packages/backend/src/workers/worker.js':
        "import { Worker } from 'bullmq';\nexport const generateWorker = (workerName, job) => {\n  const worker = new Worker(workerName, job, { connection: {} });\n  worker.on('failed', (job, err) => console.error(err));\n  return worker;\n};\n",
      'packages/backend/src/workers/email.js':
        "import { generateWorker } from '@/workers/worker.js';\nimport { sendEmailJob } from '@/jobs/send-email.js';\nexport default generateWorker('email', sendEmailJob);\n",
      'packages/backend/src/jobs/send-email.js':
        "export const sendEmailJob = async (job) => {\n  await fetch('https://mail.example.com/send', { method: 'POST', body: JSON.stringify(job.data) });\n};\n",
    });
    const project = loadProject({ root, paths: [], ignore: [] });
    expect(project.configs.map((config) => config.path && relative(root, config.path))).toContain(
      'packages/backend/jsconfig.json',
    );
    const result = analyze({ root, paths: [], ignore: [], types: false, includeSuppressed: true });
    expect(result.handlers.map(({ file, line, broker, queue }) => ({ file, line, broker, queue }))).toEqual([
      { file: 'packages/backend/src/jobs/send-email.js', line: 1, broker: 'bullmq', queue: 'email' },
    ]);
  });
});

describe('the inventory of a registration wrapper', () => {
  it('calls a handler unknown when it runs a function its wrapper was handed, and follows what the handler does itself', () => {
    const root = writeRepo({
      'src/cron.ts':
        "import { Agenda } from '@hokify/agenda';\nexport class Cron {\n  constructor(private agenda: Agenda) {}\n  add(name: string, processor: (data: unknown) => Promise<void>) {\n    this.agenda.define(name, async (job) => {\n      await processor(job.attrs.data);\n    }, { lockLifetime: 60_000 });\n  }\n  metrics() {\n    this.agenda.define('metrics', async (job) => {\n      console.log(job.attrs.name);\n    });\n  }\n  once(name: string) {\n    return new Promise((resolve) => {\n      this.agenda.define(name, async (job) => {\n        resolve(job.attrs.data);\n      });\n    });\n  }\n}\n",
    });
    const result = analyze({ root, paths: [], ignore: [], types: false, includeSuppressed: true });
    expect(result.handlers.map(({ line, verdict, reason }) => ({ line, verdict, reason }))).toEqual([
      {
        line: 5,
        verdict: 'unknown',
        reason: 'no effect seen, but it calls `processor`, a function it is handed, which the analysis does not follow',
      },
      { line: 10, verdict: 'protected', reason: 'no write or request that a redelivery would repeat' },
      { line: 16, verdict: 'protected', reason: 'no write or request that a redelivery would repeat' },
    ]);
  });
});

describe('prefilter', () => {
  it('only syntax-checks a file no rule can start from, and still counts it', () => {
    const root = copyRepo('syntax-error');
    writeFileSync(join(root, 'src/constants.ts'), 'export const RETRIES = 3;\n');
    writeFileSync(join(root, 'src/limits.ts'), 'export const LIMIT = 3 +;\n');
    const result = analyze({ root, paths: [], ignore: [], types: false, includeSuppressed: true });
    expect(result.files).toBe(2);
    expect(result.notAnalysed).toEqual([
      { file: 'src/broken.ts', reason: "Parsing error: ',' expected. (1:43)" },
      { file: 'src/limits.ts', reason: 'Parsing error: Expression expected. (1:25)' },
    ]);
  });
});

describe('verdictOf', () => {
  const finding = { ruleId: 'idempotency/no-per-attempt-key', line: 9 } as Finding;
  it.each([
    [[], [], undefined, undefined, 'protected', 'no write or request that a redelivery would repeat'],
    [
      [],
      [],
      '`settle` of `./settle`',
      undefined,
      'unknown',
      'no effect seen, but it calls `settle` of `./settle`, which the analysis does not follow',
    ],
    [
      ['sql-write'],
      ['transaction'],
      undefined,
      undefined,
      'unprotected',
      'sql-write would repeat on a redelivery: no checked claim',
    ],
    [
      ['sql-write', 'http-write'],
      ['claim'],
      undefined,
      undefined,
      'protected',
      'a checked claim guards its effects (http-write, sql-write)',
    ],
    [
      ['http-write', 'stripe'],
      ['idempotency-key'],
      undefined,
      undefined,
      'protected',
      'an idempotency key goes with every write (http-write, stripe)',
    ],
    [
      ['http-write', 'db-write'],
      ['idempotency-key'],
      undefined,
      undefined,
      'unprotected',
      'db-write would repeat on a redelivery: no checked claim (an idempotency key does not cover a database write)',
    ],
    [
      ['http-write'],
      ['idempotency-key'],
      undefined,
      finding,
      'unprotected',
      '`idempotency/no-per-attempt-key` reports inside it (line 9)',
    ],
    [
      ['db-delete', 'sql-delete'],
      [],
      undefined,
      undefined,
      'protected',
      'its only writes delete (db-delete, sql-delete): run again, they find nothing more to delete',
    ],
    [
      ['db-delete'],
      [],
      '`purge` of `./store`',
      undefined,
      'unknown',
      'only deletes seen (db-delete), but it calls `purge` of `./store`, which the analysis does not follow',
    ],
    [
      ['http-delete', 'sql-write'],
      [],
      undefined,
      undefined,
      'unprotected',
      'sql-write would repeat on a redelivery: no checked claim',
    ],
  ] as const)(
    'effects %j, protections %j, unresolved %s, finding %o → %s',
    (effects, protections, unresolved, inside, verdict, reason) => {
      expect(verdictOf(new Set(effects), new Set(protections), unresolved, inside)).toEqual({ verdict, reason });
    },
  );

  it('takes effects made only inside durable steps for protected, and effects outside them for what they are', () => {
    const memoised = { effects: new Set(['mail', 'db-write']), steps: new Set(['step.run']) };
    expect(verdictOf(new Set(), new Set(['durable-step']), undefined, undefined, memoised)).toEqual({
      verdict: 'protected',
      reason:
        'its effects (db-write, mail) run inside durable steps (`step.run`), whose results are recorded and not made again on a redelivery',
    });
    expect(verdictOf(new Set(['mail']), new Set(['durable-step']), undefined, undefined, memoised)).toEqual({
      verdict: 'unprotected',
      reason: 'mail would repeat on a redelivery: no checked claim',
    });
  });
});

describe('exports through barrels (ts-morph)', () => {
  const keys =
    "import { randomUUID } from 'node:crypto';\nexport function newIdempotencyKey(): string {\n  return randomUUID();\n}\nexport function keyFor(messageId: string): string {\n  return `msg:${messageId}`;\n}\nexport { newIdempotencyKey as mint };\nexport default newIdempotencyKey;\n";
  const use = (from: string, names: string): string =>
    `import ${names} from '${from}';\nexport const refund = (id: string) => fetch('https://pay.test/refunds', { method: 'POST', headers: { 'Idempotency-Key': mintKey(), 'X-Trace': keyFor(id) } });\n`;

  it.each([true, false])(
    'follows a chain of barrels and aliases to the declaring function (prefilter %s)',
    (prefilter) => {
      const root = writeRepo({
        'src/keys.ts': keys,
        'src/util/ids.ts': "export { mint as mintKey, keyFor } from '../keys.js';\n",
        'src/util/index.ts': "export * from './ids.js';\n",
        'src/barrel.ts': use('./util/index.js', '{ mintKey, keyFor }'),
        'src/default.ts': "export { default as mintKey, keyFor } from './keys.js';\n",
        'src/via-default.ts': use('./default.js', '{ mintKey, keyFor }'),
      });
      const result = analyze({ root, paths: [], ignore: [], types: false, includeSuppressed: true, prefilter });
      expect(result.settings['src/barrel.ts']).toEqual({
        summaries: { './util/index.js': { mintKey: { perAttempt: true } } },
      });
      expect(result.settings['src/via-default.ts']).toEqual({
        summaries: { './default.js': { mintKey: { perAttempt: true } } },
      });
    },
  );

  it('does not follow a name the barrel does not re-export', () => {
    const root = writeRepo({
      'src/keys.ts': keys,
      'src/util/index.ts': "export { keyFor } from '../keys.js';\n",
      'src/barrel.ts': use('./util/index.js', '{ mint as mintKey, keyFor }'),
    });
    const result = analyze({ root, paths: [], ignore: [], types: false, includeSuppressed: true });
    expect(result.settings['src/barrel.ts']).toBeUndefined();
  });
});

describe('typed programs', () => {
  it('are built by ts-morph when its TypeScript has the minor version of the typescript peer', async () => {
    const { morphSharesPrograms } = await import('../../src/analysis/programs.js');
    const { morph } = await import('../../src/analysis/morph.js');
    const peer = (await import('../../src/analysis/typescript.js')).ts;
    const minor = (version: string) => version.split('.').slice(0, 2).join('.');
    expect(morphSharesPrograms()).toBe(minor(morph().ts.version) === minor(peer.version));
  });
});

describe('cross-file keys handed to an injected service', () => {
  it("reports a per-attempt key written into the object an injected service's method sends as a Paystack reference, and not a stable one", () => {
    const root = writeRepo({
      'src/gateway.service.ts':
        "import axios from 'axios';\nexport class GatewayService {\n  async processTransfer(gateway: string, amount: number, transferData: { recipient: string; reference: string }) {\n    if (gateway === 'paystack') return this.paystackTransfer(amount, transferData);\n    return undefined;\n  }\n  private async paystackTransfer(amount: number, transferData: { recipient: string; reference: string }) {\n    const response = await axios.post('https://api.paystack.co/transfer', { source: 'balance', amount, recipient: transferData.recipient, reference: transferData.reference }, { timeout: 10_000 });\n    return response.data;\n  }\n}\n",
      'src/payout.processor.ts':
        "import { Process, Processor } from '@nestjs/bull';\nimport { Job } from 'bull';\nimport { GatewayService } from './gateway.service.js';\n@Processor('payouts')\nexport class PayoutProcessor {\n  constructor(private readonly gateway: GatewayService) {}\n  @Process('payout')\n  async handle(job: Job<{ tenantId: string; payoutId: string; amount: number; recipient: string }>) {\n    const { tenantId, payoutId, amount, recipient } = job.data;\n    await this.gateway.processTransfer('paystack', amount, { recipient, reference: `PAYOUT-${payoutId}` });\n    return this.gateway.processTransfer('paystack', amount, {\n      recipient,\n      reference: `PAYOUT-${tenantId}-${Date.now()}`,\n    });\n  }\n}\n",
    });
    const result = analyze({ root, paths: [], ignore: [], types: false, includeSuppressed: true });
    // The public method hands its parameter on to the private one that sends it.
    expect(
      result.settings['src/payout.processor.ts']?.summaries?.['./gateway.service.js']?.[
        'GatewayService.processTransfer'
      ],
    ).toEqual({ async: true, keyParameters: [{ index: 2, parameter: 'transferData', property: 'reference' }] });
    expect(
      result.findings
        .filter((finding) => finding.ruleId === 'idempotency/no-per-attempt-key')
        .map((finding) => `${finding.file}:${finding.line} ${finding.message.includes('redelivery runs again')}`),
    ).toEqual(['src/payout.processor.ts:13 true']);
  });
});
