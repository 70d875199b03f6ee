import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';

import { unwrap } from '../ast/nodes.js';
import { findProperty, findVariable, resolveValue, staticString } from '../ast/values.js';
import { endName, memberName } from '../ast/names.js';
import { importSource } from '../modules.js';
import { type AnyRuleContext } from '../ast/context.js';

/**
 * SQL as the database sees it: which statements open or close a transaction, which ones
 * write, and which calls send a statement to a connection or a pool. A transaction lives on
 * one connection, so the same `BEGIN` means different things on a checked-out client and on
 * a pool (see `pool.ts`).
 */

/**
 * `begin`: BEGIN / START TRANSACTION. `commit`: COMMIT / END. `rollback`: ROLLBACK / ABORT
 * (the whole transaction). `savepoint`: SAVEPOINT and ROLLBACK TO SAVEPOINT, which stay
 * inside the transaction and do not end it. `release`: RELEASE SAVEPOINT.
 */
export type TransactionStatement = 'begin' | 'commit' | 'rollback' | 'savepoint' | 'release';

/** Stands for an interpolated value in the text `queryText` returns for a template. */
const PLACEHOLDER = '?';

/**
 * The SQL text of a query argument when it is statically known: a string literal, a template
 * literal, a `const` string, a concatenation, a `{ text }` / `{ sql }` query config, or an
 * `sql`-tagged template (`pool.query(sql\`...\`)`). Interpolations whose value is not known
 * are replaced by `?` ({@link PLACEHOLDER}): the text is then good for classifying the
 * statement (BEGIN, a write) but not for reading values out of it.
 */
export function queryText(node: TSESTree.Node, context: AnyRuleContext, depth = 0): string | undefined {
  if (depth > 4) return undefined;
  const scope = context.sourceCode.getScope(node);
  const known = staticString(node, scope);
  if (known !== undefined) return known;
  const value = resolveValue(node, scope);
  switch (value.type) {
    case AST_NODE_TYPES.Literal:
      return typeof value.value === 'string' ? value.value : undefined;
    case AST_NODE_TYPES.TemplateLiteral:
      return templateText(value, context);
    case AST_NODE_TYPES.TaggedTemplateExpression: {
      const tag = unwrap(value.tag);
      const name = endName(tag);
      return name !== undefined && /^sql$/i.test(name) ? templateText(value.quasi, context) : undefined;
    }
    case AST_NODE_TYPES.BinaryExpression: {
      if (value.operator !== '+') return undefined;
      const left = queryText(value.left, context, depth + 1) ?? PLACEHOLDER;
      const right = queryText(value.right, context, depth + 1) ?? PLACEHOLDER;
      return left === PLACEHOLDER && right === PLACEHOLDER ? undefined : left + right;
    }
    case AST_NODE_TYPES.ObjectExpression: {
      const property = findProperty(value, (name) => name === 'text' || name === 'sql', scope);
      if (property === undefined || property === 'unknown') return undefined;
      return queryText(property.value, context, depth + 1);
    }
    default:
      return undefined;
  }
}

function templateText(template: TSESTree.TemplateLiteral, context: AnyRuleContext): string {
  const scope = context.sourceCode.getScope(template);
  let text = template.quasis[0]?.value.cooked ?? '';
  template.expressions.forEach((expression, index) => {
    text += (staticString(expression, scope) ?? PLACEHOLDER) + (template.quasis[index + 1]?.value.cooked ?? '');
  });
  return text;
}

/** A PostgreSQL dollar-quote opener: `$$` or `$body$`. */
const DOLLAR_TAG = /^\$[A-Za-z_]*\$/;

/**
 * Splits SQL into statements on top-level semicolons, with comments removed and the content
 * of quoted strings, quoted identifiers and dollar-quoted bodies blanked, so a keyword inside
 * a string (`'BEGIN'`) or an identifier (`commit_id`) is never read as a statement.
 */
