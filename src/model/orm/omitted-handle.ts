import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';
import type * as ts from 'typescript';

import { type AnyRuleContext } from '../ast/context.js';
import { memberName } from '../ast/names.js';
import { unwrap } from '../ast/nodes.js';
import { findVariable } from '../ast/values.js';
import { walk } from '../ast/walk.js';
import { importSource } from '../modules.js';
import { importedSummary, summaryAt } from '../settings.js';
import { localFunction } from '../sql/rollback.js';
import { tsNodeOf } from '../types.js';
import { isDeferred } from './deferred.js';
import { HANDLE_ANNOTATION, HANDLE_NAME, handleFallbackParameter } from './handle-fallback.js';
import { isLibraryFile } from './libraries.js';
import { isRun, isTestedRead } from './query-run.js';
import {
  handsOn,
  isChainTop,
  isTransactionHandle,
  mentions,
  ormTransaction,
  type OrmTransaction,
} from './transactions.js';

const DefinitionType = TSESLint.Scope.DefinitionType;

/**
 * A call, inside a transaction, of a function that takes the database handle to query with
 * and falls back to the pool when it is not given one (`insertTaxonomy(surveyId, taxonomy,
 * client = db)`, `getAlias(noteId, trx?: Knex.Transaction)`), made without the transaction's
 * handle: the function queries outside the transaction.
 */
export interface OmittedHandle {
  node: TSESTree.CallExpression;
  /** The callee as written. */
  callee: TSESTree.Node;
  /** Where `, tx` goes when the handle is the next argument (a suggestion), else undefined. */
  append: { range: TSESTree.Range; text: string } | undefined;
}

/** A function name that says it changes rows (`insertTaxonomy`, `updateStatus`, `deleteLevel`). */
export const WRITE_NAME =
  /^(?:insert|update|upsert|delete|del|remove|create|save|mark|set|add|increment|decrement|destroy|purge|publish|persist|write|put|patch|replace|merge|move|reset|clear|archive|restore|accept|reject|assign|attach|detach|link|unlink|register|record|store|sync|import|clone|copy|bulk)(?![a-z])/;

/** The ORMs' own handle types: a transaction, a task, a manager, a client, a session. */
const HANDLE_TYPE =
  /^(?:Transaction|ControlledTransaction|Knex|ITask|IDatabase|IBaseProtocol|EntityManager|QueryRunner|TransactionClient|PrismaClient|Kysely|ClientSession|Sequelize|DataSource|\w*Database)$/;

/** A data-access module by its name: `TaxonomyRepository`, `userRepo`, `OrderDao`. */
const DATA_ACCESS_NAME = /(?:repository|repo|dao)$/i;

type Callback = TSESTree.ArrowFunctionExpression | TSESTree.FunctionExpression | TSESTree.FunctionDeclaration;

/** The calls in `transaction` that leave its handle out of a function that takes one. */
export function omittedHandleCalls(transaction: OrmTransaction, context: AnyRuleContext): OmittedHandle[] {
  const { tx } = transaction;
  if (!tx) return [];
  // A transaction joined through options (`{ ...options, transaction }`) is handed on in them; one
  // a project's wrapper opened and holds is there only to be handed on.
  const options = transaction.joins === 'option';
  if (options && !transaction.wrapper && transaction.library === 'mongoose') return [];
  const calls: TSESTree.CallExpression[] = [];
  let handedOn = options && transaction.wrapper === true && transaction.from !== transaction.body.range[0];
  walk(transaction.body, context, (node) => {
    if (node.range[0] < transaction.from || node.range[1] > transaction.to) return undefined;
    if (isDeferred(node, transaction, context)) return 'skip';
    if (node.type !== AST_NODE_TYPES.CallExpression) return undefined;
    const handed = options
      ? node.arguments.some((argument) => handsOn(argument, tx, context))
      : node.arguments.some((argument) => isBoundTo(argument, tx, context));
    if (handed) handedOn = true;
    else if (isChainTop(node)) calls.push(node);
    return undefined;
  });
  const found: OmittedHandle[] = [];
  for (const top of calls) {
    if (!isRun(top, [])) continue;
    // `insert({...}).then(unwrap)`: the helper is the call the chain settles.
    const call = settled(top);
    if (call.arguments.some((argument) => handsOn(argument, tx, context))) continue;
    const callee = unwrap(call.callee);
    const name = calleeName(callee);
    if (name === undefined) continue;
    const writes = WRITE_NAME.test(name) || isTestedRead(top, context);
    if (!writes && !isUsedRead(top, transaction, context)) continue;
    const handle = handleParameter(call, callee, transaction, handedOn, context);
    // A read whose value is only used (not tested) counts where the function surely takes the handle.
    if (handle === undefined || (!writes && !handle.sure)) continue;
    const { index } = handle;
    found.push({
      node: call,
      callee,
      append: index === call.arguments.length ? appendAt(call, tx, context) : undefined,
    });
  }
  return found;
}

