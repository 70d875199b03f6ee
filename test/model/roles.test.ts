import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { fileRole, fileRoleDecision, type FileRole } from '../../src/model/roles.js';
import { nearestManifest } from '../../src/model/roles/package.js';
import { lintSnippet } from '../rule-tester.js';

/** The role of `code` at `filename`, read as the rules read it: parsed, with scopes. */
function roleOf(filename: string, code = 'export const x = 1;'): FileRole {
  let role: FileRole | undefined;
  lintSnippet(code, (context) => {
    role = fileRole(filename, context.sourceCode);
    return {};
  });
  if (role === undefined) throw new Error('the snippet was not linted');
  return role;
}

describe('fileRole: test', () => {
  it.each([
    'src/__tests__/pay.ts',
    'src/__mocks__/stripe.ts',
    'src/pay.test.ts',
    'src/pay.spec.tsx',
    'src/pay.e2e.ts',
    'src/pay.e2e-spec.ts',
    'test/pay.ts',
    'apps/api/tests/pay.ts',
    'apps/api/e2e/lib.ts',
    'cypress/support/commands.ts',
    'playwright/login.ts',
    'src/fixtures/orders.ts',
    'src/mocks/handlers.ts',
    'src/Button.stories.tsx',
    'packages/e2e-tests/src/login.ts',
    'apps/web-e2e/src/app.ts',
    'src/sources/serp/tests.ts',
    'vitest.config.ts',
    'jest.setup.js',
    // The helpers tests share.
    'src/testUtils.js',
    'src/scopes/goals/testHelpers.js',
    'src/services/monitoring.testHelpers.ts',
    'src/email-templates/test-utils.ts',
    'src/routers/routeConfigs.test-utils.ts',
    'apps/api/src/calculator/portfolio-calculator-test-utils.ts',
    '__test__/test_helpers.js',
    'packages/core/src/fhir/test-helpers/bundle.ts',
    'src/pages/Monitoring/testHelpers/index.js',
    // A test stack's stand-in for a third party's service.
    'yoti-stub/src/handlers/sessions.ts',
    'f2f-ipv-stub/src/handlers/callback.ts',
    'services/payments-mock/server.js',
    // Cucumber's step definitions.
    'features/step_definitions/webhook_steps.js',
    'test-acceptance/step-definitions/orders.ts',
  ])('by path: %s', (filename) => {
    expect(fileRole(filename, 'export const x = 1;')).toBe('test');
  });

  it.each([
    ["import { describe } from 'vitest';"],
    ["import { expect } from '@jest/globals';"],
    ["const request = require('supertest');"],
    ["import { test } from '@playwright/test';"],
    ["import { render } from '@testing-library/react';"],
    ["import nock from 'nock';"],
    ["import { setupServer } from 'msw/node';"],
    ["import { Test } from '@nestjs/testing';"],
    ["import { Given, When, Then } from '@cucumber/cucumber';"],
  ])('by import: %s', (code) => {
    expect(roleOf('src/pay.ts', code)).toBe('test');
  });

  it.each([
    ["describe('pay', () => { it('charges', async () => {}); });"],
    ["it.each([1, 2])('charges %s', () => {});"],
    ["test('charges', async () => {});"],
  ])('by a top-level test call: %s', (code) => {
    expect(roleOf('src/pay.ts', code)).toBe('test');
    expect(fileRole('src/pay.ts', code)).toBe('test');
  });

  it.each([
    // Near misses: names that only look like tests.
    ['src/testimonials/list.ts', 'export const x = 1;'],
    ['src/contest.ts', 'export const x = 1;'],
    ['src/latest/feed.ts', 'export const x = 1;'],
    ['src/attestation.ts', 'export const x = 1;'],
    ['src/test-mode.ts', "export const isTest = process.env.NODE_ENV === 'test';"],
    ['src/latest-utils.ts', 'export const x = 1;'],
    ['src/contest-helpers.ts', 'export const x = 1;'],
    ['src/attestation-support.ts', 'export const x = 1;'],
    // A feature module's folder is production code; only Cucumber's step folder is a test's.
    ['src/features/billing/charge.ts', 'export const x = 1;'],
    ['src/steps/definitions.ts', 'export const x = 1;'],
    // A function named `test` or `context` called without a title and a callback.
    ['src/pay.ts', 'function test(x: number) { return x; }\nexport const one = test(1);'],
    ['src/pay.ts', "const context = (name: string) => name; export const c = context('a');"],
    ['src/pay.ts', "import { jestLikeName } from './jester';"],
  ])('not a test: %s', (filename, code) => {
    expect(roleOf(filename, code)).toBe('server');
  });
});

