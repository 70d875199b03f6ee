import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext } from '../ast/context.js';
import { endName, memberName } from '../ast/names.js';
import { enclosingFunction, unwrap } from '../ast/nodes.js';
import { findVariable } from '../ast/values.js';
import { walk } from '../ast/walk.js';
import { calleeSummary, hasSummaryFact } from '../settings.js';
import { localFunction } from '../sql/rollback.js';
import { fileLibraries } from './libraries.js';
import { handsOn } from './transactions.js';

/**
 * Where Sequelize reads a query's options, and so where `{ transaction: t }` must go for the
 * query to run in the transaction. Sequelize takes options in exactly one argument and ignores
 * any other: `Job.sum('price', { where }, { transaction: t })` runs on a connection of its own.
 */

/** Model writes (static and instance) with the position of their options argument. */
export const SEQUELIZE_WRITE_OPTIONS: ReadonlyMap<string, number> = new Map([
  ['create', 1],
  ['bulkCreate', 1],
  ['update', 1],
  ['upsert', 1],
  ['destroy', 0],
  ['increment', 1],
  ['decrement', 1],
  ['findOrCreate', 0],
  ['restore', 0],
  ['save', 0],
  ['query', 1],
]);

/** Model reads with the position of their options: finders take `(options)` or `(pk, options)`, aggregates `(field, options)`. */
const SEQUELIZE_READ_OPTIONS: ReadonlyMap<string, number> = new Map([
  ['findAll', 0],
  ['findOne', 0],
  ['findAndCountAll', 0],
  ['findByPk', 1],
  ['count', 0],
  ['sum', 1],
  ['max', 1],
  ['min', 1],
  ['aggregate', 2],
]);

/** Where a Sequelize model read takes its options. */
export function sequelizeReadOptionsAt(method: string): number | undefined {
  return SEQUELIZE_READ_OPTIONS.get(method);
}

/**
 * The argument after the options one that hands the transaction on (`{ transaction: t }` as a
 * third argument of `sum`): Sequelize never reads it, so the query runs outside the transaction.
 */
export function ignoredTransactionArgument(
  call: TSESTree.CallExpression,
  at: number,
  tx: TSESTree.Identifier,
  context: AnyRuleContext,
): TSESTree.Node | undefined {
  // A project's repository or service has signatures of its own (`Repo.destroy(id, options)`).
  const callee = unwrap(call.callee);
  const receiver = callee.type === AST_NODE_TYPES.MemberExpression ? endName(unwrap(callee.object)) : undefined;
  if (receiver === undefined || PROJECT_LAYERS.test(receiver)) return undefined;
  return call.arguments.slice(at + 1).find((argument) => handsOn(argument, tx, context));
}

/** Names of a project's own data layer, whose methods are not Sequelize's. */
const PROJECT_LAYERS = /(?:repo|repository|service|dao|store|helper|utils?)$/i;

/**
 * Association accessors that Sequelize generates on an instance and that write:
 * `role.addPermission(p)`, `setTags`, `removeMember`, `createComment(values)`, each taking
 * options (with `transaction`) as the argument after the target. The rest of the name is a
 * model's, so a name that reads as a phrase (`addDocumentToStructure`, `setOwnerFromToken`) is
 * the model's own method, whose options may sit anywhere.
 */
const ASSOCIATION_WRITE = /^(?:add|set|remove|create)(?!\w*?(?:To|From|With|For|By|Into|Onto)(?:[A-Z]|$))[A-Z]\w*$/;

/** Queries whose result is a model instance (or, for `findOrCreate`, `[instance, created]`). */
const INSTANCE_QUERIES = /^(?:findOne|findByPk|findOrCreate|create|findOrBuild|build)$/;

/**
 * True when `call` is an association write on a model instance: the receiver is bound to what
 * a model query returned (`const role = await Role.findOne(...)`), so `addPermission` is the
 * generated accessor and not some other object's method.
 */
