import { isBuiltin } from 'node:module';

import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { unwrap } from '../ast/nodes.js';
import { findProperty, resolveValue, staticString } from '../ast/values.js';
import { type AnyRuleContext, type Scope } from '../ast/context.js';
import { importSource, isProjectSpecifier } from '../modules.js';
import { topLevelClasses } from '../ast/class-fields.js';
import { nearestManifest, type PackageManifest } from '../roles/package.js';
import { type Broker, type ConsumerHandler } from './consumer-handler.js';
import { classMethods, jobProcessorMethod } from './methods.js';
import { returnedValues } from '../ast/function.js';
import { hasSummaryFact, importedSummary } from '../settings.js';
import { answersWithRedirect, managesWebhooks, namesWebhook, readsUserSession, verifiesSignature } from './webhooks.js';

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

/**
 * A decorator factory of the project that returns a library's handler decorator, alone or among
 * others (`(type, options) => MessagePattern(type, { options })`, `applyDecorators(EventPattern(p),
 * UseFilters(f))`): what it decorates is a handler as the library's is.
 */
export function aliasesHandlerDecorator(fn: TSESTree.FunctionLike, context: AnyRuleContext): boolean {
  if (!fn.body) return false;
  const returned = fn.body.type === AST_NODE_TYPES.BlockStatement ? returnedValues(fn.body) : [fn.body];
  const scope = context.sourceCode.getScope(fn);
  const isHandlerDecorator = (node: TSESTree.Node): boolean => {
    const call = unwrap(node);
    if (call.type !== AST_NODE_TYPES.CallExpression) return false;
    const callee = unwrap(call.callee);
    if (callee.type !== AST_NODE_TYPES.Identifier) return false;
    const source = importSource(callee, scope);
    if (source?.imported === 'applyDecorators') return call.arguments.some(isHandlerDecorator);
    return !!source && source.imported in METHOD_DECORATORS && !isProjectSpecifier(source.module);
  };
  return returned.length > 0 && returned.every(isHandlerDecorator);
}

/** A method decorator `@Name(...)` whose callee is an import the summaries call a handler decorator. */
function aliasedDecorator(
  decorators: readonly TSESTree.Decorator[] | undefined,
  context: AnyRuleContext,
): { args: TSESTree.CallExpressionArgument[]; decorator: TSESTree.Decorator } | undefined {
  if (!hasSummaryFact(context, 'handlerDecorator')) return undefined;
  for (const decorator of decorators ?? []) {
    const expression = unwrap(decorator.expression);
    if (expression.type !== AST_NODE_TYPES.CallExpression) continue;
    const callee = unwrap(expression.callee);
    if (callee.type === AST_NODE_TYPES.Identifier && importedSummary(callee, context)?.handlerDecorator)
      return { args: expression.arguments, decorator };
  }
  return undefined;
}

interface DecoratedMethod {
  fn: TSESTree.FunctionExpression & { parent: TSESTree.MethodDefinition };
  specifier: string;
  imported: string;
  queue?: string;
}

/**
 * A module of the project by its specifier: relative or aliased by its form (`./x`, `@/x`), or bare
 * and not a package the file's `package.json` depends on (`src/hasura/hasura.controller` under a
 * `baseUrl`, a `paths` alias): `idempotency-check` resolves it, and drops what it cannot.
 */
function mayNameProjectModule(specifier: string, manifest: PackageManifest | undefined): boolean {
  if (isProjectSpecifier(specifier)) return true;
  if (specifier.startsWith('node:') || isBuiltin(specifier) || !manifest) return false;
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  return !manifest.dependencies.has(name ?? specifier);
}

/**
 * The methods of the file's classes decorated by a call of a decorator imported from a module of
 * the project (`@ZeebeWorker(Workers.UpdateStatus)`), with the decorator's import and the name
 * its first argument gives: the checker asks that module whether the decorator stands for a
 * handler decorator ({@link aliasesHandlerDecorator}).
 */
export function projectDecoratedMethods(program: TSESTree.Program, context: AnyRuleContext): DecoratedMethod[] {
  const found: DecoratedMethod[] = [];
  const manifest = nearestManifest(context.filename);
  for (const declaration of topLevelClasses(program)) {
    const scope = context.sourceCode.getScope(declaration);
    for (const { member } of classMethods(declaration.body)) {
      for (const decorator of member.decorators) {
        const expression = unwrap(decorator.expression);
        if (expression.type !== AST_NODE_TYPES.CallExpression) continue;
        const callee = unwrap(expression.callee);
        const source = callee.type === AST_NODE_TYPES.Identifier ? importSource(callee, scope) : undefined;
        if (!source || source.imported === '*' || !mayNameProjectModule(source.module, manifest)) continue;
        const queue = nameArgument(expression.arguments, scope, ['name', 'cmd']);
        found.push({
          fn: member.value as DecoratedMethod['fn'],
          specifier: source.module,
          imported: source.imported,
          ...(queue === undefined ? {} : { queue }),
        });
      }
    }
  }
  return found;
}

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
    // `@ZeebeWorker(Workers.UpdateStatus)`: the project's own name for a handler decorator.
    const alias = aliasedDecorator(member.decorators, context);
    if (alias) {
      add(fn, 'nestjs-microservices', nameArgument(alias.args, scope, ['name', 'cmd']), alias.decorator);
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
        !answersWithRedirect(fn, context) &&
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
