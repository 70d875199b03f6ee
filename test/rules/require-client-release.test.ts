import rule from '../../rules/require-client-release.js';
import { syntaxRuleTester, typedRuleTester } from '../rule-tester.js';
import { APPLY_TOP_UP } from '../seed-examples.js';

syntaxRuleTester().run('require-client-release', rule, {
  valid: [
    // A driver's standalone connection is lent by no pool: ending it only on the happy path
    // leaves no pool empty (pg's \`new Client()\` likewise).
    `
import mysql from 'mysql2/promise';
export async function runQuery(config, sql) {
  const conn = await mysql.createConnection(config);
  const [rows] = await conn.query(sql);
  conn.end();
  return rows;
}
`,
    APPLY_TOP_UP,
    // A seed or install script runs once and exits: no later job waits on its pool.
    {
      code: "import { Pool } from 'pg'; const pool = new Pool(); export async function seed() { const client = await pool.connect(); await client.query('INSERT INTO t VALUES (1)'); }",
      filename: 'src/bin/seed/seed-blog.ts',
    },
    // node-postgres docs: the transaction pattern.
    `
async function transfer(pool) {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('UPDATE accounts SET balance = balance - 10 WHERE id = 1');
    await client.query('COMMIT');
  } catch (e) {
    await client.query('ROLLBACK');
    throw e;
  } finally {
    client.release();
  }
}
`,
    // Released before any awaited work can throw past it.
    'async function f(pool) { const client = await pool.connect(); client.release(); await other(); }',
    // Early exit that releases first, then try/finally.
    `
async function f(pool, job) {
  const client = await pool.connect();
  if (!job.id) {
    client.release();
    return;
  }
  try {
    await client.query('SELECT 1');
  } finally {
    client.release();
  }
}
`,
    // Released in catch (and rethrown), and after the try on success.
    `
async function f(pool) {
  const client = await pool.connect();
  try {
    await client.query('SELECT 1');
  } catch (err) {
    client.release();
    throw err;
  }
  client.release();
}
`,
    // Ownership moves: returned, wrapped and returned, handed to a registry.
    'async function getClient(pool) { const client = await pool.connect(); return client; }',
    'async function repo(pool) { const client = await pool.connect(); return new Repository(client); }',
    'async function lend(pool, registry) { const client = await pool.connect(); registry.add(client); }',
    // Released by a helper, or by an event handler.
    'async function f(pool) { const client = await pool.connect(); try { await client.query("SELECT 1"); } finally { releaseClient(client); } }',
    "async function f(pool) { const client = await pool.connect(); client.on('end', () => client.release()); await client.query('LISTEN jobs'); }",
    // An awaited release is the release, not work before it.
    'async function f(pool) { const conn = await pool.getConnection(); await conn.release(); await other(); }',
    // A LISTEN connection is held for the life of the process by design.
    "async function listen(pool, onNote) { const client = await pool.connect(); client.on('notification', onNote); await client.query('LISTEN jobs'); }",
    // Wrapped in an object that gives the client back its own way.
    'async function f(pool) { const db = new Database(await pool.connect()); await db.run("SELECT 1"); await db.close(); }',
    // Optional release in finally.
    'async function f(pool) { const client = await pool.connect(); try { await client.query("SELECT 1"); } finally { client?.release(); } }',
    // `let client` assigned inside the try, released in finally.
    'async function f(pool) { let client; try { client = await pool.connect(); await client.query("SELECT 1"); } finally { client?.release(); } }',
    // Explicit resource management.
    'async function f(pool) { await using client = await pool.connect(); await client.query("SELECT 1"); }',
    // Callback style: done() or release() on the paths.
    "pool.connect((err, client, done) => { if (err) return done(err); client.query('SELECT 1', () => done()); });",
    "pool.connect((err, client) => { if (err) throw err; client.query('SELECT 1', () => client.release()); });",
    // Callbacks that are not node-postgres' error-first kind (slonik releases after the handler),
    // and a callback that shuts the pool down.
    'pool.connect(async (connection) => { await connection.query(sql); });',
    'pool.connect((err) => { if (err) console.error(err); pool.end(); });',
    // mssql: connect() with a callback connects the pool itself and returns it.
    'const connection = pool.connect((err) => { if (err) return fail(err); ok(connection); });',
    'const pool = new sql.ConnectionPool(config); pool.connect((err) => { if (err) console.error(err); });',
    // Disposed through the symbol, or released by the query builder's commit / rollback helpers.
    'async function f(pool) { const conn = await pool.getConnection(); try { await conn.query("SELECT 1"); } finally { await conn[Symbol.asyncDispose](); } }',
    `
async function recompute(pool) {
  const connection = await pool.connect();
  try {
    await startTransaction(connection);
    await connection.query('DELETE FROM product_stat');
    await commit(connection);
    return 'done';
  } catch (e) {
    await rollback(connection);
    throw e;
  }
}
`,
    // mysql2 / mariadb: getConnection, release or end in finally.
    "async function f(pool) { const conn = await pool.getConnection(); try { await conn.beginTransaction(); await conn.query('UPDATE t SET a = 1'); await conn.commit(); } catch (e) { await conn.rollback(); throw e; } finally { conn.release(); } }",
    "async function f(pool) { const conn = await pool.getConnection(); try { await conn.query('SELECT 1'); } finally { await conn.end(); } }",
    // Not a pool: a MongoDB or broker connect(), a bare getConnection().
    'async function f(mongo) { const conn = await mongo.connect(); await conn.db("x").collection("y").insertOne({}); }',
    'async function f() { const conn = await getConnection(); await conn.query("SELECT 1"); }',
    // A pg Client is connected, not checked out.
    "import { Client } from 'pg'; async function f() { const client = new Client(); await client.connect(); await client.query('SELECT 1'); await client.end(); }",
    // ROLLBACK with release() is fine unless requireErrorArgument is on.
    {
      code: "async function f(pool) { const client = await pool.connect(); try { await client.query('BEGIN'); await client.query('COMMIT'); } catch (e) { await client.query('ROLLBACK'); throw e; } finally { client.release(); } }",
      options: [{ requireErrorArgument: false }],
    },
    // requireErrorArgument: the error is passed.
    {
      code: "async function f(pool) { const client = await pool.connect(); let failed; try { await client.query('BEGIN'); await client.query('COMMIT'); } catch (e) { failed = e; await client.query('ROLLBACK'); throw e; } finally { client.release(failed); } }",
      options: [{ requireErrorArgument: true }],
    },
    // requireErrorArgument: mysql2's release() takes no error.
    {
      code: "async function f(pool) { const conn = await pool.getConnection(); try { await conn.query('START TRANSACTION'); await conn.query('COMMIT'); } catch (e) { await conn.query('ROLLBACK'); throw e; } finally { conn.release(); } }",
      options: [{ requireErrorArgument: true }],
    },
  ],
  invalid: [
    // Release only on the happy path: the suggestion wraps the rest in try/finally.
    {
      code: `
async function handle(pool, job) {
  const client = await pool.connect();
  const res = await client.query('SELECT * FROM jobs WHERE id = $1', [job.id]);
  client.release();
  return res.rows;
}
`,
      errors: [
        {
          messageId: 'releaseSkipped',
          line: 3,
          column: 24,
          suggestions: [
            {
              messageId: 'wrapInTryFinally',
              output: `
async function handle(pool, job) {
  const client = await pool.connect();
  try {
    const res = await client.query('SELECT * FROM jobs WHERE id = $1', [job.id]);
    return res.rows;
  } finally {
    client.release();
  }
}
`,
            },
          ],
        },
      ],
      output: null,
    },
    // mysql2: getConnection, release after awaited work.
    {
      code: `
async function load(pool) {
  const conn = await pool.getConnection();
  const [rows] = await conn.query('SELECT 1');
  conn.release();
}
`,
      errors: [
        {
          messageId: 'releaseSkipped',
          line: 3,
          column: 22,
          suggestions: [
            {
              messageId: 'wrapInTryFinally',
              output: `
async function load(pool) {
  const conn = await pool.getConnection();
  try {
    const [rows] = await conn.query('SELECT 1');
  } finally {
    conn.release();
  }
}
`,
            },
          ],
        },
      ],
      output: null,
    },
    // Never released.
    {
      code: "async function f(pool) { const client = await pool.connect(); await client.query('SELECT 1'); }",
      errors: [{ messageId: 'neverReleased', line: 1, column: 47, suggestions: [] }],
      output: null,
    },
    // A module-level client from @vercel/postgres, shared by every request and never released.
    {
      code: "import { db } from '@vercel/postgres';\nconst client = await db.connect();\nexport async function GET() { await client.sql`SELECT 1`; }",
      errors: [{ messageId: 'neverReleased', line: 2, column: 22, suggestions: [] }],
      output: null,
    },
    // BEGIN awaited before the try whose finally releases.
    {
      code: `
async function f(pool) {
  const client = await pool.connect();
  await client.query('BEGIN');
  try {
    await client.query('COMMIT');
  } catch (e) {
    await client.query('ROLLBACK');
    throw e;
  } finally {
    client.release();
  }
}
`,
      errors: [
        { messageId: 'releaseSkipped', data: { name: 'client', line: 4 }, line: 3, column: 24, suggestions: [] },
      ],
      output: null,
    },
    // A return inside the try skips the release placed after try/catch.
    {
      code: `
async function read(pool) {
  const client = await pool.connect();
  try {
    const r = await client.query('SELECT 1');
    return r.rows;
  } catch (error) {
    console.log(error);
  }
  client.release();
}
`,
      errors: [
        {
          messageId: 'releaseSkipped',
          data: { name: 'client', line: 6 },
          line: 3,
          column: 24,
          suggestions: [
            {
              messageId: 'wrapInTryFinally',
              output: `
async function read(pool) {
  const client = await pool.connect();
  try {
    try {
      const r = await client.query('SELECT 1');
      return r.rows;
    } catch (error) {
      console.log(error);
    }
  } finally {
    client.release();
  }
}
`,
            },
          ],
        },
      ],
      output: null,
    },
    // An early return before the try.
    {
      code: `
async function f(pool, job) {
  const client = await pool.connect();
  if (!job.id) return;
  try {
    await client.query('SELECT 1');
  } finally {
    client.release();
  }
}
`,
      errors: [
        { messageId: 'releaseSkipped', data: { name: 'client', line: 4 }, line: 3, column: 24, suggestions: [] },
      ],
      output: null,
    },
    // Released on one branch only.
    {
      code: 'async function f(pool, ok) { const client = await pool.connect(); if (ok) { client.release(); } }',
      errors: [{ messageId: 'releaseSkipped', line: 1, column: 51, suggestions: [] }],
      output: null,
    },
    // A client wrapped in a session object, BEGIN awaited before the try (the drizzle shape).
    {
      code: `
class Db {
  async transaction(pool, fn) {
    const session = new Session(await pool.connect());
    await session.execute('begin');
    try {
      return await fn(session);
    } finally {
      session.client.release();
    }
  }
}
`,
      errors: [
        { messageId: 'releaseSkipped', data: { name: 'session', line: 5 }, line: 4, column: 39, suggestions: [] },
      ],
      output: null,
    },
    // A connect-named helper whose result the code releases itself (the SvelteKit hook shape).
    {
      code: `
async function handleDb(event, resolve) {
  const db = await connectToDb();
  event.locals.db = db;
  const response = await resolve(event);
  db.release();
  return response;
}
`,
      errors: [
        {
          messageId: 'releaseSkipped',
          line: 3,
          column: 20,
          suggestions: [
            {
              messageId: 'wrapInTryFinally',
              output: `
async function handleDb(event, resolve) {
  const db = await connectToDb();
  try {
    event.locals.db = db;
    const response = await resolve(event);
    return response;
  } finally {
    db.release();
  }
}
`,
            },
          ],
        },
      ],
      output: null,
    },
    // Callback style that never takes or releases the client.
    {
      code: "import { Pool } from 'pg'; const pool = new Pool(); pool.connect((err) => { if (err) console.error(err); });",
      errors: [{ messageId: 'neverReleased', data: { name: 'client' }, line: 1, column: 53, suggestions: [] }],
      output: null,
    },
    {
      code: "pool.connect((err, client) => { client.query('SELECT 1'); });",
      errors: [{ messageId: 'neverReleased', line: 1, column: 1, suggestions: [] }],
      output: null,
    },
    // requireErrorArgument: ROLLBACK, then release() without the error.
    {
      code: `
async function f(pool) {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('COMMIT');
  } catch (e) {
    await client.query('ROLLBACK');
    throw e;
  } finally {
    client.release();
  }
}
`,
      options: [{ requireErrorArgument: true }],
      errors: [{ messageId: 'releaseWithoutError', line: 11, column: 5, suggestions: [] }],
      output: null,
    },
  ],
});

