import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { typeReferenceName } from '../ast/declared-types.js';
import { unwrap } from '../ast/nodes.js';
import { memberPath, propertyKeyName, calleeName, moduleExportName } from '../ast/names.js';
import { forEachNode } from '../ast/walk.js';
import { type AnyRuleContext, type Scope } from '../ast/context.js';
import { isFunction, resolveFunction, returnedValues } from '../ast/function.js';
import { findProperty, resolveValue } from '../ast/values.js';
import { type ConsumerHandler } from './consumer-handler.js';
import { nearestManifest } from '../roles/package.js';
import { isWebhookRoute, managesWebhooks, verifiesSignature } from './webhooks.js';
import { resolveHandlerFunction } from './methods.js';
import { importSource } from '../modules.js';
import { ROUTE_TYPE_MODULES } from '../libraries/index.js';
import { workerEntries } from '../libraries/cloudflare-workers.js';

// ---------------------------------------------------------------------------------------------
// Exports: route handlers, Cloudflare Workers' queue and cron entries and generic handlers

/** Functions that `node` exports, with the node that exports them. */
export function exportedFunctions(
  node: TSESTree.Node,
  context: AnyRuleContext,
): [TSESTree.FunctionLike, TSESTree.Node][] {
  const scope = (): Scope => context.sourceCode.getScope(node);
  switch (node.type) {
    case AST_NODE_TYPES.ExportNamedDeclaration: {
      const declaration = node.declaration;
      if (declaration?.type === AST_NODE_TYPES.FunctionDeclaration) return [[declaration, node]];
      if (declaration?.type === AST_NODE_TYPES.VariableDeclaration) {
        return declaration.declarations.flatMap((declarator) => {
          const init = declarator.init && unwrap(declarator.init);
          return init && isFunction(init) ? [[init, node] as [TSESTree.FunctionLike, TSESTree.Node]] : [];
        });
      }
      return node.specifiers.flatMap((specifier) => {
        if (node.source || specifier.local.type !== AST_NODE_TYPES.Identifier) return [];
        const fn = resolveFunction(specifier.local, scope());
        return fn ? [[fn, node] as [TSESTree.FunctionLike, TSESTree.Node]] : [];
      });
    }
    case AST_NODE_TYPES.ExportDefaultDeclaration: {
      const declaration = node.declaration;
      if (isFunction(declaration)) return [[declaration, node]];
      const fn = resolveFunction(declaration, scope());
      return fn ? [[fn, node]] : [];
    }
    case AST_NODE_TYPES.AssignmentExpression: {
      // exports.handler = fn / module.exports.handler = fn / module.exports = { handler }
      const path = memberPath(node.left);
      if (!path) return [];
      const isNamed =
        (path.length === 2 && path[0] === 'exports') ||
        (path.length === 3 && path[0] === 'module' && path[1] === 'exports');
      if (isNamed) {
        const fn = resolveFunction(node.right, scope());
        return fn ? [[fn, node]] : [];
      }
      if (path.length === 2 && path[0] === 'module' && path[1] === 'exports') {
        const right = unwrap(node.right);
        if (right.type === AST_NODE_TYPES.ObjectExpression) {
          return right.properties.flatMap((property) => {
            if (property.type !== AST_NODE_TYPES.Property) return [];
            const fn = resolveFunction(property.value, scope());
            return fn ? [[fn, node] as [TSESTree.FunctionLike, TSESTree.Node]] : [];
          });
        }
        const fn = resolveFunction(right, scope());
        return fn ? [[fn, node]] : [];
      }
      return [];
    }
    default:
      return [];
  }
}

/** Where a Remix or React Router route module's types and helpers come from. */
const ROUTE_MODULE_SOURCES = /^(?:@remix-run\/|@react-router\/|react-router(?:-dom)?$)/;
/** The argument types of a route's `action` (`ActionFunctionArgs`, v1 `ActionArgs`, React Router 7 `Route.ActionArgs`). */
const ACTION_ARGS = /^(?:ActionFunctionArgs|ActionArgs|DataFunctionArgs)$/;

/**
 * `export async function action({ request })` of a Remix or React Router route module: the
 * route's handler of every non-GET request (https://remix.run/docs/en/main/route/action), known by
 * its argument's type, by the module's imports from the framework, or by where it is: a module
 * of the routes folder (`app/routes/`) in a package that depends on the framework (a route module
 * needs no import of its own: `export const action = async ({ request }) => …`).
 */