export function sqlStatements(text: string): string[] {
  const statements: string[] = [];
  let current = '';
  let i = 0;
  while (i < text.length) {
    const char = text.charAt(i);
    const next = text.charAt(i + 1);
    if (char === '-' && next === '-') {
      const end = text.indexOf('\n', i);
      i = end === -1 ? text.length : end;
      current += ' ';
    } else if (char === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end === -1 ? text.length : end + 2;
      current += ' ';
    } else if (char === "'" || char === '"' || char === '`') {
      let end = i + 1;
      for (;;) {
        end = text.indexOf(char, end);
        if (end === -1 || text[end + 1] !== char) break;
        end += 2; // a doubled quote escapes itself
      }
      i = end === -1 ? text.length : end + 1;
      current += char === "'" ? " '' " : ' "q" ';
    } else if (char === '$' && DOLLAR_TAG.test(text.slice(i))) {
      const tag = DOLLAR_TAG.exec(text.slice(i))?.[0] ?? '$$';
      const end = text.indexOf(tag, i + tag.length);
      i = end === -1 ? text.length : end + tag.length;
      current += " '' ";
    } else if (char === ';') {
      statements.push(current);
      current = '';
      i++;
    } else {
      current += char;
      i++;
    }
  }
  statements.push(current);
  return statements.map((statement) => statement.trim()).filter((statement) => statement !== '');
}

/** The upper-cased words and parentheses of one statement from {@link sqlStatements}. */
function sqlTokens(statement: string): string[] {
  return statement.toUpperCase().match(/[A-Z_][A-Z0-9_$]*|[()]|[^\sA-Z_()]+/g) ?? [];
}

/** Words that may follow BEGIN when it opens a transaction (PostgreSQL, MySQL, SQLite). */
const BEGIN_FOLLOWERS = new Set([
  'TRANSACTION',
  'WORK',
  'ISOLATION',
  'READ',
  'NOT',
  'DEFERRABLE',
  'DEFERRED',
  'IMMEDIATE',
  'EXCLUSIVE',
]);

/**
 * The transaction-control statement `text` is, or undefined. A text holding more than one
 * statement (`'BEGIN; UPDATE ...; COMMIT'`) is one round trip on one connection, so it is
 * not a transaction statement of its own: undefined. `ROLLBACK TO SAVEPOINT` is `'savepoint'`
 * (it keeps the transaction open); two-phase `COMMIT PREPARED` / `ROLLBACK PREPARED` is
 * undefined.
 */
export function transactionStatement(text: string): TransactionStatement | undefined {
  const statements = sqlStatements(text);
  if (statements.length !== 1) return undefined;
  const [first, second, third] = sqlTokens(statements[0] ?? '');
  switch (first) {
    case 'BEGIN':
      return second === undefined || BEGIN_FOLLOWERS.has(second) ? 'begin' : undefined;
    case 'START':
      return second === 'TRANSACTION' ? 'begin' : undefined;
    case 'COMMIT':
      return second === 'PREPARED' ? undefined : 'commit';
    case 'END':
      return second === undefined || second === 'TRANSACTION' || second === 'WORK' ? 'commit' : undefined;
    case 'ROLLBACK':
    case 'ABORT':
      if (second === 'PREPARED') return undefined;
      if (second === 'TO' || ((second === 'WORK' || second === 'TRANSACTION') && third === 'TO')) return 'savepoint';
      return 'rollback';
    case 'SAVEPOINT':
      return 'savepoint';
    case 'RELEASE':
      return 'release';
    default:
      return undefined;
  }
}

const WRITE_KEYWORDS = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE', 'UPSERT', 'REPLACE']);

/**
 * True when every statement of `text` is a DELETE: run again, it finds the rows it matched gone
 * and deletes nothing more. A CTE (`WITH moved AS (DELETE ... RETURNING *) INSERT ...`) may write
 * too and is not one.
 */
export function isDeleteStatement(text: string): boolean {
  const statements = sqlStatements(text);
  return (
    statements.length > 0 &&
    statements.every((statement) => {
      const tokens = sqlTokens(statement);
      return (tokens[0] === '(' ? tokens[1] : tokens[0]) === 'DELETE';
    })
  );
}
const MAIN_KEYWORDS = new Set([...WRITE_KEYWORDS, 'SELECT', 'VALUES', 'TABLE']);

/**
 * True when `text` changes rows: INSERT / UPDATE / DELETE / MERGE / UPSERT / REPLACE, also
 * after comments, behind `WITH ...` common table expressions, or as a data-modifying CTE
 * (`WITH moved AS (DELETE ... RETURNING *) SELECT ...`). Any statement of a multi-statement
 * text counts.
 */
