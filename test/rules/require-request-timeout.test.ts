import * as tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';

import plugin from '../../src/index.js';
import rule from '../../rules/require-request-timeout.js';
import { syntaxRuleTester, typedRuleTester } from '../rule-tester.js';

const SERVER =
  'a hung call holds the request until its caller gives up and retries it while the first attempt may still complete';
const CONSUMER =
  'a hung call holds the job past its visibility timeout or lock and the broker hands a copy to another worker';
const WEBHOOK =
  "a hung call outlasts the sender's wait and the sender retries the webhook while the first attempt may still complete";

const CHARGE_ONCE = `
async function chargeOnce(job) {
  const res = await fetch('https://api.example-payments.test/v1/charges', {
    method: 'POST',
    headers: {
      authorization: \`Bearer \${process.env.PAYMENTS_API_KEY}\`,
      'content-type': 'application/json',
      'Idempotency-Key': job.id, // check your provider's exact header name
    },
    body: JSON.stringify({ amount: job.data.amount, currency: 'gbp' }),
    signal: AbortSignal.timeout(10_000), // never hang a worker on a dead API
  });
  if (!res.ok) throw new Error(\`charge failed: \${res.status}\`); // let it retry
  return res.json();
}
`;

syntaxRuleTester().run('require-request-timeout', rule, {
  valid: [
    // The seed document's chargeOnce: a key and a timeout.
    CHARGE_ONCE,
    // Requests only development makes: a branch taken outside production, or after production's early exit.
    "export async function bridgeUrl() {\n  if (process.env.NODE_ENV === 'development') {\n    const response = await fetch('http://localhost:2022/.well-known/novu');\n    return (await response.json()).tunnelOrigin;\n  }\n}",
    "export async function proxy(request) {\n  if (IS_PRODUCTION) {\n    return new Response(null, { status: 404 });\n  }\n  return await fetch(hubUrl(request), { cache: 'no-store' });\n}",
    "export const warm = () => (process.env.NODE_ENV !== 'production' ? fetch('https://dev.example.com/warm') : undefined);",
    "if (isDev) { app.use(async (req, res, next) => { await fetch('https://dev.example.com/log', { method: 'POST' }); next(); }); }",
    'fetch(url, { signal: AbortSignal.timeout(5000) });',
    "fetch(url, { method: 'POST', body, signal: AbortSignal.any([AbortSignal.timeout(5000), shutdown]) });",
    'const controller = new AbortController(); setTimeout(() => controller.abort(), 5000); await fetch(url, { signal: controller.signal });',
    'async function f(signal) { await fetch(url, { signal }); }',
    'const init = { signal: AbortSignal.timeout(1000) }; fetch(url, init);',
    // Options we cannot see: a parameter, a spread, a Request object, a spread argument.
    'async function f(init) { await fetch(url, init); }',
    // Options passed by the callers of a local helper: quiet when one caller bounds them,
    // when the helper is exported, or when it changes the options itself.
    "async function send(url, init) { return fetch(url, init); } send(a, { method: 'POST', signal }); send(b, { method: 'POST' });",
    "export async function send(url, init) { return fetch(url, init); } send(a, { method: 'POST' });",
    "async function send(url, init) { init.signal = AbortSignal.timeout(5000); return fetch(url, init); } send(a, { method: 'POST' });",
    'async function send(url, init) { return fetch(url, init); } send(a, shared); run(send);',
    'fetch(url, { ...defaults, method: "POST" });',
    'fetch(new Request(url, { signal: AbortSignal.timeout(10) }));',
    'fetch(...args);',
    // A zero-argument thunk named like an injected fetch is no request.
    'async function load({ fetchFn }) { return fetchFn(); }',
    // A parameter named fetch whose declared type is not the Fetch API's: a cache's loader, an injected service.
    'export function cached(key: string, fetch: (k: string) => Promise<number>) { return fetch(key); }',
    'export async function resolveEmbed(url: string, fetch: OembedFetcher) { return fetch(url); }',
    // A custom dispatcher or node-fetch's own timeout may bound it.
    'fetch(url, { dispatcher: agent });',
    // An undici Agent or a node Agent with timeouts of its own bounds it.
    "import { Agent } from 'undici'; fetch(url, { dispatcher: new Agent({ headersTimeout: 10_000, bodyTimeout: 10_000 }) });",
    "import https from 'node:https'; const agent = new https.Agent({ timeout: 5000 }); fetch(url, { agent });",
    "import fetch from 'node-fetch'; fetch(url, { timeout: 5000 });",
    // Browser-only: a relative URL (Node's fetch rejects it) or window.fetch.
    "await fetch('/api/gallery/like', { method: 'POST', body });",
    'await fetch(`/api/report/${id}/visibility`);',
    "window.fetch('https://api.example.test/x');",
    // A local function that happens to be called fetch.
    'function fetch(id) { return db.get(id); } fetch(1);',
    // Injected under another name, or built by a factory: not known to be fetch.
    'async function load({ http }) { await http(url); }',
    'const fetch = makeFetch({ timeout: 5000 }); fetch(url);',
    'class Store { fetch() {} run() { this.fetch(url); } }',
    // Not an HTTP client.
    'http.get(url);',
    'this.http.get(url);',
    "import { get } from './api'; get(url);",
    // axios: a timeout, a signal, an instance or file-wide default that carries one.
    "import axios from 'axios'; axios.get(url, { timeout: 5000 });",
    "import axios from 'axios'; axios.post(url, data, { timeout: config.timeout });",
    "import axios from 'axios'; axios.post(url, data, { signal: AbortSignal.timeout(5000) });",
    "import axios from 'axios'; axios({ url, method: 'post', timeout: 2000 });",
    "import axios from 'axios'; const api = axios.create({ baseURL, timeout: 5000 }); api.get('/x');",
    "import axios from 'axios'; const api = axios.create({ baseURL }); api.defaults.timeout = 5000; api.get('/x');",
    "import axios from 'axios'; axios.defaults.timeout = 8000; axios.get(url);",
    "import axios from 'axios'; const api = axios.create(); api.interceptors.request.use((config) => { config.timeout = 5000; return config; }); api.get('/x');",
    "import axios from 'axios'; const api = axios.create(sharedConfig); api.get('/x');",
    "import axios from 'axios'; axios.get(url, options);",
    // ky bounds every request at 10 s by default.
    "import ky from 'ky'; ky.get(url);",
    "import ky from 'ky'; ky.post(url, { json: body });",
    "import ky from 'ky'; const api = ky.create({ prefixUrl }); api.get('x');",
    // got with a timeout, undici with its own timeouts.
    "import got from 'got'; got.post(url, { json, timeout: { request: 10000 } });",
    "import got from 'got'; const client = got.extend({ timeout: { request: 5000 } }); client.get(url);",
    "import { request } from 'undici'; request(url, { headersTimeout: 5000, bodyTimeout: 5000 });",
    "import request from 'request'; request({ url, timeout: 5000 }, cb);",
    // Wrappers the user says are bounded.
    { code: 'fetchJson(url);', options: [{ additionalClients: ['fetchJson'], boundedClients: ['fetchJson'] }] },
    {
      code: "import axios from 'axios'; const api = axios.create(); api.get('/x');",
      options: [{ boundedClients: ['api'] }],
    },
    {
      code: "import { api } from './http'; api.get('/x');",
      settings: { idempotency: { boundedClients: [{ from: './http', name: 'api' }] } },
    },
    // An instance from another module: unknown without the fact; with it, a call's own timeout bounds it.
    "import { createApiClient } from './http'; const api = await createApiClient(); await api.post('/x', {});",
    {
      code: "import { createApiClient } from './http'; const api = await createApiClient(); await api.post('/x', {}, { timeout: 5000 });",
      settings: { idempotency: { timeoutlessClientFactories: [{ from: './http', name: 'createApiClient' }] } },
    },
    // `axios(config)` with a config the code does not show (reassigned, spread from the caller's).
    "import axios from 'axios'; export async function send(config) { let next = { ...config }; next = { ...next, maxRedirects: 0 }; return axios(next); }",
    // Not a network request: a bundled asset, a data URL, a relative URL in one branch (a page resolves it).
    "const font = await fetch(new URL('./Inter-Bold.ttf', import.meta.url)).then((res) => res.arrayBuffer());",
    "await fetch('data:application/json,{}');",
    'const css = prod ? `/preview/${hash}.css` : manifest.path; await fetch(css);',
    // Instances held in class fields, with a timeout, configured later, or injected.
    "import axios from 'axios'; class Api { private http = axios.create({ baseURL, timeout: 5000 }); send() { return this.http.post('/x', {}); } }",
    "import axios from 'axios'; class Api { constructor() { this.http = axios.create({ baseURL }); this.http.defaults.timeout = 5000; } send() { return this.http.post('/x', {}); } }",
    "import axios from 'axios'; class Api { constructor(private http) {} send() { return this.http.post('/x', {}); } }",
    "import axios from 'axios'; class Api { http = axios.create({ baseURL }); swap(other) { this.http = other; } send() { return this.http.post('/x', {}); } }",
    // node's http/https and follow-redirects: a timeout option, a signal, req.setTimeout, a 'timeout' listener, an Agent's timeout.
    "import https from 'node:https'; https.get(url, { timeout: 5000 }, (res) => res.resume());",
    "import https from 'node:https'; https.get(url, { signal: AbortSignal.timeout(5000) }, onResponse);",
    "import { request } from 'node:https'; const req = request(url, { method: 'POST' }, onResponse); req.setTimeout(5000, () => req.destroy()); req.end(body);",
    "import { https } from 'follow-redirects'; https.get(url, onResponse).on('timeout', onTimeout);",
    "import http from 'http'; http.get(url, { agent: new http.Agent({ timeout: 5000 }) }, onResponse);",
    // The request object leaves the function: its caller may bound it.
    "import https from 'node:https'; export function open(url, cb) { return https.get(url, cb); }",
    // superagent: `.timeout(ms)` on the chain, through the request's `const`, or an agent's default.
    "import superagent from 'superagent'; export async function f(url: string) { await superagent.post(url).send({ a: 1 }).timeout(5000); }",
    "import superagent from 'superagent'; export async function f(url: string) { const req = superagent.get(url); req.timeout({ response: 5000, deadline: 20000 }); return await req; }",
    "import superagent from 'superagent'; const agent = superagent.agent().set('x-app', 'a').timeout(5000); export const f = (url: string) => agent.get(url).then((res) => res.body);",
    // A superagent request handed elsewhere, where the receiver may bound it.
    "import superagent from 'superagent'; export function f(url: string) { return superagent.get(url); }",
    // needle: a response or read timeout, or a signal; `needle.defaults` with one.
    "import needle from 'needle'; export const f = (url: string) => needle('post', url, { a: 1 }, { json: true, response_timeout: 5000 });",
    "import needle from 'needle'; export const f = (url: string) => needle.get(url, { read_timeout: 5000 }, () => {});",
    "import needle from 'needle'; needle.defaults({ response_timeout: 5000 }); export const f = (url: string) => needle.post(url, {}, { json: true });",
    // ofetch: its `timeout` option, on the call or on the instance.
    "import { ofetch } from 'ofetch'; export const f = (url: string) => ofetch(url, { method: 'POST', timeout: 5000 });",
    "import { ofetch } from 'ofetch'; const api = ofetch.create({ baseURL: 'https://x.test', timeout: 5000 }); export const f = () => api('/x', { method: 'POST' });",
    "import { $fetch } from 'ofetch'; export const f = (url: string) => $fetch.raw(url, { signal: AbortSignal.timeout(5000) });",
    // An ofetch instance with an onRequest hook may set a signal there.
    "import { ofetch } from 'ofetch'; const api = ofetch.create({ onRequest: addTimeout }); export const f = () => api('/x');",
    // graphql-request: a signal on the call's object form or on the client.
    "import { request } from 'graphql-request'; export const f = (doc: string) => request({ url: 'https://x.test/graphql', document: doc, signal: AbortSignal.timeout(5000) });",
    "import { GraphQLClient } from 'graphql-request'; const client = new GraphQLClient('https://x.test/graphql', { signal: AbortSignal.timeout(5000) }); export const f = (doc: string) => client.request(doc);",
    // A client with a fetch of its own, which may bound every request.
    "import { GraphQLClient } from 'graphql-request'; const client = new GraphQLClient('https://x.test/graphql', { fetch: fetchWithTimeout }); export const f = (doc: string) => client.request(doc);",
  ],
  invalid: [
    ...[
      // Production runs these: the production branch, the else of a development test, after a development exit, a check that says nothing of production.
      "export async function f() {\n  if (process.env.NODE_ENV === 'production') {\n    await fetch('https://api.example.com/a');\n  }\n}",
      "export async function f() {\n  if (IS_DEV) {\n    return;\n  }\n  await fetch('https://api.example.com/a');\n}",
      "export async function f() {\n  if (process.env.NODE_ENV !== 'test') {\n    await fetch('https://api.example.com/a');\n  }\n}",
      "function report() { return fetch('https://api.example.com/a'); }\nif (isDev) { console.log('dev'); }\nexport const run = () => report();",
    ].map((code) => ({
      code,
      errors: [
        {
          messageId: 'unbounded' as const,
          suggestions: [
            {
              messageId: 'addTimeout' as const,
              output: code.replace(
                "fetch('https://api.example.com/a')",
                "fetch('https://api.example.com/a', { signal: AbortSignal.timeout(10000) })",
              ),
            },
          ],
        },
      ],
      output: null,
    })),
    {
      // The message fits where the request runs: a consumer, a webhook, other server code.
      code: "import { Worker } from 'bullmq';\nnew Worker('q', async (job) => { await fetch('https://x.test/a', { method: 'POST' }); });",
      errors: [
        {
          messageId: 'unbounded',
          data: { client: 'fetch', why: CONSUMER },
          line: 2,
          column: 40,
          suggestions: [
            {
              messageId: 'addTimeout',
              output:
                "import { Worker } from 'bullmq';\nnew Worker('q', async (job) => { await fetch('https://x.test/a', { method: 'POST', signal: AbortSignal.timeout(10000) }); });",
            },
          ],
        },
      ],
      output: null,
    },
    {
      code: "import express from 'express';\nconst app = express();\napp.post('/webhooks/stripe', async (req, res) => {\n  await fetch('https://x.test/a', { method: 'POST' });\n  res.sendStatus(200);\n});",
      errors: [
        {
          messageId: 'unbounded',
          data: { client: 'fetch', why: WEBHOOK },
          line: 4,
          column: 9,
          suggestions: [
            {
              messageId: 'addTimeout',
              output:
                "import express from 'express';\nconst app = express();\napp.post('/webhooks/stripe', async (req, res) => {\n  await fetch('https://x.test/a', { method: 'POST', signal: AbortSignal.timeout(10000) });\n  res.sendStatus(200);\n});",
            },
          ],
        },
      ],
      output: null,
    },
    {
      // superagent: no `.timeout()` on an awaited chain; the suggestion adds it right after the verb.
      code: "import superagent from 'superagent';\nexport async function f(url: string) {\n  await superagent.post(url).send({ a: 1 });\n}",
      errors: [
        {
          messageId: 'unbounded',
          data: { client: 'superagent', why: SERVER },
          line: 3,
          column: 9,
          suggestions: [
            {
              messageId: 'addTimeout',
              output:
                "import superagent from 'superagent';\nexport async function f(url: string) {\n  await superagent.post(url).timeout(10000).send({ a: 1 });\n}",
            },
          ],
        },
      ],
      output: null,
    },
    {
      // An agent without a timeout default, and a request returned from an async function (it is sent there).
      code: "const superagent = require('superagent');\nconst agent = superagent.agent().set('x-app', 'a');\nexport async function f(url) { return agent.get(url); }",
      errors: [
        {
          messageId: 'unbounded',
          line: 3,
          column: 39,
          suggestions: [
            {
              messageId: 'addTimeout',
              output:
                "const superagent = require('superagent');\nconst agent = superagent.agent().set('x-app', 'a');\nexport async function f(url) { return agent.get(url).timeout(10000); }",
            },
          ],
        },
      ],
      output: null,
    },
    {
      // needle: `timeout` is its open_timeout, which stops bounding once the socket connects.
      code: "import needle from 'needle';\nexport const f = (url: string) => needle.post(url, { a: 1 }, { json: true, timeout: 5000 });",
      errors: [
        {
          messageId: 'unbounded',
          data: { client: 'needle', why: SERVER },
          line: 2,
          column: 35,
          suggestions: [
            {
              messageId: 'addTimeout',
              output:
                "import needle from 'needle';\nexport const f = (url: string) => needle.post(url, { a: 1 }, { json: true, timeout: 5000, response_timeout: 10000, read_timeout: 10000 });",
            },
          ],
        },
      ],
      output: null,
    },
    {
      code: "import needle from 'needle';\nexport const f = (url: string) => needle('put', url, { a: 1 });",
      errors: [
        {
          messageId: 'unbounded',
          line: 2,
          column: 35,
          suggestions: [
            {
              messageId: 'addTimeout',
              output:
                "import needle from 'needle';\nexport const f = (url: string) => needle('put', url, { a: 1 }, { response_timeout: 10000, read_timeout: 10000 });",
            },
          ],
        },
      ],
      output: null,
    },
    {
      // needle's callback where the options go: no place the suggestion could be sure of.
      code: "import needle from 'needle';\nexport const f = (url: string) => needle.get(url, (err, res) => res);",
      errors: [{ messageId: 'unbounded', line: 2, column: 35, suggestions: null }],
      output: null,
    },
    {
      code: "import needle from 'needle';\nexport const f = (url: string) => needle.get(url, { response_timeout: 0 });",
      errors: [
        {
          messageId: 'disabledTimeout',
          data: { text: 'response_timeout: 0', why: SERVER },
          line: 2,
          column: 53,
          suggestions: [
            {
              messageId: 'addTimeout',
              output:
                "import needle from 'needle';\nexport const f = (url: string) => needle.get(url, { response_timeout: 10000 });",
            },
          ],
        },
      ],
      output: null,
    },
    {
      // ofetch and Nuxt's global `$fetch`: no timeout by default.
      code: "import { ofetch } from 'ofetch';\nexport const f = (url: string) => ofetch(url, { method: 'POST', body: {} });",
      errors: [
        {
          messageId: 'unbounded',
          data: { client: 'ofetch', why: SERVER },
          line: 2,
          column: 35,
          suggestions: [
            {
              messageId: 'addTimeout',
              output:
                "import { ofetch } from 'ofetch';\nexport const f = (url: string) => ofetch(url, { method: 'POST', body: {}, timeout: 10000 });",
            },
          ],
        },
      ],
      output: null,
    },
    {
      code: "export default defineEventHandler(async () => {\n  return await $fetch('https://api.x.test/orders', { method: 'POST' });\n});",
      errors: [
        {
          messageId: 'unbounded',
          line: 2,
          column: 16,
          suggestions: [
            {
              messageId: 'addTimeout',
              output:
                "export default defineEventHandler(async () => {\n  return await $fetch('https://api.x.test/orders', { method: 'POST', timeout: 10000 });\n});",
            },
          ],
        },
      ],
      output: null,
    },
    {
      code: "import { ofetch } from 'ofetch';\nconst api = ofetch.create({ baseURL: 'https://x.test' });\nexport const f = () => api.raw('/x');",
      errors: [
        {
          messageId: 'unbounded',
          line: 3,
          column: 24,
          suggestions: [
            {
              messageId: 'addTimeout',
              output:
                "import { ofetch } from 'ofetch';\nconst api = ofetch.create({ baseURL: 'https://x.test' });\nexport const f = () => api.raw('/x', { timeout: 10000 });",
            },
          ],
        },
      ],
      output: null,
    },
    {
      // graphql-request: the positional form has no place for a signal, so there is no suggestion.
      code: "import { request } from 'graphql-request';\nexport const f = (doc: string) => request('https://x.test/graphql', doc, { id: 1 });",
      errors: [
        {
          messageId: 'unbounded',
          data: { client: 'graphql-request', why: SERVER },
          line: 2,
          column: 35,
          suggestions: null,
        },
      ],
      output: null,
    },
    {
      code: "import { GraphQLClient } from 'graphql-request';\nexport class Api {\n  private client = new GraphQLClient('https://x.test/graphql', { headers: {} });\n  load(doc: string) { return this.client.request({ document: doc }); }\n}",
      errors: [
        {
          messageId: 'unbounded',
          line: 4,
          column: 30,
          suggestions: [
            {
              messageId: 'addTimeout',
              output:
                "import { GraphQLClient } from 'graphql-request';\nexport class Api {\n  private client = new GraphQLClient('https://x.test/graphql', { headers: {} });\n  load(doc: string) { return this.client.request({ document: doc, signal: AbortSignal.timeout(10000) }); }\n}",
            },
          ],
        },
      ],
      output: null,
    },
    {
      // Created and used in one expression.
      code: "import axios from 'axios';\naxios.create({ baseURL }).post('/x', {});",
      errors: [
        {
          messageId: 'unbounded',
          line: 2,
          column: 1,
          suggestions: [
            {
              messageId: 'addTimeout',
              output:
                "import axios from 'axios';\naxios.create({ baseURL }).post('/x', {}, { signal: AbortSignal.timeout(10000) });",
            },
          ],
        },
      ],
      output: null,
    },
    {
      // A config declared first and written once before the call.
      code: "import axios from 'axios';\nlet config;\nconfig = { method: 'get', url };\naxios(config);",
      errors: [{ messageId: 'unbounded', line: 4, column: 1, suggestions: null }],
      output: null,
    },
    {
      // An instance in a class field, used through `this`.
      code: "import axios from 'axios';\nclass Api {\n  private http = axios.create({ baseURL });\n  send() { return this.http.post('/x', {}); }\n}",
      errors: [
        {
          messageId: 'unbounded',
          line: 4,
          column: 19,
          suggestions: [
            {
              messageId: 'addTimeout',
              output:
                "import axios from 'axios';\nclass Api {\n  private http = axios.create({ baseURL });\n  send() { return this.http.post('/x', {}, { signal: AbortSignal.timeout(10000) }); }\n}",
            },
          ],
        },
      ],
      output: null,
    },
    {
      // Assigned in the constructor.
      code: "import got from 'got';\nclass Api {\n  constructor() { this.client = got.extend({ prefixUrl }); }\n  list() { return this.client.get('orders'); }\n}",
      errors: [
        {
          messageId: 'unbounded',
          line: 4,
          column: 19,
          suggestions: [
            {
              messageId: 'addTimeout',
              output:
                "import got from 'got';\nclass Api {\n  constructor() { this.client = got.extend({ prefixUrl }); }\n  list() { return this.client.get('orders', { timeout: { request: 10000 } }); }\n}",
            },
          ],
        },
      ],
      output: null,
    },
    {
      // node's https with a callback where the options go: reported, no suggestion (the options argument is the caller's to write).
      code: "import https from 'node:https';\nhttps.get(url, (res) => res.resume());",
      errors: [{ messageId: 'unbounded', line: 2, column: 1, data: { client: 'http', why: SERVER } }],
      output: null,
    },
    {
      code: "import http from 'node:http';\nhttp.request({ hostname, path, method: 'POST' }).end(body);",
      errors: [
        {
          messageId: 'unbounded',
          line: 2,
          column: 1,
          suggestions: [
            {
              messageId: 'addTimeout',
              output:
                "import http from 'node:http';\nhttp.request({ hostname, path, method: 'POST', signal: AbortSignal.timeout(10000) }).end(body);",
            },
          ],
        },
      ],
      output: null,
    },
    {
      code: "import { https } from 'follow-redirects';\nhttps.get(url);",
      errors: [
        {
          messageId: 'unbounded',
          line: 2,
          column: 1,
          suggestions: [
            {
              messageId: 'addTimeout',
              output:
                "import { https } from 'follow-redirects';\nhttps.get(url, { signal: AbortSignal.timeout(10000) });",
            },
          ],
        },
      ],
      output: null,
    },
    {
      code: "import https from 'https';\nhttps.get(url, { timeout: 0 }, onResponse);",
      errors: [
        {
          messageId: 'disabledTimeout',
          line: 2,
          column: 18,
          suggestions: [
            {
              messageId: 'addTimeout',
              output: "import https from 'https';\nhttps.get(url, { timeout: 10000 }, onResponse);",
            },
          ],
        },
      ],
      output: null,
    },
    {
      // `agent: undefined` bounds nothing.
      code: 'fetch(url, { agent: undefined });',
      errors: [
        {
          messageId: 'unbounded',
          line: 1,
          column: 1,
          suggestions: [
            {
              messageId: 'addTimeout',
              output: 'fetch(url, { agent: undefined, signal: AbortSignal.timeout(10000) });',
            },
          ],
        },
      ],
      output: null,
    },
    {
      // A dispatcher without timeouts keeps undici's 300 s defaults: no bound a queue lock outlives.
      code: "import { Agent } from 'undici';\nconst guarded = new Agent({ connect: { lookup } });\nfetch(url, { dispatcher: guarded });",
      errors: [
        {
          messageId: 'unbounded',
          line: 3,
          column: 1,
          suggestions: [
            {
              messageId: 'addTimeout',
              output:
                "import { Agent } from 'undici';\nconst guarded = new Agent({ connect: { lookup } });\nfetch(url, { dispatcher: guarded, signal: AbortSignal.timeout(10000) });",
            },
          ],
        },
      ],
      output: null,
    },
    {
      // The helper's module builds the instance with no timeout (settings computed by idempotency-check).
      code: "import { createApiClient } from './http';\nconst api = await createApiClient();\nawait api.post('/x', {});",
      settings: { idempotency: { timeoutlessClientFactories: [{ from: './http', name: 'createApiClient' }] } },
      errors: [
        {
          messageId: 'unbounded',
          line: 3,
          column: 7,
          suggestions: [
            {
              messageId: 'addTimeout',
              output:
                "import { createApiClient } from './http';\nconst api = await createApiClient();\nawait api.post('/x', {}, { signal: AbortSignal.timeout(10000) });",
            },
          ],
        },
      ],
    },
    {
      code: "import { api } from './http';\nawait api.get('/x');",
      settings: { idempotency: { timeoutlessClients: [{ from: './http', name: 'api' }] } },
      errors: [
        {
          messageId: 'unbounded',
          line: 2,
          column: 7,
          suggestions: [
            {
              messageId: 'addTimeout',
              output: "import { api } from './http';\nawait api.get('/x', { signal: AbortSignal.timeout(10000) });",
            },
          ],
        },
      ],
    },
    {
      // The seed example without its timeout.
      code: "fetch('https://api.example.test/v1/charges', { method: 'POST', body });",
      errors: [
        {
          messageId: 'unbounded',
          line: 1,
          column: 1,
          suggestions: [
            {
              messageId: 'addTimeout',
              output:
                "fetch('https://api.example.test/v1/charges', { method: 'POST', body, signal: AbortSignal.timeout(10000) });",
            },
          ],
        },
      ],
      output: null,
    },
    {
      code: 'await fetch(url);',
      errors: [
        {
          messageId: 'unbounded',
          line: 1,
          column: 7,
          suggestions: [
            { messageId: 'addTimeout', output: 'await fetch(url, { signal: AbortSignal.timeout(10000) });' },
          ],
        },
      ],
      output: null,
    },
    {
      code: 'fetch(url, {});',
      errors: [
        {
          messageId: 'unbounded',
          line: 1,
          column: 1,
          suggestions: [{ messageId: 'addTimeout', output: 'fetch(url, { signal: AbortSignal.timeout(10000) });' }],
        },
      ],
      output: null,
    },
    {
      // A trailing comma in the arguments and in the options, multi-line.
      code: `
await fetch(
  url,
  {
    method: 'DELETE',
  },
);
`,
      errors: [
        {
          messageId: 'unbounded',
          line: 2,
          column: 7,
          suggestions: [
            {
              messageId: 'addTimeout',
              output: `
await fetch(
  url,
  {
    method: 'DELETE',
    signal: AbortSignal.timeout(10000),
  },
);
`,
            },
          ],
        },
      ],
      output: null,
    },
    {
      code: `
fetch(url, {
  method: 'PUT',
  body
})
`,
      errors: [
        {
          messageId: 'unbounded',
          line: 2,
          column: 1,
          suggestions: [
            {
              messageId: 'addTimeout',
              output: `
fetch(url, {
  method: 'PUT',
  body,
  signal: AbortSignal.timeout(10000)
})
`,
            },
          ],
        },
      ],
      output: null,
    },
    {
      code: 'fetch(url,);',
      errors: [
        {
          messageId: 'unbounded',
          line: 1,
          column: 1,
          suggestions: [{ messageId: 'addTimeout', output: 'fetch(url, { signal: AbortSignal.timeout(10000) });' }],
        },
      ],
      output: null,
    },
    {
      // With `fix: true` the timeout is an autofix, with the configured milliseconds.
      code: "fetch(url, { method: 'POST', });",
      options: [{ fix: true, timeoutMs: 5000 }],
      errors: [{ messageId: 'unbounded', line: 1, column: 1, suggestions: [] }],
      output: "fetch(url, { method: 'POST', signal: AbortSignal.timeout(5000), });",
    },
    {
      // Options held in a variable may be shared: reported, not fixed.
      code: "const init = { method: 'POST' }; fetch(url, init);",
      errors: [{ messageId: 'unbounded', line: 1, column: 34, suggestions: [] }],
      output: null,
    },
    {
      // `signal: undefined` bounds nothing; a second `signal` key would not compile.
      code: 'fetch(url, { signal: undefined });',
      errors: [{ messageId: 'unbounded', line: 1, column: 1, suggestions: [] }],
      output: null,
    },
    {
      // An absolute URL built from a base, or a protocol-relative one, may run on a server.
      code: "fetch(`${base}/api/x`); fetch('//cdn.example.test/x');",
      errors: [
        {
          messageId: 'unbounded',
          line: 1,
          column: 1,
          suggestions: [
            {
              messageId: 'addTimeout',
              output: "fetch(`${base}/api/x`, { signal: AbortSignal.timeout(10000) }); fetch('//cdn.example.test/x');",
            },
          ],
        },
        {
          messageId: 'unbounded',
          line: 1,
          column: 25,
          suggestions: [
            {
              messageId: 'addTimeout',
              output: "fetch(`${base}/api/x`); fetch('//cdn.example.test/x', { signal: AbortSignal.timeout(10000) });",
            },
          ],
        },
      ],
      output: null,
    },
    {
      code: 'globalThis.fetch(url);',
      errors: [
        {
          messageId: 'unbounded',
          line: 1,
          column: 1,
          suggestions: [
            { messageId: 'addTimeout', output: 'globalThis.fetch(url, { signal: AbortSignal.timeout(10000) });' },
          ],
        },
      ],
      output: null,
    },
    {
      code: "import { fetch } from 'undici'; fetch(url);",
      errors: [
        {
          messageId: 'unbounded',
          line: 1,
          column: 33,
          suggestions: [
            {
              messageId: 'addTimeout',
              output: "import { fetch } from 'undici'; fetch(url, { signal: AbortSignal.timeout(10000) });",
            },
          ],
        },
      ],
      output: null,
    },
    {
      code: "const nodeFetch = require('node-fetch'); nodeFetch(url);",
      errors: [
        {
          messageId: 'unbounded',
          line: 1,
          column: 42,
          suggestions: [
            {
              messageId: 'addTimeout',
              output:
                "const nodeFetch = require('node-fetch'); nodeFetch(url, { signal: AbortSignal.timeout(10000) });",
            },
          ],
        },
      ],
      output: null,
    },
    {
      // An injected fetch that defaults to the global one.
      code: 'async function gh({ fetchImpl = globalThis.fetch }) { return fetchImpl(url); }',
      errors: [
        {
          messageId: 'unbounded',
          line: 1,
          column: 62,
          suggestions: [
            {
              messageId: 'addTimeout',
              output:
                'async function gh({ fetchImpl = globalThis.fetch }) { return fetchImpl(url, { signal: AbortSignal.timeout(10000) }); }',
            },
          ],
        },
      ],
      output: null,
    },
    {
      // A parameter declared as the Fetch API.
      code: 'async function get(url: string, fetch: typeof globalThis.fetch | undefined) { return fetch!(url); }',
      errors: [
        {
          messageId: 'unbounded',
          line: 1,
          column: 86,
          suggestions: [
            {
              messageId: 'addTimeout',
              output:
                'async function get(url: string, fetch: typeof globalThis.fetch | undefined) { return fetch!(url, { signal: AbortSignal.timeout(10000) }); }',
            },
          ],
        },
      ],
      output: null,
    },
    {
      // SvelteKit's load({ fetch }) and other injected fetches by their usual names.
      code: 'export async function load({ fetch }) { await fetch(url); }',
      errors: [
        {
          messageId: 'unbounded',
          line: 1,
          column: 47,
          suggestions: [
            {
              messageId: 'addTimeout',
              output:
                'export async function load({ fetch }) { await fetch(url, { signal: AbortSignal.timeout(10000) }); }',
            },
          ],
        },
      ],
      output: null,
    },
    {
      code: "async function gh({ fetchImpl, url }) { return fetchImpl(url, { method: 'POST' }); }",
      errors: [
        {
          messageId: 'unbounded',
          line: 1,
          column: 48,
          suggestions: [
            {
              messageId: 'addTimeout',
              output:
                "async function gh({ fetchImpl, url }) { return fetchImpl(url, { method: 'POST', signal: AbortSignal.timeout(10000) }); }",
            },
          ],
        },
      ],
      output: null,
    },
    {
      // Every caller of a private helper passes options without a bound: reported, not fixed.
      code: "async function withRetry(url, options) { return fetch(url, options); } withRetry(a, { method: 'POST' }); const get = { method: 'GET' }; withRetry(b, get);",
      errors: [{ messageId: 'unbounded', line: 1, column: 49, suggestions: [] }],
      output: null,
    },
    {
      code: "import axios from 'axios'; await axios.post(url, payload);",
      errors: [
        {
          messageId: 'unbounded',
          line: 1,
          column: 34,
          suggestions: [
            {
              messageId: 'addTimeout',
              output:
                "import axios from 'axios'; await axios.post(url, payload, { signal: AbortSignal.timeout(10000) });",
            },
          ],
        },
      ],
      output: null,
    },
    {
      // axios.post(url): the config goes third, after an explicit undefined data.
      code: "import axios from 'axios'; axios.post(url);",
      errors: [
        {
          messageId: 'unbounded',
          line: 1,
          column: 28,
          suggestions: [
            {
              messageId: 'addTimeout',
              output: "import axios from 'axios'; axios.post(url, undefined, { signal: AbortSignal.timeout(10000) });",
            },
          ],
        },
      ],
      output: null,
    },
    {
      code: "import axios from 'axios'; axios.get(url, { timeout: 0 });",
      errors: [
        {
          messageId: 'disabledTimeout',
          line: 1,
          column: 45,
          suggestions: [
            { messageId: 'addTimeout', output: "import axios from 'axios'; axios.get(url, { timeout: 10000 });" },
          ],
        },
      ],
      output: null,
    },
    {
      code: "const axios = require('axios'); axios({ method: 'post', url, data, timeout: Infinity });",
      errors: [
        {
          messageId: 'disabledTimeout',
          line: 1,
          column: 68,
          suggestions: [
            {
              messageId: 'addTimeout',
              output: "const axios = require('axios'); axios({ method: 'post', url, data, timeout: 10000 });",
            },
          ],
        },
      ],
      output: null,
    },
    {
      // An instance created without a timeout.
      code: "import axios from 'axios'; const paypal = axios.create({ baseURL, validateStatus: () => true }); paypal.post('/v2/checkout/orders', order);",
      errors: [
        {
          messageId: 'unbounded',
          line: 1,
          column: 98,
          suggestions: [
            {
              messageId: 'addTimeout',
              output:
                "import axios from 'axios'; const paypal = axios.create({ baseURL, validateStatus: () => true }); paypal.post('/v2/checkout/orders', order, { signal: AbortSignal.timeout(10000) });",
            },
          ],
        },
      ],
      output: null,
    },
    {
      code: "import ky from 'ky'; ky.get(url, { timeout: false });",
      errors: [
        {
          messageId: 'disabledTimeout',
          line: 1,
          column: 36,
          suggestions: [{ messageId: 'addTimeout', output: "import ky from 'ky'; ky.get(url, { timeout: 10000 });" }],
        },
      ],
      output: null,
    },
    {
      code: "import got from 'got'; got.post(url, { json: body });",
      errors: [
        {
          messageId: 'unbounded',
          line: 1,
          column: 24,
          suggestions: [
            {
              messageId: 'addTimeout',
              output: "import got from 'got'; got.post(url, { json: body, timeout: { request: 10000 } });",
            },
          ],
        },
      ],
      output: null,
    },
    {
      code: "import { request } from 'undici'; await request(url, { method: 'POST', body });",
      errors: [
        {
          messageId: 'unbounded',
          line: 1,
          column: 41,
          suggestions: [
            {
              messageId: 'addTimeout',
              output:
                "import { request } from 'undici'; await request(url, { method: 'POST', body, signal: AbortSignal.timeout(10000) });",
            },
          ],
        },
      ],
      output: null,
    },
    {
      code: "const request = require('request'); request.post(url, { json: body }, cb);",
      errors: [
        {
          messageId: 'unbounded',
          line: 1,
          column: 37,
          suggestions: [
            {
              messageId: 'addTimeout',
              output: "const request = require('request'); request.post(url, { json: body, timeout: 10000 }, cb);",
            },
          ],
        },
      ],
      output: null,
    },
    {
      // A wrapper the user lists as fetch-compatible.
      code: "fetchWithRetry(url, { method: 'POST' });",
      options: [{ additionalClients: ['fetchWithRetry'] }],
      errors: [
        {
          messageId: 'unbounded',
          line: 1,
          column: 1,
          suggestions: [
            {
              messageId: 'addTimeout',
              output: "fetchWithRetry(url, { method: 'POST', signal: AbortSignal.timeout(10000) });",
            },
          ],
        },
      ],
      output: null,
    },
  ],
});

