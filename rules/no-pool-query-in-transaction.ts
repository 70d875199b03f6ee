import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import {
  poolQueriesInPostgresTransaction,
  poolQueriesInTransaction,
  type EscapingQuery,
} from '../src/model/sql/escaping-queries.js';
import { transactionStep } from '../src/model/sql/statements.js';
import { ormTransaction, type OrmTransaction } from '../src/model/orm/transactions.js';
import { ormEscapes, type OrmEscape } from '../src/model/orm/escapes.js';
import { lockOnContextFreeConnection } from '../src/model/orm/context-free-connection.js';
import { createRule } from '../src/util/create-rule.js';

export type Options = [];
export type MessageIds =
  | 'poolQuery'
  | 'poolHelper'
  | 'ormHandle'
  | 'ormHandleNoClient'
  | 'ormRepository'
  | 'ormService'
  | 'ormCarrier'
  | 'ormOwnHandle'
  | 'ormOwnHandleRead'
  | 'ormUnusedTransaction'
  | 'ormContext'
  | 'ormOption'
  | 'ormHelper'
  | 'ormConnection'
  | 'ormNoSession'
  | 'ormConnectionLock'
  | 'ormCreateOptionsIgnored'
  | 'ormOptionIgnored'
  | 'wrapDocuments'
  | 'useTransaction'
  | 'useManagerExecute'
  | 'passTransaction'
  | 'passHandle';

/** Escapes reported with their own message before the transaction's callback is looked at. */
const PLAIN_MESSAGES: Partial<Record<OrmEscape['kind'], MessageIds>> = {
  ignoredArgument: 'ormOptionIgnored',
  unused: 'ormUnusedTransaction',
  own: 'ormOwnHandle',
  ownRead: 'ormOwnHandleRead',
};

/** Escapes through a service or a context object, reported with the transaction they bypass. */
const NAMED_MESSAGES: Partial<Record<OrmEscape['kind'], MessageIds>> = {
  service: 'ormService',
  context: 'ormContext',
  carrier: 'ormCarrier',
};

