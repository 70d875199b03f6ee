import type { TSESTree } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';

import { keyHeaderOnEveryRequest, servesReads } from '../../src/model/keys/shared-requests.js';
import { getOutgoingRequest } from '../../src/model/http/request.js';
import { lintSnippet } from '../rule-tester.js';

const SOURCES = { idempotency: { keyHeaderSources: [{ from: './request-headers', name: 'default' }] } };

/** The lines of the assignments in `code` that a request hook makes on every request, with the header. */
function hooked(code: string, settings: Record<string, unknown> = SOURCES): string[] {
  const found: string[] = [];
  lintSnippet(
    code,
    (context) => ({
      AssignmentExpression(node: TSESTree.AssignmentExpression) {
        const name = keyHeaderOnEveryRequest(node, context);
        if (name !== undefined) found.push(`${node.loc.start.line} ${name}`);
      },
    }),
    { settings },
  );
  return found;
}

/** The lines of the outgoing requests in `code` sent by a function that serves reads. */
function reads(code: string): number[] {
  const found: number[] = [];
  lintSnippet(code, (context) => ({
    CallExpression(call: TSESTree.CallExpression) {
      if (getOutgoingRequest(call, context) && servesReads(call, context)) found.push(call.loc.start.line);
    },
  }));
  return found;
}

describe('keyHeaderOnEveryRequest', () => {
  it("finds a key written by a client's request hook onto the request its parameter carries", () => {
    const middleware = (body: string) =>
      `import getRequestHeaders from './request-headers';\nexport const headers = { name: 'h', req(payload) {\n${body}\nreturn payload; } };`;
    expect(
      hooked(middleware('const { req } = payload;\nreq.headers = { ...req.headers, ...getRequestHeaders() };')),
    ).toEqual(['4 Idempotency-Key']);
    expect(
      hooked(middleware("payload.req.headers = { ...payload.req.headers, 'Idempotency-Key': crypto.randomUUID() };")),
    ).toEqual(['3 Idempotency-Key']);
    // got's `beforeRequest`, an array of hooks given the request's options.
    expect(
      hooked(
        "import got from 'got';\nexport const api = got.extend({ hooks: { beforeRequest: [(options) => { options.headers = { ...options.headers, 'X-Idempotency-Key': crypto.randomUUID() }; }] } });",
      ),
    ).toEqual(['2 X-Idempotency-Key']);
  });

  it('is quiet on a hook that tests the method, on other headers, outside hooks and on other objects', () => {
    expect(
      hooked(
        "import getRequestHeaders from './request-headers';\nexport const m = { req(payload) { const { req } = payload; if (req.method === 'GET') return payload; req.headers = { ...getRequestHeaders() }; return payload; } };",
      ),
    ).toEqual([]);
    expect(
      hooked(
        "export const m = { req(payload) { payload.req.headers = { ...payload.req.headers, Accept: 'application/json' }; return payload; } };",
      ),
    ).toEqual([]);
    // Not a listed source: another module's headers without a key.
    expect(
      hooked(
        "import getHeaders from './auth';\nexport const m = { req(payload) { payload.req.headers = { ...getHeaders() }; return payload; } };",
      ),
    ).toEqual([]);
    // Not a hook: a function that builds its own request.
    expect(
      hooked("export function send(req) { req.headers = { 'Idempotency-Key': crypto.randomUUID() }; return req; }"),
    ).toEqual([]);
    // A hook writing onto something that is not its request.
    expect(
      hooked(
        "const shared = {};\nexport const m = { req(payload) { shared.headers = { 'Idempotency-Key': crypto.randomUUID() }; return payload; } };",
      ),
    ).toEqual([]);
  });
});

describe('servesReads', () => {
  it('finds a request function installed as its own get', () => {
    expect(
      reads(
        "import axios from 'axios';\nconst client = (url, options = {}) => axios(url, { ...options, timeout: 1000 });\nclient.get = client;",
      ),
    ).toEqual([2]);
    expect(
      reads(
        "import axios from 'axios';\nfunction send(url, options) { return axios(url, { ...options, timeout: 1000 }); }\nexport const api = { get: send, post: (url, data) => send(url, { method: 'post', data }) };",
      ),
    ).toEqual([2]);
  });

  it('is quiet on a function installed as a write, or not installed at all', () => {
    expect(
      reads(
        "import axios from 'axios';\nconst client = (url, options) => axios(url, { ...options, timeout: 1000 });\nclient.post = client;",
      ),
    ).toEqual([]);
    expect(
      reads(
        "import axios from 'axios';\nexport const send = (url, options) => axios(url, { ...options, timeout: 1000 });",
      ),
    ).toEqual([]);
  });
});