export function isWriteStatement(text: string): boolean {
  return sqlStatements(text).some((statement) => {
    const tokens = sqlTokens(statement);
    const head = tokens[0] === '(' ? tokens[1] : tokens[0];
    if (head === undefined) return false;
    if (head !== 'WITH') return WRITE_KEYWORDS.has(head);
    let depth = 0;
    for (let i = 1; i < tokens.length; i++) {
      const token = tokens[i] ?? '';
      if (token === '(') {
        depth++;
        if (depth === 1 && WRITE_KEYWORDS.has(tokens[i + 1] ?? '')) return true;
      } else if (token === ')') {
        depth--;
      } else if (depth === 0 && MAIN_KEYWORDS.has(token)) {
        return WRITE_KEYWORDS.has(token);
      }
    }
    return false;
  });
}

/** A call that sends SQL: `<receiver>.query(sql, ...)` or `<receiver>.execute(sql, ...)` (mysql2). */
export interface QueryCall {
  call: TSESTree.CallExpression;
  receiver: TSESTree.Node;
  /** The statically known SQL (see {@link queryText}), or undefined. */
  text: string | undefined;
  /** The argument holding the SQL. */
  textNode: TSESTree.Node | undefined;
}

/**
 * Locks a statement takes until its transaction ends: PostgreSQL's transaction-level advisory
 * locks (`pg_advisory_xact_lock`, `pg_try_advisory_xact_lock`, their `_shared` forms), row
 * locks (`SELECT … FOR UPDATE` / `FOR NO KEY UPDATE` / `FOR SHARE` / `FOR KEY SHARE`) and
 * `LOCK TABLE`. Outside its transaction such a statement runs in one of its own, and the lock
 * is released as soon as it returns.
 */