export default createRule<Options, MessageIds>({
  name: 'no-pool-query-in-transaction',
  meta: {
    type: 'problem',
    docs: {
      description: 'Disallow queries that leave an open transaction for the pool or the outer ORM client',
      recommended: 'recommended',
      roles: ['server', 'script'],
    },
    fixable: 'code',
    hasSuggestions: true,
    messages: {
      poolQuery:
        'This query goes through the pool `{{pool}}` while the transaction on `{{client}}` is open, so it runs on another connection, outside the transaction, and stays applied when the transaction rolls back.',
      poolHelper:
        '`{{helper}}()` queries the pool `{{pool}}` while the transaction on `{{client}}` is open, so its writes run outside the transaction and stay applied when it rolls back.',
      ormHandle:
        'This query goes through `{{via}}` instead of the transaction `{{tx}}`, so it runs on another connection outside the transaction: a write commits on its own and stays applied when the transaction rolls back (a redelivery applies it again), and a read does not see the transaction’s writes.',
      ormHandleNoClient:
        'This query goes through `{{via}}` inside a transaction whose callback does not take the transaction client, so it runs on another connection outside the transaction: a write commits on its own and stays applied when the transaction rolls back, and a redelivery applies it again; take the client as the callback’s parameter and query through it.',
      ormRepository:
        '`{{via}}` is bound to the data source’s own manager, not to the transaction `{{tx}}`, so this query runs outside the transaction and a write stays applied when it rolls back; use `{{tx}}.getRepository(...)`.',
      ormService:
        '`{{via}}` writes through its own repositories, bound to the data source’s manager, and this call hands it nothing of the transaction `{{tx}}`: the write runs outside the transaction, commits on its own and stays applied when the transaction rolls back (a redelivery applies it again); pass `{{tx}}` to the method and query through it.',
      ormCarrier:
        '`{{via}}` carries the manager outside the transaction `{{tx}}`, and this call hands it on where the transaction hands other calls a context holding `{{tx}}`: what it builds queries through the outer manager, outside the transaction, so a write commits on its own and stays applied when the transaction rolls back (a redelivery applies it again); hand it a context holding `{{tx}}`.',
      ormOwnHandle:
        '`{{via}}()` writes through a database handle it holds itself (an injected or imported client or repository, or a MikroORM fork it makes), not through the transaction: its writes run on another connection, commit on their own and stay applied when the transaction rolls back (a redelivery applies them again); hand it the transaction’s handle and query through that.',
      ormOwnHandleRead:
        '`{{via}}()` reads through a database handle it holds itself, not through the transaction, and the transaction goes on with what it returns: the read runs on another connection, sees none of the transaction’s writes and takes no part in its isolation, so a concurrent delivery reads the same and both write from it; hand it the transaction’s handle and query through that.',
      ormUnusedTransaction:
        'Nothing inside the transaction on `{{tx}}` queries through it, so this write through `{{via}}` goes through a connection of its own and runs outside the transaction: it commits on its own and stays applied when the transaction rolls back (a redelivery applies it again); hand `{{tx}}` (its manager) to the write.',
      ormContext:
        '`{{via}}` finds the transaction only in the shared context `{{tx}}`, and this call does not hand it on: the service opens a transaction of its own on a fresh fork, so the write commits apart from this method’s transaction and stays applied when it rolls back (a redelivery applies it again); pass `{{tx}}`.',
      ormOption:
        'This write does not pass the transaction `{{tx}}` (`{ {{key}} }`), so it runs outside the transaction, commits on its own and stays applied when the transaction rolls back, and a redelivery applies it again.',
      ormHelper:
        '`{{via}}()` takes the handle to query with and falls back to the pool without one, and this call inside the transaction does not pass `{{tx}}`: its queries run outside the transaction, a write commits on its own and stays applied when the transaction rolls back (a redelivery applies it again), and a read does not see the transaction’s writes.',
      ormConnection:
        '`{{via}}` runs this query on a pooled connection of its own: below the entity manager the transaction context is not applied unless it is passed, so the query runs outside the transaction, a write commits on its own and stays applied when the transaction rolls back (a redelivery applies it again); run it through `{{tx}}.execute(...)` or `{{tx}}.createQueryBuilder(...)`, or pass `{{tx}}.getTransactionContext()` (`execute`’s fourth argument, `.transacting(...)`).',
      ormConnectionLock:
        '`{{via}}` takes this transaction-scoped lock on a pooled connection of its own, outside the entity manager’s transaction: the statement commits by itself and the lock is released as soon as it returns, so it guards nothing; take it through the entity manager (`em.execute(...)`) inside the transaction, or pass `em.getTransactionContext()`.',
      ormCreateOptionsIgnored:
        '`{{via}}.create` reads its options only when the documents are an array, so with this single document the `{ session }` object is created as a second document and neither write joins the session: both run outside the transaction, commit on their own and stay applied when it aborts (a redelivery applies them again).',
      ormOptionIgnored:
        '`{{via}}` reads its options from one argument only and ignores the one that carries the transaction, so this query runs on another connection outside the transaction: a read that decides a write sees neither the transaction’s writes nor its isolation, and a write commits on its own and stays applied when the transaction rolls back; move `{ transaction }` into the options argument.',
      wrapDocuments: 'Pass the document in an array (`create` then resolves to an array of documents).',
      ormNoSession:
        '`{{wrapper}}` runs this callback inside a session transaction it never hands the callback, so this write carries no session and runs outside the transaction: it commits on its own and stays applied when the transaction aborts (a redelivery applies it again); have `{{wrapper}}` pass its session to the callback and pass it on as `{ session }`.',
      useTransaction: 'Send it through `{{tx}}`.',
      useManagerExecute: 'Run it through `{{tx}}.execute(...)`, which applies the transaction context.',
      passTransaction: 'Pass `{ {{key}} }`.',
      passHandle: 'Pass `{{tx}}` as its last argument.',
    },
    schema: [],
  },
  create(context) {
    const reported = new Set<TSESTree.Node>();

    function report(escaping: readonly EscapingQuery[], client: TSESTree.Node): void {
      for (const query of escaping) {
        if (reported.has(query.node)) continue;
        reported.add(query.node);
        const data = {
          pool: context.sourceCode.getText(query.pool),
          client: context.sourceCode.getText(client),
          helper: query.helper ?? '',
        };
        context.report({ node: query.node, messageId: query.helper === undefined ? 'poolQuery' : 'poolHelper', data });
      }
    }

    function reportOrm(escape: OrmEscape, transaction: OrmTransaction): void {
      if (reported.has(escape.node)) return;
      reported.add(escape.node);
      const { tx } = transaction;
      if (escape.kind === 'connection') {
        const { rewrite } = escape;
        const manager = tx?.name ?? (transaction.handle ? context.sourceCode.getText(transaction.handle) : 'em');
        const data = { via: context.sourceCode.getText(escape.via), tx: manager };
        context.report({
          node: escape.node,
          messageId: 'ormConnection',
          data,
          suggest: rewrite
            ? [
                {
                  messageId: 'useManagerExecute',
                  data,
                  fix: (fixer) => fixer.replaceTextRange(rewrite.range, rewrite.text),
                },
              ]
            : [],
        });
        return;
      }
      if (escape.kind === 'ignoredOptions') {
        const { rewrite } = escape;
        const data = { via: context.sourceCode.getText(escape.via) };
        context.report({
          node: escape.node,
          messageId: 'ormCreateOptionsIgnored',
          data,
          suggest: rewrite
            ? [
                {
                  messageId: 'wrapDocuments',
                  data,
                  fix: (fixer) => fixer.replaceTextRange(rewrite.range, rewrite.text),
                },
              ]
            : [],
        });
        return;
      }
      // Kinds whose message names only what the query goes through (and the transaction), whatever the callback takes.
      const plain = PLAIN_MESSAGES[escape.kind];
      if (plain) {
        context.report({
          node: escape.node,
          messageId: plain,
          data: { via: context.sourceCode.getText(escape.via), tx: tx?.name ?? '' },
        });
        return;
      }
      if (transaction.sessionless) {
        const wrapper = context.sourceCode.getText(transaction.call.callee);
        context.report({ node: escape.node, messageId: 'ormNoSession', data: { wrapper } });
        return;
      }
      if (!tx) {
        const via = context.sourceCode.getText(escape.via);
        context.report({ node: escape.node, messageId: 'ormHandleNoClient', data: { via } });
        return;
      }
      const passed = transaction.txPassed ?? tx.name;
      const key =
        tx.name === 'session' || escape.addOption?.text.includes('session') ? 'session' : `transaction: ${passed}`;
      const data = { via: context.sourceCode.getText(escape.via), tx: passed, key };
      const { rewrite, addOption } = escape;
      if (escape.kind === 'handle') {
        context.report({
          node: escape.node,
          messageId: 'ormHandle',
          data,
          fix: rewrite?.provable === true ? (fixer) => fixer.replaceTextRange(rewrite.range, rewrite.text) : null,
          suggest:
            rewrite?.provable === false
              ? [
                  {
                    messageId: 'useTransaction',
                    data,
                    fix: (fixer) => fixer.replaceTextRange(rewrite.range, rewrite.text),
                  },
                ]
              : [],
        });
        return;
      }
      if (escape.kind === 'helper') {
        context.report({
          node: escape.node,
          messageId: 'ormHelper',
          data,
          suggest: addOption
            ? [
                {
                  messageId: 'passHandle',
                  data,
                  fix: (fixer) => fixer.replaceTextRange(addOption.range, addOption.text),
                },
              ]
            : [],
        });
        return;
      }
      const named = NAMED_MESSAGES[escape.kind];
      if (named) {
        context.report({ node: escape.node, messageId: named, data });
        return;
      }
      context.report({
        node: escape.node,
        messageId: escape.kind === 'repository' ? 'ormRepository' : 'ormOption',
        data,
        suggest: addOption
          ? [
              {
                messageId: 'passTransaction',
                data,
                fix: (fixer) => fixer.replaceTextRange(addOption.range, addOption.text),
              },
            ]
          : [],
      });
    }

    return {
      CallExpression(node) {
        const transaction = ormTransaction(node, context);
        if (transaction) {
          for (const escape of ormEscapes(transaction, context)) reportOrm(escape, transaction);
          return;
        }
        const lock = lockOnContextFreeConnection(node, context);
        if (lock) {
          if (!reported.has(node)) {
            reported.add(node);
            context.report({
              node,
              messageId: 'ormConnectionLock',
              data: { via: context.sourceCode.getText(lock.via) },
            });
          }
          return;
        }
        const step = transactionStep(node, context);
        if (step?.kind === 'begin') {
          report(poolQueriesInTransaction(step, context), step.receiver);
          return;
        }
        const [handle] = node.arguments.flatMap((argument) =>
          (argument.type === AST_NODE_TYPES.ArrowFunctionExpression ||
            argument.type === AST_NODE_TYPES.FunctionExpression) &&
          argument.params[0]
            ? [argument.params[0]]
            : [],
        );
        if (handle) report(poolQueriesInPostgresTransaction(node, context), handle);
      },
      TaggedTemplateExpression(node) {
        const step = transactionStep(node, context);
        if (step?.kind === 'begin') report(poolQueriesInTransaction(step, context), step.receiver);
      },
    };
  },
});