function isRouteModuleAction(fn: TSESTree.FunctionLike, context: AnyRuleContext): boolean {
  const param = fn.params[0];
  const annotation = param && 'typeAnnotation' in param ? param.typeAnnotation?.typeAnnotation : undefined;
  if (ACTION_ARGS.test(typeReferenceName(annotation) ?? '')) return true;
  if (
    context.sourceCode.ast.body.some(
      (statement) =>
        statement.type === AST_NODE_TYPES.ImportDeclaration && ROUTE_MODULE_SOURCES.test(statement.source.value),
    )
  )
    return true;
  if (!/(?:^|[\\/])app[\\/]routes[\\/]/.test(context.filename)) return false;
  const dependencies = nearestManifest(context.filename)?.dependencies;
  return !!dependencies && [...dependencies].some((name) => ROUTE_MODULE_SOURCES.test(name));
}

/**
 * A route handler that receives POSTs: a Next.js app-router `export async function POST()`
 * (or `export const POST = wrap(fn)`), a Remix or React Router route module's `action`, or an exported `(req, res)` handler (Next.js pages,
 * Vercel functions) that checks `req.method` against `'POST'`. It is a `webhook` when its file
 * says so or it verifies a signature ({@link isWebhookRoute}), else an ordinary `route`, which
 * the rules still look inside but the inventory does not list.
 */
export function routeHandler(
  fn: TSESTree.FunctionLike,
  exportNode: TSESTree.Node,
  context: AnyRuleContext,
): ConsumerHandler | undefined {
  const make = (): ConsumerHandler => ({
    fn,
    broker: isWebhookRoute(fn, undefined, exportNode, context) ? 'webhook' : 'route',
    queue: undefined,
    registration: exportNode,
    messageParam: fn.params[0],
  });
  const name = exportedName(fn, exportNode);
  if (name === 'POST') return make();
  if (name === 'action' && isRouteModuleAction(fn, context)) {
    // A route module that renders a page (a default export) takes its own forms' posts: only a
    // resource route, with no component, is another system's endpoint
    // (https://remix.run/docs/en/main/guides/resource-routes).
    const page = context.sourceCode.ast.body.some(
      (statement) => statement.type === AST_NODE_TYPES.ExportDefaultDeclaration,
    );
    return page ? { ...make(), broker: 'route' } : make();
  }
  if (isWebhookHandlerFunction(fn, name))
    return { fn, broker: 'webhook', queue: undefined, registration: exportNode, messageParam: fn.params[0] };
  const request = fn.params[0];
  if (request?.type !== AST_NODE_TYPES.Identifier || fn.params.length !== 2 || !fn.body) return undefined;
  const seen = { post: false };
  forEachNode(fn.body, context, (node) => {
    if (node.type !== AST_NODE_TYPES.BinaryExpression || !['===', '==', '!==', '!='].includes(node.operator)) return;
    const sides = [node.left, node.right];
    const readsMethod = sides.some((side) => {
      const path = memberPath(side);
      return path?.length === 2 && path[0] === request.name && path[1] === 'method';
    });
    if (readsMethod && sides.some((side) => side.type === AST_NODE_TYPES.Literal && side.value === 'POST'))
      seen.post = true;
  });
  if (seen.post) return make();
  // A Next.js pages API route answers every method unless it checks one; it is still a
  // webhook when its file says webhook or it checks the sender (`pages/api/stripe/webhook.ts`);
  // a `callback` there is more often an OAuth redirect than a delivery.
  if (
    name === 'default' &&
    takesRequest(fn) &&
    (/web-?hooks?/i.test(context.filename) || verifiesSignature(fn, context)) &&
    isWebhookRoute(fn, undefined, exportNode, context)
  )
    return { fn, broker: 'webhook', queue: undefined, registration: exportNode, messageParam: fn.params[0] };
  return undefined;
}

/**
 * A function declared with a framework's HTTP handler type (`export const stripeWebhook:
 * PaymentsWebhook = async (request, response, context) => …`, the type from Wasp's
 * `wasp/server/api`): a route the framework mounts, a `webhook` when its file or name says so or it
 * checks the sender ({@link isWebhookRoute}), else an ordinary `route`.
 */
export function typedRouteHandler(
  node: TSESTree.VariableDeclarator,
  context: AnyRuleContext,
): ConsumerHandler | undefined {
  const type = node.id.type === AST_NODE_TYPES.Identifier ? node.id.typeAnnotation?.typeAnnotation : undefined;
  if (type?.type !== AST_NODE_TYPES.TSTypeReference || type.typeName.type !== AST_NODE_TYPES.Identifier || !node.init)
    return undefined;
  const scope = context.sourceCode.getScope(node);
  const source = importSource(type.typeName, scope);
  if (!source || !ROUTE_TYPE_MODULES.includes(source.module)) return undefined;
  const fn = resolveHandlerFunction(node.init, scope);
  if (!fn) return undefined;
  const webhook = isWebhookRoute(fn, undefined, node, context) || /webhook/i.test(type.typeName.name);
  return {
    fn,
    broker: webhook ? 'webhook' : 'route',
    queue: undefined,
    registration: node,
    messageParam: fn.params[0],
  };
}

