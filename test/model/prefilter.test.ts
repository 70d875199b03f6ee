import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { analyze } from '../../src/analysis/analyze.js';
import { importBindings, parseOnly } from '../../src/analysis/sources.js';
import { isInertTest, mayInform, mayMatter } from '../../src/model/prefilter.js';
import { reposRoot, writeRepo } from '../cli/helpers.js';

const docsRoot = fileURLToPath(new URL('../../docs/rules', import.meta.url));

/** The ```ts blocks under each doc's "❌ Incorrect" heading that use the rule's default options. */
function incorrectExamples(): [string, string][] {
  const examples: [string, string][] = [];
  for (const file of readdirSync(docsRoot).filter((name) => name.endsWith('.md'))) {
    const text = readFileSync(join(docsRoot, file), 'utf8');
    for (const section of text.split(/^### /m).filter((part) => part.startsWith('❌'))) {
      // Examples that need rule options are left out: the CLI runs every rule with its defaults.
      for (const match of section.matchAll(
        /(<!-- options:[^\n]*\n)?```(?:ts|js|typescript|javascript)\n([\s\S]*?)```/g,
      )) {
        if (match[1] === undefined) examples.push([file, match[2] ?? '']);
      }
    }
  }
  return examples;
}

describe('mayMatter', () => {
  it('keeps every ❌ example of the rule docs', () => {
    const examples = incorrectExamples();
    expect(examples.length).toBeGreaterThan(0);
    expect(examples.filter(([, code]) => !mayMatter(code))).toEqual([]);
  });

  it.each([
    ['export const RETRIES = 3;\nexport type Id = string;\n', false],
    [
      "import { cn } from './cn';\nexport function Button(props: { label: string }) { return cn(props.label); }\n",
      false,
    ],
    ["export * from './keys.js';\n", true],
    ['await fetch(url);', true],
    ['export async function handle(job) { await charge(job.data); }', true],
    ["import { formatISO } from 'date-fns';\nexport const stamp = (date: Date) => formatISO(new Date(date));\n", false],
    ["const source$ = fromEvent(document, 'click');\nsource$.subscribe((value) => console.log(value));\n", false],
    ["import { Pool } from 'pg';\nexport const db = new Pool();\n", true],
    ['const db = await connectToDb();\ntry { await work(db); } finally { db.release(); }\n', true],
    ['export async function POST(request: Request) { return Response.json(await request.json()); }\n', true],
  ])('%j → %s', (text, expected) => {
    expect(mayMatter(text)).toBe(expected);
  });

  it.each([
    ["import { randomUUID } from 'node:crypto';\nexport const newKey = () => randomUUID();\n", true],
    ['export const stamp = () => Date.now();\n', true],
    ['export const api = http.create({ timeout: 5000 });\n', true],
    ['export const RETRIES = 3;\n', false],
    // pdf-lib stamps the time into the documents it makes (keys/clock-libraries.ts).
    [
      "import { PDFDocument } from 'pdf-lib';\nexport const render = async (t) => (await PDFDocument.load(t)).save();\n",
      true,
    ],
    [
      "import { db } from './db';\nexport const insertTaxonomy = async (surveyId, taxonomy, client = db) => client.one('INSERT …');\n",
      true,
    ],
    ['export async function primaryAlias(noteId: number, trx?: Knex.Transaction) { return trx; }\n', true],
  ])('mayInform(%j) → %s', (text, expected) => {
    expect(mayInform(text)).toBe(expected);
  });
});

describe('isInertTest', () => {
  it.each([
    ['src/charge.test.ts', 'await fetch(url);', true],
    ['src/__tests__/factories/invoice.ts', 'await db.insert(invoices).values(row);', true],
    ['src/charge.ts', "import { describe, it } from 'vitest';\nawait fetch(url);", true],
    ['src/charge.ts', 'await fetch(url);', false],
    ['src/worker.test.ts', "import { Worker } from 'bullmq';\nnew Worker('q', processJob);", false],
    ['test/helpers/index.ts', "export * from './db.js';", false],
    ['src/dispatch.spec.ts', 'await jobHandlers[job.name](job);', false],
  ])('%s: %j → %s', (file, text, expected) => {
    expect(isInertTest(text, file)).toBe(expected);
  });
});

describe('importBindings', () => {
  it('reads the value imports the facts rule records', () => {
    const source = parseOnly(
      '/repo/a.ts',
      [
        "import db, { pool as p, type Row } from './db.js';",
        "import type { Config } from './config.js';",
        "import * as ids from './ids.js';",
        "import './side-effect.js';",
        "const { create, [mint]: fresh } = require('./clients');",
        "const api = (await require('./api')) as Api;",
      ].join('\n'),
    );
    expect(importBindings(source)).toEqual([
      { local: 'db', specifier: './db.js', imported: 'default' },
      { local: 'p', specifier: './db.js', imported: 'pool' },
      { local: 'ids', specifier: './ids.js', imported: '*' },
      { local: 'create', specifier: './clients', imported: 'create' },
      { local: 'fresh', specifier: './clients', imported: 'mint' },
      { local: 'api', specifier: './api', imported: 'default' },
    ]);
  });
});

/** The report without what changes from run to run. */
function reportOf(root: string, prefilter: boolean): unknown {
  const result = analyze({ root, paths: [], ignore: [], types: false, includeSuppressed: true, prefilter });
  // In the order the report sorts them: a file reached late comes later in the analysis' own list.
  const findings = [...result.findings].sort(
    (a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) || a.line - b.line || a.column - b.column,
  );
  return {
    findings,
    handlers: result.handlers,
    notAnalysed: result.notAnalysed,
    files: result.files,
    settings: result.settings,
  };
}

describe('the prefilter changes nothing in a report', () => {
  it.each(readdirSync(reposRoot).filter((name) => !name.startsWith('broken') && name !== 'missing-extends'))(
    '%s',
    (name) => {
      const root = join(reposRoot, name);
      const unfiltered = reportOf(root, false);
      expect(reportOf(root, true)).toEqual(unfiltered);
    },
  );

  it('parses a skipped file after all when an analysed file imports its helper, or it imports an analysed file’s pool', () => {
    const root = writeRepo({
      'src/util/ids.ts': "import { randomUUID as mint } from 'node:crypto';\nexport const freshId = () => mint();\n",
      'src/util/index.ts': "export { freshId } from './ids.js';\n",
      'src/charge.ts':
        "import { freshId } from './util/index.js';\nexport async function charge(stripe: { charges: { create(body: object, options: object): Promise<void> } }) {\n  await stripe.charges.create({ amount: 1 }, { idempotencyKey: freshId() });\n}\n",
      'src/db.ts': "import { Pool } from 'pg';\nexport const db = new Pool();\n",
      'src/ledger.ts':
        "import { db } from './db.js';\nexport async function total() { return db.query('SELECT sum(amount) FROM ledger'); }\n",
    });
    const filtered = analyze({ root, paths: [], ignore: [], types: false, includeSuppressed: true });
    expect(filtered.findings.map((finding) => `${finding.file} ${finding.ruleId}`)).toEqual([
      'src/charge.ts idempotency/no-per-attempt-key',
    ]);
    expect(filtered.settings['src/ledger.ts']).toEqual({ summaries: { './db.js': { db: { pool: true } } } });
    expect(reportOf(root, true)).toEqual(reportOf(root, false));
  });

  it('sets aside tests and files whose imports name no fact, and reports as without the prefilter', () => {
    const root = writeRepo({
      'src/db.ts': "import { Pool } from 'pg';\nexport const db = new Pool();\nexport const TABLE = 'ledger';\n",
      'src/ledger.ts':
        "import { db } from './db.js';\nexport async function total() { return db.query('SELECT 1'); }\n",
      'src/names.ts': "import { TABLE } from './db.js';\nexport const label = () => TABLE.toUpperCase();\n",
      'src/ledger.test.ts':
        "import { db } from './db.js';\nimport { it } from 'vitest';\nit('sums', async () => { await fetch('http://x'); await db.query('BEGIN'); });\n",
    });
    const filtered = analyze({ root, paths: [], ignore: [], types: false, includeSuppressed: true });
    expect(Object.keys(filtered.settings).sort()).toEqual(['src/ledger.test.ts', 'src/ledger.ts']);
    expect(reportOf(root, true)).toEqual(reportOf(root, false));
  });
});
