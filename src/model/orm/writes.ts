import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext } from '../ast/context.js';
import { unwrap } from '../ast/nodes.js';
import { endName } from '../ast/names.js';
import { findVariable } from '../ast/values.js';
import { isWriteStatement, queryText } from '../sql/statements.js';
import { describeHandle, fileLibraries, type OrmLibrary } from './libraries.js';
import { chainLinks, chainNames, isChainTop } from './transactions.js';
import { isObjectionWrite } from './objection.js';

/**
 * ORM and query-builder writes, for the write model: the call that creates, changes or
 * deletes rows or documents through a library's API. Only the last call of a chain counts
 * (`db.insert(t).values(v)` is one write), and the library must be known: by the handle's
 * type or construction, or the file's import of it (models of Sequelize and Mongoose are
 * classes, so for them the import decides).
 */

const DRIZZLE_WRITES = new Set(['insert', 'update', 'delete']);
const KNEX_WRITES = new Set([
  'insert',
  'update',
  'del',
  'delete',
  'upsert',
  'merge',
  'increment',
  'decrement',
  'truncate',
]);
const KYSELY_WRITES = new Set(['insertInto', 'updateTable', 'deleteFrom', 'replaceInto', 'mergeInto']);
const TYPEORM_WRITES =
  /^(?:save|insert|update|upsert|delete|remove|softDelete|softRemove|restore|recover|increment|decrement)$/;
const SEQUELIZE_WRITES = /^(?:create|bulkCreate|update|upsert|destroy|increment|decrement|findOrCreate|restore|save)$/;
const MONGOOSE_WRITES =
  /^(?:create|insertMany|updateOne|updateMany|replaceOne|deleteOne|deleteMany|findOneAndUpdate|findByIdAndUpdate|findOneAndDelete|findByIdAndDelete|findOneAndReplace|findOneAndRemove|findByIdAndRemove|bulkWrite|save)$/;
const MIKRO_ORM_WRITES =
  /^(?:persistAndFlush|removeAndFlush|flush|nativeInsert|nativeUpdate|nativeDelete|insert|insertMany|upsert|upsertMany)$/;
const PG_PROMISE_METHODS = new Set(['none', 'one', 'oneOrNone', 'many', 'manyOrNone', 'any', 'result', 'multi']);
/** Receivers that are never models. */
const NOT_MODELS = /^(?:Object|Array|Promise|JSON|Reflect|Math|Date|Map|Set|Buffer|String|Number|Error|console)$/;