typedRuleTester().run('require-client-release (typed)', rule, {
  valid: [
    APPLY_TOP_UP,
    // mysql2/promise pool, release in finally.
    "import mysql from 'mysql2/promise'; const db = mysql.createPool({}); export async function f() { const conn = await db.getConnection(); try { await conn.query('SELECT 1'); } finally { conn.release(); } }",
    // A connect() that is not a pool's, whatever the name says.
    'class Broker { async connect() { return { release() {}, async send() {} }; } } const pool = new Broker(); export async function f() { const c = await pool.connect(); await c.send(); c.release(); }',
  ],
  invalid: [
    // A pg Pool known from its type, under a name that does not say pool.
    {
      code: "import { Pool } from 'pg'; export async function f(database: Pool) { const c = await database.connect(); await c.query('SELECT 1'); c.release(); }",
      errors: [
        {
          messageId: 'releaseSkipped',
          line: 1,
          column: 86,
          suggestions: [
            {
              messageId: 'wrapInTryFinally',
              output:
                "import { Pool } from 'pg'; export async function f(database: Pool) { const c = await database.connect(); try {\n  await c.query('SELECT 1');\n} finally {\n  c.release();\n} }",
            },
          ],
        },
      ],
      output: null,
    },
    // mysql2/promise pool, never released.
    {
      code: "import mysql from 'mysql2/promise'; const db = mysql.createPool({}); export async function f() { const conn = await db.getConnection(); await conn.query('SELECT 1'); }",
      errors: [{ messageId: 'neverReleased', line: 1, column: 117, suggestions: [] }],
      output: null,
    },
  ],
});

