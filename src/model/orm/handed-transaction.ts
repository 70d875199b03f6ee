import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext } from '../ast/context.js';
import { memberName, propertyKeyName } from '../ast/names.js';
import { enclosingFunction, unwrap } from '../ast/nodes.js';
import { findVariable } from '../ast/values.js';
import { walk } from '../ast/walk.js';
import { settingsOf } from '../settings.js';
import { implicitTransactionSwitches } from './implicit-transactions.js';
import { describeHandle, fileLibraries } from './libraries.js';
import { chainLinks, type OrmTransaction } from './transactions.js';

/**
 * Sequelize: a transaction a function is handed rather than opens (`const { transaction } =
 * ctx.state` from a middleware, a `transaction` parameter, `{ transaction }` destructured from
 * its options). The function's queries join it only by passing it on, so where some of them pass
 * it (`User.findByPk(id, { transaction, lock: transaction.LOCK.UPDATE })`), a write of the same
 * function that leaves it out (`await user.save()`) runs outside it: it commits on its own, and
 * on a row the transaction has locked it waits for a commit that waits for it. The first query
 * that passes it stands for the transaction, spanning the whole function. Under CLS a handed
 * transaction may be a managed one every query joins, so then nothing is read this way.
 *
 * TypeORM: a method handed an `EntityManager` or `QueryRunner` parameter (a base class's
 * transaction calling `this.execute(req, queryRunner.manager)`, a caller's `manager`) and
 * querying through it runs in that caller's transaction, so a write of the same method through
 * an injected repository (`this.otpsRepo.remove(otp)`) runs outside it.
 */

/**
 * The options property `{ transaction }` / `{ transaction: t }` / `{ transaction: ctx.context.transaction }`
 * of `call`: the name it starts from, and the expression when it is a path below that name.
 */
function passedTransaction(
  call: TSESTree.CallExpression,
): { name: TSESTree.Identifier; path?: TSESTree.Node } | undefined {
  for (const argument of call.arguments) {
    if (argument.type !== AST_NODE_TYPES.ObjectExpression) continue;
    for (const property of argument.properties) {
      if (property.type !== AST_NODE_TYPES.Property || propertyKeyName(property) !== 'transaction') continue;
      const value = unwrap(property.value);
      if (value.type === AST_NODE_TYPES.Identifier) return { name: value };
      // A context object carrying it (`ctx.context.transaction`, `options.transaction`).
      if (value.type !== AST_NODE_TYPES.MemberExpression || value.computed || memberName(value) !== 'transaction')
        continue;
      let root: TSESTree.Node = value;
      while (root.type === AST_NODE_TYPES.MemberExpression && !root.computed) root = unwrap(root.object);
      if (root.type === AST_NODE_TYPES.Identifier) return { name: root, path: value };
    }
  }
  return undefined;
}

/** True when `name` is handed to `fn`: its parameter, or destructured from something it did not make with a call. */
function isHanded(name: TSESTree.Identifier, fn: TSESTree.FunctionLike, context: AnyRuleContext): boolean {
  const def = findVariable(context.sourceCode.getScope(name), name)?.defs[0];
  if (!def) return false;
  if (def.type === TSESLint.Scope.DefinitionType.Parameter) return def.node === fn && !isCallbackArgument(fn);
  if (def.type !== TSESLint.Scope.DefinitionType.Variable) return false;
  const init = def.node.init && unwrap(def.node.init);
  return (
    def.node.id.type === AST_NODE_TYPES.ObjectPattern &&
    init?.type === AST_NODE_TYPES.MemberExpression &&
    enclosingFunction(def.node) === fn
  );
}

/** A callback handed to a call: a transaction's own callback, read where that call is. */
function isCallbackArgument(fn: TSESTree.FunctionLike): boolean {
  return fn.parent.type === AST_NODE_TYPES.CallExpression || fn.parent.type === AST_NODE_TYPES.NewExpression;
}

/** TypeORM's handles a method can be handed: `EntityManager`, `QueryRunner` (queries go through its `manager`). */
const TYPEORM_HANDLE = /^(?:EntityManager|QueryRunner)$/;

