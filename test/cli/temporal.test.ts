import { describe, expect, it } from 'vitest';

import { inventoryOf, type InventoryRow } from './helpers.js';

/** The rows' file, name and broker: what these tests are about. */
function handlersOf(files: Record<string, string>): Omit<InventoryRow, 'line'>[] {
  return inventoryOf(files).map(({ file, name, broker }) => ({
    file,
    ...(name === undefined ? {} : { name }),
    broker,
  }));
}

const worker = (workflowsPath: string): string =>
  [
    "import path from 'node:path';",
    "import { Worker } from '@temporalio/worker';",
    `export const run = () => Worker.create({ taskQueue: 'q', workflowsPath: ${workflowsPath} });`,
    '',
  ].join('\n');

const workflows = {
  'src/workflows/index.ts': "export * from './onboarding';\nexport { billingWorkflow } from './billing';\n",
  'src/workflows/onboarding.ts':
    'export const onboardingId = (user: string) => `onboarding-${user}`;\nexport async function onboardingWorkflow(id: string) { return id; }\n',
  'src/workflows/billing.ts':
    'export async function billingWorkflow(id: string) { return id; }\nexport async function notReExported() {}\n',
};

describe('Temporal workflows in the inventory', () => {
  it('lists every async function the module at workflowsPath exports, through its re-exports, not its helpers', () => {
    const rows = handlersOf({
      'package.json': '{ "name": "flows", "type": "module" }',
      'src/worker.ts': worker("require.resolve('./workflows')"),
      ...workflows,
    });
    expect(rows).toEqual([
      { file: 'src/workflows/billing.ts', name: 'billingWorkflow', broker: 'temporal' },
      { file: 'src/workflows/onboarding.ts', name: 'onboardingWorkflow', broker: 'temporal' },
    ]);
  });

  it('reads path.join(__dirname, …) as the module, and lists nothing for a path it cannot read', () => {
    const files = { 'package.json': '{ "name": "flows", "type": "module" }', ...workflows };
    expect(handlersOf({ ...files, 'src/worker.ts': worker("path.join(__dirname, 'workflows')") })).toHaveLength(2);
    expect(handlersOf({ ...files, 'src/worker.ts': worker('process.env.WORKFLOWS_PATH') })).toEqual([]);
  });

  it("reads an ES module's URL beside it as the module: fileURLToPath(new URL(…, import.meta.url)) and its pathname", () => {
    const files = { 'package.json': '{ "name": "flows", "type": "module" }', ...workflows };
    const esm = (path: string): string =>
      "import { fileURLToPath } from 'node:url';\n" +
      worker(path)
        .replace('export const run', `const workflowsPath = ${path};\nexport const run`)
        .replace(`workflowsPath: ${path}`, 'workflowsPath');
    expect(
      handlersOf({
        ...files,
        'src/worker.ts': worker("fileURLToPath(new URL('./workflows/index.ts', import.meta.url))"),
      }),
    ).toHaveLength(2);
    expect(
      handlersOf({
        ...files,
        'src/worker.ts': worker("fileURLToPath(new URL('workflows/index.js', import.meta.url))"),
      }),
    ).toHaveLength(2);
    // A const holding the URL's pathname, its extension computed from the module's own.
    expect(
      handlersOf({
        ...files,
        'src/worker.ts': esm('new URL(`./workflows/index${path.extname(import.meta.url)}`, import.meta.url).pathname'),
      }),
    ).toHaveLength(2);
    // A URL from another base, an absolute path or a computed name is no module of this project.
    for (const path of [
      "fileURLToPath(new URL('./workflows', process.env.ROOT))",
      "fileURLToPath(new URL('/srv/workflows.js', import.meta.url))",
      'new URL(`./${process.env.FLOWS}`, import.meta.url).pathname',
    ])
      expect(handlersOf({ ...files, 'src/worker.ts': worker(path) })).toEqual([]);
  });
});

describe('Temporal activities in the inventory', () => {
  it('follows a const that renames an import as a re-export, to the function it names', () => {
    const rows = handlersOf({
      'package.json': '{ "name": "flows", "type": "module" }',
      'src/worker.ts': [
        "import { Worker } from '@temporalio/worker';",
        "import * as activities from './activities';",
        "export const run = () => Worker.create({ taskQueue: 'q', activities });",
        '',
      ].join('\n'),
      'src/activities.ts': "export * from './bootstrap/activities';\n",
      'src/bootstrap/activities.ts':
        "import bootstrapBase from '../bootstrap';\nexport const bootstrap = bootstrapBase;\n",
      'src/bootstrap.ts': [
        'export default async function bootstrap(name: string) {',
        "  await fetch('https://api.example.com/workspaces', { method: 'POST', body: name, signal: AbortSignal.timeout(5000) });",
        '}',
        '',
      ].join('\n'),
    });
    expect(rows).toEqual([{ file: 'src/bootstrap.ts', name: 'bootstrap', broker: 'temporal' }]);
  });
});

describe('Temporal activities made by a factory (activity dependency injection)', () => {
  const activities = [
    "import { db } from './db';",
    'export const createActivities = ({ con }: { con: typeof db }) => ({',
    '  async validateBookmark(id: string) { return con.find(id); },',
    "  sendReminder: async (id: string) => { await fetch('https://mail.example.com', { method: 'POST', body: id, signal: AbortSignal.timeout(5000) }); },",
    '  retries: 3,',
    '});',
    'export function helper() {}',
    '',
  ].join('\n');
  const files = {
    'package.json': '{ "name": "flows", "type": "module" }',
    'src/db.ts': 'export const db = { find: async (id: string) => id };\n',
  };

  it("lists the functions of the object an imported factory returns, where the worker's activities are that factory's result", () => {
    const rows = handlersOf({
      ...files,
      'src/activities.ts': activities,
      'src/worker.ts': [
        "import { Worker } from '@temporalio/worker';",
        "import { createActivities } from './activities';",
        "import { db } from './db';",
        "export const run = () => Worker.create({ taskQueue: 'q', activities: createActivities({ con: db }) });",
        '',
      ].join('\n'),
    });
    expect(rows).toEqual([
      { file: 'src/activities.ts', name: 'validateBookmark', broker: 'temporal' },
      { file: 'src/activities.ts', name: 'sendReminder', broker: 'temporal' },
    ]);
  });

  it('lists those of a factory in the same file, and nothing for a factory result no worker takes', () => {
    const local = [
      "import { Worker } from '@temporalio/worker';",
      'const createActivities = (deps: { url: string }) => ({',
      '  async notify(id: string) { return deps.url + id; },',
      '});',
      "export const run = () => Worker.create({ taskQueue: 'q', activities: createActivities({ url: 'x' }) });",
      '',
    ].join('\n');
    expect(handlersOf({ ...files, 'src/worker.ts': local })).toEqual([
      { file: 'src/worker.ts', name: 'notify', broker: 'temporal' },
    ]);
    const unused = [
      "import { createActivities } from './activities';",
      "import { db } from './db';",
      'export const table = createActivities({ con: db });',
      '',
    ].join('\n');
    expect(handlersOf({ ...files, 'src/activities.ts': activities, 'src/other.ts': unused })).toEqual([]);
  });
});