/** The call a `.then` / `.catch` / `.finally` chain settles: `f(...)` for `f(...).then(g)`. */
function settled(call: TSESTree.CallExpression): TSESTree.CallExpression {
  let current = call;
  for (;;) {
    const callee = unwrap(current.callee);
    if (callee.type !== AST_NODE_TYPES.MemberExpression) return current;
    const name = memberName(callee);
    const inner = unwrap(callee.object);
    if ((name !== 'then' && name !== 'catch' && name !== 'finally') || inner.type !== AST_NODE_TYPES.CallExpression)
      return current;
    current = inner;
  }
}

function isBoundTo(argument: TSESTree.Node, tx: TSESTree.Identifier, context: AnyRuleContext): boolean {
  const target = unwrap(argument);
  return target.type === AST_NODE_TYPES.Identifier && target.name === tx.name && mentions(target, tx, context);
}

/** `f` for `f(...)`, `NS.f(...)`, `this.service.f(...)`. */
function calleeName(callee: TSESTree.Node): string | undefined {
  if (callee.type === AST_NODE_TYPES.Identifier) return callee.name;
  if (callee.type === AST_NODE_TYPES.MemberExpression) return memberName(callee);
  return undefined;
}

/**
 * The position of the parameter through which `callee` takes its handle, when it is one the
 * call leaves out (-1 when it is known to take one but not where), by the first evidence
 * that tells: the function itself in this file, its signature's types, the checker's facts
 * about the module it comes from, or the file's own convention of handing the handle to that
 * module's functions.
 */
function handleParameter(
  call: TSESTree.CallExpression,
  callee: TSESTree.Node,
  transaction: OrmTransaction,
  handsOn: boolean,
  context: AnyRuleContext,
): { index: number; sure: boolean } | undefined {
  const sure = (index: number | null | undefined): { index: number; sure: boolean } | undefined =>
    index === undefined || index === null ? undefined : { index, sure: true };
  if (transaction.joins === 'option') {
    const local = localFunction(callee, context);
    const omitted = local && omittedTransactionParameter(local, call, context);
    if (omitted !== undefined) return sure(omitted);
    const imported = importedCallee(callee, context);
    return handsOn && imported?.namespace && DATA_ACCESS_NAME.test(imported.binding.name)
      ? { index: -1, sure: false }
      : undefined;
  }
  const local = localFunction(callee, context);
  if (local) return sure(defaultedHandle(local, call, transaction, context));
  const typed = typedHandle(call, context);
  if (typed !== undefined) return sure(typed);
  // The same function handed a handle after as many arguments elsewhere in this file.
  const text = context.sourceCode.getText(callee);
  const elsewhere = handedElsewhere(context).positions.get(text);
  if (elsewhere !== undefined && elsewhere >= call.arguments.length) return sure(elsewhere);
  // The same function handed the handle in an options property elsewhere (`insert({ ..., tx })`),
  // and this call's options, written out in full, leave that property out.
  const option = handedElsewhere(context).options.get(text);
  if (option && leavesOut(call.arguments[option.index], option.key)) return { index: -1, sure: true };
  const imported = importedCallee(callee, context);
  if (!imported) return undefined;
  if (!imported.namespace && importedSummary(imported.binding, context)?.defaultHandle)
    return { index: -1, sure: true };
  if (imported.namespace && listedMember(imported, callee, context)) return { index: -1, sure: true };
  // The file's own convention, live in this callback: the handle is handed to other calls here,
  // and this module's functions take one (they are handed one elsewhere, or it is a repository).
  if (!handsOn) return undefined;
  if (DATA_ACCESS_NAME.test(imported.binding.name) || moduleTakesHandles(imported, call, context))
    return { index: -1, sure: false };
  return undefined;
}

interface Handed {
  /** Per callee (as written), the last position at which some call in this file hands it a handle. */
  positions: Map<string, number>;
  /** Per callee, the options argument and property through which some call hands it one. */
  options: Map<string, { index: number; key: string }>;
}

const handedCache = new WeakMap<TSESTree.Program, Handed>();

