import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Report } from '../../src/report/model.js';
import { repo, runCli, writeRepo } from '../cli/helpers.js';

/**
 * The HTML report in a real browser: Debian's Chromium (`apt-get install chromium`; `.ci/run`
 * installs it), driven by playwright-core. Each page is opened from disk, as a CI artifact is.
 * `SCREENSHOTS=update` writes the screenshots docs/cli.md shows into docs/images/.
 */

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const docsImages = fileURLToPath(new URL('../../docs/images', import.meta.url));
const out = mkdtempSync(join(tmpdir(), 'idempotency-html-e2e-'));
const screenshots = process.env.SCREENSHOTS === 'update' ? docsImages : out;
mkdirSync(screenshots, { recursive: true });

/** A service of `count` BullMQ workers and webhook routes over shared helpers: some claim first, some mint keys per attempt. */
function generatedService(count: number): string {
  const files: Record<string, string> = {
    'package.json': JSON.stringify({
      name: 'generated-service',
      dependencies: { bullmq: '5.0.0', pg: '8.0.0', express: '5.0.0' },
    }),
    'src/lib/pay.ts': [
      'export async function charge(amount: number, key: string): Promise<Response> {',
      "  return fetch('https://pay.example.com/charges', { method: 'POST', headers: { 'Idempotency-Key': key }, body: JSON.stringify({ amount }) });",
      '}',
    ].join('\n'),
    'src/lib/db.ts': [
      "import { Pool } from 'pg';",
      'export const pool = new Pool();',
      "export async function record(id: string): Promise<void> { await pool.query('INSERT INTO done (id) VALUES ($1)', [id]); }",
      'export async function claim(id: string): Promise<boolean> {',
      "  const result = await pool.query('INSERT INTO claims (id) VALUES ($1) ON CONFLICT DO NOTHING', [id]);",
      '  return result.rowCount === 1;',
      '}',
    ].join('\n'),
  };
  for (let i = 1; i <= count; i++) {
    const guard = i % 2 === 0 ? '  if (!(await claim(job.id))) return;\n' : '';
    const key = i % 5 === 0 ? 'crypto.randomUUID()' : '`charge-${job.id}`';
    files[`src/workers/w${i}.ts`] = [
      "import { Worker } from 'bullmq';",
      "import { charge } from '../lib/pay';",
      "import { claim, record } from '../lib/db';",
      `export const worker${i} = new Worker('queue-${i}', async function process${i}(job) {`,
      `${guard}  await charge(job.data.amount, ${key});`,
      '  await record(job.id);',
      '});',
    ].join('\n');
  }
  const routes = Array.from({ length: Math.ceil(count / 4) }, (_, i) =>
    [
      `app.post('/webhooks/provider-${i + 1}', async (req, res) => {`,
      '  await record(req.body.id);',
      '  res.sendStatus(200);',
      '});',
    ].join('\n'),
  );
  files['src/webhooks.ts'] = [
    "import express from 'express';",
    "import { record } from './lib/db';",
    'export const app = express();',
    ...routes,
  ].join('\n');
  return writeRepo(files);
}

/** Runs the checker on a repository, writing the HTML and JSON reports. */
function reportOf(root: string, name: string): { page: string; report: Report } {
  const page = join(out, `${name}.html`);
  const json = join(out, `${name}.json`);
  const run = runCli([root, '--format', 'html', '--output', page, '--format', 'json', '--output', json], { cwd: root });
  expect(run.code, run.stderr).toBe(1);
  return { page, report: JSON.parse(readFileSync(json, 'utf8')) as Report };
}

interface Opened {
  page: Page;
  errors: string[];
  requests: string[];
}

let browser: Browser | undefined;

beforeAll(async () => {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `No Chromium at ${CHROMIUM}: the HTML report's browser test needs one (apt-get install chromium, or set CHROMIUM_PATH)`,
    );
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    // Chromium's own background connections have nowhere to go on a closed network.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
});

afterAll(async () => {
  await browser?.close();
  rmSync(out, { recursive: true, force: true });
});

async function open(file: string, width = 1280): Promise<Opened> {
  if (!browser) throw new Error('Chromium did not start');
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  const errors: string[] = [];
  const requests: string[] = [];
  const url = pathToFileURL(file).href;
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('request', (request) => {
    if (request.url() !== url) requests.push(request.url());
  });
  await page.goto(url);
  return { page, errors, requests };
}

/** The handlers the table shows: the rows not hidden by a filter. */
async function visibleRows(page: Page): Promise<number> {
  return page.locator('#handlers tr[data-index]:visible').count();
}

async function visibleHandlerNodes(page: Page): Promise<number> {
  return page.locator('svg.inventory g.handler:visible').count();
}

