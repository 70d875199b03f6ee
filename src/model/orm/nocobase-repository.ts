import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext } from '../ast/context.js';
import { memberName } from '../ast/names.js';
import { unwrap } from '../ast/nodes.js';
import { findVariable } from '../ast/values.js';
import { importedModules } from '../modules.js';

/**
 * NocoBase's repositories (`@nocobase/database`, a layer over Sequelize): `db.getRepository('posts')`
 * returns a repository whose writes take one options object that carries the Sequelize
 * transaction (`repo.create({ values, transaction })`). Its writes are decorated with
 * `@transaction()`, which opens and commits a transaction of its own when the options carry
 * none: inside `db.sequelize.transaction(async (transaction) => ...)` such a write without
 * `{ transaction }` commits apart from the caller's transaction and stays when it rolls back.
 */

/** The repository methods that write, each taking its options (with `transaction`) first. */
const WRITES = new Set(['create', 'createMany', 'update', 'updateMany', 'destroy', 'firstOrCreate', 'updateOrCreate']);

/** Files importing NocoBase: TypeORM's `getRepository('User')` takes a name too, with other signatures. */
function importsNocoBase(context: AnyRuleContext): boolean {
  return [...importedModules(context.sourceCode.ast)].some((module) => module.startsWith('@nocobase/'));
}

/** `x.getRepository('name')`: a NocoBase collection's repository, by the collection's name. */
function isRepositoryLookup(node: TSESTree.Node): boolean {
  let target = unwrap(node);
  if (target.type === AST_NODE_TYPES.AwaitExpression) target = unwrap(target.argument);
  if (target.type !== AST_NODE_TYPES.CallExpression) return false;
  const callee = unwrap(target.callee);
  const first = target.arguments[0];
  return (
    callee.type === AST_NODE_TYPES.MemberExpression &&
    memberName(callee) === 'getRepository' &&
    ((first?.type === AST_NODE_TYPES.Literal && typeof first.value === 'string') ||
      first?.type === AST_NODE_TYPES.TemplateLiteral)
  );
}

/**
 * The position of the options argument of `call` (always 0) when it is a NocoBase repository's
 * write: on `db.getRepository('name')` itself or a variable bound to it, in a file that imports NocoBase.
 */
export function nocoBaseRepositoryWrite(call: TSESTree.CallExpression, context: AnyRuleContext): number | undefined {
  const callee = unwrap(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression || !WRITES.has(memberName(callee) ?? '')) return undefined;
  const receiver = unwrap(callee.object);
  let repository = isRepositoryLookup(receiver);
  if (!repository && receiver.type === AST_NODE_TYPES.Identifier) {
    const def = findVariable(context.sourceCode.getScope(receiver), receiver)?.defs[0];
    repository =
      def?.node.type === AST_NODE_TYPES.VariableDeclarator &&
      def.node.id.type === AST_NODE_TYPES.Identifier &&
      def.node.init !== null &&
      isRepositoryLookup(def.node.init);
  }
  return repository && importsNocoBase(context) ? 0 : undefined;
}