/** How the calls of this file hand their callees a handle: as an argument or as an option. */
function handedElsewhere(context: AnyRuleContext): Handed {
  const program = context.sourceCode.ast;
  const cached = handedCache.get(program);
  if (cached) return cached;
  const found: Handed = { positions: new Map(), options: new Map() };
  walk(program, context, (node) => {
    if (node.type !== AST_NODE_TYPES.CallExpression) return undefined;
    const text = context.sourceCode.getText(unwrap(node.callee));
    const index = node.arguments.findLastIndex((argument) => isSurelyHandle(argument, context));
    if (index >= 0) found.positions.set(text, Math.max(found.positions.get(text) ?? -1, index));
    node.arguments.forEach((argument, at) => {
      if (argument.type !== AST_NODE_TYPES.ObjectExpression) return;
      for (const property of argument.properties) {
        const key = property.type === AST_NODE_TYPES.Property ? propertyKey(property) : undefined;
        if (key !== undefined && property.type === AST_NODE_TYPES.Property && isSurelyHandle(property.value, context))
          found.options.set(text, { index: at, key });
      }
    });
    return undefined;
  });
  handedCache.set(program, found);
  return found;
}

function propertyKey(property: TSESTree.Property): string | undefined {
  if (property.computed) return undefined;
  if (property.key.type === AST_NODE_TYPES.Identifier) return property.key.name;
  return typeof property.key.value === 'string' ? property.key.value : undefined;
}

/** True when `argument` is an options object written out in full (no spread) without `key`. */
function leavesOut(argument: TSESTree.Node | undefined, key: string): boolean {
  return (
    argument?.type === AST_NODE_TYPES.ObjectExpression &&
    argument.properties.every(
      (property) => property.type === AST_NODE_TYPES.Property && !property.computed && propertyKey(property) !== key,
    )
  );
}

/** A read whose result is stored and used again inside the transaction (its input). */
export function isUsedRead(
  call: TSESTree.CallExpression,
  transaction: OrmTransaction,
  context: AnyRuleContext,
): boolean {
  let current: TSESTree.Node = call;
  while (current.parent.type === AST_NODE_TYPES.AwaitExpression) current = current.parent;
  const declarator = current.parent;
  if (declarator.type !== AST_NODE_TYPES.VariableDeclarator || declarator.id.type !== AST_NODE_TYPES.Identifier)
    return false;
  const variable = findVariable(context.sourceCode.getScope(declarator.id), declarator.id);
  return (variable?.references ?? []).some(
    (reference) =>
      reference.identifier !== declarator.id &&
      reference.identifier.range[0] > call.range[1] &&
      reference.identifier.range[1] <= transaction.to,
  );
}

/** A function of this file that takes a handle after the call's arguments, defaulting to the transaction's own handle (or that handle's default). */
function defaultedHandle(
  fn: Callback,
  call: TSESTree.CallExpression,
  transaction: OrmTransaction,
  context: AnyRuleContext,
): number | undefined {
  const outer = transaction.handle ? unwrap(transaction.handle) : undefined;
  const pooled = new Set<string>();
  if (outer) {
    pooled.add(context.sourceCode.getText(outer));
    if (outer.type === AST_NODE_TYPES.Identifier) {
      const def = findVariable(context.sourceCode.getScope(outer), outer)?.defs[0];
      const param = def?.name.parent;
      if (param?.type === AST_NODE_TYPES.AssignmentPattern) pooled.add(context.sourceCode.getText(param.right));
    }
  }
  for (const [index, param] of fn.params.entries()) {
    if (index < call.arguments.length) continue;
    if (param.type === AST_NODE_TYPES.AssignmentPattern && pooled.has(context.sourceCode.getText(param.right)))
      return index;
    const name = param.type === AST_NODE_TYPES.AssignmentPattern ? param.left : param;
    if (name.type === AST_NODE_TYPES.Identifier && name.optional && HANDLE_NAME.test(name.name)) return index;
  }
  return undefined;
}

/** Parameters that hand a function a Sequelize transaction or a Mongoose session. */
const TRANSACTION_PARAMETER_NAME = /^(?:t|tx|trx|transaction|session)$/;

/**
 * Sequelize and Mongoose: the position of a parameter of `fn` (a function of this file) that
 * takes the transaction or session and passes it on, which `call` leaves out (`findOrder(id)` for
 * `findOrder(id, t)`): without it, the function's queries run outside the transaction.
 */