describe('fileRole: browser', () => {
  it.each([
    ["'use client';\nexport async function pay() { await fetch('https://api.example.com'); }"],
    ["import { useState } from 'react';\nexport function useCart() { const [c] = useState(0); return c; }"],
    [
      "import { useQuery } from '@tanstack/react-query';\nexport const useOrders = () => useQuery({ queryKey: ['o'] });",
    ],
    ['export function currentPath() { return window.location.pathname; }'],
    ["export function token() { return localStorage.getItem('t'); }"],
    ['document.addEventListener("click", () => {});'],
    ["chrome.runtime.sendMessage({ type: 'sync' });"],
    ["self.addEventListener('fetch', (event) => {});"],
    // A tracker script bundled for pages: the globals handed to an IIFE and destructured there.
    [
      "(window => {\n  const { currentScript } = window.document;\n  fetch('/api/send', { method: 'POST' });\n})(window);",
    ],
    ['(function (w) {\n  const { location } = w;\n  fetch(location.href);\n})(window);'],
    // A Capacitor plugin: it runs in the app's web view.
    [
      "import { registerPlugin } from '@capacitor/core';\nexport async function register(token: string) { await fetch('/api/devices', { method: 'POST', body: token }); }",
    ],
    [
      "const { document } = window;\nexport const send = () => fetch('/api/send', { method: 'POST', body: document.title });",
    ],
  ])('by its code: %s', (code) => {
    expect(roleOf('src/lib/pay.ts', code)).toBe('browser');
  });

  it('by a client-only mark: the client-only package or a client-only/ folder', () => {
    const code = 'export async function download(url: string) { return fetch(url); }';
    expect(fileRole('packages/lib/client-only/download-pdf.ts', code)).toBe('browser');
    expect(fileRole('packages/lib/download-pdf.ts', `import 'client-only';\n${code}`)).toBe('browser');
    // Near misses: a server-only folder, and a folder that only begins with the word.
    expect(fileRole('packages/lib/server-only/download-pdf.ts', code)).toBe('server');
    expect(fileRole('packages/lib/client-only-api/download-pdf.ts', code)).toBe('server');
  });

  it('by a component file that renders or imports a UI framework', () => {
    expect(fileRole('src/components/Cart.tsx', 'export const Cart = () => <div>cart</div>;')).toBe('browser');
    expect(fileRole('src/components/Cart.jsx', "import React from 'react';\nexport default {};")).toBe('browser');
    expect(fileRole('src/Cart.vue', '<template></template>')).toBe('browser');
    expect(fileRole('src/Cart.svelte', '<script></script>')).toBe('browser');
    expect(
      fileRole('src/loaders/component.js', "import React from 'react';\nexport default () => <div>cart</div>;"),
    ).toBe('browser');
    // A .js file that imports React without rendering is server-side rendering or a helper.
    expect(fileRole('src/render.js', "import React from 'react';\nexport const x = 1;")).toBe('server');
    expect(fileRole('src/pages/local.tsx', "import { createSignal } from 'solid-js';")).toBe('browser');
  });

  it.each([
    // Server files of full-stack frameworks, even beside components.
    ['app/api/orders/route.ts', "export async function POST() { await fetch('https://x'); }"],
    ['src/app/webhooks/stripe/route.js', 'export async function POST() {}'],
    ['pages/api/orders.ts', 'export default async function handler() {}'],
    ['app/models/order.server.ts', "import { useX } from 'react';"],
    ['src/routes/api/+server.ts', 'export async function GET() {}'],
    ['middleware.ts', 'export function middleware() {}'],
    ['app/actions.ts', "'use server';\nexport async function pay() {}"],
    // Data functions without a component: a resource route.
    ['app/routes/orders.ts', 'export async function loader() { return fetch("https://x"); }'],
    ['src/app/[locale]/p/[id]/opengraph-image.tsx', 'export default async function Image() { return <div />; }'],
    // An email rendered from JSX on the server that sends it.
    [
      'packages/resend/src/send.tsx',
      "import { render } from '@react-email/render';\nimport type { ReactElement } from 'react';\nexport const send = () => resend.emails.send({ react: <Summary /> });",
    ],
  ])('server, not browser: %s', (filename, code) => {
    expect(fileRole(filename, code)).toBe('server');
  });

  it.each([
    [
      'pages/orders.tsx',
      'export const getServerSideProps = async () => ({ props: {} });\nexport default () => <div />;',
      ['getServerSideProps'],
    ],
    [
      'app/routes/orders.tsx',
      'export async function loader() { return null; }\nexport async function action() {}\nexport default () => <div />;',
      ['loader', 'action'],
    ],
    // Remix route folders' modules: a page, and a resource route exporting a component, not Next.js route handlers.
    [
      'apps/webapp/app/routes/runs.$runParam/route.tsx',
      "import { useEffect } from 'react';\nexport const loader = async () => null;\nexport default function Page() { return <button onClick={() => fetch('https://x')} />; }",
      ['loader'],
    ],
    [
      'apps/webapp/app/routes/resources.spans.$spanParam/route.tsx',
      "export const loader = async () => null;\nexport function SpanView() { return <button onClick={() => fetch('https://x')} />; }",
      ['loader'],
    ],
  ])(
    'a page whose component runs in the browser and whose data functions run on the server: %s',
    (filename, code, names) => {
      expect(fileRoleDecision(filename, code)).toEqual({
        role: 'browser',
        decided: true,
        gives: 'server',
        serverExports: names,
      });
    },
  );

  it.each([
    // Near misses: isomorphic code, Node's own navigator, a browser driven from Node, a `window` binding.
    ["export function base() { return typeof window === 'undefined' ? 'http://api' : window.location.origin; }"],
    ['export const cores = navigator.hardwareConcurrency;'],
    ['export async function title(page: any) { return page.evaluate(() => document.title); }'],
    ['export function f(window: { size: number }) { return window.size; }'],
    ['export function useSomething() { return 1; }'],
    ["export const x = { window: 1 }.window; export const y = 'document.cookie';"],
    // Names that are bindings of the module, handed on or destructured: not the DOM's.
    ["import { document } from './schema';\nexport const run = () => save(document);"],
    ['export function render(window: { w: number }) { const { w } = window; return send(window, w); }'],
    ['export const open = (navigator: unknown) => route(navigator);'],
  ])('not browser: %s', (code) => {
    expect(roleOf('src/lib/pay.ts', code)).toBe('server');
  });

  it('takes `typeof window.x` for no guard: it reads `window` first, which throws where there is none', () => {
    const tracker =
      "export function track() { if (typeof window.rrweb?.record === 'function') start(); return fetch(url, { method: 'POST', body: document.cookie }); }";
    expect(roleOf('packages/tracker-js/src/Lib.ts', tracker)).toBe('browser');
  });

  it("by a UI framework's subpath in a component file", () => {
    expect(fileRole('src/providers/invocation.tsx', "import { createStore } from 'solid-js/store';")).toBe('browser');
    expect(fileRole('src/providers/invocation.ts', "import { createStore } from 'solid-js/store';")).toBe('server');
  });

  it.each([
    [{ dependencies: new Set(['react', 'react-dom', '@tanstack/react-query']), browserOnlyEntry: false }, 'browser'],
    [{ dependencies: new Set(['solid-js', 'vite', 'vite-plugin-solid']), browserOnlyEntry: false }, 'browser'],
    [{ dependencies: new Set(['lodash']), browserOnlyEntry: true }, 'browser'],
    // Full-stack frameworks, servers, brokers and databases run the package's code on a server too.
    [{ dependencies: new Set(['react', 'react-dom', 'next']), browserOnlyEntry: false }, 'server'],
    [{ dependencies: new Set(['react-dom', 'express']), browserOnlyEntry: false }, 'server'],
    [{ dependencies: new Set(['vue', '@aws-sdk/client-sqs']), browserOnlyEntry: false }, 'server'],
    [{ dependencies: new Set(['react', '@remix-run/node']), browserOnlyEntry: false }, 'server'],
    [{ dependencies: new Set(['react-dom', 'electron']), browserOnlyEntry: false }, 'server'],
    // A broker's or a framework's library of `libraries/`, or an ORM, beside a settings widget's UI.
    [{ dependencies: new Set(['react-dom', 'matrix-appservice-bridge']), browserOnlyEntry: false }, 'server'],
    [{ dependencies: new Set(['react-dom', 'pg-promise']), browserOnlyEntry: false }, 'server'],
    [{ dependencies: new Set(['react-dom', '@fedify/fedify']), browserOnlyEntry: false }, 'server'],
    // A Meteor app (`meteor-node-stubs`) runs a server beside its React client.
    [{ dependencies: new Set(['react-dom', 'meteor-node-stubs', 'jquery']), browserOnlyEntry: false }, 'server'],
    [{ dependencies: new Set(['axios', 'zod']), browserOnlyEntry: false }, 'server'],
  ])('by the package it belongs to: %o is %s', (manifest, role) => {
    const text = "export const load = () => fetch('https://static.example.com/catalog.json');";
    expect(fileRole('src/requests/catalog.ts', { text, manifest })).toBe(role);
  });

  it("judges a Meteor app's file by itself, not by the UI its package depends on", () => {
    const manifest = { dependencies: new Set(['react', 'react-dom', 'redux']), browserOnlyEntry: false };
    const text =
      "import { Meteor } from 'meteor/meteor';\nexport const poll = () => fetch('https://api.example.com/jobs');";
    expect(fileRole('imports/api/server/workers/poll.js', { text, manifest })).toBe('server');
    expect(fileRole('imports/api/poll.js', { text: text.replace("'meteor/meteor'", "'./meteor'"), manifest })).toBe(
      'browser',
    );
  });

  it("takes a package that names a CDN's script (unpkg, jsdelivr) for one built for the browser", () => {
    const root = mkdtempSync(join(tmpdir(), 'cdn-package-'));
    mkdirSync(join(root, 'src'));
    writeFileSync(
      join(root, 'package.json'),
      JSON.stringify({ name: 'tracker', main: 'dist/t.cjs', browser: 'dist/t.js', unpkg: 'dist/t.js' }),
    );
    expect(nearestManifest(join(root, 'src', 'lib.ts'))?.browserOnlyEntry).toBe(true);
  });

  it('nearestManifest reads the package.json above a file, once per folder', () => {
    const manifest = nearestManifest(fileURLToPath(import.meta.url));
    expect(manifest?.dependencies.has('vitest')).toBe(true);
    expect(manifest?.browserOnlyEntry).toBe(false);
    expect(nearestManifest('src/relative.ts')).toBeUndefined();
  });

  it('a .ts file in a lib folder stays server without a browser signal of its own', () => {
    expect(fileRole('lib/files/put-file.ts', 'export async function put(url: string) { await fetch(url); }')).toBe(
      'server',
    );
  });
});

