import * as parser from '@typescript-eslint/parser';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';

import { keySinksAt } from '../../src/model/keys/sinks.js';
import { findPerAttemptValue, isPerAttemptSource, type PerAttemptValue } from '../../src/model/keys/per-attempt.js';
import { perAttemptKeyAt } from '../../src/model/keys/carriers.js';
import { perAttemptInKeyedBody } from '../../src/model/keys/keyed-body.js';
import type { IdempotencySettings } from '../../src/model/settings.js';
import { lintSnippet } from '../rule-tester.js';
import noPerAttemptKey from '../../rules/no-per-attempt-key.js';

type Probe = (
  node: TSESTree.Node,
  context: Readonly<TSESLint.RuleContext<string, readonly unknown[]>>,
) => PerAttemptValue | undefined;

/** Runs `probe` on the argument of every `probe(...)` call in `code`; returns kind and description, or null. */
function probeAll(
  code: string,
  probe: Probe = findPerAttemptValue,
  settings: IdempotencySettings = {},
): ({ kind: string; description: string } | null)[] {
  const found: ({ kind: string; description: string } | null)[] = [];
  lintSnippet(
    code,
    (context) => ({
      'CallExpression[callee.name="probe"]'(node: TSESTree.CallExpression) {
        const value = probe(node.arguments[0]!, context);
        found.push(value ? { kind: value.kind, description: value.description } : null);
      },
    }),
    { settings: { idempotency: settings } },
  );
  return found;
}

function probeOne(
  code: string,
  probe?: Probe,
  settings?: IdempotencySettings,
): { kind: string; description: string } | null {
  const [first] = probeAll(code, probe, settings);
  if (first === undefined) throw new Error('no probe(...) in the code');
  return first;
}

