import rule from '../../rules/no-key-on-read.js';
import { syntaxRuleTester, typedRuleTester } from '../rule-tester.js';

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

syntaxRuleTester().run('no-key-on-read', rule, {
  valid: [
    // An interceptor that adds the key to writes only.
    "api.interceptors.request.use((config) => { if (config.method === 'post') { config.headers['Idempotency-Key'] = crypto.randomUUID(); } return config; });",
    "api.interceptors.request.use((config) => { if (config.method === 'get') return config; config.headers['Idempotency-Key'] = crypto.randomUUID(); return config; });",
    // A header helper filling a key only when the hook's request is a write.
    `class Hooks {
  beforeCreateRequest(_ctx, input) {
    if (input.options?.method === 'GET') return input;
    const headers = input.options?.headers;
    return { ...input, options: { ...input.options, headers: this.setDefault(headers, 'idempotency-key', this.generateKey) } };
  }
  generateKey() { return crypto.randomUUID(); }
  setDefault(headers, key, makeValue) { const record = { ...headers }; record[key] = makeValue(); return record; }
}`,
    // A header helper handed a key the caller keeps (the job's id): not minted here, and the
    // request is a POST the helper's caller sends itself.
    "function put(headers, name, value) { headers.set(name, value); return headers; }\nfunction hook(headers: Headers, job) { return put(headers, 'Idempotency-Key', job.id); }",
    // A helper naming a header that is not a key.
    "function put(headers, name, value) { headers.set(name, value); return headers; }\nfunction hook(headers: Headers) { return put(headers, 'X-Request-Id', crypto.randomUUID()); }",
    // The seed document's chargeOnce: a key on a POST.
    CHARGE_ONCE,
    "fetch(url, { method: 'PUT', headers: { 'Idempotency-Key': key } });",
    "fetch(url, { method: 'delete', headers: { 'X-Idempotency-Key': key } });",
    // Request-id and correlation-id headers are not idempotency keys.
    "fetch(url, { headers: { 'X-Request-Id': crypto.randomUUID(), 'x-correlation-id': id } });",
    "import axios from 'axios'; axios.get(url, { headers: { 'x-request-id': requestId, 'Idempotency-Replayed': 'false' } });",
    // The method is not static, or a spread may set it.
    "fetch(url, { method, headers: { 'Idempotency-Key': key } });",
    "fetch(url, { ...init, headers: { 'Idempotency-Key': key } });",
    'async function f(init) { await fetch(url, init); }',
    // A POST through axios, got, ky.
    "import axios from 'axios'; axios.post(url, body, { headers: { 'Idempotency-Key': key } });",
    "import got from 'got'; got.post(url, { headers: { 'idempotency-key': key } });",
    "import ky from 'ky'; ky.post(url, { headers: { 'Idempotency-Key': key } });",
    // Headers built for a POST by a method-aware factory.
    "function headersFor(method, key) { return method === 'POST' ? { 'Idempotency-Key': key } : {}; } fetch(url, { headers: headersFor('GET', k) });",
    // Not a request: a local fetch, an arbitrary get().
    "function fetch(id, opts) { return cache.get(id); } fetch(1, { headers: { 'Idempotency-Key': key } });",
    "cache.get(url, { headers: { 'Idempotency-Key': key } });",
    // A helper that keys the headers it is given and sends them as a POST itself.
    "async function createOrder(headers, body) { headers['Idempotency-Key'] = crypto.randomUUID(); return fetch(url, { method: 'POST', headers, body }); }",
    // The caller chooses whether there is a key at all.
    "function withKey(init, key) { const headers = new Headers(init?.headers); headers.set('Idempotency-Key', key); return { ...init, headers }; }",
    // Write options handed to a local send helper; read options handed to a wrapper out of sight
    // (a paying fetch turns a GET into a purchase).
    "const payingFetch = wrapFetchWithPayment(fetch, wallet); async function buy(sku, key) { return payingFetch(`/buy/${sku}`, { method: 'GET', headers: { 'Idempotency-Key': key } }); }",
    "async function charge(id) { return send(url, { method: 'POST', headers: { 'Idempotency-Key': `charge_${id}` } }); }",
    // Builders that key only writes, or take the key from their caller.
    `class Request {
  constructor(method, path) { this.method = method; this.path = path; this.headerParams = {}; }
  async send() {
    if (this.method !== 'GET' && this.headerParams['idempotency-key'] === undefined) this.headerParams['idempotency-key'] = 'auto_' + crypto.randomUUID();
    return fetch(this.path, { method: this.method, headers: { ...this.headerParams } });
  }
}`,
    "async function send(method, path, key) { return fetch(path, { method, headers: { 'Idempotency-Key': key } }); }",
    "async function send(method, path) { return fetch(path, { method, headers: method === 'POST' ? { 'Idempotency-Key': crypto.randomUUID() } : {} }); }",
    // A key in method-scoped defaults reaches only that method's requests.
    "import axios from 'axios'; const api = axios.create(); api.defaults.headers.post['Idempotency-Key'] = key;",
    // Removed again before anything else can run: no read is sent with it.
    `import axios from 'axios';
const api = axios.create();
function pay(body, key) {
  api.defaults.headers.common['Idempotency-Key'] = key;
  try { return api.post('/payments', body); } finally { delete api.defaults.headers.common['Idempotency-Key']; }
}`,
    `import axios from 'axios';
function pay(body, key) {
  axios.defaults.headers.common['Idempotency-Key'] = key;
  const sent = axios.post('/payments', body);
  axios.defaults.headers.common['Idempotency-Key'] = undefined;
  return sent;
}`,
    // Another header in the defaults.
    "api.defaults.headers.common['Authorization'] = `Bearer ${token}`;",
    // A key written into instance headers that only writes send, or removed after the call.
    `class Client {
  headers = new Headers();
  post(path, key) { this.headers.set('Idempotency-Key', key); return this.send(path, { method: 'POST', headers: this.headers }); }
  get(path) { return this.send(path, { method: 'GET', headers: this.defaultHeaders }); }
}`,
    `class Client {
  headers = new Headers();
  async post(path, key) {
    this.headers.set('Idempotency-Key', key);
    try { return await this.send(path, { method: 'POST', headers: this.headers }); } finally { this.headers.delete('Idempotency-Key'); }
  }
  get(path) { return this.send(path, { method: 'GET', headers: this.headers }); }
}`,
    // Reading a key on the server side is not sending one.
    "const key = req.headers['idempotency-key'];",
    // A shared key-header factory on a write, and unlisted header helpers on reads.
    {
      code: "import { apiHeaders } from './headers.js';\nfetch(url, { method: 'POST', headers: apiHeaders(id) });",
      settings: { idempotency: { keyHeaderSources: [{ from: './headers.js', name: 'apiHeaders' }] } },
    },
    {
      code: "import { apiHeaders } from './headers.js';\nimport { authHeaders } from './auth.js';\nfetch(url, { headers: authHeaders() });\nfetch(url, { headers: { ...authHeaders() } });",
      settings: { idempotency: { keyHeaderSources: [{ from: './headers.js', name: 'apiHeaders' }] } },
    },
    "import { apiHeaders } from './headers.js';\nfetch(url, { headers: apiHeaders(id) });",
  ],
  invalid: [
    {
      // An interceptor that writes a key on every request, GETs included.
      code: "api.interceptors.request.use((config) => { config.headers['x-idempotency-key'] = crypto.randomUUID(); return config; });",
      errors: [{ messageId: 'keyOnEveryRequest', line: 1, column: 44 }],
      output: null,
    },
    {
      // The adjective spelling of the header, written on every request.
      code: "import { v4 as uuidv4 } from 'uuid';\napi.interceptors.request.use(async (config) => {\n  const uuid = uuidv4();\n  config.headers['x-idempotent-key'] = uuid;\n  return config;\n});",
      errors: [{ messageId: 'keyOnEveryRequest', line: 4, column: 3 }],
      output: null,
    },
    {
      // The seed document's "do not send an idempotency key on a read".
      code: `
export async function chargeStatus(message) {
  const res = await fetch(\`https://api.example-payments.test/v1/charges/\${message.chargeId}\`, {
    headers: { 'Idempotency-Key': \`msg:\${message.id}\` },
    signal: AbortSignal.timeout(10_000),
  });
  return res.json();
}
`,
      errors: [{ messageId: 'keyOnRead', line: 4, column: 16 }],
      output: `
export async function chargeStatus(message) {
  const res = await fetch(\`https://api.example-payments.test/v1/charges/\${message.chargeId}\`, {
    headers: {},
    signal: AbortSignal.timeout(10_000),
  });
  return res.json();
}
`,
    },
    {
      code: "fetch(url, { method: 'GET', headers: { Authorization: token, 'Idempotency-Key': key } });",
      errors: [{ messageId: 'keyOnRead', line: 1, column: 62 }],
      output: "fetch(url, { method: 'GET', headers: { Authorization: token } });",
    },
    {
      code: "fetch(url, { method: 'HEAD', headers: { 'Idempotency-Key': key, Accept: 'application/json' } });",
      errors: [{ messageId: 'keyOnRead', line: 1, column: 41 }],
      output: "fetch(url, { method: 'HEAD', headers: { Accept: 'application/json' } });",
    },
    {
      // Multi-line with a trailing comma and a comment after the key.
      code: `
fetch(url, {
  headers: {
    Accept: 'application/json',
    'idempotency-key': key, // from the job
    Authorization: token,
  },
});
`,
      errors: [{ messageId: 'keyOnRead', line: 5, column: 5 }],
      output: `
fetch(url, {
  headers: {
    Accept: 'application/json',
    // from the job
    Authorization: token,
  },
});
`,
    },
    {
      code: `
fetch(url, {
  headers: {
    Accept: 'application/json',
    'Idempotency-Key': key,
  },
});
`,
      errors: [{ messageId: 'keyOnRead', line: 5, column: 5 }],
      output: `
fetch(url, {
  headers: {
    Accept: 'application/json',
  },
});
`,
    },
    {
      code: "import axios from 'axios'; axios.get(url, { headers: { 'X-Idempotency-Key': key } });",
      errors: [{ messageId: 'keyOnRead', line: 1, column: 56 }],
      output: "import axios from 'axios'; axios.get(url, { headers: {} });",
    },
    {
      code: "import axios from 'axios'; axios({ url, method: 'options', headers: { 'PayPal-Request-Id': id } });",
      errors: [{ messageId: 'keyOnRead', line: 1, column: 71 }],
      output: "import axios from 'axios'; axios({ url, method: 'options', headers: {} });",
    },
    {
      code: "import ky from 'ky'; ky.get(url, { headers: new Headers({ 'Idempotency-Key': key }) });",
      errors: [{ messageId: 'keyOnRead', line: 1, column: 59 }],
      output: "import ky from 'ky'; ky.get(url, { headers: new Headers({}) });",
    },
    {
      // Headers held in a variable may be shared with writes: reported at the call, not fixed.
      code: "const headers = { 'Idempotency-Key': key }; fetch(url, { headers });",
      errors: [{ messageId: 'keyOnRead', line: 1, column: 45 }],
      output: null,
    },
    {
      code: "const headers = new Headers(); headers.set('Idempotency-Key', key); fetch(url, { headers });",
      errors: [{ messageId: 'keyOnRead', line: 1, column: 69 }],
      output: null,
    },
    {
      // An instance whose every request carries the key.
      code: "import axios from 'axios'; const api = axios.create({ headers: { 'Idempotency-Key': key } }); api.get('/charges');",
      errors: [{ messageId: 'keyOnRead', line: 1, column: 95 }],
      output: null,
    },
    {
      // A helper that mints a key into whatever request options its caller hands in.
      code: "function withKey(init) { const headers = new Headers(init?.headers); headers.set('Idempotency-Key', crypto.randomUUID()); return { ...init, headers }; }",
      errors: [{ messageId: 'keyOnEveryMethod', line: 1, column: 70, data: { name: 'Idempotency-Key' } }],
      output: null,
    },
    {
      // A request hook's helper keys the headers of every request the SDK builds.
      code: `class Hooks {
  beforeCreateRequest(input) {
    let headers = new Headers(input.options?.headers);
    headers = this.addKey(headers);
    return { ...input, options: { ...input.options, headers } };
  }
  addKey(headers: Headers) {
    if (!headers.has('Idempotency-Key')) headers.set('Idempotency-Key', this.newKey());
    return headers;
  }
  newKey() { return crypto.randomUUID(); }
}`,
      errors: [{ messageId: 'keyOnEveryMethod', line: 8, column: 42, data: { name: 'Idempotency-Key' } }],
      output: null,
    },
    {
      // A create-request hook fills a fresh key into every request it is handed through a header
      // helper that takes the header's name and a value function from its caller.
      code: `class Hooks {
  beforeCreateRequest(_ctx, input) {
    const name = 'idempotency-key';
    const headers = input.options?.headers;
    if (!headers) return input;
    const updated = this.setDefault(headers, name, this.generateKey);
    return { ...input, options: { ...input.options, headers: updated } };
  }
  generateKey() { return \`\${Date.now()}\${Math.random().toString(36).slice(2)}\`; }
  setDefault(headers, key, makeValue) {
    const record = { ...headers };
    if (!(key in record) || record[key] === '') record[key] = makeValue();
    return record;
  }
}`,
      errors: [{ messageId: 'keyOnEveryMethod', line: 6, column: 21, data: { name: 'idempotency-key' } }],
      output: null,
    },
    {
      // The same through a plain function handed the headers parameter and a minted value.
      code: "function put(headers, name, value) { headers.set(name, value); return headers; }\nconst hook = { beforeRequest(headers: Headers) { return put(headers, 'Idempotency-Key', crypto.randomUUID()); } };",
      errors: [{ messageId: 'keyOnEveryMethod', line: 2, column: 57, data: { name: 'Idempotency-Key' } }],
      output: null,
    },
    {
      // GET options handed to the module's own send helper.
      code: "function send(url, init) { return config.fetcher(url, init); } async function lookup(id) { return send(url, { method: 'GET', headers: { accept: 'application/json', 'Idempotency-Key': `lookup_${id}` } }); }",
      errors: [{ messageId: 'keyOnRead', line: 1, column: 165, data: { name: 'Idempotency-Key', method: 'GET' } }],
      output: null,
    },
    {
      // A request builder whose method is a field adds an auto key to every request it sends.
      code: `class Request {
  constructor(method, path) { this.method = method; this.path = path; this.headerParams = {}; }
  async send() {
    if (this.headerParams['idempotency-key'] === undefined) this.headerParams['idempotency-key'] = 'auto_' + crypto.randomUUID();
    return fetch(this.path, { method: this.method.toString(), headers: { accept: 'application/json', ...this.headerParams } });
  }
}`,
      errors: [{ messageId: 'keyOnEveryMethod', line: 4, column: 61, data: { name: 'idempotency-key' } }],
      output: null,
    },
    {
      // A wrapper whose caller picks the method mints a key for each request, GETs included.
      code: "async function send(method, path, body) { return fetch(path, { method, headers: { 'Idempotency-Key': crypto.randomUUID() }, body }); }",
      errors: [{ messageId: 'keyOnEveryMethod', line: 1, column: 83, data: { name: 'Idempotency-Key' } }],
      output: null,
    },
    {
      // A key written into a shared instance's common defaults: every later GET carries it.
      code: "import axios from 'axios';\nexport const instance = axios.create();\nexport const setKey = (key) => {\n  instance.defaults.headers.common['Idempotency-Key'] = key;\n};",
      errors: [
        { messageId: 'keyInClientDefaults', line: 4, column: 3, data: { name: 'Idempotency-Key', client: 'instance' } },
      ],
      output: null,
    },
    {
      // Removed only after the awaited write: reads sent meanwhile (or after it throws) carry it.
      code: `import { apiClient } from './client';
async function create(payload) {
  apiClient.defaults.headers.common['Idempotency-Key'] = crypto.randomUUID();
  const res = await apiClient.post('/vouchers', payload);
  delete apiClient.defaults.headers.common['Idempotency-Key'];
  return res;
}`,
      errors: [
        {
          messageId: 'keyInClientDefaults',
          line: 3,
          column: 3,
          data: { name: 'Idempotency-Key', client: 'apiClient' },
        },
      ],
      output: null,
    },
    {
      // Set in one method, removed in another; an awaited call inside the try runs before the finally.
      code: `class Api {
  setKey() { Request.defaults.headers['Idempotency-Key'] = v4(); }
  clearKey() { delete Request.defaults.headers['Idempotency-Key']; }
  async pay(body) {
    this.client.defaults.headers.get['X-Idempotency-Key'] = v4();
    try { await this.client.post('/pay', body); } finally { delete this.client.defaults.headers.get['X-Idempotency-Key']; }
  }
}`,
      errors: [
        { messageId: 'keyInClientDefaults', line: 2, column: 14, data: { name: 'Idempotency-Key', client: 'Request' } },
        {
          messageId: 'keyInClientDefaults',
          line: 5,
          column: 5,
          data: { name: 'X-Idempotency-Key', client: 'this.client' },
        },
      ],
      output: null,
    },
    {
      // A key written into the headers the instance shares with its reads.
      code: `class Client {
  headers = new Headers();
  post(path, entity, options = {}) {
    if (options.idempotencyKey) this.headers.set('Idempotency-Key', options.idempotencyKey);
    return this.send(path, { method: 'POST', headers: this.headers, body: JSON.stringify(entity), ...options });
  }
  get(path, options = {}) {
    return this.send(path, { method: 'GET', headers: this.headers, ...options });
  }
}`,
      errors: [{ messageId: 'keyInSharedHeaders', line: 4, column: 33 }],
      output: null,
    },
    {
      code: `class Client {
  post(key) { this.headers['Idempotency-Key'] = key; }
  head() { return fetch(url, { method: 'HEAD', headers: this.headers }); }
}`,
      errors: [{ messageId: 'keyInSharedHeaders', line: 2, column: 15 }],
      output: null,
    },
    {
      // Headers from a shared key-header factory in another module: reported at the call, not fixed.
      code: "import { apiHeaders, commonHeaders, authHeaders } from './headers.js';\nasync function load(id) {\n  await fetch(url, { headers: apiHeaders(id) });\n  await fetch(url, { headers: { ...commonHeaders, accept: 'application/json' } });\n  await fetch(url, { headers: await authHeaders() });\n}",
      settings: {
        idempotency: {
          keyHeaderSources: [
            { from: './headers.js', name: 'apiHeaders' },
            { from: './headers.js', name: 'commonHeaders' },
            { from: './headers.js', name: 'authHeaders' },
          ],
        },
      },
      errors: [
        { messageId: 'keyOnRead', line: 3, column: 9, data: { name: 'Idempotency-Key', method: 'GET' } },
        { messageId: 'keyOnRead', line: 4, column: 9, data: { name: 'Idempotency-Key', method: 'GET' } },
        { messageId: 'keyOnRead', line: 5, column: 9, data: { name: 'Idempotency-Key', method: 'GET' } },
      ],
      output: null,
    },
  ],
});

typedRuleTester().run('no-key-on-read (typed)', rule, {
  valid: [
    CHARGE_ONCE,
    "import type { AxiosInstance } from 'axios'; export const f = (http: AxiosInstance, key: string) => http.post('/x', {}, { headers: { 'Idempotency-Key': key } });",
  ],
  invalid: [
    {
      // With types, an injected axios instance is known to be axios.
      code: "import type { AxiosInstance } from 'axios'; export const f = (http: AxiosInstance, key: string) => http.get('/x', { headers: { 'Idempotency-Key': key } });",
      errors: [{ messageId: 'keyOnRead', line: 1, column: 128 }],
      output:
        "import type { AxiosInstance } from 'axios'; export const f = (http: AxiosInstance, key: string) => http.get('/x', { headers: {} });",
    },
  ],
});
