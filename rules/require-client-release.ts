import { AST_NODE_TYPES, AST_TOKEN_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';

import {
  callbackReleaseProblem,
  getCallbackClient,
  getCheckedOutClient,
  releaseCalls,
  releaseIgnoringFailedRollback,
  releaseProblem,
  type CheckedOutClient,
} from '../src/model/sql/clients.js';
import { createRule } from '../src/util/create-rule.js';

export type Options = [{ requireErrorArgument?: boolean }];
export type MessageIds =
  'neverReleased' | 'releaseSkipped' | 'notHandedOn' | 'releaseWithoutError' | 'wrapInTryFinally';

export default createRule<Options, MessageIds>({
  name: 'require-client-release',
  meta: {
    type: 'problem',
    docs: {
      description: 'Require a checked-out database client to be released on every path',
      recommended: 'recommended',
      roles: ['server'],
    },
    hasSuggestions: true,
    messages: {
      neverReleased:
        '`{{name}}` is checked out of the pool and never released, so each run keeps a connection until the pool runs dry and later jobs hang past their visibility timeout and are redelivered; call `release()` in a `finally`.',
      releaseSkipped:
        '`{{name}}` is released only on the happy path: a throw or early return at line {{line}} skips `release()` and leaks the connection until the pool runs dry and later jobs hang and are redelivered; release it in `finally`.',
      notHandedOn:
        '`{{name}}` is handed to a helper that gives it back on some paths only: the path through line {{line}} neither releases it nor hands it on, so each run down that path keeps a connection until the pool runs dry and later jobs hang and are redelivered; release it in a `finally` here.',
      releaseWithoutError:
        '`{{name}}.release()` returns the client to the pool even when its `ROLLBACK` failed, so a later job gets a connection stuck in a broken transaction; pass the error (`release(err)`) when the rollback fails.',
      wrapInTryFinally: 'Wrap the work after `{{name}}` is checked out in `try { ... } finally { {{release}}; }`.',
    },
    schema: [
      {
        type: 'object',
        properties: {
          requireErrorArgument: {
            type: 'boolean',
            description:
              'Also require `release(err)` (node-postgres) on a client that sends `ROLLBACK`, so a client whose rollback failed is destroyed, not reused.',
          },
        },
        additionalProperties: false,
      },
    ],
    defaultOptions: [{ requireErrorArgument: false }],
  },
  create(context, [{ requireErrorArgument }]) {
    return {
      VariableDeclarator(node) {
        const client = getCheckedOutClient(node, context);
        if (!client) return;
        const name = client.binding.name;
        const problem = releaseProblem(client, context);
        if (problem?.kind === 'neverReleased') {
          context.report({ node: client.acquire, messageId: 'neverReleased', data: { name } });
          return;
        }
        if (problem?.kind === 'skipped') {
          const fix = wrapFix(client, context);
          context.report({
            node: client.acquire,
            messageId: 'releaseSkipped',
            data: { name, line: problem.at.loc.start.line },
            suggest: fix ? [{ messageId: 'wrapInTryFinally', data: { name, release: fix.release }, fix: fix.fix }] : [],
          });
          return;
        }
        if (problem?.kind === 'notHandedOn') {
          context.report({
            node: client.acquire,
            messageId: 'notHandedOn',
            data: { name, line: problem.at.loc.start.line },
          });
          return;
        }
        if (!requireErrorArgument) return;
        const release = releaseIgnoringFailedRollback(client, context);
        if (release) context.report({ node: release, messageId: 'releaseWithoutError', data: { name } });
      },
      CallExpression(node) {
        const lent = getCallbackClient(node, context);
        if (!lent || !callbackReleaseProblem(lent, context)) return;
        context.report({ node, messageId: 'neverReleased', data: { name: lent.client?.name ?? 'client' } });
      },
    };
  },
});

/**
 * `try { <everything after the checkout> } finally { client.release(); }`, offered only when
 * that is plainly the same program: one `release()` statement in the same block as the
 * checkout, no declarations that hoist, and nothing after the release that uses the client.
 */
function wrapFix(
  client: CheckedOutClient,
  context: Readonly<TSESLint.RuleContext<MessageIds, Options>>,
): { release: string; fix: TSESLint.ReportFixFunction } | undefined {
  const declaration = client.binding.parent.parent;
  const block = declaration?.parent;
  if (declaration?.type !== AST_NODE_TYPES.VariableDeclaration || block?.type !== AST_NODE_TYPES.BlockStatement)
    return undefined;
  const releases = releaseCalls(client, context);
  const [release] = releases;
  if (releases.length !== 1 || !release) return undefined;
  const statement = release.parent.type === AST_NODE_TYPES.AwaitExpression ? release.parent.parent : release.parent;
  if (statement.type !== AST_NODE_TYPES.ExpressionStatement || statement.parent !== block) return undefined;
  const rest = block.body.slice(block.body.indexOf(declaration) + 1);
  const after = rest.slice(rest.indexOf(statement) + 1);
  const body = rest.filter((node) => node !== statement);
  if (body.length === 0 || rest[0] === statement || rest.some((node) => hoists(node))) return undefined;
  const source = context.sourceCode;
  const binding = client.binding.name;
  if (
    after.some((node) =>
      source.getTokens(node).some((token) => token.type === AST_TOKEN_TYPES.Identifier && token.value === binding),
    )
  )
    return undefined;
  const first = body[0];
  const last = rest[rest.length - 1];
  if (!first || !last) return undefined;
  const indent = /^\s*/.exec(source.lines[declaration.loc.start.line - 1] ?? '')?.[0] ?? '';
  const text = source.text;
  const inner = (
    text.slice(first.range[0], statement.range[0]).trimEnd() + text.slice(statement.range[1], last.range[1])
  ).trim();
  const multilineTemplate = body.some((node) =>
    source
      .getTokens(node)
      .some((token) => token.type === AST_TOKEN_TYPES.Template && token.loc.start.line !== token.loc.end.line),
  );
  const indented = multilineTemplate ? inner : inner.replace(/\n(?=[^\n])/g, '\n  ');
  const releaseText = source.getText(statement);
  return {
    release: source.getText(release),
    fix: (fixer) =>
      fixer.replaceTextRange(
        [first.range[0], last.range[1]],
        `try {\n${indent}  ${indented}\n${indent}} finally {\n${indent}  ${releaseText}\n${indent}}`,
      ),
  };
}

function hoists(node: TSESTree.Node): boolean {
  return (
    node.type === AST_NODE_TYPES.FunctionDeclaration ||
    node.type === AST_NODE_TYPES.ClassDeclaration ||
    (node.type === AST_NODE_TYPES.VariableDeclaration && node.kind === 'var')
  );
}