syntaxRuleTester().run('require-request-timeout (sdkClients)', rule, {
  valid: [
    // Off by default (recommended).
    "import Stripe from 'stripe';\nimport { Worker } from 'bullmq';\nconst stripe = new Stripe(key);\nnew Worker('q', async (job) => { await stripe.refunds.create({ charge: job.data.id }); });",
    {
      // A timeout on the client.
      code: "import Stripe from 'stripe';\nimport { Worker } from 'bullmq';\nconst stripe = new Stripe(key, { timeout: 10_000 });\nnew Worker('q', async (job) => { await stripe.refunds.create({ charge: job.data.id }); });",
      options: [{ sdkClients: true }],
    },
    {
      code: "import { SQSClient } from '@aws-sdk/client-sqs';\nimport { NodeHttpHandler } from '@smithy/node-http-handler';\nimport { Worker } from 'bullmq';\nconst sqs = new SQSClient({ requestHandler: new NodeHttpHandler({ requestTimeout: 5000 }) });\nnew Worker('q', async (job) => { await sqs.send(job.data.command); });",
      options: [{ sdkClients: true }],
    },
    {
      // Not used by delivery code in this file.
      code: "import OpenAI from 'openai';\nexport const openai = new OpenAI();",
      options: [{ sdkClients: true }],
    },
    {
      // A config built elsewhere.
      code: "import OpenAI from 'openai';\nimport { Worker } from 'bullmq';\nconst openai = new OpenAI(config);\nnew Worker('q', async (job) => { await openai.chat.completions.create(job.data); });",
      options: [{ sdkClients: true }],
    },
  ],
  invalid: [
    {
      code: "import Stripe from 'stripe';\nimport { Worker } from 'bullmq';\nconst stripe = new Stripe(key);\nnew Worker('q', async (job) => { await stripe.refunds.create({ charge: job.data.id }); });",
      options: [{ sdkClients: true }],
      errors: [
        {
          messageId: 'unboundedSdk',
          data: { client: 'Stripe', bound: '80 s', why: CONSUMER },
          line: 3,
          column: 20,
          suggestions: [
            {
              messageId: 'addTimeout',
              output:
                "import Stripe from 'stripe';\nimport { Worker } from 'bullmq';\nconst stripe = new Stripe(key, { timeout: 10000 });\nnew Worker('q', async (job) => { await stripe.refunds.create({ charge: job.data.id }); });",
            },
          ],
        },
      ],
      output: null,
    },
    {
      code: "import OpenAI from 'openai';\nimport { Worker } from 'bullmq';\nnew Worker('q', async (job) => {\n  const openai = new OpenAI();\n  await openai.chat.completions.create(job.data);\n});",
      options: [{ sdkClients: true }],
      errors: [
        {
          messageId: 'unboundedSdk',
          data: { client: 'OpenAI', bound: '10 minutes, retried twice', why: CONSUMER },
          line: 4,
          column: 22,
          suggestions: [
            {
              messageId: 'addTimeout',
              output:
                "import OpenAI from 'openai';\nimport { Worker } from 'bullmq';\nnew Worker('q', async (job) => {\n  const openai = new OpenAI({ timeout: 10000 });\n  await openai.chat.completions.create(job.data);\n});",
            },
          ],
        },
      ],
      output: null,
    },
    {
      // A class field a NestJS-style processor uses; the AWS SDK's timeout goes in a request handler: no suggestion.
      code: "import { SQSClient, SendMessageCommand } from '@aws-sdk/client-sqs';\nimport { Worker } from 'bullmq';\nclass Forwarder {\n  private sqs = new SQSClient({ region: 'eu-west-1' });\n  start() { new Worker('q', async (job) => { await this.sqs.send(new SendMessageCommand(job.data)); }); }\n}",
      options: [{ sdkClients: true }],
      errors: [
        {
          messageId: 'unboundedSdk',
          data: { client: 'AWS SDK', bound: 'no timeout', why: CONSUMER },
          line: 4,
          column: 21,
          suggestions: null,
        },
      ],
      output: null,
    },
  ],
});