/** The parameter of `fn` a TypeORM query `call` is rooted at, when it is handed a manager or query runner (annotated, not optional). */
function handedManager(call: TSESTree.CallExpression, fn: TSESTree.FunctionLike, context: AnyRuleContext) {
  const root = chainLinks(call)[0]?.node;
  const target = root && unwrap(root);
  if (target?.type !== AST_NODE_TYPES.Identifier) return undefined;
  const param = fn.params.find(
    (entry): entry is TSESTree.Identifier => entry.type === AST_NODE_TYPES.Identifier && entry.name === target.name,
  );
  const annotation = param?.typeAnnotation?.typeAnnotation;
  if (!param || param.optional || annotation?.type !== AST_NODE_TYPES.TSTypeReference) return undefined;
  const typeName = annotation.typeName;
  if (typeName.type !== AST_NODE_TYPES.Identifier || !TYPEORM_HANDLE.test(typeName.name)) return undefined;
  const described = describeHandle(target, context);
  if (described?.library !== 'typeorm' || (described.evidence !== 'annotation' && described.evidence !== 'type'))
    return undefined;
  return { param, runner: typeName.name === 'QueryRunner' };
}

/** Per function and per handed name, the first call (in source order) that uses it: the one that stands for the transaction. */
const anchors = new WeakMap<TSESTree.FunctionLike, Map<string, TSESTree.CallExpression | undefined>>();

function isAnchor(
  call: TSESTree.CallExpression,
  fn: TSESTree.FunctionLike,
  body: TSESTree.Node,
  key: string,
  uses: (node: TSESTree.CallExpression) => boolean,
  context: AnyRuleContext,
): boolean {
  let known = anchors.get(fn);
  if (!known) anchors.set(fn, (known = new Map<string, TSESTree.CallExpression | undefined>()));
  if (!known.has(key)) {
    let first: TSESTree.CallExpression | undefined;
    walk(body, context, (node) => {
      if (node.type !== AST_NODE_TYPES.CallExpression || !uses(node)) return undefined;
      first = node;
      return 'stop';
    });
    known.set(key, first);
  }
  return known.get(key) === call;
}

/** The whole function as the transaction's window: it was handed the transaction for all of it. */
function spanOf(body: TSESTree.Node): Pick<OrmTransaction, 'body' | 'from' | 'to'> {
  return { body, from: body.range[0], to: body.range[1] };
}

function handedManagerTransaction(call: TSESTree.CallExpression, context: AnyRuleContext): OrmTransaction | undefined {
  const fn = enclosingFunction(call);
  if (!fn?.body || isCallbackArgument(fn) || !fileLibraries(context).has('typeorm')) return undefined;
  const handed = handedManager(call, fn, context);
  if (!handed) return undefined;
  const { param } = handed;
  const { body } = fn;
  const uses = (node: TSESTree.CallExpression): boolean => handedManager(node, fn, context)?.param === param;
  if (!isAnchor(call, fn, body, `manager:${param.name}`, uses, context)) return undefined;
  return {
    call,
    library: 'typeorm',
    handle: undefined,
    tx: param,
    ...(handed.runner ? { txHandle: `${param.name}.manager` } : {}),
    joins: 'handle',
    ...spanOf(body),
  };
}

/** The transaction `call` stands for: the first query of its function that passes on one the function was handed. */
export function handedTransaction(call: TSESTree.CallExpression, context: AnyRuleContext): OrmTransaction | undefined {
  const manager = handedManagerTransaction(call, context);
  if (manager) return manager;
  const passed = passedTransaction(call);
  if (!passed || !fileLibraries(context).has('sequelize')) return undefined;
  const tx = passed.name;
  const fn = enclosingFunction(call);
  if (!fn?.body || !isHanded(tx, fn, context)) return undefined;
  if (
    implicitTransactionSwitches(context).includes('sequelize') ||
    (settingsOf(context).implicitTransactions ?? []).includes('sequelize')
  )
    return undefined;
  const { body } = fn;
  const uses = (node: TSESTree.CallExpression): boolean => passedTransaction(node)?.name.name === tx.name;
  if (!isAnchor(call, fn, body, `transaction:${tx.name}`, uses, context)) return undefined;
  const txPassed = passed.path && context.sourceCode.getText(passed.path);
  return {
    call,
    library: 'sequelize',
    handle: undefined,
    tx,
    ...(txPassed === undefined ? {} : { txPassed }),
    joins: 'option',
    ...spanOf(body),
  };
}