function omittedTransactionParameter(
  fn: Callback,
  call: TSESTree.CallExpression,
  context: AnyRuleContext,
): number | undefined {
  for (const [index, param] of fn.params.entries()) {
    if (index < call.arguments.length) continue;
    const name = param.type === AST_NODE_TYPES.AssignmentPattern ? param.left : param;
    if (name.type !== AST_NODE_TYPES.Identifier || !TRANSACTION_PARAMETER_NAME.test(name.name)) continue;
    const used = (findVariable(context.sourceCode.getScope(name), name)?.references ?? []).some(
      (reference) => reference.identifier !== name,
    );
    if (used) return index;
  }
  return undefined;
}

/**
 * With type information: the first parameter after the call's arguments whose type an ORM
 * declares (`Knex.Transaction`, pg-promise's `ITask`, TypeORM's `EntityManager`, Prisma's
 * `TransactionClient`); null when the signature is known and has none.
 */
function typedHandle(call: TSESTree.CallExpression, context: AnyRuleContext): number | null | undefined {
  const at = tsNodeOf(call, context);
  if (!at) return undefined;
  const signature = at.checker.getResolvedSignature(at.tsNode as ts.CallExpression);
  const declaration = signature?.getDeclaration();
  if (!signature || !declaration) return undefined;
  const parameters = signature.getParameters();
  for (let index = call.arguments.length; index < parameters.length; index++) {
    const parameter = parameters[index];
    if (!parameter) continue;
    const type = at.checker.getTypeOfSymbolAtLocation(parameter, at.tsNode);
    const members = type.isUnion() ? type.types : [type];
    const declared = members.some((member) => {
      const symbol = member.aliasSymbol ?? member.getSymbol();
      return (
        symbol !== undefined &&
        HANDLE_TYPE.test(symbol.getName()) &&
        (symbol.getDeclarations() ?? []).some((entry) => isLibraryFile(entry.getSourceFile().fileName))
      );
    });
    if (declared) return index;
  }
  return null;
}

interface ImportedCallee {
  /** The imported binding: the function itself, or the namespace / object it is a member of. */
  binding: TSESTree.Identifier;
  module: string;
  namespace: boolean;
}

function importedCallee(callee: TSESTree.Node, context: AnyRuleContext): ImportedCallee | undefined {
  const binding =
    callee.type === AST_NODE_TYPES.Identifier
      ? callee
      : callee.type === AST_NODE_TYPES.MemberExpression && unwrap(callee.object).type === AST_NODE_TYPES.Identifier
        ? (unwrap(callee.object) as TSESTree.Identifier)
        : undefined;
  if (!binding) return undefined;
  const source = importSource(binding, context.sourceCode.getScope(binding));
  if (!source || isLibraryModule(source.module)) return undefined;
  return { binding, module: source.module, namespace: callee !== binding };
}

/** `NS.f(...)` where the checker lists `f` of NS's module as taking a handle. */
function listedMember(imported: ImportedCallee, callee: TSESTree.Node, context: AnyRuleContext): boolean {
  const name = callee.type === AST_NODE_TYPES.MemberExpression ? memberName(callee) : undefined;
  return name !== undefined && summaryAt(context, imported.module, name)?.defaultHandle === true;
}

/** True when another call in this file hands a handle to a function of the same module. */
function moduleTakesHandles(imported: ImportedCallee, call: TSESTree.CallExpression, context: AnyRuleContext): boolean {
  const variable = findVariable(context.sourceCode.getScope(imported.binding), imported.binding);
  const sameModule = new Set(variable ? [variable] : []);
  // Named imports of the same module count as well: `import { a, b } from './repo'`.
  const program = context.sourceCode.ast;
  for (const statement of program.body) {
    if (statement.type !== AST_NODE_TYPES.ImportDeclaration || statement.source.value !== imported.module) continue;
    for (const specifier of statement.specifiers) {
      const bound = findVariable(context.sourceCode.getScope(specifier.local), specifier.local);
      if (bound) sameModule.add(bound);
    }
  }
  for (const bound of sameModule) {
    for (const reference of bound.references) {
      const use = reference.identifier;
      const member = use.parent;
      const other = member.type === AST_NODE_TYPES.MemberExpression && member.object === use ? member.parent : member;
      if (other.type !== AST_NODE_TYPES.CallExpression || other === call) continue;
      if (other.callee !== use && other.callee !== member) continue;
      const last = other.arguments.at(-1);
      if (last && isHandleArgument(last, context)) return true;
    }
  }
  return false;
}

