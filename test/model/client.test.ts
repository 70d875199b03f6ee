import * as parser from '@typescript-eslint/parser';
import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';

import { getCheckedOutClient, type CheckedOutClient } from '../../src/model/client.js';

/** Runs `getCheckedOutClient` on every declarator in `code`. */
function clientsIn(code: string): CheckedOutClient[] {
  const found: CheckedOutClient[] = [];
  const rule: Omit<TSESLint.RuleModule<string>, 'defaultOptions'> = {
    meta: { type: 'problem', messages: {}, schema: [] },
    create(context) {
      return {
        VariableDeclarator(node: TSESTree.VariableDeclarator) {
          const client = getCheckedOutClient(node, context);
          if (client) found.push(client);
        },
      };
    },
  };
  const linter = new Linter({ configType: 'flat' });
  const messages = linter.verify(code, [
    {
      files: ['**/*.ts'],
      languageOptions: { parser, sourceType: 'module' },
      plugins: { test: { rules: { client: rule as never } } },
      rules: { 'test/client': 'error' },
    },
  ], 'file.ts');
  expect(messages.filter((message) => message.fatal)).toEqual([]);
  return found;
}

describe('getCheckedOutClient', () => {
  it.each([
    ['pg pool by name', 'async function f(pool) { const client = await pool.connect(); }'],
    ['pg pool by construction', "import { Pool } from 'pg'; const db = new Pool(); async function f() { const client = await db.connect(); }"],
    ['mysql2 pool', "import mysql from 'mysql2/promise'; const db = mysql.createPool({}); async function f() { const conn = await db.getConnection(); }"],
    ['member pool', 'class A { async f() { const conn = await this.pool.getConnection(); } }'],
    ['@vercel/postgres db', "import { db } from '@vercel/postgres'; const client = await db.connect();"],
    ['without await', 'function f(pool) { const pending = pool.connect(); }'],
  ])('finds %s', (_name, code) => {
    const [client] = clientsIn(code);
    expect(client?.binding.type).toBe(AST_NODE_TYPES.Identifier);
    expect(client?.acquire.type).toBe(AST_NODE_TYPES.CallExpression);
  });

  it.each([
    ['pg Client connect', "import { Client } from 'pg'; const client = new Client(); async function f() { const r = await client.connect(); }"],
    ['a mongo client', 'async function f(mongo) { const conn = await mongo.connect(); }'],
    ['callback style', 'function f(pool) { const x = pool.connect((err, client, done) => done()); }'],
    ['destructured', 'async function f(pool) { const { query } = await pool.connect(); }'],
    ['a bare getConnection()', 'async function f() { const c = await getConnection(); }'],
  ])('ignores %s', (_name, code) => {
    expect(clientsIn(code)).toEqual([]);
  });
});
