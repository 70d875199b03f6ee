import type { TSESTree } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';

import {
  getQueryCall,
  isWriteStatement,
  sqlStatements,
  transactionStatement,
  transactionStep,
} from '../../src/model/sql/statements.js';
import type { AnyRuleContext } from '../../src/model/ast/context.js';
import { lintSnippet } from '../rule-tester.js';

/** Runs `collect` on every call and tagged template in `code`. */
function collectIn<T>(
  code: string,
  collect: (
    node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression,
    context: AnyRuleContext,
  ) => T | undefined,
): T[] {
  const found: T[] = [];
  const visit = (context: AnyRuleContext) => (node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression) => {
    const value = collect(node, context);
    if (value !== undefined) found.push(value);
  };
  lintSnippet(code, (context) => ({ CallExpression: visit(context), TaggedTemplateExpression: visit(context) }));
  return found;
}

function textsIn(code: string): (string | undefined)[] {
  return collectIn(code, (node, context) => {
    if (!('arguments' in node)) return undefined;
    const query = getQueryCall(node, context);
    return query ? [query.text] : undefined;
  }).flat();
}

describe('transactionStatement', () => {
  it.each([
    ['BEGIN', 'begin'],
    ['begin;', 'begin'],
    ['  -- open it\n BEGIN TRANSACTION', 'begin'],
    ['BEGIN ISOLATION LEVEL SERIALIZABLE', 'begin'],
    ['BEGIN WORK', 'begin'],
    ['START TRANSACTION', 'begin'],
    ['start transaction read only;', 'begin'],
    ['COMMIT', 'commit'],
    ['commit work', 'commit'],
    ['END', 'commit'],
    ['END TRANSACTION;', 'commit'],
    ['ROLLBACK', 'rollback'],
    ['/* undo */ rollback;', 'rollback'],
    ['ABORT', 'rollback'],
    ['ROLLBACK TO SAVEPOINT before_charge', 'savepoint'],
    ['ROLLBACK TO before_charge', 'savepoint'],
    ['ROLLBACK WORK TO SAVEPOINT s', 'savepoint'],
    ['SAVEPOINT s1', 'savepoint'],
    ['RELEASE SAVEPOINT s1', 'release'],
  ])('%j is %s', (text, kind) => {
    expect(transactionStatement(text)).toBe(kind);
  });

  it.each([
    'BEGIN; UPDATE accounts SET credits = credits + 1; COMMIT',
    'BEGINNER',
    "SELECT 'BEGIN'",
    'SELECT commit_id FROM deploys',
    "COMMIT PREPARED 'tx1'",
    "ROLLBACK PREPARED 'tx1'",
    'BEGIN UPDATE t SET a = 1; END;',
    'END IF',
    'START SLAVE',
    '',
    '-- BEGIN',
    'UPDATE t SET a = 1',
  ])('%j is not a transaction statement', (text) => {
    expect(transactionStatement(text)).toBeUndefined();
  });
});

describe('isWriteStatement', () => {
  it.each([
    'INSERT INTO processed_jobs (job_id) VALUES ($1) ON CONFLICT DO NOTHING',
    'update accounts set credits = credits + $1 where id = $2',
    'DELETE FROM jobs WHERE id = $1',
    'MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN UPDATE SET a = s.a',
    'REPLACE INTO t (a) VALUES (1)',
    'UPSERT INTO t (a) VALUES (1)',
    '-- note\n/* more */ INSERT INTO t VALUES (1)',
    'WITH x AS (SELECT 1) INSERT INTO t SELECT * FROM x',
    'WITH RECURSIVE x (n) AS (SELECT 1 UNION SELECT n + 1 FROM x) UPDATE t SET n = 1',
    'WITH moved AS (DELETE FROM queue RETURNING *) SELECT * FROM moved',
    'WITH a AS MATERIALIZED (SELECT 1), b AS (UPDATE t SET a = 1 RETURNING a) SELECT * FROM b',
    'SELECT 1; DELETE FROM t',
  ])('%j writes', (text) => {
    expect(isWriteStatement(text)).toBe(true);
  });

  it.each([
    'SELECT * FROM accounts FOR UPDATE',
    "SELECT 'INSERT INTO t' AS s",
    'SELECT replace(name, $1, $2) FROM t',
    'WITH x AS (SELECT 1) SELECT * FROM x',
    'BEGIN',
    'CREATE TABLE t (a int)',
    '',
  ])('%j does not write', (text) => {
    expect(isWriteStatement(text)).toBe(false);
  });
});