typedRuleTester().run('require-request-timeout (typed)', rule, {
  valid: [
    CHARGE_ONCE,
    {
      // An instance handed in as a parameter: its timeout is not in this file.
      code: "import type { AxiosInstance } from 'axios'; export async function f(http: AxiosInstance) { await http.get('/x'); }",
    },
    {
      code: "import axios from 'axios'; const api = axios.create({ timeout: 5000 }); export const g = () => api.get('/x');",
    },
    {
      code: "import https from 'node:https';\nexport function f(url: string) {\n  const req = https.get(url, (res) => res.resume());\n  req.setTimeout(5000, () => req.destroy());\n}",
    },
    {
      code: "import { https } from 'follow-redirects';\nexport function f(url: string) {\n  https.get(url, { timeout: 5000 }, (res) => res.resume());\n}",
    },
    // Against each client's installed declarations (needle's and request's from DefinitelyTyped).
    "import ky from 'ky';\nexport const f = (url: string) => ky.post(url, { json: { a: 1 } });",
    "import { fetch as undiciFetch, request } from 'undici';\nexport async function f(url: string) {\n  await request(url, { method: 'POST', body: '{}', headersTimeout: 5000, bodyTimeout: 5000 });\n  await undiciFetch(url, { method: 'POST', signal: AbortSignal.timeout(5000) });\n}",
    "import legacy from 'request';\nexport const f = (url: string) => legacy.post({ url, json: {}, timeout: 5000 }, () => {});",
    "import got from 'got';\nexport const f = (url: string) => got.post(url, { json: {}, timeout: { request: 5000 } });",
    "import superagent from 'superagent';\nexport async function f(url: string) {\n  await superagent.post(url).send({ a: 1 }).timeout({ response: 5000, deadline: 10000 });\n}",
    "import needle from 'needle';\nexport const f = (url: string) => needle('post', url, {}, { json: true, response_timeout: 5000 });",
    "import { ofetch } from 'ofetch';\nconst api = ofetch.create({ baseURL: 'https://x.test', timeout: 5000 });\nexport const f = () => api('/x', { method: 'POST' });",
    "import { GraphQLClient } from 'graphql-request';\nconst client = new GraphQLClient('https://x.test/graphql');\nexport const f = (document: string) => client.request({ document, signal: AbortSignal.timeout(5000) });",
  ],
  invalid: [
    {
      code: "import got from 'got';\nexport const f = (url: string) => got.post(url, { json: {} });",
      errors: [
        {
          messageId: 'unbounded',
          line: 2,
          column: 35,
          suggestions: [
            {
              messageId: 'addTimeout',
              output:
                "import got from 'got';\nexport const f = (url: string) => got.post(url, { json: {}, timeout: { request: 10000 } });",
            },
          ],
        },
      ],
      output: null,
    },
    {
      code: "import superagent from 'superagent';\nexport async function f(url: string) {\n  const res = await superagent.post(url).set('x-app', 'a').send({ a: 1 });\n  return res.body;\n}",
      errors: [
        {
          messageId: 'unbounded',
          line: 3,
          column: 21,
          suggestions: [
            {
              messageId: 'addTimeout',
              output:
                "import superagent from 'superagent';\nexport async function f(url: string) {\n  const res = await superagent.post(url).timeout(10000).set('x-app', 'a').send({ a: 1 });\n  return res.body;\n}",
            },
          ],
        },
      ],
      output: null,
    },
    {
      code: "import needle from 'needle';\nexport const f = (url: string) => needle.post(url, {}, { json: true });",
      errors: [
        {
          messageId: 'unbounded',
          line: 2,
          column: 35,
          suggestions: [
            {
              messageId: 'addTimeout',
              output:
                "import needle from 'needle';\nexport const f = (url: string) => needle.post(url, {}, { json: true, response_timeout: 10000, read_timeout: 10000 });",
            },
          ],
        },
      ],
      output: null,
    },
    {
      code: "import { $fetch } from 'ofetch';\nexport const f = (url: string) => $fetch(url, { method: 'POST', body: { a: 1 } });",
      errors: [
        {
          messageId: 'unbounded',
          line: 2,
          column: 35,
          suggestions: [
            {
              messageId: 'addTimeout',
              output:
                "import { $fetch } from 'ofetch';\nexport const f = (url: string) => $fetch(url, { method: 'POST', body: { a: 1 }, timeout: 10000 });",
            },
          ],
        },
      ],
      output: null,
    },
    {
      code: "import { GraphQLClient } from 'graphql-request';\nconst client = new GraphQLClient('https://x.test/graphql', { headers: { authorization: 'x' } });\nexport const f = (document: string) => client.request(document, { id: 1 });",
      errors: [{ messageId: 'unbounded', line: 3, column: 40, suggestions: null }],
      output: null,
    },
    {
      code: "import ky from 'ky';\nexport const f = (url: string) => ky.post(url, { json: {}, timeout: false });",
      errors: [
        {
          messageId: 'disabledTimeout',
          line: 2,
          column: 60,
          suggestions: [
            {
              messageId: 'addTimeout',
              output:
                "import ky from 'ky';\nexport const f = (url: string) => ky.post(url, { json: {}, timeout: 10000 });",
            },
          ],
        },
      ],
      output: null,
    },
    {
      code: "import { request } from 'undici';\nexport const f = (url: string) => request(url, { method: 'POST', body: '{}' });",
      errors: [
        {
          messageId: 'unbounded',
          line: 2,
          column: 35,
          suggestions: [
            {
              messageId: 'addTimeout',
              output:
                "import { request } from 'undici';\nexport const f = (url: string) => request(url, { method: 'POST', body: '{}', signal: AbortSignal.timeout(10000) });",
            },
          ],
        },
      ],
      output: null,
    },
    {
      code: "import { fetch as undiciFetch } from 'undici';\nexport const f = (url: string) => undiciFetch(url, { method: 'POST' });",
      errors: [
        {
          messageId: 'unbounded',
          line: 2,
          column: 35,
          suggestions: [
            {
              messageId: 'addTimeout',
              output:
                "import { fetch as undiciFetch } from 'undici';\nexport const f = (url: string) => undiciFetch(url, { method: 'POST', signal: AbortSignal.timeout(10000) });",
            },
          ],
        },
      ],
      output: null,
    },
    {
      code: "import legacy from 'request';\nexport const f = (url: string) => legacy.post({ url, json: {} }, () => {});",
      errors: [
        {
          messageId: 'unbounded',
          line: 2,
          column: 35,
          suggestions: [
            {
              messageId: 'addTimeout',
              output:
                "import legacy from 'request';\nexport const f = (url: string) => legacy.post({ url, json: {}, timeout: 10000 }, () => {});",
            },
          ],
        },
      ],
      output: null,
    },
    {
      code: "import needle from 'needle';\nexport const f = (url: string) => needle('post', url, {}, { json: true, open_timeout: 5000 });",
      errors: [
        {
          messageId: 'unbounded',
          line: 2,
          column: 35,
          suggestions: [
            {
              messageId: 'addTimeout',
              output:
                "import needle from 'needle';\nexport const f = (url: string) => needle('post', url, {}, { json: true, open_timeout: 5000, response_timeout: 10000, read_timeout: 10000 });",
            },
          ],
        },
      ],
      output: null,
    },
    {
      // Against the real declarations: an axios instance in a class field, node's https, follow-redirects.
      code: "import axios from 'axios';\nexport class Api {\n  private http = axios.create({ baseURL: 'https://x.test' });\n  send() { return this.http.post('/x', {}); }\n}",
      errors: [
        {
          messageId: 'unbounded',
          line: 4,
          column: 19,
          suggestions: [
            {
              messageId: 'addTimeout',
              output:
                "import axios from 'axios';\nexport class Api {\n  private http = axios.create({ baseURL: 'https://x.test' });\n  send() { return this.http.post('/x', {}, { signal: AbortSignal.timeout(10000) }); }\n}",
            },
          ],
        },
      ],
      output: null,
    },
    {
      code: "import https from 'node:https';\nexport function f(url: string) {\n  https.request(url, { method: 'POST' }).end('x');\n}",
      errors: [
        {
          messageId: 'unbounded',
          line: 3,
          column: 3,
          suggestions: [
            {
              messageId: 'addTimeout',
              output:
                "import https from 'node:https';\nexport function f(url: string) {\n  https.request(url, { method: 'POST', signal: AbortSignal.timeout(10000) }).end('x');\n}",
            },
          ],
        },
      ],
      output: null,
    },
    {
      code: "import { http } from 'follow-redirects';\nexport function f(url: string) {\n  http.get(url, (res) => res.resume());\n}",
      errors: [{ messageId: 'unbounded', line: 3, column: 3, suggestions: null }],
      output: null,
    },
    {
      code: "import axios from 'axios'; export async function f() { await axios.get('/x'); }",
      errors: [
        {
          messageId: 'unbounded',
          line: 1,
          column: 62,
          suggestions: [
            {
              messageId: 'addTimeout',
              output:
                "import axios from 'axios'; export async function f() { await axios.get('/x', { signal: AbortSignal.timeout(10000) }); }",
            },
          ],
        },
      ],
      output: null,
    },
  ],
});

