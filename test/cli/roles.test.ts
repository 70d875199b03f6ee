import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { runCli, writeRepo } from './helpers.js';

const request = "await fetch('https://api.example.com/charges', { method: 'POST' });";

describe('file roles in idempotency-check', () => {
  it('reports only the server file of a repository with a test, a React component and a script', () => {
    const root = writeRepo({
      'package.json': '{ "name": "shop", "type": "module" }',
      'src/pay.ts': `export async function pay() { ${request} }\n`,
      'src/pay.test.ts': `import { it } from 'vitest';\nit('pays', async () => { ${request} });\n`,
      'src/components/Cart.tsx': `import { useState } from 'react';\nexport function Cart() { const [n] = useState(0); return <button onClick={async () => { ${request} }}>{n}</button>; }\n`,
      'scripts/backfill.ts': `async function main() { ${request} }\nmain();\n`,
    });
    const run = runCli([root, '--format', 'json'], { cwd: root });
    expect(run.stderr).toBe('');
    const report = JSON.parse(run.stdout) as { findings: { file: string; ruleId: string }[] };
    expect(report.findings.map((finding) => [finding.file, finding.ruleId])).toEqual([
      ['src/pay.ts', 'idempotency/require-request-timeout'],
    ]);
    expect(run.code).toBe(1);
  });
});

