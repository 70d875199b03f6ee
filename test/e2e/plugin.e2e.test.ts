import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/*
 * End to end, as a user meets the package: `npm pack` the built repository, install the tarball
 * into fresh projects outside the repository next to ESLint 9.22 and ESLint 10, and run the real
 * `eslint` binary over a small consumer with `configs.recommended`, untyped and typed
 * (projectService). Then `--fix`, the packed `idempotency-check` binary, and oxlint, which runs
 * the plugin's rules as a JS plugin.
 *
 * Needs dist/ (`npm test` builds before it runs) and the npm registry (or a warm npm cache).
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
/** Each ESLint run can take seconds, many more on a loaded machine; the runs overlap. */
const RUN_TIMEOUT = 240_000;
const MAJORS = { 'eslint 9.22': 'eslint@9.22.0', 'eslint 10': 'eslint@10' } as const;
type Major = keyof typeof MAJORS;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(command: string, args: readonly string[], cwd: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { cwd, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1', CI: '1' } },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') {
          reject(new Error(`${command} ${args.join(' ')} did not run: ${error.message}`, { cause: error }));
          return;
        }
        resolve({ code: typeof error?.code === 'number' ? error.code : 0, stdout, stderr });
      },
    );
  });
}

async function mustRun(command: string, args: readonly string[], cwd: string): Promise<string> {
  const result = await run(command, args, cwd);
  if (result.code !== 0)
    throw new Error(
      `${command} ${args.join(' ')} (in ${cwd}) exited ${result.code}\n${result.stdout}\n${result.stderr}`,
    );
  return result.stdout;
}

const CONSUMER = `import { Pool } from 'pg';

const pool = new Pool({ connectionString: process.env.DATABASE_URL });

interface ChargeJob {
  id: string;
  data: { accountId: string; amount: number };
}

export async function handle(job: ChargeJob): Promise<number> {
  const charge = await fetch('https://api.example-payments.test/v1/charges', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'Idempotency-Key': crypto.randomUUID() },
    body: JSON.stringify({ amount: job.data.amount }),
  });
  const status = await fetch(\`https://api.example-payments.test/v1/accounts/\${job.data.accountId}\`, {
    headers: { accept: 'application/json', 'Idempotency-Key': \`status:\${job.id}\` },
    signal: AbortSignal.timeout(5_000),
  });
  await pool.query('BEGIN');
  await pool.query('UPDATE accounts SET charged = charged + $1 WHERE id = $2', [job.data.amount, job.data.accountId]);
  await pool.query('COMMIT');
  return charge.status + status.status;
}

// Correct, and must stay quiet: the key comes from the job, and a timeout bounds the call.
export async function chargeOnce(job: ChargeJob): Promise<number> {
  const res = await fetch('https://api.example-payments.test/v1/charges', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'Idempotency-Key': \`charge:\${job.id}\` },
    body: JSON.stringify({ amount: job.data.amount }),
    signal: AbortSignal.timeout(10_000),
  });
  return res.status;
}
`;

/** `npm install` into a fresh project, quietly and from the cache when it can. */
async function npmInstall(dir: string, packages: readonly string[]): Promise<void> {
  await mustRun(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', ...packages],
    dir,
  );
}

/** 1-based line of the first line of CONSUMER that contains `needle`. */
function lineOf(needle: string): number {
  const index = CONSUMER.split('\n').findIndex((line) => line.includes(needle));
  if (index === -1) throw new Error(`not in the consumer: ${needle}`);
  return index + 1;
}

/** What `configs.recommended` must report in CONSUMER: rule id and line, sorted. */
const EXPECTED = [
  { ruleId: 'idempotency/require-request-timeout', line: lineOf('const charge = await fetch(') },
  { ruleId: 'idempotency/no-per-attempt-key', line: lineOf('crypto.randomUUID()') },
  { ruleId: 'idempotency/no-key-on-read', line: lineOf('`status:${job.id}`') },
  // One report per transaction, at the statement that opens it.
  { ruleId: 'idempotency/no-pool-transaction', line: lineOf("pool.query('BEGIN')") },
].sort(byPosition);

function byPosition(a: { ruleId: string; line: number }, b: { ruleId: string; line: number }): number {
  return a.line - b.line || a.ruleId.localeCompare(b.ruleId);
}