typedRuleTester().run('require-request-timeout (fetch and SDK clients, typed)', rule, {
  valid: [
    {
      // Against the installed declarations of stripe, openai and the AWS SDK: each client given a timeout.
      code: "import Stripe from 'stripe';\nimport { Worker } from 'bullmq';\nconst stripe = new Stripe('sk_test', { timeout: 10_000 });\nnew Worker('q', async (job) => {\n  await stripe.refunds.create({ charge: job.data.id }, { idempotencyKey: job.id });\n});",
      options: [{ sdkClients: true }],
    },
    {
      code: "import OpenAI from 'openai';\nimport { Worker } from 'bullmq';\nconst openai = new OpenAI({ timeout: 10_000 });\nnew Worker('q', async (job) => {\n  await openai.chat.completions.create({ model: 'gpt-4o', messages: job.data.messages });\n});",
      options: [{ sdkClients: true }],
    },
  ],
  invalid: [
    {
      code: "export async function f(url: string) {\n  await fetch(url, { method: 'POST', body: '{}' });\n}",
      errors: [
        {
          messageId: 'unbounded',
          line: 2,
          column: 9,
          suggestions: [
            {
              messageId: 'addTimeout',
              output:
                "export async function f(url: string) {\n  await fetch(url, { method: 'POST', body: '{}', signal: AbortSignal.timeout(10000) });\n}",
            },
          ],
        },
      ],
      output: null,
    },
    {
      code: "import Stripe from 'stripe';\nimport { Worker } from 'bullmq';\nconst stripe = new Stripe('sk_test');\nnew Worker('q', async (job) => {\n  await stripe.refunds.create({ charge: job.data.id }, { idempotencyKey: job.id });\n});",
      options: [{ sdkClients: true }],
      errors: [
        {
          messageId: 'unboundedSdk',
          line: 3,
          column: 20,
          suggestions: [
            {
              messageId: 'addTimeout',
              output:
                "import Stripe from 'stripe';\nimport { Worker } from 'bullmq';\nconst stripe = new Stripe('sk_test', { timeout: 10000 });\nnew Worker('q', async (job) => {\n  await stripe.refunds.create({ charge: job.data.id }, { idempotencyKey: job.id });\n});",
            },
          ],
        },
      ],
      output: null,
    },
    {
      code: "import OpenAI from 'openai';\nimport { Worker } from 'bullmq';\nconst openai = new OpenAI();\nnew Worker('q', async (job) => {\n  await openai.chat.completions.create({ model: 'gpt-4o', messages: job.data.messages });\n});",
      options: [{ sdkClients: true }],
      errors: [
        {
          messageId: 'unboundedSdk',
          line: 3,
          column: 20,
          suggestions: [
            {
              messageId: 'addTimeout',
              output:
                "import OpenAI from 'openai';\nimport { Worker } from 'bullmq';\nconst openai = new OpenAI({ timeout: 10000 });\nnew Worker('q', async (job) => {\n  await openai.chat.completions.create({ model: 'gpt-4o', messages: job.data.messages });\n});",
            },
          ],
        },
      ],
      output: null,
    },
    {
      // The AWS SDK's bound is a request handler's option: no suggestion writes one.
      code: "import { SQSClient, SendMessageCommand } from '@aws-sdk/client-sqs';\nimport { Worker } from 'bullmq';\nconst sqs = new SQSClient({});\nnew Worker('q', async (job) => {\n  await sqs.send(new SendMessageCommand({ QueueUrl: job.data.url, MessageBody: 'x' }));\n});",
      options: [{ sdkClients: true }],
      errors: [{ messageId: 'unboundedSdk', line: 3, column: 17, suggestions: null }],
      output: null,
    },
  ],
});

