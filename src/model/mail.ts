import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext } from './ast/context.js';
import { endName, memberPath } from './ast/names.js';
import { unwrap } from './ast/nodes.js';
import { resolveValue } from './ast/values.js';
import { importSource } from './modules.js';
import { MAIL_SENDERS, SES_MODULES, SES_SEND_COMMAND } from './libraries/mail-senders.js';

/**
 * A call that sends an email through a mail library or a provider's SDK (libraries/mail-senders.ts):
 * a write to someone's inbox that a second run of the handler repeats.
 */
export function getMailSend(call: TSESTree.CallExpression, context: AnyRuleContext): { library: string } | undefined {
  const callee = unwrap(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const scope = context.sourceCode.getScope(call);
  const path = memberPath(callee, scope);
  if (!path) return undefined;
  for (const sender of MAIL_SENDERS) {
    if (path.length <= sender.path.length) continue;
    if (!sender.path.every((name, index) => path[path.length - sender.path.length + index] === name)) continue;
    let receiver: TSESTree.Node = callee;
    for (let step = 0; step < sender.path.length && receiver.type === AST_NODE_TYPES.MemberExpression; step++)
      receiver = unwrap(receiver.object);
    if (!sender.modules && !sender.named) return { library: sender.library };
    const name = endName(receiver);
    if (sender.named && name !== undefined && sender.named.test(name)) return { library: sender.library };
    const module = originModule(receiver, context);
    if (module !== undefined && sender.modules?.includes(module)) return { library: sender.library };
  }
  // SES: `client.send(new SendEmailCommand(input))`, the command imported from an SES client module.
  const command = path.at(-1) === 'send' ? call.arguments[0] && resolveValue(call.arguments[0], scope) : undefined;
  if (command?.type === AST_NODE_TYPES.NewExpression && command.callee.type === AST_NODE_TYPES.Identifier) {
    const source = importSource(command.callee, scope);
    if (source && SES_MODULES.includes(source.module) && SES_SEND_COMMAND.test(source.imported))
      return { library: 'aws-ses' };
  }
  return undefined;
}

/** The module a receiver comes from: imported itself, or made by `new X()` / `x()` of an import. */
function originModule(node: TSESTree.Node, context: AnyRuleContext): string | undefined {
  if (node.type !== AST_NODE_TYPES.Identifier) return undefined;
  const scope = context.sourceCode.getScope(node);
  const own = importSource(node, scope);
  if (own) return own.module;
  const value = unwrap(resolveValue(node, scope));
  if (value.type !== AST_NODE_TYPES.NewExpression && value.type !== AST_NODE_TYPES.CallExpression) return undefined;
  let maker = unwrap(value.callee);
  while (maker.type === AST_NODE_TYPES.MemberExpression) maker = unwrap(maker.object);
  return maker.type === AST_NODE_TYPES.Identifier ? importSource(maker, scope)?.module : undefined;
}
