import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext } from '../ast/context.js';
import { contains, enclosingFunction, unwrap } from '../ast/nodes.js';
import { walk } from '../ast/walk.js';
import { callsNamed } from '../ast/call-index.js';
import { endName, memberName, propertyKeyName } from '../ast/names.js';
import { findVariable, resolveValue, staticValue } from '../ast/values.js';
import { hasReturning, isClaimStatement, isMarkerClaim, isMarkerRow, readOfValue, type Claim } from '../sql/claims.js';
import { queryText } from '../sql/statements.js';
import { chainArguments, chainLinks, chainNames, isChainTop, parentOf } from './transactions.js';

/**
 * Idempotency claims written through an ORM or a query builder: the insert that does nothing
 * when the row exists, whose result is the only thing that tells a redelivery it came second.
 *
 * - Prisma `createMany({ data, skipDuplicates: true })`: resolves to `{ count }`.
 * - Drizzle `db.insert(t).values(v).onConflictDoNothing()`: the driver's result (`rowCount`),
 *   or the rows with `.returning()`.
 * - Knex `knex('t').insert(v).onConflict(c).ignore()`: the driver's result, or the rows with `.returning()`.
 * - TypeORM `createQueryBuilder().insert().into(E).values(v).orIgnore().execute()`: an
 *   `InsertResult` whose `raw` / `identifiers` are empty for a duplicate.
 * - Sequelize `Model.findOrCreate(...)`: `[row, created]`, where only `created` tells.
 * - Raw SQL through an ORM handle (`prisma.$executeRaw\`...\``, `$executeRawUnsafe`,
 *   `knex.raw`): `$executeRaw` resolves to the count itself.
 */

/** TypeORM `InsertResult` properties that are empty when `orIgnore()` skipped the row. */
const TYPEORM_OUTCOME: ReadonlySet<string> = new Set(['raw', 'identifiers', 'generatedMaps']);

/** Raw methods of ORM handles: Prisma's resolve to the affected-row count, Knex's to the driver's result. */
const RAW_METHODS: ReadonlyMap<string, 'count' | 'result'> = new Map([
  ['$executeRaw', 'count'],
  ['$executeRawUnsafe', 'count'],
  ['$queryRaw', 'result'],
  ['$queryRawUnsafe', 'result'],
  ['raw', 'result'],
]);

/** The keys of an object literal (or of the first element of an array literal) `node` holds. */
function rowKeys(node: TSESTree.Node | undefined, context: AnyRuleContext): string[] {
  if (!node) return [];
  let value = resolveValue(unwrap(node), context.sourceCode.getScope(node));
  if (value.type === AST_NODE_TYPES.ArrayExpression) {
    const first = value.elements[0];
    if (!first || first.type === AST_NODE_TYPES.SpreadElement) return [];
    value = resolveValue(unwrap(first), context.sourceCode.getScope(first));
  }
  if (value.type !== AST_NODE_TYPES.ObjectExpression) return [];
  return value.properties.flatMap((property) => {
    if (property.type !== AST_NODE_TYPES.Property) return [];
    const key = propertyKeyName(property);
    return key === undefined ? [] : [key];
  });
}