describe('the suggestion', () => {
  // Every client the suggestion applies to: what it writes leaves this rule quiet and adds nothing any other rule of configs.all reports.
  it.each([
    ['fetch', "await fetch(url, { method: 'POST', body: '{}' });"],
    ['axios', "await axios.post(url, { id: job.id }, { headers: { 'Idempotency-Key': job.id } });"],
    ['axios without config', 'await axios.get(url);'],
    ['got', "await got.post(url, { json: {}, headers: { 'Idempotency-Key': job.id } });"],
    ['ky timeout: false', 'await ky.get(url, { timeout: false });'],
    ['undici', "await undiciRequest(url, { method: 'GET' });"],
    ['request', 'legacy.get({ url }, () => {});'],
    ['node https', "https.request(url, { method: 'GET' }).end();"],
    ['superagent', 'await superagent.get(url).query({ id: job.id });'],
    ['needle', 'await needle.get(url, { json: true });'],
    ['ofetch', "await ofetch(url, { method: 'GET' });"],
    ['graphql-request', "await gql({ url, document: 'query { a }' });"],
  ])('writes code no rule of configs.all reports (%s)', (_name, line) => {
    const code = [
      "import axios from 'axios';",
      "import got from 'got';",
      "import ky from 'ky';",
      "import { request as undiciRequest } from 'undici';",
      "import legacy from 'request';",
      "import https from 'node:https';",
      "import superagent from 'superagent';",
      "import needle from 'needle';",
      "import { ofetch } from 'ofetch';",
      "import { request as gql } from 'graphql-request';",
      "import { Worker } from 'bullmq';",
      "const url = 'https://api.example.test/x';",
      "new Worker('q', async (job) => {",
      `  ${line}`,
      '});',
      '',
    ].join('\n');
    const config: Linter.Config[] = [
      { files: ['**/*.ts'], languageOptions: { parser: tsParser as unknown as Linter.Parser } },
      plugin.configs.all,
    ];
    const linter = new Linter({ configType: 'flat' });
    const before = linter.verify(code, config, 'src/worker.ts');
    const suggestion = before.find((message) => message.ruleId === 'idempotency/require-request-timeout')
      ?.suggestions?.[0];
    expect(suggestion).toBeDefined();
    const { fix } = suggestion!;
    const rewritten = code.slice(0, fix.range[0]) + fix.text + code.slice(fix.range[1]);
    const others = (messages: Linter.LintMessage[]) =>
      messages.filter((message) => message.ruleId !== 'idempotency/require-request-timeout').map((m) => m.message);
    const after = linter.verify(rewritten, config, 'src/worker.ts');
    expect(after.filter((message) => message.ruleId === 'idempotency/require-request-timeout')).toEqual([]);
    expect(others(after)).toEqual(others(before));
  });
});