describe('findPerAttemptValue', () => {
  it.each([
    ['crypto global', 'probe(crypto.randomUUID())', 'uuid', 'crypto.randomUUID()'],
    ['globalThis.crypto', 'probe(globalThis.crypto.randomUUID())', 'uuid', 'globalThis.crypto.randomUUID()'],
    ['window.crypto', 'probe(window.crypto.randomUUID())', 'uuid', 'window.crypto.randomUUID()'],
    [
      'named import from node:crypto',
      "import { randomUUID } from 'node:crypto'; probe(randomUUID())",
      'uuid',
      'randomUUID()',
    ],
    ['aliased import from crypto', "import { randomUUID as id } from 'crypto'; probe(id())", 'uuid', 'id()'],
    [
      'default import of crypto',
      "import crypto from 'crypto'; probe(crypto.randomUUID())",
      'uuid',
      'crypto.randomUUID()',
    ],
    ['namespace import of crypto', "import * as c from 'node:crypto'; probe(c.randomUUID())", 'uuid', 'c.randomUUID()'],
    [
      'require of crypto',
      "const crypto = require('crypto'); probe(crypto.randomUUID())",
      'uuid',
      'crypto.randomUUID()',
    ],
    [
      'destructured require',
      "const { randomUUID } = require('node:crypto'); probe(randomUUID())",
      'uuid',
      'randomUUID()',
    ],
    [
      'webcrypto',
      "import { webcrypto } from 'node:crypto'; probe(webcrypto.randomUUID())",
      'uuid',
      'webcrypto.randomUUID()',
    ],
    ['uuid v4 alias', "import { v4 as uuidv4 } from 'uuid'; probe(uuidv4())", 'uuid', 'uuidv4()'],
    ['uuid v1', "import { v1 } from 'uuid'; probe(v1())", 'uuid', 'v1()'],
    ['uuid v7', "import { v7 } from 'uuid'; probe(v7())", 'uuid', 'v7()'],
    ['uuid namespace', "import * as uuid from 'uuid'; probe(uuid.v4())", 'uuid', 'uuid.v4()'],
    [
      'uuid require destructured with alias',
      "const { v4: uuidv4 } = require('uuid'); probe(uuidv4())",
      'uuid',
      'uuidv4()',
    ],
    ['uuid/v4 default', "import uuid from 'uuid/v4'; probe(uuid())", 'uuid', 'uuid()'],
    ['nanoid', "import { nanoid } from 'nanoid'; probe(nanoid())", 'random', 'nanoid()'],
    [
      'nanoid customAlphabet',
      "import { customAlphabet } from 'nanoid'; const nano = customAlphabet('abc', 10); function f() { probe(nano()) }",
      'random',
      'nano()',
    ],
    ['cuid', "import cuid from 'cuid'; probe(cuid())", 'random', 'cuid()'],
    ['cuid2 createId', "import { createId } from '@paralleldrive/cuid2'; probe(createId())", 'random', 'createId()'],
    ['ulid namespace require', "const Ulid = require('ulid'); probe(Ulid.ulid())", 'random', 'Ulid.ulid()'],
    ['ulid named', "import { ulid } from 'ulid'; probe(ulid())", 'random', 'ulid()'],
    ['Date.now', 'probe(Date.now())', 'time', 'Date.now()'],
    ['new Date', 'probe(new Date())', 'time', 'new Date()'],
    ['new Date().toISOString', 'probe(new Date().toISOString())', 'time', 'new Date()'],
    ['new Date().getTime().toString', 'probe(new Date().getTime().toString())', 'time', 'new Date()'],
    ['new Date().valueOf', 'probe(new Date().valueOf())', 'time', 'new Date()'],
    ['new Date of now', 'probe(new Date(Date.now() + 1000))', 'time', 'Date.now()'],
    ['performance.now', 'probe(performance.now())', 'time', 'performance.now()'],
    [
      'perf_hooks',
      "import { performance } from 'node:perf_hooks'; probe(performance.now())",
      'time',
      'performance.now()',
    ],
    ['process.hrtime', 'probe(process.hrtime())', 'time', 'process.hrtime()'],
    ['process.hrtime.bigint', 'probe(process.hrtime.bigint())', 'time', 'process.hrtime.bigint()'],
    [
      'hrtime.bigint import',
      "import { hrtime } from 'node:process'; probe(hrtime.bigint())",
      'time',
      'hrtime.bigint()',
    ],
    ['Math.random', 'probe(Math.random())', 'random', 'Math.random()'],
    ['Math.random base36', 'probe(Math.random().toString(36).substr(2, 9))', 'random', 'Math.random()'],
    ['Math.floor of random', 'probe(Math.floor(Math.random() * 1e6))', 'random', 'Math.random()'],
    ['unix seconds', 'probe(Math.floor(Date.now() / 1000))', 'time', 'Date.now()'],
    [
      'randomBytes hex',
      "import { randomBytes } from 'crypto'; probe(randomBytes(16).toString('hex'))",
      'random',
      'randomBytes()',
    ],
    [
      'crypto.randomBytes',
      "import crypto from 'node:crypto'; probe(crypto.randomBytes(8).toString('base64'))",
      'random',
      'crypto.randomBytes()',
    ],
    ['ObjectId', "import { ObjectId } from 'mongodb'; probe(new ObjectId())", 'random', 'new ObjectId()'],
    ['template literal', 'probe(`order-${Date.now()}`)', 'time', 'Date.now()'],
    ['concatenation', "probe('order-' + crypto.randomUUID())", 'uuid', 'crypto.randomUUID()'],
    ['String()', 'probe(String(Date.now()))', 'time', 'Date.now()'],
    ['uuid slice', "import { v4 } from 'uuid'; probe(v4().split('-')[0])", 'uuid', 'v4()'],
    ['const in a function', "import { v4 } from 'uuid'; function f() { const key = v4(); probe(key) }", 'uuid', 'v4()'],
    [
      'chain of consts',
      'function f() { const t = Date.now(); const key = `k-${t}`; probe(key) }',
      'time',
      'Date.now()',
    ],
    [
      'fallback',
      "import { nanoid } from 'nanoid'; function f(payload) { const key = payload.key || nanoid(); probe(key) }",
      'random',
      'nanoid()',
    ],
    ['nullish fallback', 'function f(key) { probe(key ?? crypto.randomUUID()) }', 'uuid', 'crypto.randomUUID()'],
    ['conditional', 'function f(a) { probe(a ? a.id : crypto.randomUUID()) }', 'uuid', 'crypto.randomUUID()'],
    ['parameter default', 'function f(key = crypto.randomUUID()) { probe(key) }', 'uuid', 'crypto.randomUUID()'],
    [
      'local helper declaration',
      'function makeKey() { return `k-${Date.now()}` } probe(makeKey())',
      'time',
      'makeKey()',
    ],
    [
      'local arrow helper',
      "import { v4 } from 'uuid'; const makeKey = () => v4(); probe(makeKey())",
      'uuid',
      'makeKey()',
    ],
    [
      'helper with branches',
      'function makeKey(x) { if (x) { return x } return crypto.randomUUID() } probe(makeKey())',
      'uuid',
      'makeKey()',
    ],
    [
      'class method helper',
      'class C { key() { return crypto.randomUUID() } send() { probe(this.key()) } }',
      'uuid',
      'this.key()',
    ],
    ['object literal body', 'probe({ amount: 1, sentAt: new Date().toISOString() })', 'time', 'new Date()'],
    [
      'JSON.stringify body',
      'function f(amount) { const body = { amount, at: Date.now() }; probe(JSON.stringify(body)) }',
      'time',
      'Date.now()',
    ],
    ['array element', 'probe([1, Date.now()])', 'time', 'Date.now()'],
    [
      'satisfies and await',
      'async function f() { probe(await (crypto.randomUUID() as string)) }',
      'uuid',
      'crypto.randomUUID()',
    ],
  ])('finds %s', (_name, code, kind, description) => {
    expect(probeOne(code)).toEqual({ kind, description });
  });

  it.each([
    ['a message id', 'function f(message) { probe(`msg:${message.id}`) }'],
    ['uuid v5 of a job id', "import { v5 } from 'uuid'; function f(job, NS) { probe(v5(job.id, NS)) }"],
    ['uuid v3', "import { v3 } from 'uuid'; function f(job, NS) { probe(v3(job.id, NS)) }"],
    [
      'a hash of an id',
      "import { createHash } from 'node:crypto'; function f(job) { probe(createHash('sha256').update(job.id).digest('hex')) }",
    ],
    ['new Date of the message time', 'function f(job) { probe(new Date(job.timestamp).toISOString()) }'],
    ['new Date of a created-at', 'function f(job) { probe(new Date(job.createdAt)) }'],
    ['a module-level const', 'const KEY = crypto.randomUUID(); function f() { probe(KEY) }'],
    [
      'useState',
      "import { useState } from 'react'; import { v4 } from 'uuid'; function C() { const [key] = useState(() => v4()); probe(key) }",
    ],
    [
      'useMemo',
      "import { useMemo } from 'react'; import { v4 } from 'uuid'; function C() { const key = useMemo(() => v4(), []); probe(key) }",
    ],
    [
      'useRef',
      "import { useRef } from 'react'; import { v4 } from 'uuid'; function C() { const key = useRef(v4()); probe(key.current) }",
    ],
    ['a class field', 'class C { key = crypto.randomUUID(); send() { probe(this.key) } }'],
    ['a reassigned let', 'function f() { let key = crypto.randomUUID(); key = "x"; probe(key) }'],
    ['a local Date class', 'class Date { static now() { return 1 } } probe(Date.now())'],
    ['a local crypto object', 'const crypto = { randomUUID: () => "x" }; probe(crypto.randomUUID())'],
    [
      'a local helper that returns an id',
      'function keyOf(job) { return `k:${job.id}` } function f(job) { probe(keyOf(job)) }',
    ],
    ['a recursive helper', 'function k(n) { return k(n - 1) } probe(k(3))'],
    ['an hour bucket', 'probe(Math.floor(Date.now() / 3_600_000))'],
    ['a bucket of unknown width', 'function f(WINDOW) { probe(Math.floor(Date.now() / WINDOW)) }'],
    ['a date slice', 'probe(new Date().toISOString().slice(0, 10))'],
    ['a date split', "probe(new Date().toISOString().split('T')[0])"],
    ['a date part', 'probe(new Date().getFullYear())'],
    ['a comparison', 'function f(t) { probe(Date.now() > t) }'],
    ['an unknown call on a random value', 'function f(g) { probe(g(crypto.randomUUID())) }'],
    ['a literal', "probe('fixed')"],
    ['an unknown uuid function', "import { v4 } from './ids'; probe(v4())"],
  ])('ignores %s', (_name, code) => {
    expect(probeOne(code)).toBeNull();
  });

  it('follows imported helpers listed in settings.idempotency.perAttemptFunctions', () => {
    const settings: IdempotencySettings = {
      perAttemptFunctions: [
        { from: './keys', name: 'newKey' },
        { from: './ids', name: 'default' },
      ],
    };
    expect(probeOne("import { newKey } from './keys'; probe(newKey())", undefined, settings)).toEqual({
      kind: 'random',
      description: 'newKey()',
    });
    expect(probeOne("import * as keys from './keys'; probe(keys.newKey())", undefined, settings)).toEqual({
      kind: 'random',
      description: 'keys.newKey()',
    });
    expect(probeOne("import id from './ids'; probe(`k-${id()}`)", undefined, settings)).toEqual({
      kind: 'random',
      description: 'id()',
    });
    expect(probeOne("import { other } from './keys'; probe(other())", undefined, settings)).toBeNull();
    expect(probeOne("import { newKey } from './other'; probe(newKey())", undefined, settings)).toBeNull();
  });
});