describe('roles by reachability in idempotency-check', () => {
  const helper = `export async function charge() { ${request} }\n`;
  const component = (from: string): string =>
    `'use client';\nimport { charge } from '${from}';\nexport function Pay() { return <button onClick={() => charge()}>Pay</button>; }\n`;
  const findingsOf = (root: string): string[][] => {
    const run = runCli([root, '--format', 'json'], { cwd: root });
    expect(run.stderr).toBe('');
    return (JSON.parse(run.stdout) as { findings: { file: string; ruleId: string }[] }).findings.map((finding) => [
      finding.file,
      finding.ruleId,
    ]);
  };

  it('gives a helper only client components load the browser role, through a helper of its own', () => {
    const root = writeRepo({
      'package.json': '{ "name": "shop", "type": "module" }',
      'src/lib/charge.ts': helper,
      'src/lib/billing.ts': "export { charge } from './charge';\n",
      'src/components/Pay.tsx': component('../lib/billing'),
    });
    expect(findingsOf(root)).toEqual([]);
  });

  it("gives a package's command (its `bin`, built from `src/`) and what it loads the script role", () => {
    const wizard = (bin: string) => ({
      'package.json': '{ "name": "tools", "private": true, "workspaces": ["packages/*"] }',
      'packages/wizard/package.json': `{ "name": "setup-wizard", "type": "module", "bin": ${bin} }`,
      'packages/wizard/src/index.ts':
        "import { fetchRepos } from './github';\nexport const start = () => fetchRepos();\n",
      'packages/wizard/src/github.ts': `export async function fetchRepos() { ${request} }\n`,
    });
    expect(findingsOf(writeRepo(wizard('"./dist/index.js"')))).toEqual([]);
    expect(findingsOf(writeRepo(wizard('{ "setup-wizard": "./dist/index.js" }')))).toEqual([]);
    // A package without a command: the same module is a server's.
    expect(findingsOf(writeRepo(wizard('null')))).toEqual([
      ['packages/wizard/src/github.ts', 'idempotency/require-request-timeout'],
    ]);
  });

  it('keeps a helper a route and a client component share a server file', () => {
    const root = writeRepo({
      'package.json': '{ "name": "shop", "type": "module" }',
      'src/lib/charge.ts': helper,
      'src/components/Pay.tsx': component('../lib/charge'),
      'src/server.ts': "import { charge } from './lib/charge';\nexport async function handle() { await charge(); }\n",
    });
    expect(findingsOf(root)).toEqual([['src/lib/charge.ts', 'idempotency/require-request-timeout']]);
  });

  it('gives a module only scripts load the script role, and reads a dynamic import as a load', () => {
    const root = writeRepo({
      'package.json': '{ "name": "shop", "type": "module" }',
      'src/admin-client.ts': helper,
      'scripts/seed.ts':
        "async function main() { const { charge } = await import('../src/admin-client'); await charge(); }\nmain();\n",
    });
    expect(findingsOf(root)).toEqual([]);
  });

  it("follows a package's bin into the source its build output comes from: the commands are a script", () => {
    const root = writeRepo({
      'package.json':
        '{ "name": "tunnel", "type": "module", "main": "lib/index.js", "bin": { "tunnel": "bin/index.js" } }',
      'bin/index.js': "#!/usr/bin/env node\nimport '../lib/index.js';\n",
      'src/index.ts': "import { deploy } from './commands/deploy.js';\nawait deploy();\n",
      'src/commands/deploy.ts': "import { charge } from './upload.js';\nexport const deploy = () => charge();\n",
      'src/commands/upload.ts': helper,
    });
    expect(findingsOf(root)).toEqual([]);
  });

  it('keeps a module only tests load in its own role: its production loader may be one imports do not show', () => {
    const root = writeRepo({
      'package.json': '{ "name": "shop", "type": "module" }',
      'src/connectors/mail.ts': helper,
      'src/connectors/mail.test.ts': `import { it } from 'vitest';\nimport { charge } from './mail';\nit('charges', () => charge());\n`,
    });
    expect(findingsOf(root)).toEqual([['src/connectors/mail.ts', 'idempotency/require-request-timeout']]);
  });

  it('does not give the browser role through an import of a constant only', () => {
    const root = writeRepo({
      'package.json': '{ "name": "shop", "type": "module" }',
      'src/lib/charge.ts': `export const CURRENCIES = ['eur', 'usd'];\n${helper}`,
      'src/components/Pick.tsx': `'use client';\nimport { CURRENCIES } from '../lib/charge';\nexport function Pick() { return <select>{CURRENCIES.length}</select>; }\n`,
      // What runs `charge` (a test, here) the graph may not see: not dead code.
      'src/lib/charge.test.ts':
        "import { it } from 'vitest';\nimport { charge } from './charge';\nit('charges', () => charge());\n",
    });
    expect(findingsOf(root)).toEqual([['src/lib/charge.ts', 'idempotency/require-request-timeout']]);
  });

  it('gives the browser role through an import of a value that holds functions (a tool or handler table)', () => {
    const root = writeRepo({
      'package.json': '{ "name": "shop", "type": "module" }',
      'src/lib/tools.ts': `export const chargeTool = { name: 'charge', handler: async () => { ${request} } };\n`,
      'src/components/Pick.tsx': `'use client';\nimport { chargeTool } from '../lib/tools';\nexport function Pick() { return <button onClick={() => chargeTool.handler()} />; }\n`,
    });
    expect(findingsOf(root)).toEqual([]);
  });

  it('reads a Next.js component without a client directive as a server component unless a client module loads it', () => {
    const next = '{ "name": "web", "type": "module", "dependencies": { "next": "15.0.0", "react": "19.0.0" } }';
    const card = (from: string): string =>
      `import { charge } from '${from}';\nexport async function Card() { await charge(); return <div />; }\n`;
    const server = writeRepo({
      'package.json': next,
      'lib/charge.ts': helper,
      'components/Card.tsx': card('../lib/charge'),
      'app/page.tsx':
        "import { Card } from '../components/Card';\nexport default function Page() { return <Card />; }\n",
    });
    expect(findingsOf(server)).toEqual([['lib/charge.ts', 'idempotency/require-request-timeout']]);
    const client = writeRepo({
      'package.json': next,
      'lib/charge.ts': helper,
      'components/Card.tsx': card('../lib/charge'),
      'components/Panel.tsx': `'use client';\nimport { Card } from './Card';\nexport function Panel() { return <Card />; }\n`,
    });
    expect(findingsOf(client)).toEqual([]);
  });

  it('keeps a module no file loads a server entry, and a type-only import loads nothing', () => {
    const root = writeRepo({
      'package.json': '{ "name": "shop", "type": "module" }',
      'src/worker.ts': `export type Job = { id: string };\n${helper}`,
      'src/components/Jobs.tsx': `'use client';\nimport type { Job } from '../worker';\nexport function Jobs(props: { jobs: Job[] }) { return <ul>{props.jobs.length}</ul>; }\n`,
    });
    expect(findingsOf(root)).toEqual([['src/worker.ts', 'idempotency/require-request-timeout']]);
  });

  it("reads a barrel no file loads as no entry, and a package's subpath export as the file it names", () => {
    const root = writeRepo({
      'package.json': '{ "name": "support", "private": true, "workspaces": ["packages/*"] }',
      'packages/core/package.json': JSON.stringify({
        name: '@acme/core',
        exports: { './adapters': './src/adapters/index.ts', './adapters/ollama': './src/adapters/ollama.ts' },
      }),
      'packages/core/src/adapters/index.ts':
        "export { embed } from './ollama';\nexport type { Embedding } from './ollama';\n",
      'packages/core/src/adapters/ollama.ts': `export type Embedding = number[];\nexport async function embed() { ${request} }\n`,
      'packages/cli/package.json': '{ "name": "@acme/cli", "bin": "./dist/index.js" }',
      'packages/cli/src/index.ts':
        "import { embed } from '@acme/core/adapters/ollama';\nexport const run = () => embed();\n",
    });
    expect(findingsOf(root)).toEqual([]);
    // A barrel with code of its own may be a program's entry: what it loads stays server code.
    const entry = writeRepo({
      'package.json': '{ "name": "shop", "type": "module" }',
      'src/index.ts': "export { charge } from './charge';\nconsole.log('starting');\n",
      'src/charge.ts': helper,
    });
    expect(findingsOf(entry)).toEqual([['src/charge.ts', 'idempotency/require-request-timeout']]);
  });

  it('follows a named import from a barrel to the module that defines the name, a namespace re-export included', () => {
    const root = writeRepo({
      'package.json': '{ "name": "shop", "type": "module" }',
      'sdk/index.ts': "export { init } from './config';\nexport * as api from './api';\nexport * from './tracker';\n",
      'sdk/config.ts': 'export function init(url: string) { return url; }\n',
      'sdk/api.ts': 'export const base = 1;\n',
      'sdk/tracker.ts': `export async function track() { ${request} }\n`,
      'server/main.ts': "import { init, api } from '../sdk/index';\ninit(String(api.base));\n",
      'web/Track.tsx': `'use client';\nimport { track } from '../sdk/index';\nexport function Track() { return <button onClick={() => track()}>Go</button>; }\n`,
    });
    expect(findingsOf(root)).toEqual([]);
  });

  it('loads nothing through an import a TypeScript module uses only in types, and counts a router given routes as code', () => {
    const typeofOnly = writeRepo({
      'package.json': '{ "name": "shop", "type": "module" }',
      'src/api/charge.ts': helper,
      'src/components/Pay.tsx': `'use client';\nimport { charge } from '../api/charge';\nexport type Charged = Awaited<ReturnType<typeof charge>>;\nexport function Pay() { return <b>pay</b>; }\n`,
      // The same in a file the scan parses in full (it makes a request of its own).
      'src/components/Status.tsx': `'use client';\nimport { charge } from '../api/charge';\nexport type Charge = typeof charge;\nexport function Status() { return <button onClick={() => fetch('/status', { signal: AbortSignal.timeout(1000) })}>s</button>; }\n`,
      // A class's `extends` reads its base as a value: the import stays.
      'src/components/Panel.tsx': `import { Component } from 'react';\nimport { Base } from './base';\nexport class Panel extends Base<Component> {}\n`,
      'src/components/base.ts': 'export class Base<T> { parts: T[] = []; }\n',
    });
    expect(findingsOf(typeofOnly)).toEqual([['src/api/charge.ts', 'idempotency/require-request-timeout']]);
    const router = writeRepo({
      'package.json': '{ "name": "shop", "type": "module", "dependencies": { "express": "^5.0.0" } }',
      'src/app.ts':
        "import express from 'express';\nimport { payments } from './payments';\nexport const app = express().use('/payments', payments);\n",
      'src/payments.ts': `import express from 'express';\nexport async function charge() { ${request} }\nexport const payments = express.Router();\npayments.post('/', async (req, res) => res.json(await charge()));\n`,
      'src/components/Pay.tsx':
        "'use client';\nimport { charge } from '../payments';\nexport function Pay() { return <button onClick={() => charge()}>Pay</button>; }\n",
    });
    expect(findingsOf(router)).toEqual([['src/payments.ts', 'idempotency/require-request-timeout']]);
  });

  it("gives the files a package's scripts run by hand the script role, and keeps the file `start` runs a server", () => {
    const root = writeRepo({
      'package.json': JSON.stringify({
        name: 'shop',
        scripts: {
          'openapi:generate': 'ts-node tools/generate.ts',
          start: 'node dist/main.js',
          // The service's main, run for the end-to-end tests: still the service.
          e2e: 'NODE_ENV=test node dist/main.js',
        },
      }),
      'tools/generate.ts': `import { load } from './load';\nPromise.all([load()]).then(() => console.log('done'));\n`,
      'tools/load.ts': `export async function load() { ${request} }\n`,
      'src/main.ts': `import { sync } from './sync';\nvoid sync();\n`,
      'src/sync.ts': `export async function sync() { ${request} }\n`,
    });
    expect(findingsOf(root)).toEqual([['src/sync.ts', 'idempotency/require-request-timeout']]);
  });

  describe('dead code', () => {
    // A service whose main loads the modules of src/lib/ one by one.
    const service = {
      'package.json': '{ "name": "shop", "type": "module" }',
      'src/main.ts': "import { sync } from './lib/sync';\nvoid sync();\n",
      'src/lib/sync.ts': 'export async function sync() { return 1; }\n',
    };

    it('reads a module that only defines, which nothing loads beside loaded modules of its folder, as unreached, with what only it loads', () => {
      const root = writeRepo({
        ...service,
        'src/lib/legacy.ts': `import { pack } from '../util/pack';\nexport const legacy = async () => { ${request} return pack(); };\n`,
        'src/util/pack.ts': `export async function pack() { ${request} }\n`,
      });
      expect(findingsOf(root)).toEqual([]);
      // A rule reports there when its roles name it.
      writeFileSync(
        join(root, 'idempotency.config.json'),
        JSON.stringify({
          rules: { 'idempotency/require-request-timeout': ['error', { roles: ['server', 'unreached'] }] },
        }),
      );
      expect(findingsOf(root)).toEqual([
        ['src/lib/legacy.ts', 'idempotency/require-request-timeout'],
        ['src/util/pack.ts', 'idempotency/require-request-timeout'],
      ]);
    });

    it('keeps a module nothing loads a server entry where its loader may be one the graph does not see', () => {
      const entries = {
        // Alone in its folder: a platform may run it by a path no file spells.
        'src/jobs/nightly.ts': helper,
        // What a platform calls it by.
        'src/lib/lambda.ts': `export const handler = async () => { ${request} };\n`,
        'src/lib/worker.ts': `module.exports = async (job) => { ${request} };\n`,
        // It calls something when it loads: a main.
        'src/lib/start.ts': `${helper}void charge();\n`,
        // An import that resolves nowhere names it.
        'src/lib/mailer.ts': helper,
        'src/app.ts': "import { send } from '~/lib/mailer';\nvoid send();\n",
        // A framework loads it by its file's name (Next.js's instrumentation).
        'src/lib/instrumentation.ts': `export async function register() { ${request} }\n`,
        // Only a test imports it.
        'src/lib/tested.ts': helper,
        'src/lib/tested.test.ts':
          "import { it } from 'vitest';\nimport { charge } from './tested';\nit('charges', () => charge());\n",
      };
      expect(findingsOf(writeRepo({ ...service, ...entries })).map(([file]) => file)).toEqual([
        'src/jobs/nightly.ts',
        'src/lib/instrumentation.ts',
        'src/lib/lambda.ts',
        'src/lib/mailer.ts',
        'src/lib/start.ts',
        'src/lib/tested.ts',
        'src/lib/worker.ts',
      ]);
    });

    it('reads an exported function no importer names, of a module every loader of which names what it imports, as unreached', () => {
      const root = writeRepo({
        ...service,
        'src/lib/sync.ts': `export async function sync() { return 1; }\nexport async function legacySync() { ${request} }\nexport async function push() { ${request} }\nexport async function pull() { ${request} }\nexport const both = () => pull();\n// Neither exported nor named: dead in any module.\nasync function unused() { ${request} }\n`,
        'src/api.ts': "import { push } from './lib/sync';\nexport const route = () => push();\n",
        // A function the module itself never names, and does not export, is dead too.
        'src/lib/format.ts': `import { sync } from './sync';\nasync function old() { ${request} }\nexport const format = () => sync();\n`,
      });
      // push is imported; pull runs through both, which nothing imports but the module names.
      expect(findingsOf(root)).toEqual([
        ['src/lib/sync.ts', 'idempotency/require-request-timeout'],
        ['src/lib/sync.ts', 'idempotency/require-request-timeout'],
      ]);
      const run = runCli([root, '--format', 'json'], { cwd: root });
      const lines = (JSON.parse(run.stdout) as { findings: { line: number }[] }).findings.map(
        (finding) => finding.line,
      );
      expect(lines).toEqual([3, 4]);
      // A namespace import may run any of them.
      writeFileSync(join(root, 'src/all.ts'), "import * as sync from './lib/sync';\nexport const all = () => sync;\n");
      expect(findingsOf(root).filter(([file]) => file === 'src/lib/sync.ts')).toHaveLength(3);
    });

    it('keeps a module whose table of handlers another module imports a server file', () => {
      const root = writeRepo({
        ...service,
        'src/lib/providers/openai.ts': `export const openai = { run: () => credits() };\nexport async function credits() { ${request} }\n`,
        'src/lib/providers/index.ts': "import { openai } from './openai';\nexport const providers = { openai };\n",
        'src/lib/runner.ts':
          "import { providers } from './providers/index';\nexport const run = () => providers.openai.run();\n",
        'src/lib/sync.ts': "import { run } from './runner';\nexport async function sync() { return run(); }\n",
      });
      expect(findingsOf(root)).toEqual([['src/lib/providers/openai.ts', 'idempotency/require-request-timeout']]);
    });

    it("keeps a package's entry (its main) a server file: its users load it", () => {
      const root = writeRepo({
        ...service,
        'package.json': '{ "name": "shop", "type": "module", "main": "src/lib/api.ts" }',
        'src/lib/api.ts': helper,
      });
      expect(findingsOf(root)).toEqual([['src/lib/api.ts', 'idempotency/require-request-timeout']]);
    });

    it('keeps a module dead code and a live entry both load a server file', () => {
      const root = writeRepo({
        ...service,
        'src/lib/legacy.ts': "import { pack } from '../util/pack';\nexport const legacy = () => pack();\n",
        'src/lib/sync.ts': "import { pack } from '../util/pack';\nexport async function sync() { return pack(); }\n",
        'src/util/pack.ts': `export async function pack() { ${request} }\n`,
      });
      expect(findingsOf(root)).toEqual([['src/util/pack.ts', 'idempotency/require-request-timeout']]);
    });
  });

  it('lets settings.idempotency.roles win over what reaches a file', () => {
    const root = writeRepo({
      'package.json': '{ "name": "shop", "type": "module" }',
      'src/lib/charge.ts': helper,
      'src/components/Pay.tsx': component('../lib/charge'),
      'idempotency.config.json': JSON.stringify({ settings: { idempotency: { roles: { server: ['src/lib/**'] } } } }),
    });
    expect(findingsOf(root)).toEqual([['src/lib/charge.ts', 'idempotency/require-request-timeout']]);
  });
});

