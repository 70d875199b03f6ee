import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';

import { keyParametersOf } from '../../src/model/keys/imported.js';
import { importedKeyCalls, unstableKeyMint } from '../../src/model/keys/key-helpers.js';
import { lintSnippet } from '../rule-tester.js';

/** For each `export function` of `code`, by name, what `ask` says of it. */
function perFunction<T>(code: string, ask: (fn: TSESTree.FunctionDeclaration, context: never) => T): Record<string, T> {
  const found: Record<string, T> = {};
  lintSnippet(code, (context) => ({
    FunctionDeclaration(fn: TSESTree.FunctionDeclaration) {
      if (fn.id && fn.parent.type === AST_NODE_TYPES.ExportNamedDeclaration)
        found[fn.id.name] = ask(fn, context as never);
    },
  }));
  return found;
}

describe('keyParametersOf', () => {
  it('finds the parameters a function writes as a key, itself or through a local function', () => {
    expect(
      perFunction(
        `const send = (url: string, body: unknown, requestKey: string) => fetch(url, { method: 'POST', headers: { 'Idempotency-Key': \`entry-\${requestKey}\` }, body: JSON.stringify(body) });
export function post(body: unknown, key: string) { return send('/e', body, key); }
export function direct(id: string, idempotencyKey = id) { return fetch('/p', { method: 'POST', headers: { 'X-Idempotency-Key': idempotencyKey } }); }
export function sdk(stripe: any, amount: number, key: string) { return stripe.charges.create({ amount }, { idempotencyKey: key }); }
export function note(body: unknown, reference: string) { return fetch('/n', { method: 'POST', body: JSON.stringify({ body, reference }) }); }`,
        (fn, context) => keyParametersOf(fn, context),
      ),
    ).toEqual({
      post: [{ index: 1, name: 'key' }],
      direct: [{ index: 1, name: 'idempotencyKey' }],
      sdk: [{ index: 2, name: 'key' }],
      note: [],
    });
  });
});

describe('keyParametersOf, for a field of the object a parameter holds', () => {
  it('finds the property a function makes its key of, read, destructured or handed on to a local function', () => {
    expect(
      perFunction(
        `const send = (data: { ref: string }) => fetch('/s', { method: 'POST', headers: { 'Idempotency-Key': data.ref } });
export function read(queue: any, data: { eventId: string }) { return queue.add('run', data, { jobId: \`orch-\${data.eventId}\` }); }
export function destructured({ eventId, text }: { eventId: string; text: string }) { return fetch('/n', { method: 'POST', headers: { 'Idempotency-Key': eventId }, body: text }); }
export function handedLiteral(id: string) { return send({ ref: id }); }
export function handedOn(input: { ref: string }) { return send(input); }
export function dataOnly(queue: any, data: { eventId: string }) { return queue.add('run', { id: data.eventId }); }`,
        (fn, context) => keyParametersOf(fn, context),
      ),
    ).toEqual({
      read: [{ index: 1, name: 'data', property: 'eventId' }],
      destructured: [{ index: 0, name: 'eventId', property: 'eventId' }],
      handedLiteral: [{ index: 0, name: 'id' }],
      handedOn: [{ index: 0, name: 'input', property: 'ref' }],
      dataOnly: [],
    });
  });
});

describe('unstableKeyMint', () => {
  it('finds the mint of a helper that takes parts of a key and still returns a new value', () => {
    expect(
      perFunction(
        `export function orderKey(id: string) { return \`order-\${id}-\${Date.now()}\`; }
export function withDefault(id: string, at = Date.now()) { return id + ':' + at; }
export function stable(id: string) { return \`order-\${id}\`; }
export function mint() { return crypto.randomUUID(); }
export function record(id: string) { return { id, at: Date.now() }; }`,
        (fn, context) => unstableKeyMint(fn, context)?.description,
      ),
    ).toEqual({
      orderKey: 'Date.now()',
      withDefault: 'Date.now()',
      stable: undefined,
      // Without parts it is a minting function: reported where it is called.
      mint: undefined,
      // A record built for the caller is no key.
      record: undefined,
    });
  });
});

describe('importedKeyCalls', () => {
  it('lists the imported functions whose result the file writes as a key', () => {
    let calls: unknown;
    lintSnippet(
      `import { orderKey, label } from './keys';
import * as ids from './ids';
export async function charge(id: string) {
  const key = orderKey(id);
  await fetch('/c', { method: 'POST', headers: { 'Idempotency-Key': key, 'X-Label': label(id) } });
  await fetch('/r', { method: 'POST', headers: { 'Idempotency-Key': \`r-\${ids.next(id)}\` } });
}`,
      (context) => ({
        Program(program: TSESTree.Program) {
          calls = importedKeyCalls(program, context);
        },
      }),
    );
    expect(calls).toEqual([
      { specifier: './keys', imported: 'orderKey' },
      { specifier: './ids', imported: 'next' },
    ]);
  });
});