/** The library whose write `call` is, or undefined when it is not a known ORM write. */
export function getOrmWrite(call: TSESTree.CallExpression, context: AnyRuleContext): OrmLibrary | undefined {
  if (!isChainTop(call)) return undefined;
  const links = chainLinks(call);
  const names = chainNames(links);
  const method = names.at(-1);
  const root = links[0]?.node;
  if (method === undefined || !root) return undefined;
  // Objection's builder methods say what the chain is, whatever the model (orm/objection.ts).
  if (isObjectionWrite(call)) return 'objection';
  const imported = fileLibraries(context);
  const handle = root.type === AST_NODE_TYPES.ThisExpression ? links[1]?.node : root;
  const library = (handle && describeHandle(handle, context)?.library) ?? undefined;
  const uses = (candidate: OrmLibrary): boolean => library === candidate || (!library && imported.has(candidate));
  if (uses('kysely') && names.some((name) => KYSELY_WRITES.has(name))) return 'kysely';
  const first = names[root.type === AST_NODE_TYPES.ThisExpression ? 1 : 0];
  if (uses('drizzle') && first !== undefined && DRIZZLE_WRITES.has(first)) return 'drizzle';
  // Knex: `knex('t').insert(...)`, `trx('t').where(...).del()`.
  const table = links[root.type === AST_NODE_TYPES.ThisExpression ? 2 : 1]?.node;
  if (uses('knex') && table?.type === AST_NODE_TYPES.CallExpression && names.some((name) => KNEX_WRITES.has(name)))
    return 'knex';
  const receiver = links.at(-3)?.node;
  const receiverName = receiver ? endName(unwrap(receiver)) : undefined;
  if (uses('typeorm') && TYPEORM_WRITES.test(method)) {
    if (names.includes('createQueryBuilder') && names.at(-1) === 'execute') return 'typeorm';
    if (receiverName !== undefined && /repo(?:sitory)?$|manager$/i.test(receiverName)) return 'typeorm';
    if (names.includes('getRepository')) return 'typeorm';
  }
  if (
    uses('typeorm') &&
    method === 'execute' &&
    names.some((name) => /^(?:insert|update|delete|softDelete)$/.test(name))
  )
    return 'typeorm';
  const isModelName = (name: string | undefined): boolean =>
    name !== undefined && !NOT_MODELS.test(name) && (/^[A-Z]/.test(name) || /model$/i.test(name));
  const modelLike =
    isModelName(receiverName) ||
    // `const doc = new this.MongooseModel(data); await doc.save()`: a document made from a model
    // and saved (https://mongoosejs.com/docs/models.html#constructing-documents).
    (method === 'save' && receiver !== undefined && isModelName(constructedFrom(receiver, context)));
  if (uses('sequelize') && modelLike && SEQUELIZE_WRITES.test(method)) return 'sequelize';
  if (uses('mongoose') && modelLike && MONGOOSE_WRITES.test(method)) return 'mongoose';
  if (
    uses('mikro-orm') &&
    MIKRO_ORM_WRITES.test(method) &&
    receiverName !== undefined &&
    /em$|manager$|orm$/i.test(receiverName)
  )
    return 'mikro-orm';
  if (uses('pg-promise') && PG_PROMISE_METHODS.has(method)) {
    const first = call.arguments[0];
    const text = first && first.type !== AST_NODE_TYPES.SpreadElement ? queryText(first, context) : undefined;
    if (text !== undefined && isWriteStatement(text)) return 'pg-promise';
  }
  return undefined;
}

/** The class a `const` was made from (`const doc = new Tank(data)` gives `Tank`), by the last name of its constructor. */
function constructedFrom(node: TSESTree.Node, context: AnyRuleContext): string | undefined {
  const target = unwrap(node);
  if (target.type !== AST_NODE_TYPES.Identifier) return undefined;
  const variable = findVariable(context.sourceCode.getScope(target), target);
  const def = variable?.defs[0];
  if (variable?.defs.length !== 1 || def?.node.type !== AST_NODE_TYPES.VariableDeclarator || !def.node.init)
    return undefined;
  const init = unwrap(def.node.init);
  return init.type === AST_NODE_TYPES.NewExpression ? endName(unwrap(init.callee)) : undefined;
}

/** Chain methods that delete rows or documents, in any of the ORMs and query builders above. */
const DELETE_METHODS =
  /^(?:delete|deleteMany|deleteOne|deleteFrom|del|destroy|remove|softDelete|findByIdAndDelete|findOneAndDelete|findByIdAndRemove|findOneAndRemove|nativeDelete)$/;
/** Chain methods that write something other than a delete. */
const OTHER_WRITES =
  /^(?:insert|insertInto|create|createMany|bulkCreate|update|updateMany|updateOne|updateTable|upsert|save|replaceInto|mergeInto|increment|decrement|restore|persist|flush|findOrCreate)/;

/**
 * True when an ORM write only deletes (`prisma.user.delete(...)`, `db.delete(t).where(...)`,
 * `knex('t').where(...).del()`, `Model.destroy(...)`, `repo.softDelete(id)`): run again, it finds
 * what it matched gone and deletes nothing more.
 */
export function isOrmDelete(call: TSESTree.CallExpression): boolean {
  const names = chainNames(chainLinks(call));
  return names.some((name) => DELETE_METHODS.test(name)) && !names.some((name) => OTHER_WRITES.test(name));
}
