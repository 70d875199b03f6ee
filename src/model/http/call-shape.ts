import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { unwrap } from '../ast/nodes.js';
import { findVariable, resolveValue, staticString } from '../ast/values.js';
import { endName, memberName } from '../ast/names.js';
import { importSource } from '../modules.js';
import { type AnyRuleContext, type Scope } from '../ast/context.js';
import { nodeHttpMethod } from './node-http.js';
import { clientBase, listedImport, dottedName, isObjectLike, isRequestObject, resolveOptions } from './clients.js';
import {
  type HttpClient,
  type RequestModelOptions,
  REQUEST_METHOD_NAMES,
  AXIOS_METHODS,
  AXIOS_DATA_METHODS,
  VERB_METHODS,
  GLOBAL_OBJECTS,
  FETCH_MODULES,
  FETCH_PARAMETERS,
  SUPERAGENT_METHODS,
  NEEDLE_METHODS,
  GRAPHQL_METHODS,
} from './request.js';

// ---------------------------------------------------------------------------
// Which client, and where its arguments sit

/** What a client instance (or the library itself) contributes to every request it makes. */
export interface ClientBase {
  client: HttpClient;
  /** The `create`/`extend`/`defaults` config, when the callee is an instance built in this file. */
  instanceConfig: TSESTree.ObjectExpression | undefined;
  /** False when the instance came from something we cannot read (a parameter, an unresolved config). */
  instanceKnown: boolean;
  /** The identifier the library or instance is bound to, for defaults/interceptor lookups. */
  binding: TSESTree.Identifier | undefined;
  /** Known bounded through settings or rule options. */
  listedBounded: boolean;
  /** The instance bounds every request it makes by a default of its own (a superagent agent's `.timeout(ms)`). */
  instanceBounded?: boolean;
}

export interface CallShape extends ClientBase {
  /** Method implied by the callee (`axios.post` → POST), or undefined when it comes from the options. */
  calleeMethod: string | undefined;
  optionsIndex: number;
  bodyArg: TSESTree.Node | undefined;
  /** First argument is a `Request` object, whose init we cannot see. */
  opaqueInput: boolean;
}