describe('fileRole: script', () => {
  it('keeps feature folders named like commands on the server', () => {
    expect(fileRole('src/create-order/handler.ts', 'export const x = 1;')).toBe('server');
    expect(fileRole('src/example-service/index.ts', 'export const x = 1;')).toBe('server');
  });

  it.each([
    'bin/backfill.ts',
    'scripts/seed-events.mjs',
    'script/release.js',
    'db/migrations/001-init.ts',
    'prisma/seeds/users.ts',
    'src/seeders/orders.js',
    'packages/cli/src/commands/login.ts',
    'src/tasks/cleanup.script.ts',
    'prisma/seed.ts',
    'src/migrate.ts',
    'src/seeds.ts',
    'examples/oidc/keycloak.ts',
    'samples/express/src/mock-webhook.ts',
    'tools/demo-data-cli/src/http-client.ts',
    'packages/create-shop-app/index.js',
    'ops/terraform/circleci/src/circleci.js',
    'infra/terraform/lambda-zip.js',
    '.github/scripts/label.js',
    '.circleci/notify.js',
    // A build tool's config: loaded once per build.
    'next.config.ts',
    'apps/web/next.config.mjs',
    'vite.config.ts',
    'packages/ui/tsup.config.ts',
  ])('by path: %s', (filename) => {
    expect(fileRole(filename, 'export const x = 1;')).toBe('script');
  });

  it.each([
    ['#!/usr/bin/env node\nconsole.log(1);'],
    ['const [, , id] = process.argv;\nexport {};'],
    ['async function main() { await fetch(url); }\nmain();'],
    ['async function main() {}\nmain().catch(console.error).finally(() => process.exit());'],
    ['const run = async () => {};\nvoid run();'],
    ['export async function main() {}\nmain();'],
    ['export function map() {}\nif (require.main === module) { void map(); }'],
    [
      "(function () {\n  if (process.argv.length < 2) process.exit(1);\n  void fetch(process.argv[2], { method: 'POST' });\n})();",
    ],
    [
      "import { Command } from 'commander';\nconst program = new Command();\nprogram.argument('<file>').action(upload);\nprogram.parse();",
    ],
    ["const yargs = require('yargs');\nconst argv = yargs.option('id').parse();"],
  ])('by its code: %s', (code) => {
    expect(roleOf('src/bulk-delete.ts', code)).toBe('script');
  });

  it('keeps an executable that starts workers on the server: a worker process run by its own command', () => {
    const worker =
      "#!/usr/bin/env node\nimport { Worker } from 'bullmq';\nimport yargs from 'yargs';\nyargs.command('run', 'starts the queue', () => { new Worker('mail', sendMail); }).argv;";
    expect(roleOf('src/jobs/queue-worker.ts', worker)).toBe('server');
  });

  it.each([
    // Near misses: a server entry is run to completion only until it listens or consumes.
    [
      'async function bootstrap() { const app = await NestFactory.create(AppModule); await app.listen(3000); }\nbootstrap();',
    ],
    ["async function main() { new Worker('q', async (job) => {}); }\nmain();"],
    ['function parse(argv: string[]) { return argv; }\nexport const args = () => parse(process.argv);'],
    ["import { main } from './main';\nmain();"],
    // An argv read inside a function the module does not call as it loads, a CLI parser in a server.
    ['export const handler = () => { (function () { return process.argv; })(); };'],
    ["import { Command } from 'commander';\nconst app = express();\napp.listen(3000);"],
    ['export function migrate() {}\nif (require.main === module) { app.listen(3000); }'],
    ['export const scripts = 1;'],
  ])('not a script: %s', (code) => {
    expect(roleOf('src/index.ts', code)).toBe('server');
  });

  it('a file in a script folder that serves or runs on a schedule stays server', () => {
    expect(
      fileRole('backend/src/bin/jobs/refresh.ts', "const job = { cronTime: '0 * * * *' };\nexport default job;"),
    ).toBe('server');
    expect(fileRole('bin/www.js', 'app.listen(3000);')).toBe('server');
    expect(fileRole('packages/cli/src/auth.ts', 'export const login = () => createServer().listen(0);')).toBe('script');
  });

  it.each([
    'src/binding.ts',
    'src/client/api.ts',
    'src/description/scripts.ts',
    'src/seeding-policy.ts',
    // The service's own configuration, read at run time.
    'src/app.config.ts',
    'src/config/next.ts',
    // gRPC's generated client stubs are the service's clients.
    'src/stubs/payments_grpc_pb.js',
  ])('not a script by path: %s', (filename) => {
    expect(fileRole(filename, 'export const x = 1;')).toBe('server');
  });
});