describe('modules that single-file components and pages load', () => {
  const request = "await fetch('https://api.example.com/photos', { method: 'POST' });";
  const findings = (files: Record<string, string>): string[] => {
    const root = writeRepo(files);
    const run = runCli([root, '--format', 'json'], { cwd: root });
    expect(run.stderr).toBe('');
    return (JSON.parse(run.stdout) as { findings: { file: string }[] }).findings.map((finding) => finding.file);
  };
  const app = {
    // A package that serves as well as renders: its modules are the server's unless only components load them.
    'package.json': '{ "name": "web", "type": "module", "dependencies": { "vue": "3.5.0", "hono": "4.6.0" } }',
    'tsconfig.json': '{ "compilerOptions": { "baseUrl": ".", "paths": { "~/*": ["src/*"] } } }',
    'src/services/photos.ts': `export async function upload() { ${request} }\n`,
  };

  it("gives a module only a `.vue` component's script imports (through a `paths` alias) the browser role", () => {
    expect(
      findings({
        ...app,
        'src/pages/Photos.vue':
          '<template><button @click="upload">Upload</button></template>\n<script setup lang="ts">\nimport { upload } from \'~/services/photos\'\n</script>\n',
      }),
    ).toEqual([]);
  });

  it("gives a page's entry, and what it loads, the browser role (Vite's index.html)", () => {
    expect(
      findings({
        ...app,
        'index.html': '<!doctype html><html><body><script type="module" src="/src/main.ts"></script></body></html>\n',
        'src/main.ts': "import { upload } from './services/photos';\nexport const start = () => upload();\n",
      }),
    ).toEqual([]);
  });

  it('keeps a module a server loads too, and one only a type import names, a server file', () => {
    expect(
      findings({
        ...app,
        'src/pages/Photos.vue': '<script setup lang="ts">\nimport { upload } from \'~/services/photos\'\n</script>\n',
        'src/server.ts':
          "import { upload } from './services/photos';\nexport async function handle() { await upload(); }\n",
      }),
    ).toEqual(['src/services/photos.ts']);
    expect(
      findings({
        ...app,
        'src/pages/Photos.vue':
          '<script setup lang="ts">\nimport type { upload } from \'~/services/photos\'\n</script>\n',
      }),
    ).toEqual(['src/services/photos.ts']);
  });
});