const TRANSACTION_LOCK =
  /\bpg_(?:try_)?advisory_xact_lock(?:_shared)?\s*\(|\bfor\s+(?:no\s+key\s+)?update\b|\bfor\s+(?:key\s+)?share\b|^\s*lock\s+(?:table\s+)?\w/i;

/** True when the statement takes a lock that lasts until the end of its transaction. */
export function takesTransactionLock(text: string): boolean {
  return sqlStatements(text).some((statement) => TRANSACTION_LOCK.test(statement));
}

const QUERY_METHODS = new Set(['query', 'execute']);

/**
 * The query sent by `call` when it is `<x>.query(sql, ...)` or `<x>.execute(sql, ...)`,
 * whatever `<x>` is (pool, client, connection: ask `pool.ts`). Undefined for other calls and
 * for a call without a SQL argument.
 */
export function getQueryCall(call: TSESTree.CallExpression, context: AnyRuleContext): QueryCall | undefined {
  const callee = unwrap(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const method = memberName(callee);
  if (method === undefined || !QUERY_METHODS.has(method)) return undefined;
  const first = call.arguments[0];
  if (!first || first.type === AST_NODE_TYPES.SpreadElement) return undefined;
  return { call, receiver: callee.object, text: queryText(first, context), textNode: first };
}

/**
 * A tagged template that runs SQL: `client.sql\`...\`` (`@vercel/postgres` pools and
 * clients), or a bare tag bound to an executor: `sql` imported from `@vercel/postgres`, an
 * instance of postgres.js (`postgres(...)`) or of `neon(...)`, or the transaction handle a
 * postgres.js `sql.begin((tx) => ...)` callback receives. The receiver of a bare tag is the
 * tag itself. Builders that only compose SQL (`pool.query(sql\`...\`)`) are not sends.
 */
export function getTaggedQuery(
  tagged: TSESTree.TaggedTemplateExpression,
  context: AnyRuleContext,
): { node: TSESTree.TaggedTemplateExpression; receiver: TSESTree.Node; text: string } | undefined {
  const tag = unwrap(tagged.tag);
  const text = templateText(tagged.quasi, context);
  if (tag.type === AST_NODE_TYPES.MemberExpression) {
    return memberName(tag) === 'sql' ? { node: tagged, receiver: tag.object, text } : undefined;
  }
  if (tag.type === AST_NODE_TYPES.Identifier && isSqlExecutorTag(tag, context))
    return { node: tagged, receiver: tag, text };
  return undefined;
}

/** Factories whose result is itself a tag that runs SQL. */
const EXECUTOR_FACTORIES: readonly { module: string; imported: string }[] = [
  { module: 'postgres', imported: 'default' },
  { module: '@neondatabase/serverless', imported: 'neon' },
  { module: '@vercel/postgres', imported: 'createPool' },
];

function isSqlExecutorTag(tag: TSESTree.Identifier, context: AnyRuleContext): boolean {
  const scope = context.sourceCode.getScope(tag);
  const source = importSource(tag, scope);
  if (source) return source.module === '@vercel/postgres' && source.imported === 'sql';
  const value = resolveValue(tag, scope);
  if (value.type === AST_NODE_TYPES.CallExpression) {
    const callee = unwrap(value.callee);
    if (callee.type !== AST_NODE_TYPES.Identifier) return false;
    const factory = importSource(callee, scope);
    return (
      factory !== undefined &&
      EXECUTOR_FACTORIES.some((entry) => entry.module === factory.module && entry.imported === factory.imported)
    );
  }
  if (value.type === AST_NODE_TYPES.Identifier) return postgresTransactionHandle(value, context) !== undefined;
  return false;
}

/**
 * When `identifier` is the parameter of a postgres.js transaction callback
 * (`sql.begin(async (tx) => ...)`, `sql.begin('isolation level ...', (tx) => ...)`), the
 * `sql` that began it.
 */
export function postgresTransactionHandle(
  identifier: TSESTree.Identifier,
  context: AnyRuleContext,
): TSESTree.Node | undefined {
  const variable = findVariable(context.sourceCode.getScope(identifier), identifier);
  const def = variable?.defs[0];
  if (def?.type !== TSESLint.Scope.DefinitionType.Parameter) return undefined;
  const callback = def.node;
  if (callback.type !== AST_NODE_TYPES.ArrowFunctionExpression && callback.type !== AST_NODE_TYPES.FunctionExpression)
    return undefined;
  if (callback.params[0] !== def.name) return undefined;
  const call = callback.parent;
  if (call.type !== AST_NODE_TYPES.CallExpression || !call.arguments.includes(callback)) return undefined;
  const callee = unwrap(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression || memberName(callee) !== 'begin') return undefined;
  const owner = unwrap(callee.object);
  if (owner.type !== AST_NODE_TYPES.Identifier || !isSqlExecutorTag(owner, context)) return undefined;
  return owner;
}

/** Driver methods that control a transaction on a connection (mysql2, mysql, mariadb). */
const TRANSACTION_METHODS: ReadonlyMap<string, TransactionStatement> = new Map([
  ['beginTransaction', 'begin'],
  ['commit', 'commit'],
  ['rollback', 'rollback'],
]);

/** One transaction-control step: a statement sent as SQL, or a driver method. */
export interface TransactionStep {
  kind: TransactionStatement;
  /** The call or tagged template that sends it. */
  node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression;
  /** Where it is sent: a pool, a client, a connection. */
  receiver: TSESTree.Node;
  /** `'sql'` for a statement (`query('BEGIN')`), `'method'` for `conn.beginTransaction()` and the like. */
  via: 'sql' | 'method';
}

/**
 * The transaction step `node` performs: `x.query('BEGIN')`, `x.execute('COMMIT')`,
 * `x.sql\`ROLLBACK\``, or the driver methods `x.beginTransaction()`, `x.commit()`,
 * `x.rollback()` (without arguments, or with a callback only, as mysql and mariadb take).
 */
export function transactionStep(
  node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression,
  context: AnyRuleContext,
): TransactionStep | undefined {
  if (node.type === AST_NODE_TYPES.TaggedTemplateExpression) {
    const tagged = getTaggedQuery(node, context);
    const kind = tagged && transactionStatement(tagged.text);
    return tagged && kind ? { kind, node, receiver: tagged.receiver, via: 'sql' } : undefined;
  }
  const query = getQueryCall(node, context);
  if (query) {
    const kind = query.text === undefined ? undefined : transactionStatement(query.text);
    return kind ? { kind, node, receiver: query.receiver, via: 'sql' } : undefined;
  }
  const callee = unwrap(node.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const method = memberName(callee);
  const kind = method === undefined ? undefined : TRANSACTION_METHODS.get(method);
  if (kind === undefined) return undefined;
  const onlyCallbacks = node.arguments.every(
    (argument) =>
      argument.type === AST_NODE_TYPES.ArrowFunctionExpression || argument.type === AST_NODE_TYPES.FunctionExpression,
  );
  if (!onlyCallbacks) return undefined;
  return { kind, node, receiver: callee.object, via: 'method' };
}