describe('isPerAttemptSource', () => {
  it('is the minting expression itself, not what is built from it', () => {
    expect(
      probeAll(
        "import { v4 } from 'uuid'; function f() { const key = v4(); probe(v4()); probe(key); probe(`k-${v4()}`) }",
        isPerAttemptSource,
      ),
    ).toEqual([{ kind: 'uuid', description: 'v4()' }, null, null]);
  });

  it('knows new Date() only without arguments', () => {
    expect(
      probeAll('function f(job) { probe(new Date()); probe(new Date(job.timestamp)) }', isPerAttemptSource),
    ).toEqual([{ kind: 'time', description: 'new Date()' }, null]);
  });

  it('counts a call to a local helper as the source', () => {
    const [value] = probeAll('const makeKey = () => Date.now(); probe(makeKey())', isPerAttemptSource);
    expect(value).toEqual({ kind: 'time', description: 'makeKey()' });
  });
});

/** Runs `perAttemptKeyAt` over every key sink in `code`; returns the sink names it reports. */
function perAttemptKeys(code: string): string[] {
  const found: string[] = [];
  lintSnippet(code, (context) => {
    const check = (node: TSESTree.Property | TSESTree.AssignmentExpression | TSESTree.CallExpression): void => {
      for (const sink of keySinksAt(node, context)) if (perAttemptKeyAt(sink, context)) found.push(sink.name);
    };
    return { Property: check, AssignmentExpression: check, CallExpression: check };
  });
  return found;
}