describe('the HTML report in Chromium', () => {
  it("shows the demo shop's every handler and finding, loads nothing, and filters by verdict and broker", async () => {
    const { page: file, report } = reportOf(repo('demo-shop'), 'demo-shop');
    const { page, errors, requests } = await open(file);
    expect(errors).toEqual([]);
    expect(requests).toEqual([]);
    expect(await page.locator('article.handler').count()).toBe(report.handlers.length);
    expect(await page.locator('section#findings article.finding').count()).toBe(report.summary.findings);
    for (const finding of report.findings.filter((entry) => !entry.suppressed))
      await expect
        .poll(() => page.getByText(`${finding.file}:${finding.line}:${finding.column}`, { exact: true }).count())
        .toBeGreaterThan(0);
    expect(await visibleHandlerNodes(page)).toBe(report.handlers.length);
    await expect
      .poll(() => page.locator('#filter-count').textContent())
      .toBe(`${report.handlers.length} of ${report.handlers.length} handlers`);

    const unprotected = report.handlers.filter((handler) => handler.verdict === 'unprotected').length;
    await page.selectOption('#filter-verdict', 'unprotected');
    expect(await visibleRows(page)).toBe(unprotected);
    expect(await visibleHandlerNodes(page)).toBe(unprotected);
    expect(await page.locator('article.handler:visible').count()).toBe(unprotected);

    const kafka = report.handlers.filter((handler) => handler.broker === 'kafkajs');
    await page.selectOption('#filter-verdict', '');
    await page.selectOption('#filter-broker', 'kafkajs');
    expect(await visibleRows(page)).toBe(kafka.length);
    // The picture keeps only what the chosen handlers reach.
    const effects = new Set(kafka.flatMap((handler) => handler.effects));
    expect(await page.locator('svg.inventory g.effect:visible').count()).toBe(effects.size);

    await page.selectOption('#filter-broker', '');
    expect(await visibleRows(page)).toBe(report.handlers.length);
    await page.screenshot({ path: join(screenshots, 'html-report-summary.png') });
    await page.locator('#graph').screenshot({ path: join(screenshots, 'html-report-graph.png') });
    const story = page.locator('article.handler', { hasText: 'invoices.paid' });
    await story.screenshot({ path: join(screenshots, 'html-report-handler.png') });
    expect(readFileSync(join(screenshots, 'html-report-graph.png')).subarray(1, 4).toString()).toBe('PNG');
    await page.close();
  });

  it('reads without JavaScript: every table, story and the picture are there; the filters, which need it, are not', async () => {
    const { page: file, report } = reportOf(repo('demo-shop'), 'no-script');
    if (!browser) throw new Error('Chromium did not start');
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(pathToFileURL(file).href);
    expect(await page.locator('#handlers tr[data-index]:visible').count()).toBe(report.handlers.length);
    expect(await page.locator('article.handler:visible').count()).toBe(report.handlers.length);
    expect(await page.locator('svg.inventory g.handler:visible').count()).toBe(report.handlers.length);
    expect(await page.locator('#filters').isVisible()).toBe(false);
    await context.close();
  });

  it('is usable by keyboard: the skip link first, then the sections, and a handler node opens its story', async () => {
    const { page: file } = reportOf(repo('demo-shop'), 'keyboard');
    const { page } = await open(file);
    await page.keyboard.press('Tab');
    expect(await page.locator(':focus').textContent()).toBe('Skip to the handlers');
    const node = page.locator('svg.inventory g.handler a').first();
    await node.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => new URL(page.url()).hash).toMatch(/^#handler-\d+$/);
    await page.close();
  });

  it('renders a large generated service: every handler and finding, small enough to keep as an artifact', async () => {
    const { page: file, report } = reportOf(generatedService(160), 'generated');
    expect(report.handlers.length).toBeGreaterThanOrEqual(200);
    const { page, errors, requests } = await open(file);
    expect(errors).toEqual([]);
    expect(requests).toEqual([]);
    expect(await page.locator('article.handler').count()).toBe(report.handlers.length);
    expect(await page.locator('section#findings article.finding').count()).toBe(report.summary.findings);
    expect(report.summary.findings).toBeGreaterThanOrEqual(32);
    // Fix first: the shared helper's finding, on the path of every handler that is not protected and reaches it.
    const reaching = report.handlers.filter(
      (handler) =>
        handler.verdict !== 'protected' &&
        (handler.paths ?? []).some((path) => path.via.some((step) => step.name === 'charge')),
    );
    expect(reaching.length).toBeGreaterThan(0);
    expect(await page.locator('#fix-first tbody tr').first().locator('td').nth(1).textContent()).toBe(
      String(reaching.length),
    );
    // Shared helpers are one node each, however many handlers reach them.
    expect(
      await page
        .locator('svg.inventory g.function > text')
        .filter({ hasText: /^charge$/ })
        .count(),
    ).toBe(1);
    await page.selectOption('#filter-verdict', 'protected');
    const protectedCount = report.handlers.filter((handler) => handler.verdict === 'protected').length;
    expect(protectedCount).toBeGreaterThan(0);
    expect(await visibleRows(page)).toBe(protectedCount);
    expect(await visibleHandlerNodes(page)).toBe(protectedCount);
    // About 2 KB a handler, all included.
    expect(readFileSync(file).length).toBeLessThan(report.handlers.length * 3_000);
    await page.close();
  });
});
