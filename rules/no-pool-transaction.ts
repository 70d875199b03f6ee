import { clientRewrite, poolTransactionListeners } from '../src/model/pool.js';
import { createRule } from '../src/util/create-rule.js';

export type Options = [];
export type MessageIds = 'poolTransaction' | 'rewriteOnClient';

const STATEMENT_LABELS = { begin: 'BEGIN', commit: 'COMMIT', rollback: 'ROLLBACK', savepoint: 'SAVEPOINT', release: 'RELEASE SAVEPOINT' } as const;

export default createRule<Options, MessageIds>({
  name: 'no-pool-transaction',
  meta: {
    type: 'problem',
    docs: { description: 'Disallow transaction statements sent through a connection pool', recommended: 'recommended' },
    hasSuggestions: true,
    messages: {
      poolTransaction:
        '`{{statement}}` goes through the pool `{{pool}}`, which may run each statement on a different connection, so the queries after it are not one transaction and a crash or a redelivery leaves them half applied.',
      rewriteOnClient: 'Check out one client with `{{pool}}.{{acquire}}()` and run the transaction on it.',
    },
    schema: [],
  },
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- RuleCreator still requires it (brief: defaults in both places)
  defaultOptions: [],
  create(context) {
    return poolTransactionListeners(context, ({ step, steps: transaction }) => {
      const pool = context.sourceCode.getText(step.receiver);
      const rewrite = clientRewrite(transaction, context);
      context.report({
        node: step.node,
        messageId: 'poolTransaction',
        data: { statement: STATEMENT_LABELS[step.kind], pool },
        suggest: rewrite
          ? [{ messageId: 'rewriteOnClient', data: { pool, acquire: step.pool.acquire }, fix: (fixer) => fixer.replaceTextRange(rewrite.range, rewrite.text) }]
          : [],
      });
    });
  },
});