/** Runs `perAttemptInKeyedBody` on every call; returns the source descriptions and reported node texts. */
function keyedBodies(code: string): string[] {
  const found: string[] = [];
  lintSnippet(code, (context) => ({
    CallExpression(node: TSESTree.CallExpression) {
      const body = perAttemptInKeyedBody(node, context);
      if (body) found.push(`${body.value.description} at ${context.sourceCode.getText(body.node)}`);
    },
  }));
  return found;
}

describe('perAttemptKeyAt', () => {
  it.each([
    [
      'a header in a fetch',
      "async function f() { await fetch(url, { method: 'POST', headers: { 'Idempotency-Key': crypto.randomUUID() } }); }",
      'Idempotency-Key',
    ],
    [
      'an SDK option',
      'async function f(stripe) { await stripe.charges.create({}, { idempotencyKey: `k-${Date.now()}` }); }',
      'idempotencyKey',
    ],
    [
      'a payload posted through a const',
      "function f() { const payload = { idempotencyKey: crypto.randomUUID() }; return http.post('/v1/wallets', payload); }",
      'idempotencyKey',
    ],
    [
      'a BullMQ jobId',
      "async function f(queue) { await queue.add('x', {}, { jobId: String(Math.random()) }); }",
      'jobId',
    ],
    [
      'an assignment on a local payload that is sent',
      'async function f(api) { const p = { amount: 1 }; p.idempotencyKey = crypto.randomUUID(); await api.pay(p); }',
      'idempotencyKey',
    ],
    [
      'an interceptor parameter',
      "http.interceptors.request.use((config) => { config.headers['Idempotency-Key'] = crypto.randomUUID(); return config; })",
      'Idempotency-Key',
    ],
    [
      'a Headers object that is sent',
      "async function f() { const h = new Headers({ 'Idempotency-Key': crypto.randomUUID() }); await fetch(url, { method: 'POST', headers: h }); }",
      'Idempotency-Key',
    ],
  ])('reports %s', (_name, code, name) => {
    expect(perAttemptKeys(code)).toEqual([name]);
  });

  it.each([
    [
      'a stable key',
      "async function f(job) { await fetch(url, { method: 'POST', headers: { 'Idempotency-Key': job.id } }); }",
    ],
    [
      'React state',
      "import { useState } from 'react'; function C() { const [k] = useState(() => crypto.randomUUID()); return () => api.pay({ idempotencyKey: k }); }",
    ],
    [
      'Vue reactive state',
      'const form = reactive({ idempotencyKey: crypto.randomUUID() }); function submit() { return api.pay({ idempotencyKey: form.idempotencyKey }); }',
    ],
    [
      'an axios instance default',
      "import axios from 'axios'; const http = axios.create({ headers: { 'Idempotency-Key': crypto.randomUUID() } });",
    ],
    ['a returned builder', "function headers() { return { 'Idempotency-Key': crypto.randomUUID() }; }"],
    [
      'BullMQ job data',
      "async function f(queue) { await queue.add('charge', { idempotencyKey: crypto.randomUUID() }); }",
    ],
    [
      'an SQS body',
      'async function f(sqs) { await sqs.sendMessage({ QueueUrl: q, MessageBody: JSON.stringify({ idempotencyKey: crypto.randomUUID() }) }); }',
    ],
    [
      'an SNS message',
      'async function f(sns) { await sns.publish({ TopicArn: t, Message: JSON.stringify({ idempotencyKey: crypto.randomUUID() }) }); }',
    ],
    [
      'a kafka message value',
      'async function f(producer) { await producer.send({ topic: t, messages: [{ value: JSON.stringify({ idempotencyKey: crypto.randomUUID() }) }] }); }',
    ],
    [
      'a row insert',
      'async function f(db) { await db.insert(payments).values({ idempotencyKey: crypto.randomUUID() }); }',
    ],
    [
      'a Prisma create',
      'async function f(prisma) { await prisma.payment.create({ data: { idempotencyKey: crypto.randomUUID() } }); }',
    ],
    ['an assignment on state', 'const state = {}; function reset() { state.idempotencyKey = crypto.randomUUID(); }'],
    [
      'an assignment on a local that is only returned',
      'function build() { const p = {}; p.idempotencyKey = crypto.randomUUID(); return p; }',
    ],
    [
      'a guarded assignment',
      "function f(config) { if (!config.headers?.['Idempotency-Key']) config.headers['Idempotency-Key'] = crypto.randomUUID(); return config; }",
    ],
    ['a test', "test('pays', async () => { await api.pay({ idempotencyKey: crypto.randomUUID() }); });"],
  ])('ignores %s', (_name, code) => {
    expect(perAttemptKeys(code)).toEqual([]);
  });
});

