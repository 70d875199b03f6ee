import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { unwrap } from '../ast/nodes.js';
import { findProperty, resolveValue, staticString } from '../ast/values.js';
import { type AnyRuleContext, type Scope } from '../ast/context.js';
import { importSource } from '../modules.js';
import { type Broker, type ConsumerHandler } from './consumer-handler.js';
import { classMethods, jobProcessorMethod } from './methods.js';
import { managesWebhooks, namesWebhook, readsUserSession, verifiesSignature } from './webhooks.js';

function paramDecorators(param: TSESTree.Parameter): TSESTree.Decorator[] {
  return 'decorators' in param ? param.decorators : [];
}

/** `@UseGuards(TenderlySignatureGuard)`, `@UseGuards(HmacGuard)`: a guard that checks the sender. */
const SENDER_GUARD = /@UseGuards\s*\([^)]*(?:Signature|Hmac|Webhook)\w*/;

/**
 * Handlers declared by decorators, as NestJS applications write them:
 * - `@Processor('q') class X extends WorkerHost { async process(job) }` (@nestjs/bullmq)
 * - `@Processor('q') class X { @Process('name') async handle(job) }` (@nestjs/bull)
 * - `@EventPattern(p)` / `@MessagePattern(p)` methods (@nestjs/microservices)
 * - `@SqsMessageHandler('q', batch)` (@ssut/nestjs-sqs), `@RabbitSubscribe({ queue })` (@golevelup/nestjs-rabbitmq)
 * - `@StripeWebhookHandler('event')` (@golevelup/nestjs-stripe)
 * - `@ActivityMethod()` / `@Activity()` Temporal activities (nestjs-temporal, nestjs-temporal-core)
 * - `@Controller(path)` `@Post(path)` routes whose path or name says webhook, or that verify a signature
 * - any subclass's `process(job: Job)` (see {@link jobProcessorMethod})
 */

/** The name of a decorator (`@Name(...)` or `@Name`), with its call's arguments. */
function decorated(
  decorators: readonly TSESTree.Decorator[] | undefined,
  names: readonly string[],
): { name: string; args: TSESTree.CallExpressionArgument[]; decorator: TSESTree.Decorator } | undefined {
  for (const decorator of decorators ?? []) {
    const expression = unwrap(decorator.expression);
    const callee = expression.type === AST_NODE_TYPES.CallExpression ? unwrap(expression.callee) : expression;
    const name =
      callee.type === AST_NODE_TYPES.Identifier
        ? callee.name
        : callee.type === AST_NODE_TYPES.MemberExpression && callee.property.type === AST_NODE_TYPES.Identifier
          ? callee.property.name
          : undefined;
    if (name !== undefined && names.includes(name))
      return { name, args: expression.type === AST_NODE_TYPES.CallExpression ? expression.arguments : [], decorator };
  }
  return undefined;
}

/** `@Processor('q')` / `@Processor({ name: 'q' })` / `@Controller('path')`: the name or path. */
function nameArgument(
  args: readonly TSESTree.CallExpressionArgument[],
  scope: Scope,
  keys: string[],
): string | undefined {
  const first = args[0];
  if (!first) return undefined;
  const text = staticString(first, scope);
  if (text !== undefined) return text;
  const value = resolveValue(first, scope);
  if (value.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
  const property = findProperty(value, (key) => keys.includes(key), scope);
  return property && property !== 'unknown' ? staticString(property.value, scope) : undefined;
}

/** A class extends `WorkerHost` (imported from @nestjs/bullmq, or by that name). */
function extendsWorkerHost(cls: TSESTree.ClassDeclaration | TSESTree.ClassExpression, scope: Scope): boolean {
  const superClass = cls.superClass && unwrap(cls.superClass);
  if (superClass?.type !== AST_NODE_TYPES.Identifier) return false;
  const source = importSource(superClass, scope);
  return source ? source.imported === 'WorkerHost' : superClass.name === 'WorkerHost';
}

/** Method decorators that make a method a per-delivery handler, with its broker. */
const METHOD_DECORATORS: Record<string, Broker> = {
  Process: 'bull',
  EventPattern: 'nestjs-microservices',
  MessagePattern: 'nestjs-microservices',
  SqsMessageHandler: 'sqs-consumer',
  RabbitSubscribe: 'nestjs-rabbitmq',
  RabbitRPC: 'nestjs-rabbitmq',
  StripeWebhookHandler: 'webhook',
  ActivityMethod: 'temporal',
  Activity: 'temporal',
};

export function classHandlers(
  cls: TSESTree.ClassDeclaration | TSESTree.ClassExpression,
  context: AnyRuleContext,
): ConsumerHandler[] {
  const scope = context.sourceCode.getScope(cls);
  const handlers: ConsumerHandler[] = [];
  const add = (
    fn: TSESTree.FunctionLike,
    broker: Broker,
    queue: string | undefined,
    registration: TSESTree.Node,
  ): void => {
    if (!handlers.some((handler) => handler.fn === fn))
      handlers.push({ fn, broker, queue, registration, messageParam: fn.params[0] });
  };
  const processor = decorated(cls.decorators, ['Processor']);
  const queue = processor && nameArgument(processor.args, scope, ['name']);
  const controller = decorated(cls.decorators, ['Controller']);
  const controllerPath = controller && nameArgument(controller.args, scope, ['path']);
  const className = cls.id?.name;

  for (const { name, member } of classMethods(cls.body)) {
    const fn = member.value;
    const method = decorated(member.decorators, Object.keys(METHOD_DECORATORS));
    if (method) {
      const broker = METHOD_DECORATORS[method.name];
      if (!broker) continue;
      const pattern =
        method.name === 'RabbitSubscribe' || method.name === 'RabbitRPC'
          ? nameArgument(method.args, scope, ['queue', 'routingKey'])
          : method.name === 'Process'
            ? queue
            : nameArgument(method.args, scope, ['name', 'cmd']);
      add(fn, broker, pattern, method.decorator);
      continue;
    }
    if (processor && name === 'process' && extendsWorkerHost(cls, scope)) {
      add(fn, 'bullmq', queue, processor.decorator);
      continue;
    }
    const post = controller ? decorated(member.decorators, ['Post', 'All', 'Put']) : undefined;
    if (post) {
      const path = [controllerPath, nameArgument(post.args, scope, ['path'])].filter(Boolean).join('/');
      // Guards and parameter decorators, on the method and on the class, say who calls it: a
      // signature guard a sender, a JWT guard or `@CurrentUser()` a signed-in user.
      const callers = [...cls.decorators, ...member.decorators, ...fn.params.flatMap(paramDecorators)]
        .map((node) => context.sourceCode.getText(node))
        .join('\n');
      // The method's own name outranks the action words of its path: `@Post('update-status')
      // async webhook()` receives a carrier's status updates.
      const byName =
        !readsUserSession(callers) &&
        (namesWebhook(name) ||
          (!managesWebhooks(name) &&
            !managesWebhooks(path) &&
            !managesWebhooks(className) &&
            (namesWebhook(path) || namesWebhook(className))));
      if (byName || SENDER_GUARD.test(callers) || verifiesSignature(fn, context))
        add(fn, 'webhook', path || undefined, post.decorator);
    }
  }
  for (const { fn, broker } of jobProcessorMethod(cls, scope)) add(fn, broker, queue, cls);
  return handlers;
}