describe('fileRole: order and paths', () => {
  it('a test wins over every other role; a server route over a client directive', () => {
    expect(fileRole('scripts/seed.test.ts', 'export {};')).toBe('test');
    expect(fileRole('src/Cart.test.tsx', "'use client';")).toBe('test');
    expect(fileRole('app/api/x/route.ts', "'use client';\nexport async function GET() {}")).toBe('server');
  });

  it('reads Windows separators and ignores a leading slash', () => {
    expect(fileRole('src\\__tests__\\pay.ts', 'export {};')).toBe('test');
    expect(fileRole('/src/pay.ts', 'export {};')).toBe('server');
  });

  it('classifies the virtual files of the docs and rule tests as server', () => {
    expect(fileRole('example.ts', 'export {};')).toBe('server');
    expect(fileRole('file.ts', 'export {};')).toBe('server');
  });
});

describe('fileRoleDecision: what a file decides for itself', () => {
  it('decides by a path, a directive or code that serves; a plain module is server by default only', () => {
    expect(fileRoleDecision('src/pay.test.ts', 'export {};')).toEqual({ role: 'test', decided: true });
    expect(fileRoleDecision('src/lib/pay.ts', "'use client';\nexport {};")).toEqual({ role: 'browser', decided: true });
    expect(fileRoleDecision('src/cli/login.ts', 'export {};')).toEqual({ role: 'script', decided: true });
    expect(fileRoleDecision('src/main.ts', 'app.listen(3000);')).toEqual({ role: 'server', decided: true });
    expect(fileRoleDecision('src/lib/pay.ts', 'export const pay = () => 1;')).toEqual({
      role: 'server',
      decided: false,
    });
  });

  it('without scopes, reads a browser global only where the module says it reads one', () => {
    const text =
      '// document.create funnels through here\nexport const title = (document: { id: string }) => document.id;';
    expect(fileRoleDecision('src/lib/doc.ts', text).role).toBe('browser');
    const reads = (names: string[]) => (name: string) => names.includes(name);
    expect(fileRoleDecision('src/lib/doc.ts', { text, readsGlobal: reads([]) }).role).toBe('server');
    expect(fileRoleDecision('src/lib/doc.ts', { text, readsGlobal: reads(['document']) }).role).toBe('browser');
  });
});