describe('perAttemptInKeyedBody', () => {
  it('finds a clock value in a keyed fetch body and points at it', () => {
    expect(
      keyedBodies(
        "async function f(job) { await fetch(url, { method: 'POST', headers: { 'Idempotency-Key': job.id }, body: JSON.stringify({ at: Date.now() }) }); }",
      ),
    ).toEqual(['Date.now() at Date.now()']);
  });

  it('points at the body when the value comes from elsewhere', () => {
    expect(
      keyedBodies(
        "function outer() { const at = Date.now(); return async (job) => { await fetch(url, { method: 'POST', headers: { 'Idempotency-Key': job.id }, body: JSON.stringify({ at }) }); }; }",
      ),
    ).toEqual(['Date.now() at at']);
    expect(
      keyedBodies(
        "const stamp = () => Date.now(); async function f(job) { await fetch(url, { method: 'POST', headers: { 'Idempotency-Key': job.id }, body: JSON.stringify({ at: stamp() }) }); }",
      ),
    ).toEqual(['stamp() at stamp()']);
  });

  it('finds params beside an SDK key, and a key nested under data', () => {
    expect(
      keyedBodies(
        'async function f(stripe, job) { await stripe.charges.create({ description: `at ${new Date()}` }, { idempotencyKey: job.id }); }',
      ),
    ).toEqual(['new Date() at `at ${new Date()}`']);
    expect(
      keyedBodies(
        'async function f(api, job) { await api.createTransaction({ note: String(Date.now()), data: { idempotencyKey: job.id } }); }',
      ),
    ).toEqual(['Date.now() at String(Date.now())']);
  });

  it.each([
    [
      'no key',
      "async function f() { await fetch(url, { method: 'POST', body: JSON.stringify({ at: Date.now() }) }); }",
    ],
    [
      'no body',
      "async function f(job) { await fetch(url, { method: 'POST', headers: { 'Idempotency-Key': job.id } }); }",
    ],
    [
      'a per-attempt key',
      "async function f() { await fetch(url, { method: 'POST', headers: { 'Idempotency-Key': crypto.randomUUID() }, body: JSON.stringify({ at: Date.now() }) }); }",
    ],
    [
      'a stable body',
      "async function f(job) { await fetch(url, { method: 'POST', headers: { 'Idempotency-Key': job.id }, body: JSON.stringify({ at: job.timestamp }) }); }",
    ],
    [
      'a key stored in job data',
      "async function f(queue, job) { await queue.add('x', { idempotencyKey: job.id, at: Date.now() }); }",
    ],
    [
      'a spread of a parameter',
      "async function f(job, extra) { await fetch(url, { method: 'POST', headers: { 'Idempotency-Key': job.id }, body: JSON.stringify({ ...extra }) }); }",
    ],
  ])('ignores %s', (_name, code) => {
    expect(keyedBodies(code)).toEqual([]);
  });
});