export function callShape(
  call: TSESTree.CallExpression,
  context: AnyRuleContext,
  scope: Scope,
  options: RequestModelOptions,
): CallShape | undefined {
  const callee = unwrap(call.callee);
  const dotted = dottedName(callee);
  const listed = dotted !== undefined && (options.boundedClients ?? []).includes(dotted);

  // `fetchFn()` with no URL is no fetch: a zero-argument thunk that happens to share the name.
  if (
    call.arguments.length > 0 &&
    (isFetch(callee, scope) || (dotted !== undefined && (options.additionalClients ?? []).includes(dotted)))
  ) {
    const base: ClientBase = {
      client: 'fetch',
      instanceConfig: undefined,
      instanceKnown: true,
      binding: undefined,
      listedBounded: listed || listedImport(callee, context),
    };
    return {
      ...base,
      calleeMethod: undefined,
      optionsIndex: 1,
      bodyArg: undefined,
      opaqueInput: isRequestObject(call.arguments[0], context, scope),
    };
  }

  const http = nodeHttpMethod(callee, scope);
  if (http) return nodeHttpShape(call, scope, http.method, listed || listedImport(callee, context));

  // Direct call of a library or instance: axios(config), got(url, opts), ky(url, opts), request(opts).
  if (callee.type === AST_NODE_TYPES.Identifier) {
    const base = clientBase(callee, context, scope, options);
    if (!base) return undefined;
    if (base.client === 'undici') return undiciShape(base.listedBounded);
    const direct = directCallShape(base, call, scope);
    if (direct) return direct;
    const first = call.arguments[0];
    // `axios(config)` is as common as `axios(url, config)`: an argument the code does not show to be a URL is the config.
    const urlFirst =
      first !== undefined &&
      !isObjectLike(first, scope) &&
      (base.client !== 'axios' || call.arguments.length > 1 || looksLikeUrl(first, scope));
    return { ...base, calleeMethod: undefined, optionsIndex: urlFirst ? 1 : 0, bodyArg: undefined, opaqueInput: false };
  }

  if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const method = memberName(callee, scope);
  if (method === undefined) return undefined;

  // undici's named `request` and `undici.request`.
  if (method === 'request' && isUndiciNamespace(callee.object, scope)) {
    return undiciShape(listed);
  }

  // Only a client's request methods send; asking what the receiver is (a type query, with types) is wasted on any other call.
  if (!REQUEST_METHOD_NAMES.has(method)) return undefined;
  const base = clientBase(callee.object, context, scope, options);
  if (!base) return undefined;
  if (listed) base.listedBounded = true;
  switch (base.client) {
    case 'axios': {
      if (method === 'request') {
        return { ...base, calleeMethod: undefined, optionsIndex: 0, bodyArg: undefined, opaqueInput: false };
      }
      if (!AXIOS_METHODS.has(method)) return undefined;
      const hasData = AXIOS_DATA_METHODS.has(method);
      return {
        ...base,
        calleeMethod: method.replace(/Form$/, '').toUpperCase(),
        optionsIndex: hasData ? 2 : 1,
        bodyArg: hasData ? call.arguments[1] : undefined,
        opaqueInput: false,
      };
    }
    case 'got':
    case 'ky':
      if (!VERB_METHODS.has(method)) return undefined;
      return { ...base, calleeMethod: method.toUpperCase(), optionsIndex: 1, bodyArg: undefined, opaqueInput: false };
    case 'request': {
      if (!VERB_METHODS.has(method) && method !== 'del') return undefined;
      const first = call.arguments[0];
      const urlFirst = first !== undefined && !isObjectLike(first, scope);
      return {
        ...base,
        calleeMethod: method === 'del' ? 'DELETE' : method.toUpperCase(),
        optionsIndex: urlFirst ? 1 : 0,
        bodyArg: undefined,
        opaqueInput: false,
      };
    }
    case 'superagent':
      if (!SUPERAGENT_METHODS.has(method)) return undefined;
      return {
        ...base,
        calleeMethod: method === 'del' ? 'DELETE' : method.toUpperCase(),
        optionsIndex: NO_OPTIONS,
        bodyArg: call.arguments[1],
        opaqueInput: false,
      };
    case 'needle': {
      if (method === 'request') return needleShape(base, call, scope);
      if (!NEEDLE_METHODS.has(method)) return undefined;
      const hasData = method !== 'get' && method !== 'head';
      return {
        ...base,
        calleeMethod: method.toUpperCase(),
        optionsIndex: hasData ? 2 : 1,
        bodyArg: hasData ? call.arguments[1] : undefined,
        opaqueInput: false,
      };
    }
    case 'ofetch':
      return method === 'raw'
        ? { ...base, calleeMethod: undefined, optionsIndex: 1, bodyArg: undefined, opaqueInput: false }
        : undefined;
    case 'graphql-request':
      return GRAPHQL_METHODS.has(method) ? graphqlShape(base, call, 0, scope) : undefined;
    case 'fetch':
    case 'undici':
    case 'node-http':
      return undefined;
  }
}

/** The options index of a client that takes none: superagent's chain, graphql-request's positional form. */
const NO_OPTIONS = -1;

/** Direct calls whose arguments sit differently from `client(url, options)`; undefined for those that do not. */
function directCallShape(base: ClientBase, call: TSESTree.CallExpression, scope: Scope): CallShape | undefined {
  switch (base.client) {
    case 'superagent': {
      // `superagent(method, url)` or `superagent(url)` (a GET).
      const method = call.arguments.length > 1 && call.arguments[0] ? staticString(call.arguments[0], scope) : 'GET';
      return {
        ...base,
        calleeMethod: method?.toUpperCase(),
        optionsIndex: NO_OPTIONS,
        bodyArg: undefined,
        opaqueInput: false,
      };
    }
    case 'needle':
      return needleShape(base, call, scope);
    case 'ofetch':
      return { ...base, calleeMethod: undefined, optionsIndex: 1, bodyArg: undefined, opaqueInput: false };
    case 'graphql-request':
      // `request(url, document, variables, headers)` or `request({ url, document, signal })`.
      return graphqlShape(base, call, 0, scope);
    default:
      return undefined;
  }
}

/** `needle(method, url, data, options, cb)` and `needle.request(method, url, data, options, cb)`. */
function needleShape(base: ClientBase, call: TSESTree.CallExpression, scope: Scope): CallShape {
  const method = call.arguments[0] && staticString(call.arguments[0], scope);
  return {
    ...base,
    calleeMethod: method?.toUpperCase(),
    optionsIndex: 3,
    bodyArg: call.arguments[2],
    opaqueInput: false,
  };
}

