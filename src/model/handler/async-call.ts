import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { unwrap } from '../ast/nodes.js';
import { findProperty, origin, resolveValue } from '../ast/values.js';
import { lastName, memberName, memberPath } from '../ast/names.js';
import { type AnyRuleContext, type Scope } from '../ast/context.js';
import { isCheckedOutClient, poolEvidence } from '../sql/pools.js';
import { getOutgoingRequest } from '../http/request.js';
import { isStripeCall } from '../sdk.js';
import { getQueryCall } from '../sql/statements.js';
import { resolveFunction, returnedValues } from '../ast/function.js';

import { calleeName } from '../ast/names.js';
import { typeOf } from '../types.js';
import { importedSummary, summaryAt } from '../settings.js';
import { getOrmWrite } from '../orm/writes.js';
import { injectedCallee } from '../class-members.js';
import { ownMethodOf } from './methods.js';

const PROMISE_STATICS = new Set(['all', 'allSettled', 'race', 'any']);

const CHAIN_METHODS = new Set(['then', 'catch', 'finally']);

const PRISMA_OPERATIONS =
  /^(create|createMany|createManyAndReturn|update|updateMany|upsert|delete|deleteMany|find\w*|count|aggregate|groupBy|\$transaction|\$executeRaw\w*|\$queryRaw\w*)$/;

/**
 * What kind of promise a call returns, or undefined when it does not return one as far as we
 * can tell. With type information the checker decides (a thenable type), unless the type is
 * `any`; without it, the call's shape does: a local async function, `.then/.catch/.finally`,
 * `Promise.all`, an HTTP request, a query on a pool or client, a Stripe call, an AWS SDK v3
 * `send(new XCommand())`, an AWS SDK v2 `.promise()`, a queue `add`, a Kafka producer `send`,
 * a Pub/Sub `publish`, nodemailer `sendMail`, a Prisma model call, an ORM write, an imported function listed in
 * `settings.idempotency.asyncFunctions`.
 */
export function asyncCallKind(call: TSESTree.CallExpression, context: AnyRuleContext): string | undefined {
  const typed = typedThenable(call, context);
  if (typed !== undefined) return typed ? 'promise' : undefined;
  return syntacticAsyncKind(call, context);
}

function typedThenable(node: TSESTree.Node, context: AnyRuleContext): boolean | undefined {
  const typed = typeOf(node, context);
  if (!typed) return undefined;
  const { checker, type } = typed;
  const text = checker.typeToString(type);
  if (text === 'any' || text === 'unknown' || text.startsWith('error')) return undefined;
  const thenable = (part: typeof type): boolean => {
    const then = part.getProperty('then');
    if (!then) return false;
    const declaration = then.valueDeclaration ?? then.getDeclarations()?.[0];
    if (!declaration) return false;
    return checker.getTypeOfSymbolAtLocation(then, declaration).getCallSignatures().length > 0;
  };
  return type.isUnion() ? type.types.some(thenable) : thenable(type);
}