describe('sqlStatements', () => {
  it('splits on top-level semicolons only', () => {
    expect(sqlStatements("INSERT INTO t VALUES ('a;b'); SELECT $$;$$; -- c;\nCOMMIT")).toEqual([
      "INSERT INTO t VALUES ( '' )",
      "SELECT  ''",
      'COMMIT',
    ]);
  });

  it('survives unterminated quotes and comments', () => {
    expect(sqlStatements("SELECT 'x")).toEqual(["SELECT  ''"]);
    expect(sqlStatements('SELECT 1 /* x')).toEqual(['SELECT 1']);
    expect(sqlStatements("SELECT 'it''s'")).toEqual(["SELECT  ''"]);
  });
});

describe('queryText / getQueryCall', () => {
  it('reads literals, templates, constants, concatenations and query configs', () => {
    expect(
      textsIn(`
      const BEGIN = 'BEGIN';
      const level = getLevel();
      pool.query('COMMIT');
      pool.query(\`ROLLBACK\`);
      pool.query(BEGIN);
      pool.query(\`BEGIN ISOLATION LEVEL \${level}\`);
      pool.query('SELECT ' + level);
      pool.query({ text: 'INSERT INTO t VALUES ($1)', values: [1] });
      conn.query({ sql: 'START TRANSACTION' });
      conn.execute('UPDATE t SET a = ?', [1]);
      pool.query(sql\`SELECT 1\`);
      pool.query(statement);
      pool.query({ ...config });
      pool.query(level + other);
    `),
    ).toEqual([
      'COMMIT',
      'ROLLBACK',
      'BEGIN',
      'BEGIN ISOLATION LEVEL ?',
      'SELECT ?',
      'INSERT INTO t VALUES ($1)',
      'START TRANSACTION',
      'UPDATE t SET a = ?',
      'SELECT 1',
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('ignores other methods and calls without SQL', () => {
    expect(textsIn('pool.connect(); command.execute(); run("BEGIN"); pool.query(...args); pool.end();')).toEqual([]);
  });
});

describe('transactionStep', () => {
  function stepsIn(code: string): string[] {
    return collectIn(code, (node, context) => {
      const step = transactionStep(node, context);
      return step && `${context.sourceCode.getText(step.receiver)}:${step.kind}:${step.via}`;
    });
  }

  it('finds statements, driver methods and executing tagged templates', () => {
    expect(
      stepsIn(`
      import { sql as vercel } from '@vercel/postgres';
      import postgres from 'postgres';
      const pg = postgres(process.env.DATABASE_URL);
      await client.query('BEGIN');
      await conn.beginTransaction();
      await conn.commit();
      conn.rollback(() => done());
      await client.sql\`ROLLBACK\`;
      await vercel\`BEGIN\`;
      await pg\`COMMIT\`;
      await pg.begin(async (tx) => { await tx\`SAVEPOINT a\`; });
    `),
    ).toEqual([
      'client:begin:sql',
      'conn:begin:method',
      'conn:commit:method',
      'conn:rollback:method',
      'client:rollback:sql',
      'vercel:begin:sql',
      'pg:commit:sql',
      'tx:savepoint:sql',
    ]);
  });

  it('ignores builders, other tags and look-alike methods', () => {
    expect(
      stepsIn(`
      import { sql } from 'drizzle-orm';
      await db.execute(sql\`SELECT 1\`);
      html\`BEGIN\`;
      sql\`BEGIN\`;
      await trx.commit(result);
      await client.query('SELECT 1');
      await client.query(text);
      await git.commit('message');
    `),
    ).toEqual([]);
  });
});
