import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import {
  poolQueriesInPostgresTransaction,
  poolQueriesInTransaction,
  type EscapingQuery,
} from '../src/model/sql/escaping-queries.js';
import { transactionStep } from '../src/model/sql/statements.js';
import { createRule } from '../src/util/create-rule.js';

export type Options = [];
export type MessageIds = 'poolQuery' | 'poolHelper';

export default createRule<Options, MessageIds>({
  name: 'no-pool-query-in-transaction',
  meta: {
    type: 'problem',
    docs: {
      description: 'Disallow pool queries between a client’s BEGIN and COMMIT',
      recommended: 'recommended',
      roles: ['server', 'script'],
    },
    messages: {
      poolQuery:
        'This query goes through the pool `{{pool}}` while the transaction on `{{client}}` is open, so it runs on another connection, outside the transaction, and stays applied when the transaction rolls back.',
      poolHelper:
        '`{{helper}}()` queries the pool `{{pool}}` while the transaction on `{{client}}` is open, so its writes run outside the transaction and stay applied when it rolls back.',
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

    return {
      CallExpression(node) {
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
