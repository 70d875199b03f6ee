import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext, type Scope } from '../ast/context.js';
import { memberName, propertyKeyName } from '../ast/names.js';
import { outermost, unwrap } from '../ast/nodes.js';
import { findProperty, findVariable, resolveValue, staticValue } from '../ast/values.js';
import { importSource } from '../modules.js';
import { walk } from '../ast/walk.js';
import { enclosingConsumerHandler, isDelivery, type ConsumerHandler } from '../handler/consumer-handler.js';

/**
 * Vendor SDK clients whose own request timeout is none, or longer than a typical visibility
 * timeout or lock (SQS: 30 s by default, BullMQ's lock: 30 s), checked in each library's
 * installed source:
 *
 * - AWS SDK v3 (`@aws-sdk/client-*`): `@smithy/node-http-handler`, `DEFAULT_REQUEST_TIMEOUT = 0`;
 *   `NodeHttpHandlerOptions.requestTimeout`: "Defaults to 0, which disables the timeout".
 * - OpenAI (`openai`): `client.js`, `options.timeout ?? OpenAI.DEFAULT_TIMEOUT /* 10 minutes *\/`,
 *   with `maxRetries ?? 2`.
 * - Stripe (`stripe`): `stripe.core.js`, `DEFAULT_TIMEOUT = 80000`.
 */
type SdkClient = 'aws-sdk' | 'openai' | 'stripe';

export interface SdkConstruction {
  node: TSESTree.NewExpression | TSESTree.CallExpression;
  sdk: SdkClient;
  /** What the SDK waits for by default, for messages. */
  defaultBound: string;
  /** The config object the timeout goes in, when it is written in the construction. */
  config: TSESTree.ObjectExpression | undefined;
}

const DEFAULT_BOUND: Readonly<Record<SdkClient, string>> = {
  'aws-sdk': 'no timeout',
  openai: '10 minutes, retried twice',
  stripe: '80 s',
};

/**
 * An SDK client constructed without a request timeout that delivery code uses: built inside a
 * consumer handler or webhook, or held in a `const` or a `this` field that one of the file's
 * handlers calls through. With the handler, for the message.
 */
export function unboundedSdkClientInDelivery(
  node: TSESTree.NewExpression | TSESTree.CallExpression,
  context: AnyRuleContext,
): (SdkConstruction & { handler: ConsumerHandler }) | undefined {
  const construction = unboundedSdkConstruction(node, context);
  if (!construction) return undefined;
  const handler = deliveryHandlerAround(node, context) ?? deliveryUse(node, context);
  return handler ? { ...construction, handler } : undefined;
}

function deliveryHandlerAround(node: TSESTree.Node, context: AnyRuleContext): ConsumerHandler | undefined {
  const handler = enclosingConsumerHandler(node, context);
  return handler && isDelivery(handler.broker) ? handler : undefined;
}

/** The first delivery handler that uses the client the construction is stored in. */
function deliveryUse(
  node: TSESTree.NewExpression | TSESTree.CallExpression,
  context: AnyRuleContext,
): ConsumerHandler | undefined {
  const holder = constructionHolder(node, context);
  if (!holder) return undefined;
  if (holder.kind === 'variable') {
    for (const reference of holder.references) {
      const handler = deliveryHandlerAround(reference, context);
      if (handler) return handler;
    }
    return undefined;
  }
  let found: ConsumerHandler | undefined;
  walk(holder.classBody, context, (inner) => {
    if (
      inner.type === AST_NODE_TYPES.MemberExpression &&
      unwrap(inner.object).type === AST_NODE_TYPES.ThisExpression &&
      memberName(inner) === holder.name
    ) {
      found = deliveryHandlerAround(inner, context);
      if (found) return 'stop';
    }
    return undefined;
  });
  return found;
}

/**
 * The SDK client a `new` (or Stripe's callable `Stripe(key)`) constructs without a request
 * timeout; undefined when it is not one, or when its config bounds requests or is not shown.
 */
