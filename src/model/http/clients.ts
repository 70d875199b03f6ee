import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { unwrap } from '../ast/nodes.js';
import { findVariable, resolveValue } from '../ast/values.js';
import { memberName } from '../ast/names.js';
import { thisFieldValues } from '../ast/class-fields.js';
import { importSource } from '../modules.js';
import { type AnyRuleContext, type Scope } from '../ast/context.js';
import { importedSummary } from '../settings.js';
import { typeNameOf } from '../types.js';
import { type RequestModelOptions, type HttpClient, REQUEST_MODULES } from './request.js';
import { type ClientBase } from './call-shape.js';
import { boundsSuperagentRequest, SUPERAGENT_AGENT_DEFAULTS } from './superagent.js';

/**
 * The library or instance an expression is: the axios/got/ky/request default import, the
 * undici `request` import, an instance built with `axios.create` / `got.extend` /
 * `ky.create` / `request.defaults` in this file, or (with type information) any value whose
 * type is axios's `AxiosInstance`.
 */
export function clientBase(
  node: TSESTree.Node,
  context: AnyRuleContext,
  scope: Scope,
  options: RequestModelOptions,
  depth = 0,
): ClientBase | undefined {
  const target = unwrap(node);
  const dotted = dottedName(target);
  const listed =
    (dotted !== undefined && (options.boundedClients ?? []).includes(dotted)) || listedImport(target, context);
  if (target.type === AST_NODE_TYPES.Identifier) {
    // Nuxt and Nitro give server code ofetch's `$fetch` as a global.
    if (target.name === '$fetch' && !findVariable(scope, target)?.defs.length)
      return {
        client: 'ofetch',
        instanceConfig: undefined,
        instanceKnown: true,
        binding: target,
        listedBounded: listed,
      };
    const source = importSource(target, scope);
    if (source) {
      const library = libraryOf(source.module, source.imported);
      if (library)
        return {
          client: library,
          instanceConfig: undefined,
          instanceKnown: true,
          binding: target,
          listedBounded: listed,
        };
      if (importedSummary(target, context)?.timeoutlessClient) return timeoutlessAxios(target, listed);
    } else {
      const init = resolveValue(target, scope);
      if (init !== target && depth < 4) {
        const instance = instanceFrom(init, context, scope, options, depth);
        if (instance) return { ...instance, binding: target, listedBounded: instance.listedBounded || listed };
        // `const api = await createApiClient()`, the helper imported from a module that builds it without a timeout.
        const made = unwrap(init.type === AST_NODE_TYPES.AwaitExpression ? init.argument : init);
        if (
          made.type === AST_NODE_TYPES.CallExpression &&
          made.callee.type === AST_NODE_TYPES.Identifier &&
          importedSummary(made.callee, context)?.timeoutlessClientFactory
        ) {
          return timeoutlessAxios(target, listed);
        }
      }
    }
  }
  if (depth < 4) {
    const held = heldInstance(target, context, options, depth);
    if (held) return { ...held, listedBounded: held.listedBounded || listed };
  }
  const typed = typedAxios(target, context);
  if (typed)
    return {
      client: 'axios',
      instanceConfig: undefined,
      instanceKnown: false,
      binding: undefined,
      listedBounded: listed,
    };
  return undefined;
}

/**
 * An instance used where it is made (`axios.create({ baseURL }).post(...)`) or held in a class
 * field (`private http = axios.create(...)`, `this.http = got.extend(...)` in the constructor)
 * and used as `this.http.post(...)`. A field written with different clients, or configured
 * through `this.http.defaults` / `this.http.interceptors`, is one the code does not fully show.
 */