/** graphql-request's object form takes a `signal`; its positional form (`document, variables, headers`) has nowhere for one. */
function graphqlShape(base: ClientBase, call: TSESTree.CallExpression, index: number, scope: Scope): CallShape {
  const first = call.arguments[index];
  const objectForm = first !== undefined && isObjectLike(first, scope);
  return {
    ...base,
    calleeMethod: undefined,
    optionsIndex: objectForm ? index : NO_OPTIONS,
    bodyArg: undefined,
    opaqueInput: false,
  };
}

/** `https.request(url, options?, cb?)` or `https.request(options, cb?)`. */
function nodeHttpShape(
  call: TSESTree.CallExpression,
  scope: Scope,
  method: string | undefined,
  listed: boolean,
): CallShape {
  const first = call.arguments[0];
  return {
    client: 'node-http',
    instanceConfig: undefined,
    instanceKnown: true,
    binding: undefined,
    listedBounded: listed,
    calleeMethod: method,
    optionsIndex: first !== undefined && isObjectLike(first, scope) ? 0 : 1,
    bodyArg: undefined,
    opaqueInput: false,
  };
}

function undiciShape(listed: boolean): CallShape {
  return {
    client: 'undici',
    instanceConfig: undefined,
    instanceKnown: true,
    binding: undefined,
    listedBounded: listed,
    calleeMethod: undefined,
    optionsIndex: 1,
    bodyArg: undefined,
    opaqueInput: false,
  };
}

/** True when `callee` is the WHATWG fetch: the global, a re-export from a fetch package, or `globalThis.fetch`. */
export function isFetch(callee: TSESTree.Node, scope: Scope): boolean {
  const target = unwrap(callee);
  if (target.type === AST_NODE_TYPES.MemberExpression) {
    const object = unwrap(target.object);
    return (
      memberName(target) === 'fetch' &&
      object.type === AST_NODE_TYPES.Identifier &&
      GLOBAL_OBJECTS.has(object.name) &&
      isUnbound(object, scope)
    );
  }
  if (target.type !== AST_NODE_TYPES.Identifier) return false;
  if (target.name === 'fetch' && isUnbound(target, scope)) return true;
  const source = importSource(target, scope);
  if (source) return FETCH_MODULES[source.module]?.includes(source.imported) ?? false;
  // `const fetch = globalThis.fetch`, or a parameter defaulting to the global fetch
  // (`{ fetchImpl = globalThis.fetch }`): the only implementation this file shows.
  const variable = findVariable(scope, target);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (!variable || !def) return false;
  if (
    def.type === TSESLint.Scope.DefinitionType.Variable &&
    def.node.id.type === AST_NODE_TYPES.Identifier &&
    def.node.init
  ) {
    const writes = variable.references.filter((reference) => reference.isWrite());
    return writes.length <= 1 && isFetchReference(def.node.init, scope);
  }
  if (def.type === TSESLint.Scope.DefinitionType.Parameter) {
    // `{ fetchImpl = globalThis.fetch }`, or an injected fetch by its conventional names
    // (SvelteKit's `load({ fetch })`, `fetchImpl`, `fetchFn`).
    const parent = def.name.parent;
    if (parent.type === AST_NODE_TYPES.AssignmentPattern && parent.left === def.name) {
      return isFetchReference(parent.right, scope);
    }
    return (
      FETCH_PARAMETERS.has(target.name) &&
      declaredAsFetch(def.name) !== false &&
      variable.references.every((reference) => !reference.isWrite() || reference.init === true)
    );
  }
  return false;
}

/** `fetch`, `globalThis.fetch`, `fetch.bind(globalThis)`, without calling it. */
function isFetchReference(node: TSESTree.Node, scope: Scope): boolean {
  let target = unwrap(node);
  if (
    target.type === AST_NODE_TYPES.CallExpression &&
    target.callee.type === AST_NODE_TYPES.MemberExpression &&
    memberName(target.callee) === 'bind'
  ) {
    target = unwrap(target.callee.object);
  }
  if (target.type === AST_NODE_TYPES.Identifier) return target.name === 'fetch' && isUnbound(target, scope);
  return target.type === AST_NODE_TYPES.MemberExpression && isFetch(target, scope);
}