/** A receiver's name: `stripeWebhookHandler`, `handlePaypalWebhook`; not a sender's or a manager's (`sendWebhook`, `createWebhook`). */
const WEBHOOK_HANDLER_NAME = /webhook\w*(?:handler|receiver|endpoint)|(?:handle|receive|process)\w*webhook/i;
/** A request parameter: named so, or typed as a framework's request. */
const REQUEST_PARAM = /^(?:req|request)$/;
const REQUEST_TYPE = /^(?:Request|NextRequest|IncomingMessage|FastifyRequest|NextApiRequest|APIGatewayProxyEvent\w*)$/;

/**
 * An exported function named as a webhook's receiver that takes the request
 * (`export async function stripeWebhookHandler(request: Request, ctx)`), which a plugin or
 * router elsewhere mounts on a route.
 */
function isWebhookHandlerFunction(fn: TSESTree.FunctionLike, name: string | undefined): boolean {
  if (name === undefined || !WEBHOOK_HANDLER_NAME.test(name) || managesWebhooks(name)) return false;
  // `(req, res, next)`: a middleware in front of a route, not the receiver.
  const third = fn.params[2];
  if (third?.type === AST_NODE_TYPES.Identifier && third.name === 'next') return false;
  return takesRequest(fn);
}

/** The first parameter is a request: named so, or typed as a framework's request. */
function takesRequest(fn: TSESTree.FunctionLike): boolean {
  const param = fn.params[0];
  if (param?.type !== AST_NODE_TYPES.Identifier) return false;
  if (REQUEST_PARAM.test(param.name)) return true;
  const type = param.typeAnnotation?.typeAnnotation;
  return (
    type?.type === AST_NODE_TYPES.TSTypeReference &&
    type.typeName.type === AST_NODE_TYPES.Identifier &&
    REQUEST_TYPE.test(type.typeName.name)
  );
}

/** `subscribers/<event>/<name>.ts`, `subscribers/<name>.ts`: the event is the folder below `subscribers`, if any. */
const SUBSCRIBER_PATH = /(?:^|\/)subscribers\/(?:([^/]+)\/)?[^/]+$/;

/**
 * A framework's event subscriber: the default export of a file in a `subscribers` folder, which
 * the framework loads by convention and calls for each event its durable event queue delivers
 * (EverShop's `subscribers/<event>/`, Medusa's `src/subscribers/`).
 */
export function subscriberHandler(
  fn: TSESTree.FunctionLike,
  exportNode: TSESTree.Node,
  context: AnyRuleContext,
): ConsumerHandler | undefined {
  if (exportNode.type !== AST_NODE_TYPES.ExportDefaultDeclaration || fn.params.length === 0) return undefined;
  const match = SUBSCRIBER_PATH.exec(context.filename.replace(/\\/g, '/'));
  if (!match) return undefined;
  return { fn, broker: 'event-subscriber', queue: match[1], registration: exportNode, messageParam: fn.params[0] };
}

/**
 * `export default { async queue(batch, env, ctx) { … }, scheduled }`, or `{ queue: consumeBatch }`
 * with a function of the file: a Cloudflare Worker's entries that the platform runs again when
 * they throw (libraries/cloudflare-workers.ts). One of another module is its module's
 * (`workerEntries`, effects.ts).
 */
export function cloudflareWorkerHandlers(node: TSESTree.Node, context: AnyRuleContext): ConsumerHandler[] {
  return workerEntries(node).flatMap(({ value, broker }) => {
    const fn = isFunction(value) ? value : resolveHandlerFunction(value, context.sourceCode.getScope(value));
    return fn && fn.params.length >= 1
      ? [{ fn, broker, queue: undefined, registration: node, messageParam: fn.params[0] }]
      : [];
  });
}

/** The name under which `fn` is exported, for matching `settings.consumerHandlers`. */
/**
 * The `POST` operation of an express-openapi path module: its default export is a function that
 * returns the module's operations by HTTP method (`export default function () { const operations =
 * { GET, POST }; return operations; }`, the form that takes the app's dependencies,
 * https://github.com/kogosoftwarellc/open-api/tree/main/packages/express-openapi#argspaths). The
 * framework mounts it on the module's path as `fastify.post`/`app.post` would; a webhook when it
 * verifies the sender ({@link isWebhookRoute}), else an ordinary route.
 */
