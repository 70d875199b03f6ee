import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { unwrap } from '../ast/nodes.js';
import { memberName, memberPath, propertyKeyName, calleeName } from '../ast/names.js';
import { forEachNode } from '../ast/walk.js';
import { type AnyRuleContext, type Scope } from '../ast/context.js';
import { isFunction, resolveFunction } from '../ast/function.js';
import { type ConsumerHandler } from './consumer-handler.js';

// ---------------------------------------------------------------------------------------------
// Exports: Lambda handlers and generic handlers

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

/**
 * A route handler that receives POSTs: a Next.js app-router `export async function POST()`,
 * or an exported `(req, res)` handler (Next.js pages, Vercel functions) that checks
 * `req.method` against `'POST'`.
 */
export function routeHandler(
  fn: TSESTree.FunctionLike,
  exportNode: TSESTree.Node,
  context: AnyRuleContext,
): ConsumerHandler | undefined {
  const make = (): ConsumerHandler => ({
    fn,
    broker: 'webhook',
    queue: undefined,
    registration: exportNode,
    messageParam: fn.params[0],
  });
  if (exportedName(fn, exportNode) === 'POST') return make();
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
  return seen.post ? make() : undefined;
}

/** The name under which `fn` is exported, for matching `settings.consumerHandlers`. */
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
    return specifier.exported.type === AST_NODE_TYPES.Identifier ? specifier.exported.name : specifier.exported.value;
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

/** `from` names this file when its last path segment, without extension, is the file's basename. */
export function sameModule(from: string, filename: string): boolean {
  const strip = (path: string): string => (path.split(/[\\/]/).pop() ?? path).replace(/\.[cm]?[jt]sx?$/, '');
  const base = strip(filename);
  return (
    strip(from) === base ||
    (base === 'index' && strip(filename.replace(/[\\/]index\.[cm]?[jt]sx?$/, '')) === strip(from))
  );
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

const SQS_EVENT_TYPES = new Set(['SQSEvent']);

const SQS_HANDLER_TYPES = new Set(['SQSHandler']);

export function lambdaHandler(
  fn: TSESTree.FunctionLike,
  exportNode: TSESTree.Node,
  context: AnyRuleContext,
): ConsumerHandler | undefined {
  const param = fn.params[0];
  if (!param) return undefined;
  const typed = typeName(paramAnnotation(param));
  const handlerType = typeName(declaredType(fn));
  const isSqs =
    (typed !== undefined && SQS_EVENT_TYPES.has(typed)) ||
    (handlerType !== undefined && SQS_HANDLER_TYPES.has(handlerType)) ||
    (typed === undefined && handlerType === undefined && readsSqsRecords(fn, context));
  return isSqs
    ? { fn, broker: 'lambda-sqs', queue: undefined, registration: exportNode, messageParam: param }
    : undefined;
}

function paramAnnotation(param: TSESTree.Parameter): TSESTree.TypeNode | undefined {
  const target = param.type === AST_NODE_TYPES.AssignmentPattern ? param.left : param;
  return 'typeAnnotation' in target ? target.typeAnnotation?.typeAnnotation : undefined;
}

function declaredType(fn: TSESTree.FunctionLike): TSESTree.TypeNode | undefined {
  const parent = fn.parent;
  if (parent.type === AST_NODE_TYPES.VariableDeclarator && parent.id.type === AST_NODE_TYPES.Identifier) {
    return parent.id.typeAnnotation?.typeAnnotation;
  }
  return undefined;
}

function typeName(type: TSESTree.TypeNode | undefined): string | undefined {
  if (type?.type !== AST_NODE_TYPES.TSTypeReference) return undefined;
  const name = type.typeName;
  if (name.type === AST_NODE_TYPES.Identifier) return name.name;
  if (name.type === AST_NODE_TYPES.TSQualifiedName) return name.right.name;
  return undefined;
}

/** An untyped Lambda handler that reads `event.Records` and an SQS record field (`body`, `messageId`, `receiptHandle`). */
function readsSqsRecords(fn: TSESTree.FunctionLike, context: AnyRuleContext): boolean {
  const param = fn.params[0];
  if (param?.type !== AST_NODE_TYPES.Identifier) return false;
  const seen = { records: false, sqsField: false };
  if (!fn.body) return false;
  forEachNode(fn.body, context, (node) => {
    if (node.type !== AST_NODE_TYPES.MemberExpression) return;
    const name = memberName(node);
    if (name === 'Records' && node.object.type === AST_NODE_TYPES.Identifier && node.object.name === param.name)
      seen.records = true;
    if (name === 'receiptHandle' || name === 'messageId' || name === 'body') seen.sqsField = true;
  });
  return seen.records && seen.sqsField;
}
