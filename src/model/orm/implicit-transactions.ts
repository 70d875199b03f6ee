import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext } from '../ast/context.js';
import { memberName, propertyKeyName } from '../ast/names.js';
import { walk } from '../ast/walk.js';
import { importedModules } from '../modules.js';
import { settingsOf, type ImplicitTransactionLibrary } from '../settings.js';
import { type OrmTransaction } from './transactions.js';

/**
 * Libraries that can hand a transaction to every query inside it without the query being given
 * it, once the process turns that on:
 * - Sequelize 6 `Sequelize.useCLS(namespace)`: a static switch of the class, so it holds for
 *   every instance in the process, but only inside a managed transaction
 *   (`sequelize.transaction(async (t) => …)`); an unmanaged one (`const t = await
 *   sequelize.transaction()`) never enters the namespace, so its queries still need `{ transaction: t }`.
 * - Sequelize 7 (`@sequelize/core`): on by default, for managed transactions as in 6, unless
 *   the instance is made with `disableClsTransactions: true`; a file that imports it turns it on.
 * - Mongoose 8.4+ `mongoose.set('transactionAsyncLocalStorage', true)`: only inside
 *   `connection.transaction(async (session) => …)`, not `session.withTransaction(...)` nor a
 *   session started by hand.
 * The switch is usually written once, where the connection is set up, so `idempotency-check`
 * finds it in the project and passes `settings.idempotency.implicitTransactions` to the other
 * files; plugin users write that setting themselves.
 */
const MONGOOSE_OPTION = 'transactionAsyncLocalStorage';

function isFalse(node: TSESTree.Node | undefined): boolean {
  return node?.type === AST_NODE_TYPES.Literal && node.value === false;
}

/** `{ transactionAsyncLocalStorage: true }` (any value but a literal `false`). */
function objectTurnsOn(node: TSESTree.Node | undefined): boolean {
  return (
    node?.type === AST_NODE_TYPES.ObjectExpression &&
    node.properties.some(
      (property) =>
        property.type === AST_NODE_TYPES.Property &&
        propertyKeyName(property) === MONGOOSE_OPTION &&
        !isFalse(property.value),
    )
  );
}

/** The library a call switches implicit transactions on for, if it is such a switch. */
function switchedOn(node: TSESTree.Node): ImplicitTransactionLibrary | undefined {
  if (node.type === AST_NODE_TYPES.NewExpression)
    // `new Mongoose({ transactionAsyncLocalStorage: true })`
    return objectTurnsOn(node.arguments[0]) ? 'mongoose' : undefined;
  if (node.type !== AST_NODE_TYPES.CallExpression || node.callee.type !== AST_NODE_TYPES.MemberExpression)
    return undefined;
  const method = memberName(node.callee);
  if (method === 'useCLS' && node.arguments.length > 0) return 'sequelize';
  if (method !== 'set') return undefined;
  const [first, second] = node.arguments;
  // `mongoose.set('transactionAsyncLocalStorage', true)`, `mongoose.set({ transactionAsyncLocalStorage: true })`
  if (first?.type === AST_NODE_TYPES.Literal && first.value === MONGOOSE_OPTION)
    return second !== undefined && !isFalse(second) ? 'mongoose' : undefined;
  return objectTurnsOn(first) ? 'mongoose' : undefined;
}

const switchesOfFile = new WeakMap<object, readonly ImplicitTransactionLibrary[]>();

/** The libraries whose implicit transactions this file turns on. */
export function implicitTransactionSwitches(context: AnyRuleContext): readonly ImplicitTransactionLibrary[] {
  const { sourceCode } = context;
  let found = switchesOfFile.get(sourceCode);
  if (found === undefined) {
    const libraries = new Set<ImplicitTransactionLibrary>();
    const text = sourceCode.text;
    if (text.includes('useCLS') || text.includes(MONGOOSE_OPTION))
      walk(sourceCode.ast, context, (node) => {
        const library = switchedOn(node);
        if (library) libraries.add(library);
        return undefined;
      });
    if (importedModules(sourceCode.ast).has('@sequelize/core') && !/\bdisableClsTransactions\s*:\s*true\b/.test(text))
      libraries.add('sequelize');
    found = [...libraries];
    switchesOfFile.set(sourceCode, found);
  }
  return found;
}

function isCallback(node: TSESTree.Node): boolean {
  return node.type === AST_NODE_TYPES.ArrowFunctionExpression || node.type === AST_NODE_TYPES.FunctionExpression;
}

/**
 * True when the queries in `transaction` join it without being handed it: a managed Sequelize
 * transaction under CLS, or a Mongoose `connection.transaction(...)` under
 * `transactionAsyncLocalStorage`, switched on in this file or (settings) elsewhere in the project.
 */
export function joinsImplicitly(transaction: OrmTransaction, context: AnyRuleContext): boolean {
  if (transaction.joins !== 'option') return false;
  const library: ImplicitTransactionLibrary = transaction.library === 'mongoose' ? 'mongoose' : 'sequelize';
  const on =
    implicitTransactionSwitches(context).includes(library) ||
    (settingsOf(context).implicitTransactions ?? []).includes(library);
  if (!on) return false;
  const { call } = transaction;
  if (!call.arguments.some(isCallback)) return false;
  return (
    library === 'sequelize' ||
    (call.callee.type === AST_NODE_TYPES.MemberExpression && memberName(call.callee) === 'transaction')
  );
}