export function pathModuleOperation(
  fn: TSESTree.FunctionLike,
  exportNode: TSESTree.Node,
  context: AnyRuleContext,
): ConsumerHandler | undefined {
  if (exportNode.type !== AST_NODE_TYPES.ExportDefaultDeclaration || !fn.body) return undefined;
  if (fn.body.type !== AST_NODE_TYPES.BlockStatement) return undefined;
  const scope = context.sourceCode.getScope(fn.body);
  for (const value of returnedValues(fn.body)) {
    const operations = unwrap(resolveValue(value, context.sourceCode.getScope(value)));
    if (operations.type !== AST_NODE_TYPES.ObjectExpression) continue;
    const property = findProperty(operations, (name) => name === 'POST', scope);
    const post = property && property !== 'unknown' ? resolveFunction(property.value, scope) : undefined;
    if (!post) continue;
    return {
      fn: post,
      broker: isWebhookRoute(post, undefined, exportNode, context) ? 'webhook' : 'route',
      queue: undefined,
      registration: exportNode,
      messageParam: post.params[0],
    };
  }
  return undefined;
}

export function exportedName(fn: TSESTree.FunctionLike, exportNode: TSESTree.Node): string | undefined {
  if (exportNode.type === AST_NODE_TYPES.ExportDefaultDeclaration) return 'default';
  if (exportNode.type === AST_NODE_TYPES.ExportNamedDeclaration) {
    const declaration = exportNode.declaration;
    if (declaration?.type === AST_NODE_TYPES.FunctionDeclaration) return declaration.id?.name;
    if (declaration?.type === AST_NODE_TYPES.VariableDeclaration) {
      const declarator = declaration.declarations.find((item) => item.init && unwrap(item.init) === fn);
      return declarator?.id.type === AST_NODE_TYPES.Identifier ? declarator.id.name : undefined;
    }
    const local = bindingName(fn);
    const specifier = exportNode.specifiers.find(
      (item) => item.local.type === AST_NODE_TYPES.Identifier && item.local.name === local,
    );
    if (!specifier) return undefined;
    return moduleExportName(specifier.exported);
  }
  if (exportNode.type === AST_NODE_TYPES.AssignmentExpression) {
    const path = memberPath(exportNode.left);
    if (path && path.length >= 2 && path[path.length - 1] !== 'exports') return path[path.length - 1];
    const right = unwrap(exportNode.right);
    if (right.type === AST_NODE_TYPES.ObjectExpression) {
      for (const item of right.properties) {
        if (item.type !== AST_NODE_TYPES.Property) continue;
        const value = unwrap(item.value);
        if (value === fn || (value.type === AST_NODE_TYPES.Identifier && value.name === bindingName(fn)))
          return propertyKeyName(item);
      }
      return undefined;
    }
    return 'default';
  }
  return undefined;
}

function bindingName(fn: TSESTree.FunctionLike): string | undefined {
  if (fn.type === AST_NODE_TYPES.FunctionDeclaration) return fn.id?.name;
  const parent = fn.parent;
  return parent.type === AST_NODE_TYPES.VariableDeclarator && parent.id.type === AST_NODE_TYPES.Identifier
    ? parent.id.name
    : undefined;
}

/** Parameter names that say "one delivery" wherever they appear. */
export const MESSAGE_PARAM_NAMES: ReadonlySet<string> = new Set(['job', 'message', 'msg']);
/** ...and in an exported handler, also a Lambda-style `event` (a DOM handler is not exported as one). */
export const HANDLER_PARAM_NAMES: ReadonlySet<string> = new Set([...MESSAGE_PARAM_NAMES, 'event']);

/** Calls that take a function without making it a per-delivery handler. */
const NOT_REGISTRATIONS =
  /^(forEach|map|flatMap|filter|find\w*|some|every|reduce\w*|sort|then|catch|finally|addEventListener|removeEventListener|setTimeout|setInterval|setImmediate|nextTick|queueMicrotask|bind|call|apply|describe|it|test)$/;

/** Local functions passed by name to a call (`queue.subscribe(onMessage)`), the weak "registered" signal. */
export function registeredByName(
  call: TSESTree.CallExpression | TSESTree.NewExpression,
  context: AnyRuleContext,
): TSESTree.FunctionLike[] {
  const name = calleeName(call);
  if (name === undefined || NOT_REGISTRATIONS.test(name)) return [];
  const scope = context.sourceCode.getScope(call);
  return call.arguments.flatMap((arg) => {
    if (arg.type !== AST_NODE_TYPES.Identifier) return [];
    const fn = resolveFunction(arg, scope);
    return fn ? [fn] : [];
  });
}

export function hasParamNamed(fn: TSESTree.FunctionLike, name: string): boolean {
  const param = fn.params[0];
  return param?.type === AST_NODE_TYPES.Identifier && param.name === name;
}

export function hasMessageParamName(fn: TSESTree.FunctionLike): boolean {
  const param = fn.params[0];
  return param?.type === AST_NODE_TYPES.Identifier && HANDLER_PARAM_NAMES.has(param.name);
}