function unboundedSdkConstruction(
  node: TSESTree.NewExpression | TSESTree.CallExpression,
  context: AnyRuleContext,
): SdkConstruction | undefined {
  const scope = context.sourceCode.getScope(node);
  const sdk = sdkOf(node.callee, scope);
  if (!sdk) return undefined;
  // Stripe takes `(key, config)`; the others `(config)`.
  const index = sdk === 'stripe' ? 1 : 0;
  if (node.arguments.slice(0, index + 1).some((argument) => argument.type === AST_NODE_TYPES.SpreadElement))
    return undefined;
  const argument = node.arguments[index];
  const config = argument ? unwrap(resolveValue(argument, scope)) : undefined;
  if (config && config.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
  if (config && configBounds(sdk, config, scope) !== 'absent') return undefined;
  return { node, sdk, defaultBound: DEFAULT_BOUND[sdk], config };
}

function sdkOf(callee: TSESTree.Node, scope: Scope): SdkClient | undefined {
  const target = unwrap(callee);
  let identifier: TSESTree.Identifier | undefined;
  if (target.type === AST_NODE_TYPES.Identifier) identifier = target;
  else if (target.type === AST_NODE_TYPES.MemberExpression && unwrap(target.object).type === AST_NODE_TYPES.Identifier)
    identifier = unwrap(target.object) as TSESTree.Identifier;
  if (!identifier) return undefined;
  const source = importSource(identifier, scope);
  if (!source) return undefined;
  const name = target.type === AST_NODE_TYPES.MemberExpression ? memberName(target) : source.imported;
  if (source.module.startsWith('@aws-sdk/client-'))
    return name !== undefined && /Client$/.test(name) ? 'aws-sdk' : undefined;
  if (source.module === 'openai')
    return name === 'default' || name === 'OpenAI' || name === 'AzureOpenAI' ? 'openai' : undefined;
  if (source.module === 'stripe') return name === 'default' || name === 'Stripe' ? 'stripe' : undefined;
  return undefined;
}

/** 'bounded', 'unknown' (a spread, a handler built elsewhere), or 'absent'. */
function configBounds(
  sdk: SdkClient,
  config: TSESTree.ObjectExpression,
  scope: Scope,
): 'bounded' | 'unknown' | 'absent' {
  if (sdk !== 'aws-sdk')
    return positive(
      findProperty(config, (name) => name === 'timeout', scope),
      scope,
    );
  const handler = findProperty(config, (name) => name === 'requestHandler', scope);
  if (handler === 'unknown') return 'unknown';
  if (!handler) return 'absent';
  // `requestHandler: new NodeHttpHandler({ requestTimeout })` or its options object.
  let value = unwrap(resolveValue(handler.value, scope));
  if (value.type === AST_NODE_TYPES.NewExpression) {
    const options = value.arguments[0];
    if (!options) return 'absent';
    value = unwrap(resolveValue(options, scope));
  }
  if (value.type !== AST_NODE_TYPES.ObjectExpression) return 'unknown';
  return positive(
    findProperty(value, (name) => name === 'requestTimeout' || name === 'socketTimeout', scope),
    scope,
  );
}

function positive(property: TSESTree.Property | 'unknown' | undefined, scope: Scope): 'bounded' | 'unknown' | 'absent' {
  if (property === 'unknown') return 'unknown';
  if (!property) return 'absent';
  const value = staticValue(property.value, scope);
  if (!value) return 'bounded';
  return typeof value.value === 'number' && value.value > 0 && Number.isFinite(value.value) ? 'bounded' : 'absent';
}

/**
 * The binding or `this` field a construction is stored in (`const sqs = new SQSClient()`,
 * `private stripe = new Stripe(key)`, `this.openai = new OpenAI()`), to find its uses.
 */
function constructionHolder(
  node: TSESTree.NewExpression | TSESTree.CallExpression,
  context: AnyRuleContext,
):
  | { kind: 'variable'; references: TSESTree.Node[] }
  | { kind: 'field'; name: string; classBody: TSESTree.ClassBody }
  | undefined {
  const current = outermost(node);
  const parent = current.parent;
  if (!parent) return undefined;
  if (parent.type === AST_NODE_TYPES.VariableDeclarator && parent.id.type === AST_NODE_TYPES.Identifier) {
    const variable = findVariable(context.sourceCode.getScope(parent), parent.id);
    return variable
      ? { kind: 'variable', references: variable.references.map((reference) => reference.identifier) }
      : undefined;
  }
  if (parent.type === AST_NODE_TYPES.PropertyDefinition) {
    const name = propertyKeyName(parent);
    return name === undefined ? undefined : { kind: 'field', name, classBody: parent.parent };
  }
  if (
    parent.type === AST_NODE_TYPES.AssignmentExpression &&
    parent.left.type === AST_NODE_TYPES.MemberExpression &&
    unwrap(parent.left.object).type === AST_NODE_TYPES.ThisExpression
  ) {
    const name = memberName(parent.left);
    let body: TSESTree.Node | undefined = parent.parent;
    while (body !== undefined && body.type !== AST_NODE_TYPES.ClassBody) body = body.parent;
    return name === undefined || body === undefined ? undefined : { kind: 'field', name, classBody: body };
  }
  return undefined;
}
