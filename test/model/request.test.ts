import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';

import type { AnyRuleContext } from '../../src/model/ast/context.js';
import {
  fetchesLocalResource,
  getOutgoingRequest,
  isBrowserOnly,
  isReadMethod,
  type RequestModelOptions,
} from '../../src/model/http/request.js';
import { isFetch } from '../../src/model/http/call-shape.js';
import { isBoundedClientFactory } from '../../src/model/http/timeout.js';
import { readsSendingHeldHeaders } from '../../src/model/http/held-headers.js';
import { lintMarkedCalls } from '../rule-tester.js';

/** A compact view of one request: `client method timeout headers(complete) body? options@index`. */
type Row = string | undefined;

interface LintOptions {
  typed?: boolean;
  model?: RequestModelOptions;
  settings?: Record<string, unknown>;
}

/** Runs `inspect` for every call expression whose line ends with a `// <-` comment. */
function lintWith(
  code: string,
  options: LintOptions,
  inspect: (call: TSESTree.CallExpression, context: AnyRuleContext) => void,
): void {
  lintMarkedCalls(code, inspect, options);
}

/** The outermost marked call on each marked line, summarised. */
function requestsIn(code: string, options: LintOptions = {}): Row[] {
  const rows = new Map<number, Row>();
  lintWith(code, options, (call, context) => {
    if (rows.has(call.loc.end.line)) return;
    const request = getOutgoingRequest(call, context, options.model);
    rows.set(
      call.loc.end.line,
      request &&
        [
          request.client,
          request.method ?? '?',
          request.timeout,
          `[${request.headers.entries.map((entry) => entry.name).join(',')}]${request.headers.complete ? '' : '+'}`,
          request.body ? 'body' : '-',
          `@${request.optionsIndex}`,
        ].join(' '),
    );
  });
  return [...rows.values()];
}