describe('test files', () => {
  it('leaves keys in test files alone: the rule gets no listeners there (src/model/roles.ts)', () => {
    const code =
      "async function f() { await fetch(url, { method: 'POST', headers: { 'Idempotency-Key': crypto.randomUUID() } }); }";
    const config = [
      {
        files: ['**/*.ts'],
        languageOptions: { parser, sourceType: 'module' as const },
        plugins: { idempotency: { rules: { 'no-per-attempt-key': noPerAttemptKey as never } } },
        rules: { 'idempotency/no-per-attempt-key': 'error' as const },
      },
    ];
    const linter = new Linter({ configType: 'flat', cwd: '/p' });
    const found = ['src/pay.test.ts', 'src/__tests__/pay.ts', 'src/pay.spec.ts', 'src/pay.ts'].filter(
      (filename) => linter.verify(code, config, `/p/${filename}`).length > 0,
    );
    expect(found).toEqual(['src/pay.ts']);
  });

  it('leaves keys minted inside a test callback alone in any file', () => {
    const code =
      "it('pays', async () => { await fetch(url, { method: 'POST', headers: { 'Idempotency-Key': crypto.randomUUID() } }); });";
    const found: string[] = [];
    lintSnippet(code, (context) => ({
      Property(node: TSESTree.Property) {
        for (const sink of keySinksAt(node, context)) if (perAttemptKeyAt(sink, context)) found.push(sink.name);
      },
    }));
    expect(found).toEqual([]);
  });
});