syntaxRuleTester().run('require-client-release (TypeORM query runners)', rule, {
  valid: [
    `import { DataSource } from 'typeorm';
const dataSource = new DataSource({ type: 'postgres' });
export async function run(id: string) {
  const queryRunner = dataSource.createQueryRunner();
  await queryRunner.connect();
  await queryRunner.startTransaction();
  try {
    await queryRunner.manager.delete('Session', { id });
    await queryRunner.commitTransaction();
  } catch (error) {
    await queryRunner.rollbackTransaction();
    throw error;
  } finally {
    await queryRunner.release();
  }
}`,
    // A data source of its own, destroyed in `finally`: TypeORM releases its runners and closes its pool there.
    `import { DataSource } from 'typeorm';
export async function upsert(options: object, rows: object[]) {
  const dataSource = new DataSource(options as never);
  await dataSource.initialize();
  try {
    const queryRunner = dataSource.createQueryRunner();
    if (rows.length === 0) return;
    await queryRunner.manager.insert('Row', rows);
    await queryRunner.release();
  } finally {
    await dataSource.destroy();
  }
}`,
    // Handed on every path to a helper that releases it (its own \`finally\`).
    `import { DataSource } from 'typeorm';
declare function transaction(runner: unknown, work: (() => Promise<unknown>)[]): Promise<unknown[]>;
const dataSource = new DataSource({ type: 'postgres' });
export async function find(id: string) {
  const queryRunner = dataSource.createQueryRunner();
  const [row] = await transaction(queryRunner, [() => queryRunner.manager.findOne('Movie', { where: { id } })]);
  if (!row) throw new Error('missing');
  return row;
}`,
    // An early exit before the runner's first query holds no connection yet.
    `import { DataSource } from 'typeorm';
declare function transaction(runner: unknown, work: (() => Promise<unknown>)[]): Promise<unknown[]>;
const dataSource = new DataSource({ type: 'postgres' });
export async function save(user: object | undefined) {
  const queryRunner = dataSource.createQueryRunner();
  if (!user) return;
  await transaction(queryRunner, [() => queryRunner.manager.save(user)]);
}`,
    // Handed to the caller, who releases it.
    `import { DataSource } from 'typeorm';
const dataSource = new DataSource({ type: 'postgres' });
export function runner() {
  const queryRunner = dataSource.createQueryRunner();
  return queryRunner;
}`,
  ],
  invalid: [
    {
      // Queried, then handed to the releasing helper only when the row is missing: the other
      // path returns holding the connection.
      code: `import { DataSource } from 'typeorm';
declare function transaction(runner: unknown, work: (() => Promise<unknown>)[]): Promise<unknown[]>;
const dataSource = new DataSource({ type: 'postgres' });
export async function login(user: { id: string }) {
  const queryRunner = dataSource.createQueryRunner();
  const exists = await queryRunner.manager.findOne('Social', { where: { id: user.id } });
  if (!exists) {
    await transaction(queryRunner, [() => queryRunner.manager.save(user)]);
  }
  return;
}`,
      errors: [{ messageId: 'notHandedOn', line: 5, column: 23, data: { name: 'queryRunner', line: 10 } }],
      output: null,
    },
    {
      code: `import { DataSource } from 'typeorm';
const dataSource = new DataSource({ type: 'postgres' });
export async function count(service: { count(runner: unknown): Promise<number> }) {
  const queryRunner = dataSource.createQueryRunner();
  await queryRunner.connect();
  const n = await service.count(queryRunner);
  await queryRunner.release();
  return n;
}`,
      errors: [
        {
          messageId: 'releaseSkipped',
          line: 4,
          column: 23,
          suggestions: [
            {
              messageId: 'wrapInTryFinally',
              output: `import { DataSource } from 'typeorm';
const dataSource = new DataSource({ type: 'postgres' });
export async function count(service: { count(runner: unknown): Promise<number> }) {
  const queryRunner = dataSource.createQueryRunner();
  try {
    await queryRunner.connect();
    const n = await service.count(queryRunner);
    return n;
  } finally {
    await queryRunner.release();
  }
}`,
            },
          ],
        },
      ],
      output: null,
    },
  ],
});