/** An argument that is a database handle: a transaction's, or one named as a project names them. */
function isHandleArgument(argument: TSESTree.Node, context: AnyRuleContext): boolean {
  const target = unwrap(argument);
  if (target.type !== AST_NODE_TYPES.Identifier) return false;
  return HANDLE_NAME.test(target.name) || isTransactionHandle(target, context);
}

/**
 * An argument that is surely a database handle: a transaction callback's parameter, or a
 * parameter typed as an ORM handle (`transaction: Knex`, `t: ITask<{}>`) or defaulting to the
 * pool (`client = db`).
 */
function isSurelyHandle(argument: TSESTree.Node, context: AnyRuleContext): boolean {
  const target = unwrap(argument);
  if (target.type !== AST_NODE_TYPES.Identifier) return false;
  const def = findVariable(context.sourceCode.getScope(target), target)?.defs[0];
  if (def?.type !== DefinitionType.Parameter || def.name.type !== AST_NODE_TYPES.Identifier) return false;
  const { name } = def;
  if (name.typeAnnotation && HANDLE_PARAMETER_TYPE.test(context.sourceCode.getText(name.typeAnnotation))) return true;
  const param = name.parent;
  if (param.type === AST_NODE_TYPES.AssignmentPattern && HANDLE_NAME.test(name.name)) return true;
  const fn = def.node;
  const call = fn.parent;
  return (
    call.type === AST_NODE_TYPES.CallExpression &&
    call.arguments.includes(fn as TSESTree.CallExpressionArgument) &&
    ormTransaction(call, context)?.tx === name
  );
}

/** Annotations of a parameter that holds a handle: an ORM's transaction, task, manager or client. */
const HANDLE_PARAMETER_TYPE =
  /^:\s*(?:Knex(?:\.Transaction)?|Transaction|ITask|IDatabase|IBaseProtocol|EntityManager|QueryRunner|(?:Prisma\.)?TransactionClient|PrismaClient|Kysely|ClientSession)\b/;

/** Imports of the ORMs themselves are never a project's data-access functions. */
function isLibraryModule(module: string): boolean {
  return isLibraryFile(`/node_modules/${module}/`);
}

function appendAt(
  call: TSESTree.CallExpression,
  tx: TSESTree.Identifier,
  context: AnyRuleContext,
): { range: TSESTree.Range; text: string } | undefined {
  const closing = context.sourceCode.getLastToken(call);
  if (closing?.value !== ')') return undefined;
  const before = context.sourceCode.getTokenBefore(closing);
  const separator = call.arguments.length === 0 ? '' : before?.value === ',' ? ' ' : ', ';
  return { range: [closing.range[0], closing.range[0]], text: `${separator}${tx.name}` };
}

/**
 * The position of the parameter through which an exported function takes the database handle
 * it queries with, falling back to the pool without one: a parameter named as a handle whose
 * default is a module-level binding (`client = db`), an optional one typed as an ORM's
 * transaction (`trx?: Knex.Transaction`), or one whose absence it tests to fall back to a handle
 * of its own (handle-fallback.ts). Other files' calls without it query on the pool.
 */
export function defaultHandleParameter(fn: TSESTree.FunctionLike, context: AnyRuleContext): number | undefined {
  for (const [index, param] of fn.params.entries()) {
    if (param.type === AST_NODE_TYPES.AssignmentPattern) {
      const { left, right } = param;
      if (left.type !== AST_NODE_TYPES.Identifier || unwrap(right).type !== AST_NODE_TYPES.Identifier) continue;
      const value = unwrap(right) as TSESTree.Identifier;
      if (!HANDLE_NAME.test(left.name) && !HANDLE_NAME.test(value.name)) continue;
      const def = findVariable(context.sourceCode.getScope(value), value)?.defs[0];
      const moduleLevel =
        def !== undefined &&
        (def.type === DefinitionType.ImportBinding ||
          (def.node.type === AST_NODE_TYPES.VariableDeclarator &&
            def.node.parent.parent.type === AST_NODE_TYPES.Program) ||
          (def.node.type === AST_NODE_TYPES.VariableDeclarator &&
            def.node.parent.parent.type === AST_NODE_TYPES.ExportNamedDeclaration));
      if (moduleLevel) return index;
      continue;
    }
    if (
      param.type === AST_NODE_TYPES.Identifier &&
      param.optional &&
      param.typeAnnotation &&
      HANDLE_ANNOTATION.test(context.sourceCode.getText(param.typeAnnotation))
    )
      return index;
  }
  // `if (queryRunner) … else this.repository.save(row)`: it falls back to a handle of its own.
  return handleFallbackParameter(fn, context);
}