const CONFIG = `import parser from '@typescript-eslint/parser';
import idempotency from 'eslint-plugin-idempotency';

export default [
  { files: ['**/*.ts'], languageOptions: { parser } },
  idempotency.configs.recommended,
];
`;

const TYPED_CONFIG = `import parser from '@typescript-eslint/parser';
import idempotency from 'eslint-plugin-idempotency';

export default [
  {
    files: ['**/*.ts'],
    languageOptions: { parser, parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
  },
  idempotency.configs.recommended,
];
`;

// CommonJS, as an eslint.config.cjs writes it: require() gets the plugin itself.
const CJS_CONFIG = `const parser = require('@typescript-eslint/parser');
const idempotency = require('eslint-plugin-idempotency');

module.exports = [{ files: ['**/*.ts'], languageOptions: { parser } }, idempotency.configs.recommended];
`;

// An eslint.config.ts as the README shows it, type-checked with the project's TypeScript.
const TS_CONFIG = `import parser from '@typescript-eslint/parser';
import idempotency from 'eslint-plugin-idempotency';
import { defineConfig } from 'eslint/config';

export default defineConfig(
  { files: ['**/*.ts'], languageOptions: { parser } },
  idempotency.configs.recommended,
  idempotency.configs.strict,
);
`;

const TS_CONFIG_TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: [],
  },
  files: ['eslint.config.ts'],
};

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    lib: ['ES2023', 'DOM'],
    types: [],
    rootDir: 'src',
    strict: true,
    skipLibCheck: true,
    noEmit: true,
  },
  include: ['src'],
};

interface LintMessage {
  ruleId: string | null;
  line: number;
  fatal?: boolean;
  message: string;
}

let work: string;
let tarball: string;
const projects = new Map<Major, string>();

/** A fresh ES-module project in the work folder, named `name`, holding the consumer at src/consumer.ts. */
async function consumerProject(folder: string, name: string): Promise<string> {
  const dir = join(work, folder);
  await mkdir(join(dir, 'src'), { recursive: true });
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name, private: true, type: 'module' }, null, 2));
  await writeFile(join(dir, 'src/consumer.ts'), CONSUMER);
  return dir;
}