describe('getOutgoingRequest: which calls are requests', () => {
  it('recognises fetch only when it is the real one', () => {
    expect(
      requestsIn(`
import { fetch as undiciFetch } from 'undici';
import nodeFetch from 'node-fetch';
const bound = globalThis.fetch.bind(globalThis);
fetch(url); // <-
globalThis.fetch(url); // <-
undiciFetch(url); // <-
nodeFetch(url); // <-
bound(url); // <-
async function load({ fetch: injected }, { fetchImpl = globalThis.fetch }) {
  fetchImpl(url); // <-
  injected(url); // <-
}
function local() { function fetch(id) { return id; } fetch(1); } // <-
this.fetch(url); // <-
window.location.fetch(url); // <-
`),
    ).toEqual([
      'fetch GET unbounded [] - @1',
      'fetch GET unbounded [] - @1',
      'fetch GET unbounded [] - @1',
      'fetch GET unbounded [] - @1',
      'fetch GET unbounded [] - @1',
      'fetch GET unbounded [] - @1',
      undefined, // `fetch: injected` is renamed away from the conventional names
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('recognises axios, got, ky, undici and request, with their instances', () => {
    expect(
      requestsIn(`
import axios from 'axios';
import got from 'got';
import ky from 'ky';
import * as undici from 'undici';
import { request } from 'undici';
const legacy = require('request');
const api = axios.create({ baseURL });
axios(url); // <-
axios({ url, method: 'put', data }); // <-
axios.request({ url }); // <-
axios.post(url, data); // <-
axios.patchForm(url, data, { timeout: 1 }); // <-
api.delete(url); // <-
got(url, { method: 'POST', json }); // <-
got.put(url); // <-
ky.head(url); // <-
undici.request(url, { method: 'POST', body }); // <-
request(url); // <-
legacy.del(url, (error, response) => done(error, response)); // <-
legacy({ url, method: 'POST', form }, cb); // <-
axios.isCancel(error); // <-
api.getUri(); // <-
`),
    ).toEqual([
      'axios GET unbounded [] - @1',
      'axios PUT unbounded [] body @0',
      'axios GET unbounded [] - @0',
      'axios POST unbounded [] body @2',
      'axios PATCH bounded [] body @2',
      'axios DELETE unbounded [] - @1',
      'got POST unbounded [] body @1',
      'got PUT unbounded [] - @1',
      'ky HEAD bounded [] - @1',
      'undici POST unbounded [] body @1',
      'undici GET unbounded [] - @1',
      'request DELETE unbounded [] - @1',
      'request POST unbounded [] body @0',
      undefined,
      undefined,
    ]);
  });

  it('treats wrappers listed as additional clients like fetch', () => {
    expect(
      requestsIn('fetchJson(url, { method: "POST" }); // <-\nthis.http.fetch(url); // <-', {
        model: { additionalClients: ['fetchJson', 'this.http.fetch'] },
      }),
    ).toEqual(['fetch POST unbounded [] - @1', 'fetch GET unbounded [] - @1']);
  });
});

describe('getOutgoingRequest: method and headers', () => {
  it('reads the method statically and stays unsure when it cannot', () => {
    expect(
      requestsIn(`
const POST = 'post';
fetch(url, { method: POST }); // <-
fetch(url, { method: \`DEL\${'ETE'}\` }); // <-
fetch(url, { method }); // <-
fetch(url, { ...init }); // <-
fetch(url, init); // <-
fetch(new Request(url)); // <-
fetch(...args); // <-
`),
    ).toEqual([
      'fetch POST unbounded [] - @1',
      'fetch DELETE unbounded [] - @1',
      'fetch ? unbounded [] - @1',
      'fetch ? unknown []+ - @1',
      'fetch ? unknown []+ - @1',
      'fetch ? unknown []+ - @1',
      'fetch ? unknown []+ - @1',
    ]);
  });

  it('collects headers from literals, Headers, pairs, bindings and their writes', () => {
    expect(
      requestsIn(`
import axios from 'axios';
const common = { Authorization: token };
const h = new Headers(common);
h.set('Idempotency-Key', key);
h.append('X-Trace', trace);
const bag = {};
bag['x-idempotency-key'] = key;
const api = axios.create({ headers: { 'X-Client': 'a' } });
const leaky = {};
decorate(leaky);
fetch(url, { headers: { 'Idempotency-Key': key, ...extra } }); // <-
fetch(url, { headers: h }); // <-
fetch(url, { headers: [['Idempotency-Key', key], pair] }); // <-
fetch(url, { headers: bag }); // <-
api.post(url, body, { headers: { Accept: 'json' } }); // <-
fetch(url, { headers: leaky }); // <-
fetch(url, { headers: makeHeaders() }); // <-
`),
    ).toEqual([
      'fetch GET unbounded [Idempotency-Key]+ - @1',
      'fetch GET unbounded [Authorization,Idempotency-Key,X-Trace] - @1',
      'fetch GET unbounded [Idempotency-Key]+ - @1',
      'fetch GET unbounded [x-idempotency-key] - @1',
      'axios POST unbounded [X-Client,Accept] body @2',
      'fetch GET unbounded []+ - @1',
      'fetch GET unbounded []+ - @1',
    ]);
  });

  it('reads headers from key-header sources listed in settings as carrying a key', () => {
    const code = `
import { buildHeaders, commonHeaders, api } from './headers.js';
import { otherHeaders } from './other.js';
fetch(url, { headers: buildHeaders(id) }); // <-
fetch(url, { headers: await buildHeaders(id) }); // <-
fetch(url, { headers: { ...commonHeaders, Accept: 'json' } }); // <-
fetch(url, { headers: api.headers() }); // <-
const h = buildHeaders(id);
fetch(url, { headers: h }); // <-
fetch(url, { headers: otherHeaders(id) }); // <-
fetch(url, { headers: { ...otherHeaders } }); // <-
`;
    const settings = {
      idempotency: {
        keyHeaderSources: [
          { from: './headers.js', name: 'buildHeaders' },
          { from: './headers.js', name: 'commonHeaders' },
          { from: './headers.js', name: 'api' },
        ],
      },
    };
    expect(requestsIn(code, { settings })).toEqual([
      'fetch GET unbounded [Idempotency-Key]+ - @1',
      'fetch GET unbounded [Idempotency-Key]+ - @1',
      'fetch GET unbounded [Idempotency-Key,Accept]+ - @1',
      'fetch GET unbounded [Idempotency-Key]+ - @1',
      'fetch GET unbounded [Idempotency-Key]+ - @1',
      'fetch GET unbounded []+ - @1',
      'fetch GET unbounded []+ - @1',
    ]);
    // Without the settings nothing is known about them.
    expect(requestsIn(code)).toEqual([
      'fetch GET unbounded []+ - @1',
      'fetch GET unbounded []+ - @1',
      'fetch GET unbounded [Accept]+ - @1',
      'fetch GET unbounded []+ - @1',
      'fetch GET unbounded []+ - @1',
      'fetch GET unbounded []+ - @1',
      'fetch GET unbounded []+ - @1',
    ]);
  });

  it('marks headers incomplete when defaults or interceptors may add more', () => {
    expect(
      requestsIn(`
import axios from 'axios';
axios.defaults.headers.common['Idempotency-Key'] = key;
const api = axios.create();
api.interceptors.request.use(addKey);
axios.get(url); // <-
api.get(url); // <-
`),
    ).toEqual(['axios GET unknown []+ - @1', 'axios GET unknown []+ - @1']);
  });
});

describe('getOutgoingRequest: timeout', () => {
  it('bounds fetch by any signal but undefined or null', () => {
    expect(
      requestsIn(`
fetch(url, { signal: AbortSignal.timeout(5000) }); // <-
fetch(url, { signal: controller.signal }); // <-
fetch(url, { signal: undefined }); // <-
fetch(url, { signal: null }); // <-
fetch(url, { timeout: 5000 }); // <-
fetch(url, { dispatcher }); // <-
fetch(url, { ...init, signal }); // <-
`),
    ).toEqual([
      'fetch GET bounded [] - @1',
      'fetch GET bounded [] - @1',
      'fetch GET unbounded [] - @1',
      'fetch GET unbounded [] - @1',
      'fetch GET unknown [] - @1',
      'fetch GET unknown [] - @1',
      'fetch ? bounded []+ - @1',
    ]);
  });

  it('follows axios instances, defaults and interceptors', () => {
    expect(
      requestsIn(`
import axios from 'axios';
const bounded = axios.create({ timeout: 5000 });
const off = axios.create({ timeout: 0 });
const later = axios.create();
later.defaults.timeout = 3000;
const intercepted = axios.create();
intercepted.interceptors.request.use((config) => ({ ...config, signal: AbortSignal.timeout(1000) }));
const opaque = axios.create(config);
bounded.get(url); // <-
bounded.get(url, { timeout: 0 }); // <-
off.get(url); // <-
later.get(url); // <-
intercepted.get(url); // <-
opaque.get(url); // <-
axios.get(url, { timeout: Infinity }); // <-
axios.get(url, { timeout: ms }); // <-
`),
    ).toEqual([
      'axios GET bounded [] - @1',
      'axios GET unbounded [] - @1',
      'axios GET unbounded [] - @1',
      'axios GET bounded []+ - @1',
      'axios GET bounded []+ - @1',
      'axios GET unknown []+ - @1',
      'axios GET unbounded [] - @1',
      'axios GET bounded [] - @1',
    ]);
  });

  it('knows got, ky, undici and request defaults', () => {
    expect(
      requestsIn(`
import got from 'got';
import ky from 'ky';
import { request } from 'undici';
const client = got.extend({ timeout: { request: 1000 } });
const slow = ky.create({ timeout: false });
got(url, { timeout: { connect: 0 } }); // <-
got(url, { timeout: { request: 100 } }); // <-
client.get(url); // <-
ky(url); // <-
ky(url, { timeout: false }); // <-
slow.get(url); // <-
request(url, { bodyTimeout: 0, headersTimeout: 1000 }); // <-
`),
    ).toEqual([
      'got GET unbounded [] - @1',
      'got GET bounded [] - @1',
      'got GET bounded [] - @1',
      'ky GET bounded [] - @1',
      'ky GET unbounded [] - @1',
      'ky GET unbounded [] - @1',
      'undici GET bounded [] - @1',
    ]);
  });

  it('follows options to the callers of a private helper', () => {
    expect(
      requestsIn(`
async function none(url, init) { return fetch(url, init); } // <-
none(a, { method: 'POST' }); none(b, {});
async function some(url, init) { return fetch(url, init); } // <-
some(a, { signal }); some(b, {});
async function all(url, init) { return fetch(url, init); } // <-
all(a, { signal }); all(b, { signal: AbortSignal.timeout(1) });
const arrow = (init) => fetch(url, init); // <-
arrow(unknownInit);
export function exported(init) { return fetch(url, init); } // <-
exported({});
`),
    ).toEqual([
      'fetch ? unbounded []+ - @1',
      'fetch ? unknown []+ - @1',
      'fetch ? bounded []+ - @1',
      'fetch ? unknown []+ - @1',
      'fetch ? unknown []+ - @1',
    ]);
  });

  it('trusts bounded clients from options and settings', () => {
    const code = `
import axios from 'axios';
import { http } from './http';
const api = axios.create();
api.get(url); // <-
http.get(url); // <-
fetchJson(url); // <-
`;
    expect(
      requestsIn(code, {
        model: { boundedClients: ['api', 'fetchJson'], additionalClients: ['fetchJson', 'http.get'] },
        settings: { idempotency: { boundedClients: [{ from: './http', name: 'http' }] } },
      }),
    ).toEqual(['axios GET bounded [] - @1', 'fetch GET bounded [] - @1', 'fetch GET bounded [] - @1']);
  });
});

describe('isBoundedClientFactory', () => {
  it('knows instance factories whose own config bounds every request', () => {
    const verdicts: boolean[] = [];
    lintWith(
      `
import axios from 'axios';
import got from 'got';
import ky from 'ky';
const cfg = { timeout: 5000 };
axios.create({ timeout: 5000 }); // <-
axios.create(cfg); // <-
got.extend({ timeout: { request: 5000 } }); // <-
ky.create({ timeout: 5000 }); // <-
axios.create({ baseURL: 'https://api.test' }); // <-
axios.create({ timeout: 0 }); // <-
ky.extend({ timeout: false }); // <-
got.extend({ timeout: { request: 0 } }); // <-
makeClient({ timeout: 5000 }); // <-
axios.get(url, { timeout: 5000 }); // <-
`,
      {},
      (call, context) => verdicts.push(isBoundedClientFactory(call, context)),
    );
    expect(verdicts).toEqual([true, true, true, true, false, false, false, false, false, false]);
  });
});

describe('getOutgoingRequest (typed)', () => {
  it('knows an injected axios instance by its type, and a Request argument', () => {
    expect(
      requestsIn(
        `
import type { AxiosInstance } from 'axios';
export async function f(http: AxiosInstance, req: Request, other: { get(url: string): void }) {
  await http.get('/x'); // <-
  await fetch(req); // <-
  other.get('/x'); // <-
}
`,
        { typed: true },
      ),
    ).toEqual(['axios GET unknown []+ - @1', 'fetch ? unknown []+ - @1', undefined]);
  });
});

describe('small helpers', () => {
  it('isReadMethod', () => {
    expect(['GET', 'HEAD', 'OPTIONS', 'POST', 'get', undefined].map(isReadMethod)).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
  });

  it('isBrowserOnly: relative URLs and window.fetch', () => {
    const answers: boolean[] = [];
    lintWith(
      "fetch('/api/x'); // <-\nfetch(`/api/${id}`); // <-\nfetch('../x'); // <-\nwindow.fetch(url); // <-\nfetch(`${base}/x`); // <-\nfetch('//cdn/x'); // <-\nfetch(url); // <-\nimport axios from 'axios'; axios.get('/api/x'); // <-",
      {},
      (call, context) => {
        const request = getOutgoingRequest(call, context);
        if (request) answers.push(isBrowserOnly(request, context));
      },
    );
    expect(answers).toEqual([true, true, true, true, false, false, false, false]);
  });

  it('isBrowserOnly: a relative branch of a conditional URL, through a const', () => {
    const answers: boolean[] = [];
    lintWith(
      'const css = prod ? `/preview/${hash}.css` : manifest.path;\nfetch(css); // <-\nfetch(prod ? base : other); // <-',
      {},
      (call, context) => {
        const request = getOutgoingRequest(call, context);
        if (request) answers.push(isBrowserOnly(request, context));
      },
    );
    expect(answers).toEqual([true, false]);
  });

  it('fetchesLocalResource: import.meta.url, file:, data: and blob: URLs', () => {
    const answers: boolean[] = [];
    lintWith(
      "fetch(new URL('./font.ttf', import.meta.url)); // <-\nconst font = new URL('../x.ttf', import.meta.url);\nfetch(font); // <-\nfetch('file:///etc/x'); // <-\nfetch(`data:text/plain,${x}`); // <-\nfetch(new URL('/x', base)); // <-\nfetch('https://api.example.com'); // <-",
      {},
      (call, context) => {
        const request = getOutgoingRequest(call, context);
        if (request) answers.push(fetchesLocalResource(request, context));
      },
    );
    expect(answers).toEqual([true, true, true, true, false, false]);
  });

  it('isFetch on callees', () => {
    const answers: boolean[] = [];
    lintWith(
      'fetch(a); // <-\nself.fetch(a); // <-\nglobal.fetch(a); // <-\nfoo(a); // <-\nconst fetch2 = fetch; fetch2(a); // <-',
      {},
      (call, context) => {
        answers.push(isFetch(call.callee, context.sourceCode.getScope(call)));
      },
    );
    expect(answers).toEqual([true, true, true, false, true]);
  });

  it('readsSendingHeldHeaders finds reads sharing this.<headers>', () => {
    const found: string[] = [];
    lintWith(
      `
class Client {
  post(k) { this.headers.set('Idempotency-Key', k); } // <-
  get() { return this.send({ method: 'GET', headers: this.headers, ...extra }); }
  list() { return this.send({ method: 'POST', headers: this.headers }); }
  head() { return this.send({ method: 'HEAD', headers: this.other }); }
}
function outside(k) { this.headers.set('Idempotency-Key', k); } // <-
`,
      {},
      (call, context) => {
        const holder = call.callee.type === AST_NODE_TYPES.MemberExpression ? call.callee.object : call.callee;
        found.push(
          readsSendingHeldHeaders(holder, 'Idempotency-Key', context)
            .map((read) => `${read.method}@${read.node.loc.start.line}`)
            .join(','),
        );
      },
    );
    expect(found).toEqual(['GET@4', '']);
  });
});
