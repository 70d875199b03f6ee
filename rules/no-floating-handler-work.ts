import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';

import { ackedOnSettle } from '../src/model/handler/ack.js';
import { findConsumerHandlers } from '../src/model/handler/consumer-handler.js';
import {
  floatingWorkOfDeliveryFunctions,
  floatingWorkOnPath,
  type FloatingWork,
} from '../src/model/handler/floating-work.js';
import { isFunction } from '../src/model/ast/function.js';
import { createRule } from '../src/util/create-rule.js';

export type Options = [{ ignoreVoid?: boolean }];
export type MessageIds = 'floatingWork' | 'voidedWork' | 'asyncCallback' | 'addAwait' | 'awaitAll';

export default createRule<Options, MessageIds>({
  name: 'no-floating-handler-work',
  meta: {
    type: 'problem',
    docs: {
      description: 'Disallow consumer handlers that return before their work settles',
      recommended: 'recommended',
      roles: ['server', 'script'],
    },
    hasSuggestions: true,
    messages: {
      floatingWork:
        '`{{name}}` is neither awaited nor returned, so the handler can finish first and the message counts as handled; a crash or a rejection then loses this work.',
      voidedWork:
        '`void {{name}}` drops this work inside a consumer handler, so the message counts as handled before it settles; a crash or a rejection then loses it without a retry.',
      asyncCallback:
        '`{{name}}` does not wait for its async callback, so the handler can finish first and the message counts as handled; a crash or a rejection then loses the work.',
      addAwait: 'Await it.',
      awaitAll: 'Await all the callbacks with `Promise.all`.',
    },
    schema: [
      {
        type: 'object',
        properties: {
          ignoreVoid: {
            type: 'boolean',
            description: 'Treat `void promise` as a deliberate fire-and-forget and do not report it.',
          },
        },
        additionalProperties: false,
      },
    ],
    defaultOptions: [{ ignoreVoid: false }],
  },
  create(context, [{ ignoreVoid }]) {
    return {
      Program(program) {
        // A helper on two handlers' delivery paths is reported once.
        const reported = new Set<TSESTree.Node>();
        for (const handler of findConsumerHandlers(program, context)) {
          if (!ackedOnSettle(handler, context)) continue;
          for (const floating of floatingWorkOnPath(handler, context)) {
            if ((floating.kind === 'voided' && ignoreVoid) || reported.has(floating.node)) continue;
            reported.add(floating.node);
            report(context, floating);
          }
        }
        // Exported functions a delivery in another module waits for.
        for (const floating of floatingWorkOfDeliveryFunctions(program, context)) {
          if ((floating.kind === 'voided' && ignoreVoid) || reported.has(floating.node)) continue;
          reported.add(floating.node);
          report(context, floating);
        }
      },
    };
  },
});

type Context = Readonly<TSESLint.RuleContext<MessageIds, Options>>;

function report(context: Context, floating: FloatingWork): void {
  const { node, kind } = floating;
  const sourceCode = context.sourceCode;
  const name = shorten(sourceCode.getText(node.callee));
  const statement = node.parent.type === AST_NODE_TYPES.ExpressionStatement ? node.parent : undefined;
  const voided =
    node.parent.type === AST_NODE_TYPES.UnaryExpression && node.parent.operator === 'void' ? node.parent : undefined;
  const canAwait = inAsyncFunction(node);

  if (kind === 'asyncCallback') {
    const callee = node.callee;
    const fix =
      canAwait && statement && callee.type === AST_NODE_TYPES.MemberExpression && !callee.computed
        ? (fixer: TSESLint.RuleFixer): TSESLint.RuleFix =>
            fixer.replaceText(
              node,
              `await Promise.all(${sourceCode.getText(callee.object)}.${floating.what === 'forEach' ? 'map' : floating.what}(${node.arguments.map((arg) => sourceCode.getText(arg)).join(', ')}))`,
            )
        : undefined;
    context.report({
      node,
      messageId: 'asyncCallback',
      data: { name },
      suggest: fix ? [{ messageId: 'awaitAll', fix }] : [],
    });
    return;
  }
  const target = voided ?? (statement ? node : undefined);
  const fix =
    canAwait && target
      ? (fixer: TSESLint.RuleFixer): TSESLint.RuleFix =>
          voided
            ? fixer.replaceTextRange([voided.range[0], voided.argument.range[0]], 'await ')
            : fixer.insertTextBefore(node, 'await ')
      : undefined;
  context.report({
    node,
    messageId: kind === 'voided' ? 'voidedWork' : 'floatingWork',
    data: { name },
    suggest: fix ? [{ messageId: 'addAwait', fix }] : [],
  });
}

function inAsyncFunction(node: TSESTree.Node): boolean {
  for (let current = node.parent; current; current = current.parent) {
    if (isFunction(current)) return current.async;
  }
  return false;
}

function shorten(text: string): string {
  const line = text.replace(/\s+/g, ' ');
  return line.length > 40 ? `${line.slice(0, 37)}...` : line;
}