function syntacticAsyncKind(call: TSESTree.CallExpression, context: AnyRuleContext): string | undefined {
  const scope = context.sourceCode.getScope(call);
  const callee = unwrap(call.callee);
  if (callee.type === AST_NODE_TYPES.Identifier) {
    const fn = resolveFunction(callee, scope);
    if (fn && returnsPromise(fn)) return 'async function';
    // An async function another module exports (`idempotency-check` lists them).
    if (importedSummary(callee, context)?.async) return 'async function';
  }
  if (callee.type !== AST_NODE_TYPES.MemberExpression) {
    return getOutgoingRequest(call, context) ? 'request' : undefined;
  }
  const method = memberName(callee, scope);
  const receiver = unwrap(callee.object);
  if (method === undefined) return undefined;
  if (CHAIN_METHODS.has(method) && call.arguments.length > 0) return 'promise chain';
  if (receiver.type === AST_NODE_TYPES.Identifier && receiver.name === 'Promise' && PROMISE_STATICS.has(method))
    return 'promise';
  if (getOutgoingRequest(call, context)) return 'request';
  const query = getQueryCall(call, context);
  if (query && (poolEvidence(query.receiver, context) !== undefined || isCheckedOutClient(query.receiver, context)))
    return 'query';
  if (isStripeCall(call, context)) return 'stripe';
  if (method === 'promise' && call.arguments.length === 0 && unwrap(receiver).type === AST_NODE_TYPES.CallExpression)
    return 'aws-sdk';
  if (method === 'send' && isAwsCommand(call.arguments[0])) return 'aws-sdk';
  // An async method of an injected service another module exports (`this.orders.settle(id)`).
  const injected = injectedCallee(callee, scope);
  if (injected && summaryAt(context, injected.specifier, `${injected.imported}.${injected.member}`)?.async)
    return 'async function';
  if (receiver.type === AST_NODE_TYPES.ThisExpression || receiver.type === AST_NODE_TYPES.Identifier) {
    const fn = ownMethodOf(callee) ?? objectMethod(receiver, method, scope);
    if (fn && returnsPromise(fn)) return 'async function';
  }
  const name = lastName(receiver, scope);
  const createdBy = calleeName(origin(receiver, scope));
  if (
    (method === 'add' || method === 'addBulk') &&
    (createdBy === 'Queue' || (name !== undefined && /queue$/i.test(name)))
  )
    return 'queue';
  if (method === 'send' && (createdBy === 'producer' || (name !== undefined && /producer$/i.test(name))))
    return 'producer';
  if (
    (method === 'publish' || method === 'publishMessage' || method === 'publishJSON') &&
    (createdBy === 'topic' || (name !== undefined && /topic$/i.test(name)))
  ) {
    return 'publish';
  }
  if (method === 'sendMail' && (createdBy === 'createTransport' || (name !== undefined && /transport/i.test(name))))
    return 'mail';
  // An ORM write returns a promise (or a thenable builder that runs only when awaited).
  if (getOrmWrite(call, context)) return 'orm write';
  const path = memberPath(callee, scope);
  if (
    path &&
    path.length >= 3 &&
    /^prisma$/i.test(path[path[0] === 'this' ? 1 : 0] ?? '') &&
    PRISMA_OPERATIONS.test(method)
  )
    return 'prisma';
  return undefined;
}

/**
 * An `async` function, or one annotated to return a `Promise` that returns a value. A function that
 * is not `async` and returns nothing (`handleError(e): Promise<void> { throw new RpcException(e) }`)
 * throws on every path, as TypeScript accepts of a body whose end is unreachable whatever the
 * annotation says: a call of it hands back no promise to leave floating.
 */
export function returnsPromise(fn: TSESTree.FunctionLike): boolean {
  if (fn.async) return true;
  const annotation = fn.returnType?.typeAnnotation;
  return (
    annotation?.type === AST_NODE_TYPES.TSTypeReference &&
    annotation.typeName.type === AST_NODE_TYPES.Identifier &&
    annotation.typeName.name === 'Promise' &&
    (fn.body?.type !== AST_NODE_TYPES.BlockStatement || returnedValues(fn.body).length > 0)
  );
}

function isAwsCommand(arg: TSESTree.Node | undefined): boolean {
  const value = arg && unwrap(arg);
  return (
    value?.type === AST_NODE_TYPES.NewExpression &&
    value.callee.type === AST_NODE_TYPES.Identifier &&
    /Command$/.test(value.callee.name)
  );
}

/** `service.method()` where `service` is a `const` object literal with that method. */
function objectMethod(receiver: TSESTree.Node, method: string, scope: Scope): TSESTree.FunctionLike | undefined {
  if (receiver.type !== AST_NODE_TYPES.Identifier) return undefined;
  const object = unwrap(resolveValue(receiver, scope));
  if (object.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
  const property = findProperty(object, (key) => key === method, scope);
  return property && property !== 'unknown' ? resolveFunction(property.value, scope) : undefined;
}