function heldInstance(
  target: TSESTree.Node,
  context: AnyRuleContext,
  options: RequestModelOptions,
  depth: number,
): ClientBase | undefined {
  if (target.type === AST_NODE_TYPES.CallExpression || target.type === AST_NODE_TYPES.NewExpression)
    return instanceFrom(target, context, context.sourceCode.getScope(target), options, depth);
  if (target.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const values = thisFieldValues(target, context);
  if (!values) return undefined;
  const bases = values.map((value) => {
    const valueScope = context.sourceCode.getScope(value);
    const init = unwrap(value);
    return init.type === AST_NODE_TYPES.Identifier
      ? clientBase(init, context, valueScope, options, depth + 1)
      : instanceFrom(init, context, valueScope, options, depth + 1);
  });
  const [first] = bases;
  if (!first || bases.some((base) => base?.client !== first.client)) return undefined;
  const configured = new RegExp(`\\bthis\\.${memberName(target) ?? ''}\\.(?:defaults|interceptors)\\b`).test(
    context.sourceCode.text,
  );
  const single = bases.length === 1;
  return {
    client: first.client,
    instanceConfig: single ? first.instanceConfig : undefined,
    instanceKnown: single && first.instanceKnown && !configured,
    binding: single ? first.binding : undefined,
    listedBounded: bases.every((base) => base?.listedBounded === true),
    instanceBounded: bases.every((base) => base?.instanceBounded === true),
  };
}

/** An axios instance another module builds with no timeout: only a call's own options can bound its requests. */
function timeoutlessAxios(binding: TSESTree.Identifier, listedBounded: boolean): ClientBase {
  return { client: 'axios', instanceConfig: undefined, instanceKnown: true, binding, listedBounded };
}

function libraryOf(module: string, imported: string): HttpClient | undefined {
  if (module === 'superagent' && (imported === 'default' || imported === '*')) return 'superagent';
  if (module === 'needle' && imported === 'default') return 'needle';
  if ((module === 'ofetch' || module === 'ohmyfetch') && (imported === 'ofetch' || imported === '$fetch'))
    return 'ofetch';
  if (module === 'graphql-request' && ['default', 'request', 'rawRequest', 'batchRequests'].includes(imported))
    return 'graphql-request';
  if (module === 'axios' && (imported === 'default' || imported === 'axios')) return 'axios';
  if (module === 'got' && (imported === 'default' || imported === 'got')) return 'got';
  if ((module === 'ky' || module === 'ky-universal') && imported === 'default') return 'ky';
  if (module === 'undici' && imported === 'request') return 'undici';
  if (REQUEST_MODULES.has(module) && imported === 'default') return 'request';
  return undefined;
}

/**
 * `axios.create(cfg)`, `got.extend(cfg)`, `ky.create(cfg)` / `ky.extend(cfg)`, `request.defaults(cfg)`,
 * `ofetch.create(cfg)`, `new GraphQLClient(url, cfg)`, and a superagent agent with its defaults
 * (`superagent.agent().timeout(ms)`).
 */
export function instanceFrom(
  init: TSESTree.Node,
  context: AnyRuleContext,
  scope: Scope,
  options: RequestModelOptions,
  depth: number,
): ClientBase | undefined {
  if (init.type === AST_NODE_TYPES.NewExpression) return graphqlClient(init, context, scope, options);
  if (init.type !== AST_NODE_TYPES.CallExpression || init.callee.type !== AST_NODE_TYPES.MemberExpression)
    return undefined;
  const factory = memberName(init.callee);
  const parent = clientBase(init.callee.object, context, scope, options, depth + 1);
  if (!parent || !factory) return undefined;
  if (parent.client === 'superagent') {
    if (factory !== 'agent' && !SUPERAGENT_AGENT_DEFAULTS.has(factory)) return undefined;
    return {
      ...parent,
      binding: undefined,
      instanceBounded:
        parent.instanceBounded === true ||
        boundsSuperagentRequest(init, context.sourceCode.getScope(init)) === 'bounded',
    };
  }
  const expected: Record<HttpClient, readonly string[]> = {
    axios: ['create'],
    got: ['extend'],
    ky: ['create', 'extend'],
    request: ['defaults'],
    ofetch: ['create'],
    fetch: [],
    undici: [],
    'node-http': [],
    superagent: [],
    needle: [],
    'graphql-request': [],
  };
  if (!expected[parent.client].includes(factory)) return undefined;
  const configArg = init.arguments[0];
  const config = configArg ? resolveOptions(configArg, context.sourceCode.getScope(init)) : undefined;
  return {
    client: parent.client,
    instanceConfig: config,
    instanceKnown: parent.instanceKnown && (configArg === undefined || config !== undefined),
    binding: undefined,
    listedBounded: parent.listedBounded,
  };
}

/** `new GraphQLClient(url, config)`: its config's `signal` (or a `fetch` of its own) applies to every request. */
function graphqlClient(
  init: TSESTree.NewExpression,
  context: AnyRuleContext,
  scope: Scope,
  options: RequestModelOptions,
): ClientBase | undefined {
  const callee = unwrap(init.callee);
  if (callee.type !== AST_NODE_TYPES.Identifier) return undefined;
  const source = importSource(callee, scope);
  if (source?.module !== 'graphql-request' || source.imported !== 'GraphQLClient') return undefined;
  const configArg = init.arguments[1];
  const config = configArg ? resolveOptions(configArg, context.sourceCode.getScope(init)) : undefined;
  const dotted = dottedName(callee);
  return {
    client: 'graphql-request',
    instanceConfig: config,
    instanceKnown: configArg === undefined || config !== undefined,
    binding: undefined,
    listedBounded: (dotted !== undefined && (options.boundedClients ?? []).includes(dotted)) || false,
  };
}

export function listedImport(node: TSESTree.Node, context: AnyRuleContext): boolean {
  let head = unwrap(node);
  while (head.type === AST_NODE_TYPES.MemberExpression) head = unwrap(head.object);
  return head.type === AST_NODE_TYPES.Identifier && importedSummary(head, context)?.boundedClient === true;
}

/** With type information: true when the expression's type is axios's `AxiosInstance` or `AxiosStatic`. */
function typedAxios(node: TSESTree.Node, context: AnyRuleContext): boolean {
  const type = typeNameOf(node, context);
  return (
    type !== undefined &&
    ['AxiosInstance', 'AxiosStatic'].includes(type.name) &&
    type.files.some((file) => /[\\/]axios[\\/]/.test(file))
  );
}

/** The dotted text of an identifier or member chain (`api`, `this.http`), for option lists. */
export function dottedName(node: TSESTree.Node): string | undefined {
  const target = unwrap(node);
  if (target.type === AST_NODE_TYPES.Identifier) return target.name;
  if (target.type === AST_NODE_TYPES.ThisExpression) return 'this';
  if (
    target.type === AST_NODE_TYPES.MemberExpression &&
    !target.computed &&
    target.property.type === AST_NODE_TYPES.Identifier
  ) {
    const head = dottedName(target.object);
    return head === undefined ? undefined : `${head}.${target.property.name}`;
  }
  return undefined;
}

/** True when an argument is (or holds) an object rather than a URL. */
export function isObjectLike(node: TSESTree.Node, scope: Scope): boolean {
  const target = resolveValue(node, scope);
  return target.type === AST_NODE_TYPES.ObjectExpression;
}

/** True when fetch's first argument is a `Request`, which carries its own signal and method. */
export function isRequestObject(node: TSESTree.Node | undefined, context: AnyRuleContext, scope: Scope): boolean {
  if (!node) return false;
  const target = resolveValue(node, scope);
  if (
    target.type === AST_NODE_TYPES.NewExpression &&
    target.callee.type === AST_NODE_TYPES.Identifier &&
    target.callee.name === 'Request'
  ) {
    return true;
  }
  return typeNameOf(node, context)?.name === 'Request';
}

/**
 * For an options argument that is a parameter of a function private to this file, the
 * object literal each caller passes; undefined when a caller is unseen (the function is
 * exported or passed around), passes something else, or the function changes the options.
 */
export function callerObjects(
  node: TSESTree.Node,
  context: AnyRuleContext,
  scope: Scope,
): TSESTree.ObjectExpression[] | undefined {
  const target = unwrap(node);
  if (target.type !== AST_NODE_TYPES.Identifier) return undefined;
  const variable = findVariable(scope, target);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (!variable || def?.type !== TSESLint.Scope.DefinitionType.Parameter) return undefined;
  const fn = def.node;
  if (!('params' in fn)) return undefined;
  const index = fn.params.findIndex((param) => param === def.name);
  if (index === -1) return undefined;
  const changed = variable.references.some((reference) => {
    if (reference.isWrite()) return true;
    const parent = reference.identifier.parent;
    return (
      parent.type === AST_NODE_TYPES.MemberExpression &&
      parent.parent.type === AST_NODE_TYPES.AssignmentExpression &&
      parent.parent.left === parent
    );
  });
  if (changed) return undefined;

  const name = functionName(fn);
  if (!name) return undefined;
  const fnVariable = findVariable(context.sourceCode.getScope(name), name);
  if (!fnVariable) return undefined;
  const uses = fnVariable.references.filter((reference) => reference.identifier !== name && reference.init !== true);
  if (uses.length === 0) return undefined;
  const objects: TSESTree.ObjectExpression[] = [];
  for (const use of uses) {
    const call = use.identifier.parent;
    if (call.type !== AST_NODE_TYPES.CallExpression || call.callee !== use.identifier) return undefined;
    if (call.arguments.slice(0, index + 1).some((argument) => argument.type === AST_NODE_TYPES.SpreadElement))
      return undefined;
    const argument = call.arguments[index];
    const object = argument && resolveOptions(argument, context.sourceCode.getScope(call));
    if (!object) return undefined;
    objects.push(object);
  }
  return objects;
}

/** The identifier naming a function that is not exported: `function f`, `const f = () => …`. */
function functionName(fn: TSESTree.Node): TSESTree.Identifier | undefined {
  if (fn.type === AST_NODE_TYPES.FunctionDeclaration) {
    const exported =
      fn.parent.type === AST_NODE_TYPES.ExportNamedDeclaration ||
      fn.parent.type === AST_NODE_TYPES.ExportDefaultDeclaration;
    return exported ? undefined : (fn.id ?? undefined);
  }
  if (fn.type !== AST_NODE_TYPES.ArrowFunctionExpression && fn.type !== AST_NODE_TYPES.FunctionExpression)
    return undefined;
  const declarator = fn.parent;
  if (declarator.type !== AST_NODE_TYPES.VariableDeclarator || declarator.id.type !== AST_NODE_TYPES.Identifier)
    return undefined;
  return declarator.parent.parent.type === AST_NODE_TYPES.ExportNamedDeclaration ? undefined : declarator.id;
}

/**
 * The object literal an options argument is, directly or through a single-assignment binding:
 * `const config = {...}`, or `let config; ... config = {...}` written once.
 */
export function resolveOptions(node: TSESTree.Node, scope: Scope): TSESTree.ObjectExpression | undefined {
  const target = unwrap(resolveValue(node, scope));
  if (target.type === AST_NODE_TYPES.ObjectExpression) return target;
  if (target.type !== AST_NODE_TYPES.Identifier) return undefined;
  const variable = findVariable(scope, target);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (!variable || def?.node.type !== AST_NODE_TYPES.VariableDeclarator || def.node.init) return undefined;
  const writes = variable.references.filter((reference) => reference.isWrite());
  const assignment = writes.length === 1 ? writes[0]?.identifier.parent : undefined;
  if (assignment?.type !== AST_NODE_TYPES.AssignmentExpression || assignment.operator !== '=') return undefined;
  const value = unwrap(assignment.right);
  return value.type === AST_NODE_TYPES.ObjectExpression ? value : undefined;
}