/** Type names projects give the Fetch API's signature. */
const FETCH_TYPE_NAMES: ReadonlySet<string> = new Set([
  'Fetch',
  'FetchLike',
  'FetchFn',
  'FetchFunction',
  'FetchImpl',
  'FetchType',
]);

/**
 * What a parameter's declared type says of it: the Fetch API (`typeof fetch`, `typeof
 * globalThis.fetch`, a `Fetch`-named alias, a function of a `RequestInfo | URL` or a `Request`),
 * something else (`fetch: (key: K) => Promise<V>`, a cache's loader; `fetch: OembedFetcher`, an
 * injected service), or undefined when it declares none (or `any`), and its name decides.
 */
function declaredAsFetch(name: TSESTree.BindingName): boolean | undefined {
  const annotation = name.typeAnnotation?.typeAnnotation;
  return annotation && fetchType(annotation);
}

function fetchType(annotation: TSESTree.TypeNode): boolean | undefined {
  switch (annotation.type) {
    case AST_NODE_TYPES.TSAnyKeyword:
    case AST_NODE_TYPES.TSUnknownKeyword:
      return undefined;
    // `typeof fetch | undefined`: what it is when it is there.
    case AST_NODE_TYPES.TSUnionType: {
      const members = annotation.types.filter(
        (member) => member.type !== AST_NODE_TYPES.TSUndefinedKeyword && member.type !== AST_NODE_TYPES.TSNullKeyword,
      );
      const answers = members.map(fetchType);
      return answers.includes(true) ? true : answers.includes(undefined) ? undefined : false;
    }
    case AST_NODE_TYPES.TSTypeQuery: {
      const queried = annotation.exprName;
      const last = queried.type === AST_NODE_TYPES.TSQualifiedName ? queried.right : queried;
      return last.type === AST_NODE_TYPES.Identifier && last.name === 'fetch';
    }
    case AST_NODE_TYPES.TSTypeReference: {
      const typeName = annotation.typeName;
      const last = typeName.type === AST_NODE_TYPES.TSQualifiedName ? typeName.right : typeName;
      return last.type === AST_NODE_TYPES.Identifier && FETCH_TYPE_NAMES.has(last.name);
    }
    case AST_NODE_TYPES.TSFunctionType: {
      const [first] = annotation.params;
      const type = first && 'typeAnnotation' in first ? first.typeAnnotation?.typeAnnotation : undefined;
      return type !== undefined && mentionsRequestType(type);
    }
    default:
      return false;
  }
}

/** `RequestInfo | URL`, `string | URL | Request`: a type that names what the Fetch API takes. */
function mentionsRequestType(type: TSESTree.TypeNode): boolean {
  if (type.type === AST_NODE_TYPES.TSUnionType) return type.types.some(mentionsRequestType);
  if (type.type !== AST_NODE_TYPES.TSTypeReference || type.typeName.type !== AST_NODE_TYPES.Identifier) return false;
  return ['RequestInfo', 'URL', 'Request'].includes(type.typeName.name);
}

/** True when an identifier refers to a global nobody in this file declares. */
function isUnbound(identifier: TSESTree.Identifier, scope: Scope): boolean {
  const variable = findVariable(scope, identifier);
  return !variable || variable.defs.length === 0;
}

function isUndiciNamespace(node: TSESTree.Node, scope: Scope): boolean {
  const target = unwrap(node);
  if (target.type !== AST_NODE_TYPES.Identifier) return false;
  const source = importSource(target, scope);
  return source?.module === 'undici' && (source.imported === '*' || source.imported === 'default');
}

/** A string the code builds (literal, template, concatenation) or a binding named for a URL (`url`, `endpoint`). */
function looksLikeUrl(node: TSESTree.Node, scope: Scope): boolean {
  const target = unwrap(node);
  if (resolveOptions(target, scope)) return false;
  const value = unwrap(resolveValue(target, scope));
  if (
    (value.type === AST_NODE_TYPES.Literal && typeof value.value === 'string') ||
    value.type === AST_NODE_TYPES.TemplateLiteral ||
    (value.type === AST_NODE_TYPES.BinaryExpression && value.operator === '+')
  )
    return true;
  const name = endName(target);
  return name !== undefined && /(?:url|uri|href|endpoint|link)s?$/i.test(name);
}