// A Pages Router page: its component runs in the browser, getServerSideProps and what it calls on the server.
const PAGE = `
import { useEffect } from 'react';
async function loadPlan(id: string) {
  const res = await fetch(\`https://billing.example.com/plans/\${id}\`);
  return res.json();
}
export const getServerSideProps = async (ctx: { query: { id: string } }) => ({ props: { plan: await loadPlan(ctx.query.id) } });
export default function Plan() {
  useEffect(() => { void fetch('https://metrics.example.com/seen', { method: 'POST' }); }, []);
  return <div />;
}
`;

const REMIX_ROUTE =
  "export async function loader() { return fetch('https://api.example.com/orders'); }\n" +
  "export default function Orders() { const go = () => fetch('https://api.example.com/x', { method: 'POST' }); return <button onClick={go} />; }\n";

describe('require-request-timeout in a page with server data functions', () => {
  const lines = (code: string, filename: string, roles?: string[]): number[] => {
    const config: Linter.Config[] = [
      {
        files: ['**/*.tsx'],
        languageOptions: {
          parser: tsParser as unknown as Linter.Parser,
          parserOptions: { ecmaFeatures: { jsx: true } },
        },
      },
      {
        ...plugin.configs.all,
        rules: { 'idempotency/require-request-timeout': roles ? ['error', { roles }] : 'error' },
      },
    ];
    return new Linter({ configType: 'flat' }).verify(code, config, filename).map((message) => message.line);
  };

  it('reports nothing in minified JavaScript, whose source is where the fix goes', () => {
    const config: Linter.Config[] = [
      { ...plugin.configs.all, rules: { 'idempotency/require-request-timeout': 'error' } },
    ];
    const call = "async function p(){await fetch('https://example.test/ping')}";
    const verify = (code: string, filename: string): number =>
      new Linter({ configType: 'flat' }).verify(code, config, filename).length;
    expect(verify(`${'var a=1;'.repeat(60)}${call}`, 'src/vendor.js')).toBe(0);
    expect(verify(call, 'src/app.min.js')).toBe(0);
    expect(verify(call, 'src/app.js')).toBe(1);
  });

  it("reports in getServerSideProps and what it calls, not in the component's effect", () => {
    expect(lines(PAGE, 'src/pages/plan.tsx')).toEqual([4]);
  });

  it("reports in a Remix route's loader, not in the component", () => {
    expect(lines(REMIX_ROUTE, 'app/routes/orders.tsx')).toEqual([1]);
  });

  it("reads a Remix route folder's route.tsx as a page, not as a Next.js route handler", () => {
    expect(lines(REMIX_ROUTE, 'app/routes/orders.$id/route.tsx')).toEqual([1]);
    // A resource route's module that exports a component for other routes to render.
    expect(
      lines(REMIX_ROUTE.replace('export default function', 'export function'), 'app/routes/orders/route.tsx'),
    ).toEqual([1]);
    // Exporting an HTTP method, `app/**/route.tsx` is a Next.js route handler: all of it is server code.
    const handler = REMIX_ROUTE.replace('export async function loader', 'export async function GET').replace(
      'export default function',
      'function',
    );
    expect(lines(handler, 'app/api/orders/route.tsx')).toEqual([1, 2]);
  });

  it('reports in the component too when browser is among its roles, and nowhere in a page without server data', () => {
    expect(lines(PAGE, 'src/pages/plan.tsx', ['server', 'browser'])).toEqual([4, 9]);
    expect(lines(PAGE.replace('export const getServerSideProps', 'const unused'), 'src/pages/plan.tsx')).toEqual([]);
  });
});
