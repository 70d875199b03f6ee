import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { enclosingFunction, unwrap } from '../ast/nodes.js';
import { findVariable } from '../ast/values.js';
import { memberName } from '../ast/names.js';
import { type AnyRuleContext } from '../ast/context.js';
import { poolEvidence } from './pools.js';
import { getQueryCall, getTaggedQuery, isWriteStatement, queryText, sqlStatements } from './statements.js';
import { walk } from '../ast/walk.js';
import { importSource } from '../modules.js';

/**
 * Idempotency claims: the insert that quietly loses the race
 * (`INSERT INTO processed_jobs (job_id) VALUES ($1) ON CONFLICT DO NOTHING`). Its affected-row
 * count is the only thing that tells the second delivery it came second, so the result has
 * to be read before the effects run.
 */

/** Drops SQL comments and collapses whitespace, so patterns can match across lines. */
function normalizeSql(text: string): string {
  return text
    .replace(/--[^\n]*/g, ' ')
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .toUpperCase();
}

const INSERT = /(?:^|[\s(;])INSERT\s/;
// pg / sqlite: ON CONFLICT [ (cols) | ON CONSTRAINT name ] [WHERE ...] DO NOTHING
const ON_CONFLICT_DO_NOTHING = /\bON CONFLICT\b(?:(?!\bDO\b)[^;])*\bDO NOTHING\b/;
// mysql / mariadb: INSERT IGNORE; sqlite: INSERT OR IGNORE
const INSERT_IGNORE = /\bINSERT (?:IGNORE|OR IGNORE)\b/;
// mysql: ON DUPLICATE KEY UPDATE id = id, a no-op update that reports 0 affected rows on a duplicate
const ON_DUPLICATE_NOOP = /\bON DUPLICATE KEY UPDATE ([\w`."]+) ?= ?([\w`."]+) ?(?:;|$)/;
const RETURNING = /\bRETURNING\b/;

function unquote(name: string): string {
  const parts = name.replace(/[`"]/g, '').split('.');
  return parts[parts.length - 1] ?? name;
}

/**
 * True for an insert that does nothing when the row already exists, so its affected-row
 * count says whether this delivery is the first: `INSERT ... ON CONFLICT DO NOTHING` (pg,
 * sqlite), `INSERT IGNORE` (mysql), `INSERT OR IGNORE` (sqlite), and mysql's no-op
 * `ON DUPLICATE KEY UPDATE id = id`. An upsert (`ON CONFLICT ... DO UPDATE SET x = ...`) is not a claim.
 */
export function isClaimStatement(text: string): boolean {
  const sql = normalizeSql(text);
  if (!INSERT.test(` ${sql}`)) return false;
  if (ON_CONFLICT_DO_NOTHING.test(sql) || INSERT_IGNORE.test(sql)) return true;
  const duplicate = ON_DUPLICATE_NOOP.exec(sql);
  return duplicate?.[1] !== undefined && duplicate[2] !== undefined && unquote(duplicate[1]) === unquote(duplicate[2]);
}

const INSERT_TARGET = /\bINSERT (?:IGNORE |OR IGNORE )?INTO ([\w."`]+) ?(?:\(([^)]*)\))?/;
/** A bound parameter: `$1` (pg), `?` (mysql2, and any interpolation in a template), `:id` / `@id` (named). */
const PARAMETER = /\$\d|\?|(?<!:)[:@][A-Za-z_]/;
/** Tables that exist to remember what was handled. */
const MARKER_TABLE =
  /processed|idempot|dedup|handled|consumed|inbox|claim|seen|executed|delivered|deliver(?:y|ies)|received|once|(?:^|_)done(?:_|$)/i;
/** Columns that hold the identity of a message, a job or a request. */
const MARKER_COLUMN =
  /^(?:job|event|message|msg|delivery|webhook|request|update|notification|task|command|operation|idempotency|dedupe?)_?(?:id|key)$|^idempotency|^dedupe?/i;

/**
 * True when a claim statement records that something was handled, rather than inserting
 * data that may already exist (seed rows, a tag, a history line): the table is named for it
 * (`processed_jobs`, `idempotency_keys`, `webhook_deliveries`, `inbox`), or a short row
 * (at most three columns) carries a message, event or job id; and its values are bound
 * parameters, not literals. Only such a claim guards effects.
 */
export function isMarkerClaim(text: string): boolean {
  if (!isClaimStatement(text)) return false;
  const sql = normalizeSql(text);
  // A claim is keyed by the job at hand; literal values are fixture or seed rows.
  if (!PARAMETER.test(sqlStatements(text).join(';'))) return false;
  const target = INSERT_TARGET.exec(sql);
  if (!target?.[1]) return false;
  const columns = (target[2] ?? '')
    .split(',')
    .map((column) => unquote(column.trim()))
    .filter((column) => column !== '');
  return isMarkerRow(unquote(target[1]), columns);
}

/**
 * True when a claim's target records handled work: the table (or ORM model) is named for it,
 * or a short row (at most three columns) carries a message, event or job id. Shared by SQL
 * claims and ORM claims (`prisma.processedEvent.createMany`, `db.insert(processedEvents)`).
 */
export function isMarkerRow(table: string | undefined, columns: readonly string[]): boolean {
  if (table !== undefined && MARKER_TABLE.test(table)) return true;
  return columns.length > 0 && columns.length <= 3 && columns.some((column) => MARKER_COLUMN.test(column));
}

/** True when the statement returns rows (`RETURNING`), so reading the rows tells a claim from a duplicate. */
export function hasReturning(text: string): boolean {
  return RETURNING.test(normalizeSql(text));
}

export interface Claim {
  call: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression;
  /**
   * `checked`: the affected-row count (or returned rows) is read; `unchecked`: the result is
   * discarded or only other parts of it are read; `unknown`: it leaves this function (returned,
   * passed to a call), so someone else may check it.
   */
  resultRead: 'checked' | 'unchecked' | 'unknown';
  /** The claim runs on a connection pool, so it commits on its own, outside any transaction. */
  onPool: boolean;
  /** The claim's SQL text. */
  text: string;
  /** The claim records that a job, message or event was handled (see {@link isMarkerClaim}). */
  marker: boolean;
  /** Nothing the claim resolves to can say whether it inserted (Prisma's `upsert` with an empty `update`). */
  blind?: true;
}

/**
 * pg-promise methods that send SQL: `none` resolves to nothing, `result` to the driver's
 * result, the others to rows. (`query` / `execute` are read by `sql.ts`.)
 */
const PG_PROMISE_METHODS = new Set(['none', 'one', 'oneOrNone', 'many', 'manyOrNone', 'any', 'result']);
/** Methods that resolve to the rows, not to a result object. */
const ROW_METHODS = new Set(['one', 'oneOrNone', 'many', 'manyOrNone', 'any']);

/** Properties of a driver result that carry the affected-row count (pg, mysql2 / mariadb, sqlite, postgres.js). */
const COUNT_PROPERTIES = new Set(['rowCount', 'affectedRows', 'changes', 'count']);

/** A call that sends SQL text: `x.query(sql)`, `x.execute(sql)` (see `sql.ts`), or pg-promise's `db.none(sql)` and friends. */
function sqlCall(
  call: TSESTree.CallExpression,
  context: AnyRuleContext,
): { receiver: TSESTree.Node; method: string; text: string } | undefined {
  const query = getQueryCall(call, context);
  const callee = unwrap(call.callee);
  const method = callee.type === AST_NODE_TYPES.MemberExpression ? memberName(callee) : undefined;
  if (query)
    return query.text === undefined || method === undefined
      ? undefined
      : { receiver: query.receiver, method, text: query.text };
  if (callee.type !== AST_NODE_TYPES.MemberExpression || method === undefined || !PG_PROMISE_METHODS.has(method))
    return undefined;
  const first = call.arguments[0];
  if (!first || first.type === AST_NODE_TYPES.SpreadElement) return undefined;
  const text = queryText(first, context);
  return text === undefined ? undefined : { receiver: callee.object, method, text };
}

/**
 * The outermost expression that still carries the call's value: the call itself, or the
 * `await`, cast or parentheses around it.
 */
function valueHolder(node: TSESTree.Node): TSESTree.Node {
  let current = node;
  for (;;) {
    const parent = current.parent;
    if (!parent) return current;
    if (
      (parent.type === AST_NODE_TYPES.AwaitExpression && parent.argument === current) ||
      ((parent.type === AST_NODE_TYPES.TSAsExpression ||
        parent.type === AST_NODE_TYPES.TSNonNullExpression ||
        parent.type === AST_NODE_TYPES.TSSatisfiesExpression ||
        parent.type === AST_NODE_TYPES.TSTypeAssertion ||
        parent.type === AST_NODE_TYPES.ChainExpression) &&
        parent.expression === current)
    ) {
      current = parent;
      continue;
    }
    return current;
  }
}

type Read = 'checked' | 'unchecked' | 'unknown';

/** Combines the reads of several uses: any check wins, then any escape, else unchecked. */
function combine(reads: Read[]): Read {
  if (reads.includes('checked')) return 'checked';
  if (reads.includes('unknown')) return 'unknown';
  return 'unchecked';
}

interface ReadContext {
  context: AnyRuleContext;
  /** Properties besides the affected-row counts that tell first from duplicate (TypeORM's `raw`, `identifiers`). */
  outcome?: ReadonlySet<string>;
  /** The value is a `[row, created]` pair (Sequelize `findOrCreate`): only its second element tells. */
  pair?: boolean;
  /** True when the statement returns rows, so reading them tells first from duplicate. */
  returning: boolean;
  /** True when the value is the rows themselves (pg-promise `oneOrNone`), not a result object. */
  rows: boolean;
  depth: number;
}

/** How the value held by `node` (a result, or part of one) is used. */
export function readOfValue(node: TSESTree.Node, ctx: ReadContext): Read {
  if (ctx.depth > 6) return 'unknown';
  const holder = valueHolder(node);
  const parent = holder.parent;
  if (!parent) return 'unknown';
  const next = { ...ctx, depth: ctx.depth + 1 };
  switch (parent.type) {
    case AST_NODE_TYPES.ExpressionStatement:
      return 'unchecked';
    case AST_NODE_TYPES.UnaryExpression:
      // `void pool.query(...)` discards; `!rows` tests.
      return parent.operator === 'void' ? 'unchecked' : ctx.rows ? 'checked' : 'unknown';
    case AST_NODE_TYPES.MemberExpression: {
      if (parent.object !== holder) return 'unknown';
      const name = memberName(parent, ctx.context.sourceCode.getScope(parent));
      if (name === undefined) return 'unknown';
      if (name === 'then' || name === 'catch' || name === 'finally') return readOfThen(parent, name, ctx);
      return readOfProperty(parent, name, next);
    }
    case AST_NODE_TYPES.VariableDeclarator:
      if (parent.init !== holder) return 'unknown';
      return readOfPattern(parent.id, ctx);
    case AST_NODE_TYPES.AssignmentExpression:
      if (parent.right !== holder || parent.operator !== '=') return 'unknown';
      return readOfPattern(parent.left, ctx);
    case AST_NODE_TYPES.IfStatement:
    case AST_NODE_TYPES.ConditionalExpression:
    case AST_NODE_TYPES.LogicalExpression:
    case AST_NODE_TYPES.BinaryExpression:
      // The value itself is tested: rows (`if (!row) return`), or a count compared.
      return ctx.rows || ctx.returning ? 'checked' : 'unknown';
    default:
      // Returned, passed to a call, stored in an object: someone else may check it.
      return 'unknown';
  }
}

/** `result.rowCount`, `result.rows`, `result[0]` (mysql2's `[header, fields]`). */
function readOfProperty(member: TSESTree.MemberExpression, name: string, ctx: ReadContext): Read {
  if (ctx.pair) return name === '1' ? readOfValue(member, { ...ctx, pair: false, rows: true }) : 'unchecked';
  if (COUNT_PROPERTIES.has(name) || ctx.outcome?.has(name)) return 'checked';
  if (ctx.rows) return ctx.returning ? 'checked' : 'unknown';
  if (name === 'rows' && ctx.returning) return 'checked';
  // mysql2 resolves to [ResultSetHeader, fields]; the header carries affectedRows.
  if (name === '0') return readOfValue(member, ctx);
  return 'unchecked';
}

/** `pool.query(...).then((result) => ...)`: the callback's parameter carries the result. */
function readOfThen(member: TSESTree.MemberExpression, name: string, ctx: ReadContext): Read {
  const call = member.parent;
  if (call.type !== AST_NODE_TYPES.CallExpression || call.callee !== member) return 'unknown';
  if (name !== 'then') return readOfValue(call, ctx);
  const callback = call.arguments[0];
  if (!callback) return readOfValue(call, ctx);
  if (callback.type !== AST_NODE_TYPES.ArrowFunctionExpression && callback.type !== AST_NODE_TYPES.FunctionExpression)
    return 'unknown';
  const parameter = callback.params[0];
  if (!parameter) return 'unchecked';
  return readOfPattern(parameter, ctx);
}

/** How a binding pattern that receives the value is used. */
function readOfPattern(pattern: TSESTree.Node, ctx: ReadContext): Read {
  switch (pattern.type) {
    case AST_NODE_TYPES.Identifier:
      return readOfBinding(pattern, ctx);
    case AST_NODE_TYPES.ObjectPattern: {
      const reads: Read[] = [];
      for (const property of pattern.properties) {
        if (property.type === AST_NODE_TYPES.RestElement) {
          reads.push(readOfPattern(property.argument, ctx));
          continue;
        }
        const key = property.computed
          ? undefined
          : property.key.type === AST_NODE_TYPES.Identifier
            ? property.key.name
            : undefined;
        if (key === undefined) {
          reads.push('unknown');
          continue;
        }
        const value = property.value.type === AST_NODE_TYPES.AssignmentPattern ? property.value.left : property.value;
        if (ctx.pair) continue;
        if (COUNT_PROPERTIES.has(key) || ctx.outcome?.has(key) || (key === 'rows' && ctx.returning) || ctx.rows) {
          reads.push(readOfBinding(value, { ...ctx, rows: true }) === 'unchecked' ? 'unchecked' : 'checked');
        }
      }
      return combine(reads);
    }
    case AST_NODE_TYPES.ArrayPattern: {
      // mysql2: const [header] = await pool.execute(...); pg-promise rows: const [row] = await db.any(...)
      if (ctx.pair) {
        const created = pattern.elements[1];
        if (!created) return 'unchecked';
        return readOfBinding(created, { ...ctx, pair: false, rows: true }) === 'unchecked' ? 'unchecked' : 'checked';
      }
      const first = pattern.elements[0];
      if (!first) return 'unchecked';
      if (ctx.rows) return readOfBinding(first, ctx) === 'unchecked' ? 'unchecked' : 'checked';
      return readOfPattern(first.type === AST_NODE_TYPES.AssignmentPattern ? first.left : first, ctx);
    }
    case AST_NODE_TYPES.AssignmentPattern:
      return readOfPattern(pattern.left, ctx);
    default:
      return 'unknown';
  }
}

/** Follows every read of a variable that holds the value. */
function readOfBinding(node: TSESTree.Node, ctx: ReadContext): Read {
  if (node.type !== AST_NODE_TYPES.Identifier) return 'unknown';
  const variable = findVariable(ctx.context.sourceCode.getScope(node), node);
  if (!variable) return 'unknown';
  const reads = variable.references
    .filter((reference) => reference.isRead())
    .map((reference) => readOfValue(reference.identifier, { ...ctx, depth: ctx.depth + 1 }));
  return combine(reads);
}

/**
 * Reads a call as an idempotency claim, or returns undefined when it does not run a claim
 * statement. `resultRead` says whether the affected-row count is consulted.
 */
export function getClaim(
  call: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression,
  context: AnyRuleContext,
): Claim | undefined {
  if (call.type === AST_NODE_TYPES.TaggedTemplateExpression) return taggedClaim(call, context);
  const query = sqlCall(call, context);
  if (!query || !isClaimStatement(query.text)) return undefined;
  const returning = hasReturning(query.text);
  const resultRead: Read =
    query.method === 'none'
      ? unusedOrUnknown(call)
      : readOfValue(call, { context, returning, rows: ROW_METHODS.has(query.method), depth: 0 });
  return {
    call,
    resultRead,
    onPool: poolEvidence(query.receiver, context) !== undefined,
    text: query.text,
    marker: isMarkerClaim(query.text),
  };
}

/**
 * A claim sent through a tag that runs SQL: `@vercel/postgres`'s `sql`, a postgres.js or Neon
 * client, `client.sql`. `@vercel/postgres` resolves to a result (`rowCount`, `rows`); postgres.js
 * and Neon to the rows themselves (postgres.js's also carry `count`).
 */
function taggedClaim(tagged: TSESTree.TaggedTemplateExpression, context: AnyRuleContext): Claim | undefined {
  const query = getTaggedQuery(tagged, context);
  if (!query || !isClaimStatement(query.text)) return undefined;
  const returning = hasReturning(query.text);
  const rows = unwrap(tagged.tag).type === AST_NODE_TYPES.Identifier && !isVercelSql(tagged, context);
  return {
    call: tagged,
    resultRead: readOfValue(tagged, { context, returning, rows, depth: 0 }),
    onPool: poolEvidence(query.receiver, context) !== undefined,
    text: query.text,
    marker: isMarkerClaim(query.text),
  };
}

function isVercelSql(tagged: TSESTree.TaggedTemplateExpression, context: AnyRuleContext): boolean {
  const tag = unwrap(tagged.tag);
  if (tag.type !== AST_NODE_TYPES.Identifier) return false;
  const source = importSource(tag, context.sourceCode.getScope(tag));
  return source?.module === '@vercel/postgres';
}

/** pg-promise `none()` resolves to nothing: a claim through it is unchecked wherever it goes. */
function unusedOrUnknown(call: TSESTree.CallExpression): Read {
  const holder = valueHolder(call);
  return holder.parent?.type === AST_NODE_TYPES.ExpressionStatement ? 'unchecked' : 'unknown';
}

/**
 * The first database write that follows a claim in the same function (nested callbacks
 * included): `x.query('UPDATE ...')`, pg-promise `db.none('INSERT ...')`, `client.sql\`...\``.
 * With the claim on a pool, the marker commits on its own and these writes commit apart from it.
 */
export function writeAfterClaim(claim: Claim, context: AnyRuleContext): TSESTree.Node | undefined {
  const scope = enclosingFunction(claim.call) ?? context.sourceCode.ast;
  let first: TSESTree.Node | undefined;
  walk(scope, context, (node) => {
    if (node.range[0] < claim.call.range[1] || (first && first.range[0] <= node.range[0])) return;
    let text: string | undefined;
    if (node.type === AST_NODE_TYPES.CallExpression) text = sqlCall(node, context)?.text;
    if (node.type === AST_NODE_TYPES.TaggedTemplateExpression) text = getTaggedQuery(node, context)?.text;
    if (text !== undefined && isWriteStatement(text)) first = node;
  });
  return first;
}