/** The value of property `key` of the object literal `node` holds, when it has one. */
function propertyValue(
  node: TSESTree.Node | undefined,
  key: string,
  context: AnyRuleContext,
): TSESTree.Node | undefined {
  if (!node) return undefined;
  const value = resolveValue(unwrap(node), context.sourceCode.getScope(node));
  if (value.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
  for (const property of value.properties) {
    if (property.type === AST_NODE_TYPES.Property && propertyKeyName(property) === key) return property.value;
  }
  return undefined;
}

/** A name for a table argument: an identifier (`processedEvents`), a string (`'processed_events'`), an entity class. */
function tableName(node: TSESTree.Node | undefined, context: AnyRuleContext): string | undefined {
  if (!node || node.type === AST_NODE_TYPES.SpreadElement) return undefined;
  const known = staticValue(node, context.sourceCode.getScope(node))?.value;
  if (typeof known === 'string') return known;
  return endName(unwrap(node));
}

type Links = ReturnType<typeof chainLinks>;

/** True when `node` holds one row: an object literal, or an array literal of one. */
function isOneRow(node: TSESTree.Node | undefined, context: AnyRuleContext): boolean {
  if (!node) return false;
  const value = resolveValue(unwrap(node), context.sourceCode.getScope(node));
  return (
    value.type === AST_NODE_TYPES.ObjectExpression ||
    (value.type === AST_NODE_TYPES.ArrayExpression && value.elements.length === 1)
  );
}

/**
 * True when the row carries its own id from outside, named for the model (`rechargeId` in a
 * `creditRecharge` row, `paymentId` in `payments`): the key of the event or request that
 * made it, so a duplicate means the same event came again.
 */
function keyedByOwnId(model: string | undefined, keys: readonly string[]): boolean {
  const words = (model ?? '')
    .replace(/s$/, '')
    .split(/(?=[A-Z])|_/)
    .filter((word) => word !== '');
  const entity = words.at(-1)?.toLowerCase();
  if (entity === undefined) return false;
  return keys.some((key) => key.toLowerCase() === `${entity}id` || key.toLowerCase() === `${entity}_id`);
}

/** Chain members that change rows, for the writes a claim rides along with. */
const WRITE_METHOD =
  /^(?:create|createMany|update|updateMany|upsert|delete|deleteMany|insert|increment|decrement|destroy|save|bulkCreate)$/;

/** True when the function making the claim writes something else too (the effects it guards). */
function writesBeside(call: TSESTree.Node, context: AnyRuleContext): boolean {
  const scope = enclosingFunction(call);
  if (!scope?.body) return false;
  return walk(scope.body, context, (node) => {
    if (node === call || node.type !== AST_NODE_TYPES.CallExpression) return undefined;
    const callee = unwrap(node.callee);
    return callee.type === AST_NODE_TYPES.MemberExpression &&
      WRITE_METHOD.test(memberName(callee) ?? '') &&
      !contains(node, call)
      ? 'stop'
      : undefined;
  });
}

/**
 * A Prisma batch: the claim is an element of `$transaction([...])`, directly or pushed onto an
 * array that is. The batch resolves to the results in order; a batch whose result is
 * discarded discards the claim's count. Undefined when the claim is no batch element.
 */
function batchRead(call: TSESTree.Node, context: AnyRuleContext): Claim['resultRead'] | undefined {
  const parent = parentOf(call);
  let batch: TSESTree.CallExpression | undefined;
  if (parent?.type === AST_NODE_TYPES.ArrayExpression) batch = batchCall(parent);
  else if (
    parent?.type === AST_NODE_TYPES.CallExpression &&
    parent.arguments.includes(call as TSESTree.CallExpressionArgument)
  ) {
    const callee = unwrap(parent.callee);
    const array = callee.type === AST_NODE_TYPES.MemberExpression ? unwrap(callee.object) : undefined;
    if (array?.type !== AST_NODE_TYPES.Identifier || memberName(callee as TSESTree.MemberExpression) !== 'push')
      return undefined;
    const variable = findVariable(context.sourceCode.getScope(array), array);
    batch = variable?.references
      .map((reference) => batchCall(reference.identifier))
      .find((found) => found !== undefined);
  }
  if (!batch) return undefined;
  return readOfValue(batch, { context, returning: false, rows: false, depth: 0 }) === 'unchecked'
    ? 'unchecked'
    : 'unknown';
}

/** The `x.$transaction(node)` call `node` is the batch of. */
function batchCall(node: TSESTree.Node): TSESTree.CallExpression | undefined {
  const parent = parentOf(node);
  if (parent?.type !== AST_NODE_TYPES.CallExpression || parent.arguments[0] !== node) return undefined;
  const callee = unwrap(parent.callee);
  return callee.type === AST_NODE_TYPES.MemberExpression && memberName(callee) === '$transaction' ? parent : undefined;
}

/** The arguments of the call made by the member link named `name` along a chain. */
function argumentsOf(links: Links, name: string): TSESTree.CallExpressionArgument[] | undefined {
  for (let index = 0; index < links.length - 1; index++) {
    const call = links[index + 1]?.node;
    if (links[index]?.name === name && call?.type === AST_NODE_TYPES.CallExpression) return call.arguments;
  }
  return undefined;
}

function claim(
  call: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression,
  resultRead: Claim['resultRead'],
  text: string,
  marker: boolean,
): Claim {
  return { call, resultRead, onPool: false, text, marker };
}

/**
 * Prisma `x.processedEvent.upsert({ where, create, update: {} })`: inserts the marker when it is
 * missing and otherwise changes nothing, resolving to the row either way, so nothing it returns
 * tells the second delivery that it came second.
 */
function noopUpsertClaim(call: TSESTree.CallExpression, links: Links, context: AnyRuleContext): Claim | undefined {
  if (chainNames(links).at(-1) !== 'upsert') return undefined;
  const written = propertyValue(call.arguments[0], 'update', context);
  const update = written && unwrap(written);
  if (update?.type !== AST_NODE_TYPES.ObjectExpression || update.properties.length > 0) return undefined;
  const model = links.at(-3)?.name;
  const keys = rowKeys(propertyValue(call.arguments[0], 'create', context), context);
  if (!isMarkerRow(model, keys)) return undefined;
  return { ...claim(call, 'unchecked', `${model ?? ''}.upsert`, true), blind: true };
}

/** Prisma `x.model.createMany({ data, skipDuplicates: true })` (and `createManyAndReturn`). */
function prismaClaim(call: TSESTree.CallExpression, links: Links, context: AnyRuleContext): Claim | undefined {
  const method = chainNames(links).at(-1);
  if (method === 'upsert') return noopUpsertClaim(call, links, context);
  if (method !== 'createMany' && method !== 'createManyAndReturn') return undefined;
  const options = call.arguments[0];
  const skip = propertyValue(options, 'skipDuplicates', context);
  if (!skip || staticValue(skip, context.sourceCode.getScope(skip))?.value !== true) return undefined;
  const model = links.at(-3)?.name;
  const data = propertyValue(options, 'data', context);
  const keys = rowKeys(data, context);
  // A marker by its name, or a row keyed by its own id from outside that rides with other writes.
  const marker =
    isMarkerRow(model, keys) || (isOneRow(data, context) && keyedByOwnId(model, keys) && writesBeside(call, context));
  const returning = method === 'createManyAndReturn';
  return claim(
    call,
    batchRead(call, context) ?? readOfValue(call, { context, returning, rows: returning, depth: 0 }),
    `${model ?? ''}.${method}`,
    marker,
  );
}

/** Drizzle `insert(t)...onConflictDoNothing()`, Knex `('t').insert(v).onConflict(c).ignore()`, TypeORM `.orIgnore()`. */
function builderClaim(call: TSESTree.CallExpression, links: Links, context: AnyRuleContext): Claim | undefined {
  const names = chainNames(links);
  if (!names.includes('insert')) return undefined;
  const returning = names.includes('returning');
  const values = argumentsOf(links, 'values')?.[0];
  if (names.includes('onConflictDoNothing')) {
    const table = tableName(argumentsOf(links, 'insert')?.[0], context);
    const marker = isMarkerRow(table, rowKeys(values, context)) && !claimedByUpdate(table, context);
    return claim(
      call,
      readOfValue(call, { context, returning, rows: returning, depth: 0 }),
      'onConflictDoNothing',
      marker,
    );
  }
  const onConflict = names.indexOf('onConflict');
  if (onConflict >= 0 && names[onConflict + 1] === 'ignore') {
    const root = links[0]?.node;
    const first = links[1]?.node;
    const rootTable =
      first?.type === AST_NODE_TYPES.CallExpression && root?.type === AST_NODE_TYPES.Identifier
        ? tableName(first.arguments[0], context)
        : undefined;
    const table = rootTable ?? tableName((argumentsOf(links, 'into') ?? argumentsOf(links, 'table'))?.[0], context);
    const marker =
      isMarkerRow(table, rowKeys(argumentsOf(links, 'insert')?.[0], context)) && !claimedByUpdate(table, context);
    return claim(
      call,
      readOfValue(call, { context, returning, rows: returning, depth: 0 }),
      'onConflict.ignore',
      marker,
    );
  }
  if (names.includes('orIgnore') && names.at(-1) === 'execute') {
    const entity =
      tableName(argumentsOf(links, 'into')?.[0], context) ??
      tableName(argumentsOf(links, 'createQueryBuilder')?.[0], context) ??
      tableName(argumentsOf(links, 'getRepository')?.[0], context) ??
      repositoryName(links);
    const marker = isMarkerRow(entity, rowKeys(values, context)) && !claimedByUpdate(entity, context);
    return claim(
      call,
      readOfValue(call, { context, returning, rows: false, outcome: TYPEORM_OUTCOME, depth: 0 }),
      'orIgnore',
      marker,
    );
  }
  return undefined;
}

/** Update results' properties that count the rows it changed (TypeORM, Kysely); the driver counts are read as for any claim. */
const UPDATE_OUTCOME: ReadonlySet<string> = new Set(['affected', 'numUpdatedRows']);

/** Each file's answer per table, read once: every claim on the table asks. */
const claimedTables = new WeakMap<TSESTree.Program, Map<string, boolean>>();

/**
 * True when the file claims rows of `table` by an update whose changed-row count it reads
 * (`update().set({ lockedAt: now }).where('lockedAt IS NULL')…execute()`, then `if (!result.affected)
 * return`): there, an insert that does nothing when the row exists only makes sure a row is there to
 * be claimed that way, and its own result has nothing to tell.
 */
function claimedByUpdate(table: string | undefined, context: AnyRuleContext): boolean {
  if (table === undefined) return false;
  const program = context.sourceCode.ast;
  let known = claimedTables.get(program);
  if (!known) claimedTables.set(program, (known = new Map<string, boolean>()));
  const cached = known.get(table);
  if (cached !== undefined) return cached;
  const tops = new Set<TSESTree.CallExpression>();
  for (const update of [...callsNamed('update', context), ...callsNamed('updateTable', context)]) {
    const top = chainTopOf(update);
    if (top) tops.add(top);
  }
  const found = [...tops].some((node) => {
    const links = chainLinks(node);
    if (!chainNames(links).some((name) => name === 'update' || name === 'updateTable')) return false;
    const names = [repositoryName(links), ...chainArguments(links).map((argument) => tableName(argument, context))];
    if (!names.includes(table)) return false;
    return (
      readOfValue(node, { context, returning: false, rows: false, outcome: UPDATE_OUTCOME, depth: 0 }) === 'checked'
    );
  });
  known.set(table, found);
  return found;
}

/** The last call of the chain `call` is a link of (`execute()` of `qb.update(T).set(…).execute()`), if it ends in a call. */
function chainTopOf(call: TSESTree.CallExpression): TSESTree.CallExpression | undefined {
  let top: TSESTree.CallExpression = call;
  let current: TSESTree.Node = call;
  for (let parent = parentOf(current); parent; current = parent, parent = parentOf(parent)) {
    if (
      parent.type === AST_NODE_TYPES.ChainExpression ||
      parent.type === AST_NODE_TYPES.TSNonNullExpression ||
      parent.type === AST_NODE_TYPES.TSAsExpression ||
      (parent.type === AST_NODE_TYPES.MemberExpression && parent.object === current)
    )
      continue;
    if (parent.type === AST_NODE_TYPES.CallExpression && parent.callee === current) {
      top = parent;
      continue;
    }
    break;
  }
  return isChainTop(top) ? top : undefined;
}

/** `this.processedEventRepository.createQueryBuilder()`: the entity the repository is named for. */
function repositoryName(links: Links): string | undefined {
  const name = links.find((link) => link.name !== undefined && /repo(?:sitory)?$/i.test(link.name))?.name;
  return name?.replace(/repo(?:sitory)?$/i, '');
}

/** Sequelize `Model.findOrCreate({ where, defaults })`: `[row, created]`. */
function findOrCreateClaim(call: TSESTree.CallExpression, links: Links, context: AnyRuleContext): Claim | undefined {
  if (chainNames(links).at(-1) !== 'findOrCreate' || links.length < 3) return undefined;
  const model = endName(unwrap(links.at(-3)?.node ?? call));
  const options = call.arguments[0];
  const where = propertyValue(options, 'where', context);
  const marker = isMarkerRow(model, [
    ...rowKeys(where, context),
    ...rowKeys(propertyValue(options, 'defaults', context), context),
  ]);
  return claim(
    call,
    readOfValue(call, { context, returning: false, rows: false, pair: true, depth: 0 }),
    'findOrCreate',
    marker,
  );
}

/** Raw claim SQL through an ORM handle: `prisma.$executeRawUnsafe(sql)`, `knex.raw(sql)`. */
function rawClaim(call: TSESTree.CallExpression, context: AnyRuleContext): Claim | undefined {
  const callee = unwrap(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const kind = RAW_METHODS.get(memberName(callee) ?? '');
  const first = call.arguments[0];
  if (!kind || !first || first.type === AST_NODE_TYPES.SpreadElement) return undefined;
  const text = queryText(first, context);
  return text === undefined ? undefined : rawTextClaim(call, kind, text, context);
}

function rawTextClaim(
  node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression,
  kind: 'count' | 'result',
  text: string,
  context: AnyRuleContext,
): Claim | undefined {
  if (!isClaimStatement(text)) return undefined;
  const returning = hasReturning(text);
  const rows = kind === 'count' || returning;
  return claim(node, readOfValue(node, { context, returning, rows, depth: 0 }), text, isMarkerClaim(text));
}

/**
 * The claim an ORM or query-builder call makes (see the module comment), or undefined. For a
 * chain, only its last call (the one whose value is the result) is the claim.
 */
export function getOrmClaim(
  node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression,
  context: AnyRuleContext,
): Claim | undefined {
  if (node.type === AST_NODE_TYPES.TaggedTemplateExpression) {
    // prisma.$executeRaw`INSERT ... ON CONFLICT DO NOTHING`
    const tag = unwrap(node.tag);
    if (tag.type !== AST_NODE_TYPES.MemberExpression) return undefined;
    const kind = RAW_METHODS.get(memberName(tag) ?? '');
    if (kind === undefined || !(memberName(tag) ?? '').startsWith('$')) return undefined;
    const text = queryText(node.quasi, context) ?? '';
    return rawTextClaim(node, kind, text, context);
  }
  if (!isChainTop(node)) return undefined;
  const links = chainLinks(node);
  return (
    prismaClaim(node, links, context) ??
    builderClaim(node, links, context) ??
    findOrCreateClaim(node, links, context) ??
    rawClaim(node, context)
  );
}

/** Unique-violation codes and names: Prisma, PostgreSQL, MySQL, MongoDB, Sequelize, TypeORM's driver errors. */
const DUPLICATE_ERROR = /P2002|23505|ER_DUP_ENTRY|\b11000\b|UniqueConstraint|duplicate key/;

/**
 * True when `call` runs in a `try` whose `catch` answers a unique violation by returning
 * (`catch (e) { if (e.code === 'P2002') return; throw e; }`): the insert is a claim, and the
 * duplicate delivery stops there.
 */
export function caughtDuplicate(call: TSESTree.Node, context: AnyRuleContext): boolean {
  for (let node: TSESTree.Node = call; parentOf(node); node = parentOf(node) ?? node) {
    const parent = parentOf(node);
    if (!parent || parent.type.startsWith('Function') || parent.type === AST_NODE_TYPES.ArrowFunctionExpression)
      return false;
    if (parent.type !== AST_NODE_TYPES.TryStatement || parent.block !== node || !parent.handler) continue;
    const handler = parent.handler;
    if (!DUPLICATE_ERROR.test(context.sourceCode.getText(handler))) continue;
    if (walk(handler.body, context, (inner) => (inner.type === AST_NODE_TYPES.ReturnStatement ? 'stop' : undefined)))
      return true;
  }
  return false;
}