export function isAssociationWrite(call: TSESTree.CallExpression, context: AnyRuleContext): boolean {
  const callee = unwrap(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return false;
  const method = memberName(callee);
  const receiver = unwrap(callee.object);
  if (method === undefined || !ASSOCIATION_WRITE.test(method) || receiver.type !== AST_NODE_TYPES.Identifier)
    return false;
  const def = findVariable(context.sourceCode.getScope(receiver), receiver)?.defs[0];
  if (def?.node.type !== AST_NODE_TYPES.VariableDeclarator || !def.node.init) return false;
  let init = unwrap(def.node.init);
  if (init.type === AST_NODE_TYPES.AwaitExpression) init = unwrap(init.argument);
  if (init.type !== AST_NODE_TYPES.CallExpression) return false;
  const maker = unwrap(init.callee);
  if (maker.type !== AST_NODE_TYPES.MemberExpression) return false;
  const query = memberName(maker);
  if (query === undefined || !INSTANCE_QUERIES.test(query)) return false;
  // `const [row] = await X.findOrCreate(...)` binds the instance through an array pattern.
  if (query === 'findOrCreate' && def.node.id.type !== AST_NODE_TYPES.ArrayPattern) return false;
  return modelName(maker.object);
}

/** A receiver named as a model: `Role`, `this.roleModel`, `this.roleRepo`, `db.Role`. */
function modelName(node: TSESTree.Node): boolean {
  const name = endName(unwrap(node));
  return name !== undefined && (/^[A-Z]/.test(name) || /(?:model|repo|repository)$/i.test(name));
}

type FunctionLike = TSESTree.FunctionLike;

/** A parameter's name, through a default (`opts = {}`). */
function parameterName(param: TSESTree.Parameter): TSESTree.Identifier | undefined {
  if (param.type === AST_NODE_TYPES.Identifier) return param;
  if (param.type === AST_NODE_TYPES.AssignmentPattern && param.left.type === AST_NODE_TYPES.Identifier)
    return param.left;
  return undefined;
}

/** True when `options` is the parameter itself or an object spreading it (`{ ...opts, where }`). */
function carries(options: TSESTree.Node, param: TSESTree.Identifier): boolean {
  const value = unwrap(options);
  if (value.type === AST_NODE_TYPES.Identifier) return value.name === param.name;
  if (value.type !== AST_NODE_TYPES.ObjectExpression) return false;
  return value.properties.some((property) => {
    if (property.type !== AST_NODE_TYPES.SpreadElement) return false;
    const spread = unwrap(property.argument);
    return spread.type === AST_NODE_TYPES.Identifier && spread.name === param.name;
  });
}

/**
 * The parameter that `fn` forwards as the options of a Sequelize model write
 * (`create(dto, opts?) { return this.bookmarkModel.create(dto, opts); }`), or undefined. A
 * caller inside a transaction that leaves it out writes outside the transaction.
 */
export function forwardedOptionsParameter(fn: FunctionLike, context: AnyRuleContext): number | undefined {
  if (!fn.body || !fileLibraries(context).has('sequelize')) return undefined;
  const params = fn.params.map((param) => parameterName(param));
  let found: number | undefined;
  walk(fn.body, context, (node) => {
    if (
      node !== fn.body &&
      (node.type === AST_NODE_TYPES.FunctionDeclaration || node.type === AST_NODE_TYPES.FunctionExpression)
    )
      return 'skip';
    if (node.type !== AST_NODE_TYPES.CallExpression) return undefined;
    const callee = unwrap(node.callee);
    if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
    const method = memberName(callee);
    const at = method === undefined || method === 'query' ? undefined : SEQUELIZE_WRITE_OPTIONS.get(method);
    const options = at === undefined ? undefined : node.arguments[at];
    if (!options || !modelName(callee.object)) return undefined;
    const index = params.findIndex((param) => param !== undefined && carries(options, param));
    if (index < 0) return undefined;
    found = index;
    return 'stop';
  });
  return found;
}

/** `this.method(...)` inside a class: that class's own method. */
function ownMethod(callee: TSESTree.Node): FunctionLike | undefined {
  if (callee.type !== AST_NODE_TYPES.MemberExpression || unwrap(callee.object).type !== AST_NODE_TYPES.ThisExpression)
    return undefined;
  const name = memberName(callee);
  let node: TSESTree.Node | undefined = callee;
  while (node && node.type !== AST_NODE_TYPES.ClassBody) node = (node as { parent?: TSESTree.Node }).parent;
  if (!node || name === undefined) return undefined;
  for (const member of node.body)
    if (
      member.type === AST_NODE_TYPES.MethodDefinition &&
      member.kind === 'method' &&
      !member.computed &&
      member.key.type === AST_NODE_TYPES.Identifier &&
      member.key.name === name
    )
      return member.value;
  return undefined;
}

/**
 * Where `call` takes the options it forwards to a Sequelize write: a function or method of this
 * file that forwards them ({@link forwardedOptionsParameter}), or one `idempotency-check` found
 * in another module (`settings.idempotency.optionForwardingFunctions`: an imported function, a
 * namespace's member, or an injected service's method `Class.method`, with the position).
 */
export function forwardedOptionsAt(call: TSESTree.CallExpression, context: AnyRuleContext): number | undefined {
  const callee = unwrap(call.callee);
  const local = localFunction(callee, context) ?? ownMethod(callee);
  if (local) return local === enclosingFunction(call) ? undefined : forwardedOptionsParameter(local, context);
  if (!hasSummaryFact(context, 'forwardsOptions')) return undefined;
  return calleeSummary(callee, context)?.forwardsOptions?.[0]?.index;
}