async function createProject(major: Major): Promise<void> {
  const dir = await consumerProject(major.replace(/\W+/g, '-'), 'e2e-consumer');
  await writeFile(join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
  await writeFile(join(dir, 'eslint.config.js'), CONFIG);
  await writeFile(join(dir, 'eslint.typed.config.js'), TYPED_CONFIG);
  await writeFile(join(dir, 'eslint.config.cjs'), CJS_CONFIG);
  await writeFile(join(dir, 'eslint.config.ts'), TS_CONFIG);
  await writeFile(join(dir, 'tsconfig.eslint-config.json'), JSON.stringify(TS_CONFIG_TSCONFIG, null, 2));
  await npmInstall(dir, [
    tarball,
    MAJORS[major],
    '@typescript-eslint/parser@8.74.0',
    'typescript@~6.0.3',
    '@types/pg@8',
  ]);
  projects.set(major, dir);
}

/** The project's own `eslint` binary, as `npx eslint` would find it (without npx's start-up cost). */
async function eslint(major: Major, args: readonly string[]): Promise<Run> {
  const dir = projects.get(major)!;
  return run(join(dir, 'node_modules/.bin/eslint'), args, dir);
}

async function lintJson(major: Major, args: readonly string[]): Promise<LintMessage[]> {
  const result = await eslint(major, ['--format', 'json', ...args]);
  if (result.code > 1) throw new Error(`eslint ${args.join(' ')} exited ${result.code}\n${result.stderr}`);
  const files = JSON.parse(result.stdout) as { messages: LintMessage[] }[];
  return files.flatMap((file) => file.messages);
}

function findings(messages: readonly LintMessage[]): { ruleId: string; line: number }[] {
  return messages.map(({ ruleId, line }) => ({ ruleId: ruleId ?? 'fatal', line })).sort(byPosition);
}

beforeAll(async () => {
  if (!existsSync(join(root, 'dist/src/index.js')))
    throw new Error('dist/ is missing: run `npm run build` before the e2e test.');
  work = await mkdtemp(join(tmpdir(), 'idempotency-e2e-'));
  const packed = JSON.parse(
    await mustRun('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], root),
  ) as {
    filename: string;
  }[];
  tarball = join(work, packed[0]!.filename);
  await Promise.all([
    ...(Object.keys(MAJORS) as Major[]).map(createProject),
    createBareProject(),
    createOxlintProject(),
  ]);
}, 300_000);

/**
 * A JavaScript project without TypeScript: `--legacy-peer-deps` installs no peers, as pnpm and
 * yarn do not, so only the copy ts-morph bundles is there.
 */
let bare: string;
async function createBareProject(): Promise<void> {
  bare = await consumerProject('no-typescript', 'bare');
  await npmInstall(bare, ['--legacy-peer-deps', tarball, 'eslint@10']);
}

/** oxlint as pinned for this test: a native package, so an exact version `npm ci` has installed before. */
const OXLINT = 'oxlint@1.96.0';

/**
 * A project with oxlint, the plugin as one of its `jsPlugins`, and ESLint 10 beside it to compare
 * with; the demo shop and every fixture repository are copied in, so both tools lint the same files.
 */
let oxlintProject: string;
async function createOxlintProject(): Promise<void> {
  oxlintProject = await consumerProject('oxlint', 'ox');
  // Not under a folder named `fixtures`, which the roles read as test code.
  await cp(join(root, 'fixtures/repos'), join(oxlintProject, 'repos'), { recursive: true });
  await writeFile(
    join(oxlintProject, 'eslint.all.config.js'),
    `import parser from '@typescript-eslint/parser';
import idempotency from 'eslint-plugin-idempotency';

export default [
  {
    files: ['**/*.{js,mjs,cjs,jsx,ts,mts,cts,tsx}'],
    languageOptions: { parser, parserOptions: { ecmaFeatures: { jsx: true } } },
    plugins: { idempotency },
    rules: Object.fromEntries(Object.keys(idempotency.rules).map((name) => ['idempotency/' + name, 'error'])),
  },
];
`,
  );
  await npmInstall(oxlintProject, [
    tarball,
    OXLINT,
    'eslint@10',
    '@typescript-eslint/parser@8.74.0',
    'typescript@~6.0.3',
  ]);
  // The oxlint configs name the rules the installed plugin has, as a user's config would.
  const plugin = (await import(join(oxlintProject, 'node_modules/eslint-plugin-idempotency/dist/src/index.js'))) as {
    default: { rules: Record<string, unknown>; configs: { recommended: { rules: Record<string, unknown> } } };
  };
  const oxlintConfig = (rules: readonly string[]): string =>
    JSON.stringify({
      jsPlugins: ['eslint-plugin-idempotency'],
      rules: Object.fromEntries(rules.map((id) => [id, 'error'])),
    });
  await writeFile(
    join(oxlintProject, '.oxlintrc.json'),
    oxlintConfig(Object.keys(plugin.default.configs.recommended.rules)),
  );
  await writeFile(
    join(oxlintProject, 'oxlintrc.all.json'),
    oxlintConfig(Object.keys(plugin.default.rules).map((name) => `idempotency/${name}`)),
  );
}

interface OxlintDiagnostic {
  code?: string;
  filename: string;
  message: string;
  labels: { span: { line: number; column: number } }[];
}

/**
 * oxlint's JSON diagnostics as ESLint's are compared: `file:line:column ruleId` for a rule's
 * finding, `file not linted` for a file it could not parse (the two parsers word that differently).
 */
async function oxlint(args: readonly string[]): Promise<string[]> {
  const result = await run(
    join(oxlintProject, 'node_modules/.bin/oxlint'),
    ['--format', 'json', ...args],
    oxlintProject,
  );
  if (result.code > 1) throw new Error(`oxlint ${args.join(' ')} exited ${result.code}\n${result.stderr}`);
  const { diagnostics } = JSON.parse(result.stdout) as { diagnostics: OxlintDiagnostic[] };
  return diagnostics
    .map((diagnostic) => {
      const rule = /^idempotency\((.+)\)$/.exec(diagnostic.code ?? '')?.[1];
      if (rule === undefined) return `${diagnostic.filename} not linted`;
      const at = diagnostic.labels[0]?.span;
      return `${diagnostic.filename}:${at?.line}:${at?.column} idempotency/${rule}`;
    })
    .sort();
}

/** The packed `idempotency-check` of a project, run in `cwd`. */
function check(project: string, args: readonly string[], cwd = project): Promise<Run> {
  return run(
    process.execPath,
    [join(project, 'node_modules/eslint-plugin-idempotency/dist/src/cli/bin.js'), ...args],
    cwd,
  );
}

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

// Every ESLint run is its own process and independent of the others: run them side by side.
describe.concurrent.each(Object.keys(MAJORS) as Major[])('%s', (major) => {
  it('installs the ESLint major it was asked for', async ({ expect }) => {
    const { version } = JSON.parse(
      await readFile(join(projects.get(major)!, 'node_modules/eslint/package.json'), 'utf8'),
    ) as { version: string };
    expect(version).toMatch(major === 'eslint 10' ? /^10\./ : /^9\.22\.0$/);
  });

  it(
    'reports the consumer’s mistakes with configs.recommended, without type information',
    async ({ expect }) => {
      expect(findings(await lintJson(major, ['src/consumer.ts']))).toEqual(EXPECTED);
    },
    RUN_TIMEOUT,
  );

  it(
    'reports the same with type information (projectService)',
    async ({ expect }) => {
      expect(findings(await lintJson(major, ['-c', 'eslint.typed.config.js', 'src/consumer.ts']))).toEqual(EXPECTED);
    },
    RUN_TIMEOUT,
  );

  it(
    'reports the same from a CommonJS config, where require() gives the plugin itself',
    async ({ expect }) => {
      expect(findings(await lintJson(major, ['-c', 'eslint.config.cjs', 'src/consumer.ts']))).toEqual(EXPECTED);
    },
    RUN_TIMEOUT,
  );

  it(
    'type-checks an eslint.config.ts that passes the configs to defineConfig',
    async ({ expect }) => {
      const dir = projects.get(major)!;
      const tsc = await run(
        process.execPath,
        [join(dir, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.eslint-config.json'],
        dir,
      );
      expect(tsc.stdout + tsc.stderr).toBe('');
      expect(tsc.code).toBe(0);
    },
    RUN_TIMEOUT,
  );

  it(
    '--fix removes the key from the read, leaves parseable code, and a second --fix changes nothing',
    async ({ expect }) => {
      const dir = projects.get(major)!;
      const file = join(dir, 'src/fixed.ts');
      await writeFile(file, CONSUMER);
      // With --format json, --fix writes the file and reports what remains after fixing.
      const after = await lintJson(major, ['--fix', 'src/fixed.ts']);
      const fixed = await readFile(file, 'utf8');
      // Only the key on the read goes; the per-attempt key and the missing timeout are suggestions.
      expect(fixed).toBe(CONSUMER.replace(", 'Idempotency-Key': `status:${job.id}` }", ' }'));
      expect(after.filter((message) => message.fatal === true)).toEqual([]);
      expect(findings(after)).toEqual(EXPECTED.filter((finding) => finding.ruleId !== 'idempotency/no-key-on-read'));

      await eslint(major, ['--fix', 'src/fixed.ts']);
      expect(await readFile(file, 'utf8')).toBe(fixed);
    },
    RUN_TIMEOUT,
  );
});

describe.concurrent('the packed idempotency-check binary, as a newcomer meets it', () => {
  it(
    'agrees with the project’s config: a rule off in eslint.config.js (--eslint-config) or idempotency.config.json is off',
    async ({ expect }) => {
      const dir = projects.get('eslint 10')!;
      const ids = async (args: readonly string[], cwd: string): Promise<string[]> => {
        const result = await check(dir, ['--format', 'json', ...args], cwd);
        expect(result.code, result.stderr).toBe(1);
        return (JSON.parse(result.stdout) as { findings: { ruleId: string }[] }).findings.map((f) => f.ruleId).sort();
      };
      const all = EXPECTED.map((finding) => finding.ruleId).sort();
      const withoutRead = all.filter((id) => id !== 'idempotency/no-key-on-read');
      expect(await ids(['src/consumer.ts'], dir)).toEqual(all);

      const offConfig = join(dir, 'eslint.off.config.js');
      await writeFile(offConfig, CONFIG.replace('];', "  { rules: { 'idempotency/no-key-on-read': 'off' } },\n];"));
      const viaEslint = join(work, 'via-eslint');
      await mkdir(join(viaEslint, 'src'), { recursive: true });
      await writeFile(join(viaEslint, 'src/consumer.ts'), CONSUMER);
      await writeFile(join(viaEslint, 'package.json'), '{"type":"module"}');
      await writeFile(join(viaEslint, 'eslint.config.js'), await readFile(offConfig, 'utf8'));
      await mkdir(join(viaEslint, 'node_modules'));
      for (const name of ['eslint', 'eslint-plugin-idempotency', '@typescript-eslint'])
        await run('ln', ['-s', join(dir, 'node_modules', name), join(viaEslint, 'node_modules', name)], viaEslint);
      expect(await ids(['--eslint-config', '.'], viaEslint)).toEqual(withoutRead);

      const viaJson = join(work, 'via-json');
      await mkdir(join(viaJson, 'src'), { recursive: true });
      await writeFile(join(viaJson, 'src/consumer.ts'), CONSUMER);
      await writeFile(
        join(viaJson, 'idempotency.config.json'),
        JSON.stringify({ rules: { 'idempotency/no-key-on-read': 'off' } }),
      );
      expect(await ids(['.'], viaJson)).toEqual(withoutRead);
    },
    RUN_TIMEOUT,
  );

  it(
    'reports the other packages of a monorepo whose one package extends a config that is not installed',
    async ({ expect }) => {
      const dir = projects.get('eslint 10')!;
      const mono = join(work, 'monorepo');
      for (const name of ['billing', 'broken']) await mkdir(join(mono, 'packages', name, 'src'), { recursive: true });
      await writeFile(join(mono, 'package.json'), JSON.stringify({ private: true, workspaces: ['packages/*'] }));
      await writeFile(join(mono, 'packages/billing/tsconfig.json'), JSON.stringify({ include: ['src'] }));
      await writeFile(join(mono, 'packages/billing/src/consumer.ts'), CONSUMER);
      await writeFile(
        join(mono, 'packages/broken/tsconfig.json'),
        JSON.stringify({ extends: '@tsconfig/node20/tsconfig.json', include: ['src'] }),
      );
      await writeFile(join(mono, 'packages/broken/src/consumer.ts'), CONSUMER);
      const result = await check(dir, ['--format', 'json', '.'], mono);
      expect(result.code, result.stderr).toBe(1);
      expect(result.stderr).toContain('packages/broken/tsconfig.json');
      const files = new Set(
        (JSON.parse(result.stdout) as { findings: { file: string }[] }).findings.map((finding) => finding.file),
      );
      expect(files).toContain('packages/billing/src/consumer.ts');
    },
    RUN_TIMEOUT,
  );

  it(
    'reads a flow-style pnpm-workspace.yaml, skips what .gitignore escapes and .git/info/exclude name, and no symlink out of the root',
    async ({ expect }) => {
      const dir = projects.get('eslint 10')!;
      const mono = join(work, 'pnpm-monorepo');
      const outside = join(work, 'outside-the-root');
      for (const folder of ['packages/db/src', 'packages/api/src', '.git/info'])
        await mkdir(join(mono, folder), { recursive: true });
      await mkdir(outside, { recursive: true });
      const ping = "export async function ping(): Promise<void> {\n  await fetch('https://example.test/ping');\n}\n";
      const files: Record<string, string> = {
        'pnpm-workspace.yaml': "# the packages\npackages: ['packages/*'] # flow style\n",
        'tsconfig.json': JSON.stringify({ include: ['packages'], compilerOptions: { strict: true } }),
        'packages/db/package.json': JSON.stringify({ name: '@acme/db', main: 'dist/index.js' }),
        'packages/db/src/index.ts': "import { Pool } from 'pg';\n\nexport const store = new Pool();\n",
        // Known as a pool only through the workspace package, resolved by its name without node_modules.
        'packages/api/src/charge.ts':
          "import { store } from '@acme/db';\n\nexport async function charge(id: string): Promise<void> {\n" +
          "  await store.query('BEGIN');\n  await store.query('UPDATE accounts SET charged = true WHERE id = $1', [id]);\n" +
          "  await store.query('COMMIT');\n}\n",
        '.gitignore': 'sp\\ ace.ts\n',
        '.git/info/exclude': 'scratch.ts\n',
        'packages/api/src/sp ace.ts': ping,
        'packages/api/src/scratch.ts': ping,
      };
      for (const [path, text] of Object.entries(files)) await writeFile(join(mono, path), text);
      await writeFile(join(outside, 'secret.ts'), ping);
      await symlink(outside, join(mono, 'packages/api/src/elsewhere'), 'dir');
      const result = await check(dir, ['--format', 'json', '.'], mono);
      expect(result.code, result.stderr).toBe(1);
      const found = (JSON.parse(result.stdout) as { findings: { file: string; ruleId: string }[] }).findings;
      expect(found.map((finding) => `${finding.file} ${finding.ruleId}`)).toEqual([
        'packages/api/src/charge.ts idempotency/no-pool-transaction',
      ]);
    },
    RUN_TIMEOUT,
  );

  it(
    'runs without TypeScript installed: --version, syntax mode and typed mode',
    async ({ expect }) => {
      expect(existsSync(join(bare, 'node_modules/typescript'))).toBe(false);
      const version = await check(bare, ['--version']);
      expect(version.code).toBe(0);
      expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
      expect(version.stderr).toBe('');
      for (const args of [[], ['--types']]) {
        const result = await check(bare, ['--format', 'json', ...args, '.']);
        expect(result.code, result.stderr).toBe(1);
        const ids = (JSON.parse(result.stdout) as { findings: { ruleId: string }[] }).findings.map((f) => f.ruleId);
        expect(ids.sort()).toEqual(EXPECTED.map((finding) => finding.ruleId).sort());
      }
    },
    RUN_TIMEOUT,
  );

  it(
    'exits 0 clean, 1 on findings, 2 with one line for each usage error and for a run that analysed nothing',
    async ({ expect }) => {
      const dir = projects.get('eslint 10')!;
      const clean = join(work, 'clean');
      await mkdir(join(clean, 'src'), { recursive: true });
      await writeFile(join(clean, 'src/ok.ts'), 'export const answer = 42;\n');
      const broken = join(work, 'broken');
      await mkdir(join(broken, 'src'), { recursive: true });
      await writeFile(join(broken, 'src/bad.ts'), 'export const = ;\n');
      expect((await check(dir, ['.'], clean)).code).toBe(0);
      expect((await check(dir, ['src/consumer.ts'])).code).toBe(1);
      // A file that does not parse beside one that does: listed, and failing the run only when asked.
      const partly = join(work, 'partly-broken');
      await mkdir(join(partly, 'src'), { recursive: true });
      await writeFile(join(partly, 'src/ok.ts'), 'export const answer = 42;\n');
      await writeFile(join(partly, 'src/bad.ts'), 'export const = ;\n');
      const listed = await check(dir, ['--format', 'json', '.'], partly);
      expect(listed.code, listed.stderr).toBe(0);
      expect((JSON.parse(listed.stdout) as { notAnalysed: { file: string }[] }).notAnalysed).toEqual([
        expect.objectContaining({ file: 'src/bad.ts' }),
      ]);
      expect((await check(dir, ['--fail-on-not-analysed', '.'], partly)).code).toBe(1);
      for (const [args, cwd, message] of [
        [['.'], broken, /nothing was analysed: src\/bad\.ts/],
        [['--ignore', '**', '.'], dir, /nothing was analysed/],
        [['--output', 'r.json', '.'], dir, /--output needs a --format/],
        [['--format', 'json', '--output', 'r', '--format', 'sarif', '--output', 'r', '.'], dir, /given twice/],
        [['--max-findings', '-1', '.'], dir, /--max-findings expects/],
        [['--no-such-flag'], dir, /Unknown option/],
        [['no-such-folder'], dir, /Path not found: no-such-folder/],
      ] as const) {
        const result = await check(dir, args, cwd);
        expect(result.code, args.join(' ')).toBe(2);
        expect(result.stdout).toBe('');
        expect(result.stderr).toMatch(message);
        expect(result.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      }
    },
    RUN_TIMEOUT,
  );

  it(
    'a fresh clone’s npm pack builds and ships dist/ (prepack)',
    async ({ expect }) => {
      const clone = join(work, 'clone');
      await mkdir(clone);
      const tracked = (await mustRun('git', ['ls-files', '-z'], root)).split('\0').filter((file) => file !== '');
      await mustRun(
        'tar',
        ['-cf', join(work, 'clone.tar'), ...tracked.filter((file) => existsSync(join(root, file)))],
        root,
      );
      await mustRun('tar', ['-xf', join(work, 'clone.tar')], clone);
      await run('ln', ['-s', join(root, 'node_modules'), join(clone, 'node_modules')], clone);
      expect(existsSync(join(clone, 'dist'))).toBe(false);
      const printed = await mustRun('npm', ['pack', '--dry-run', '--json'], clone);
      // prepack's own output (the build) comes first on stdout; the JSON is the last part.
      const packed = JSON.parse(printed.slice(printed.search(/^\[/m))) as {
        files: { path: string }[];
      }[];
      const paths = packed[0]!.files.map((file) => file.path);
      for (const file of ['dist/src/index.js', 'dist/src/cli/bin.js', 'dist/rules/index.js', 'LICENSE', 'CHANGELOG.md'])
        expect(paths).toContain(file);
    },
    RUN_TIMEOUT,
  );
});

describe('the packed idempotency-check binary', () => {
  const hasCli = existsSync(join(root, 'dist/src/cli/bin.js'));

  it.runIf(hasCli)(
    'runs in the consumer project, exits 1 on findings and writes versioned JSON and the HTML page',
    async () => {
      const dir = projects.get('eslint 10')!;
      const result = await run(
        'npx',
        [
          '--no',
          '--',
          'idempotency-check',
          '--format',
          'html',
          '--output',
          'out/report.html',
          '--format',
          'json',
          'src/consumer.ts',
        ],
        dir,
      );
      expect(result.code, result.stderr).toBe(1);
      const report = JSON.parse(result.stdout) as { schemaVersion: unknown; summary: { findings: number } };
      expect(report.schemaVersion).toEqual(expect.anything());
      // The page's picture is laid out by the installed package's own dependency (dagre).
      const page = await readFile(join(dir, 'out/report.html'), 'utf8');
      expect(page).toMatch(/^<!doctype html>/);
      expect(page.match(/<article id="finding-\d+"/g)).toHaveLength(report.summary.findings);
    },
    RUN_TIMEOUT,
  );
});

describe.concurrent('the plugin under oxlint', () => {
  it(
    'reports the consumer’s mistakes with the rules of configs.recommended',
    async ({ expect }) => {
      const expected = EXPECTED.map(({ ruleId, line }) => `src/consumer.ts:${line} ${ruleId}`);
      const reported = (await oxlint(['src/consumer.ts'])).map((entry) => entry.replace(/:\d+ /, ' '));
      expect(reported).toEqual(expected.sort());
    },
    RUN_TIMEOUT,
  );

  it(
    'gives what ESLint gives, rule, line and column, over the demo shop and every fixture repository',
    async ({ expect }) => {
      const result = await run(
        join(oxlintProject, 'node_modules/.bin/eslint'),
        ['--config', 'eslint.all.config.js', '--format', 'json', 'repos'],
        oxlintProject,
      );
      expect(result.code, result.stderr).toBeLessThanOrEqual(1);
      const files = JSON.parse(result.stdout) as { filePath: string; messages: LintMessage[] }[];
      const eslintFindings = files
        .flatMap((file) =>
          file.messages.map((message) => {
            const path = file.filePath.slice(oxlintProject.length + 1);
            return message.ruleId === null
              ? `${path} not linted`
              : `${path}:${message.line}:${(message as { column?: number }).column} ${message.ruleId}`;
          }),
        )
        .sort();
      const oxlintFindings = await oxlint(['-c', 'oxlintrc.all.json', 'repos']);
      // The demo's 15 findings among them, and more than one repository's: not an empty agreement.
      expect(eslintFindings.filter((entry) => entry.startsWith('repos/demo-shop/'))).toHaveLength(15);
      expect(new Set(eslintFindings.map((entry) => entry.split('/')[1])).size).toBeGreaterThan(5);
      expect(oxlintFindings).toEqual(eslintFindings);
    },
    RUN_TIMEOUT,
  );
});
