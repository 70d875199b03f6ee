import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext, childNodes, findProperty, findVariable, forEachNode, importSource, memberName, propertyKeyName, resolveValue, staticString, staticValue, unwrap } from './ast.js';
import { isListedImport, settingsOf } from './settings.js';

/**
 * Outgoing HTTP requests: which client makes them, with which method, headers, body, and
 * whether anything bounds how long they may take. Everything here answers "don't know"
 * (`undefined`, `'unknown'`, `complete: false`) rather than guess, so rules built on it
 * can stay quiet where the code does not show the answer.
 */

type Scope = TSESLint.Scope.Scope;

export type HttpClient = 'fetch' | 'axios' | 'got' | 'ky' | 'undici' | 'request';

export interface HeaderEntry {
  /** The header name as written. */
  name: string;
  value: TSESTree.Node;
  /**
   * The Property, the `headers.set/append` call, or the `headers[name] = v` assignment; for headers
   * from a key-header source in another module, the import that brings it in.
   */
  node: TSESTree.Node;
}

export interface RequestHeaders {
  entries: HeaderEntry[];
  /** False when a spread, an unresolved object, an instance default or an interceptor may add more. */
  complete: boolean;
}

export type RequestTimeout = 'bounded' | 'unbounded' | 'unknown';

export interface OutgoingRequest {
  call: TSESTree.CallExpression;
  client: HttpClient;
  /** Upper case; undefined when not static. */
  method: string | undefined;
  /** The options/config object literal (inline or through a const). */
  options: TSESTree.ObjectExpression | undefined;
  /**
   * Index of the argument that holds the options; `call.arguments.length` or more when the
   * call has none yet (axios `post(url)` puts them after the data argument).
   */
  optionsIndex: number;
  headers: RequestHeaders;
  /** body / json / data / form expression (also axios.post's second argument). */
  body: TSESTree.Node | undefined;
  timeout: RequestTimeout;
  /** The property that makes the request unbounded on purpose (`timeout: 0`, `timeout: Infinity`, ky `timeout: false`). */
  disabledTimeout: TSESTree.Property | undefined;
}

export interface RequestModelOptions {
  /** Callee names (`fetchWithRetry`, `this.http.fetch`) to treat as fetch-compatible wrappers. */
  additionalClients?: readonly string[];
  /** Identifiers or dotted receivers (`api`, `this.http`) known to carry a timeout. */
  boundedClients?: readonly string[];
}

const FETCH_MODULES: Readonly<Record<string, readonly string[]>> = {
  'node-fetch': ['default', 'fetch'],
  'cross-fetch': ['default', 'fetch'],
  'isomorphic-fetch': ['default'],
  'isomorphic-unfetch': ['default'],
  undici: ['fetch'],
  '@whatwg-node/fetch': ['fetch'],
};
const FETCH_PARAMETERS = new Set(['fetch', 'fetchImpl', 'fetchFn']);
const GLOBAL_OBJECTS = new Set(['globalThis', 'window', 'self', 'global']);
const AXIOS_METHODS = new Set(['get', 'delete', 'head', 'options', 'post', 'put', 'patch', 'postForm', 'putForm', 'patchForm']);
const AXIOS_DATA_METHODS = new Set(['post', 'put', 'patch', 'postForm', 'putForm', 'patchForm']);
const VERB_METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'head']);
/** Every method name through which some client sends a request. */
const REQUEST_METHOD_NAMES: ReadonlySet<string> = new Set([...AXIOS_METHODS, ...VERB_METHODS, 'request', 'del']);
const REQUEST_MODULES = new Set(['request', 'request-promise', 'request-promise-native', 'postman-request']);

/** The outgoing HTTP request a call makes, or undefined when the call is not one we recognise. */
export function getOutgoingRequest(
  call: TSESTree.CallExpression,
  context: AnyRuleContext,
  options: RequestModelOptions = NO_OPTIONS,
): OutgoingRequest | undefined {
  // Several rules ask about every call of a file; the answer depends on the call, the settings
  // and the options object, so it is kept per settings and per options.
  let bySettings = requestCache.get(context.settings);
  if (!bySettings) requestCache.set(context.settings, (bySettings = new WeakMap()));
  let byCall = bySettings.get(options);
  if (!byCall) bySettings.set(options, (byCall = new WeakMap()));
  let request = byCall.get(call);
  if (request === undefined) {
    request = readOutgoingRequest(call, context, options) ?? null;
    byCall.set(call, request);
  }
  return request ?? undefined;
}

const NO_OPTIONS: RequestModelOptions = Object.freeze({});
const requestCache = new WeakMap<object, WeakMap<RequestModelOptions, WeakMap<TSESTree.CallExpression, OutgoingRequest | null>>>();

function readOutgoingRequest(call: TSESTree.CallExpression, context: AnyRuleContext, options: RequestModelOptions): OutgoingRequest | undefined {
  const scope = context.sourceCode.getScope(call);
  const shape = callShape(call, context, scope, options);
  if (!shape) return undefined;
  // The request package takes a callback where the options would go: `request.get(url, cb)`.
  const slot = call.arguments[shape.optionsIndex];
  const optionsArg = slot && shape.client === 'request' && isFunction(slot) ? undefined : slot;
  const resolved = optionsArg ? resolveOptions(optionsArg, scope) : undefined;
  // `fetch(...args)`: a spread may supply the options.
  const spread = call.arguments.slice(0, shape.optionsIndex + 1).some((argument) => argument.type === AST_NODE_TYPES.SpreadElement);
  const optionsKnown = !spread && (optionsArg === undefined || resolved !== undefined);
  const object = resolved;

  const method = methodOf(shape, object, optionsKnown, scope);
  const headers = headersOf(shape, object, optionsKnown, context, scope);
  const body = shape.bodyArg ?? (object ? bodyOf(object, scope) : undefined);
  // Options passed in by a local function's callers: each caller's object literal.
  const candidates = optionsKnown ? (object ? [object] : []) : spread || !optionsArg ? undefined : callerObjects(optionsArg, context, scope);
  const { timeout, disabled } = timeoutOf(shape, candidates, context, scope);
  return {
    call,
    client: shape.client,
    method,
    options: object,
    optionsIndex: shape.optionsIndex,
    headers,
    body,
    timeout,
    disabledTimeout: disabled,
  };
}

/** True for GET, HEAD and OPTIONS: requests that only read. */
export function isReadMethod(method: string | undefined): boolean {
  return method === 'GET' || method === 'HEAD' || method === 'OPTIONS';
}

// ---------------------------------------------------------------------------
// Which client, and where its arguments sit

/** What a client instance (or the library itself) contributes to every request it makes. */
interface ClientBase {
  client: HttpClient;
  /** The `create`/`extend`/`defaults` config, when the callee is an instance built in this file. */
  instanceConfig: TSESTree.ObjectExpression | undefined;
  /** False when the instance came from something we cannot read (a parameter, an unresolved config). */
  instanceKnown: boolean;
  /** The identifier the library or instance is bound to, for defaults/interceptor lookups. */
  binding: TSESTree.Identifier | undefined;
  /** Known bounded through settings or rule options. */
  listedBounded: boolean;
}

interface CallShape extends ClientBase {
  /** Method implied by the callee (`axios.post` → POST), or undefined when it comes from the options. */
  calleeMethod: string | undefined;
  optionsIndex: number;
  bodyArg: TSESTree.Node | undefined;
  /** First argument is a `Request` object, whose init we cannot see. */
  opaqueInput: boolean;
}

function callShape(
  call: TSESTree.CallExpression,
  context: AnyRuleContext,
  scope: Scope,
  options: RequestModelOptions,
): CallShape | undefined {
  const callee = unwrap(call.callee);
  const dotted = dottedName(callee);
  const listed = dotted !== undefined && (options.boundedClients ?? []).includes(dotted);

  if (isFetch(callee, scope) || (dotted !== undefined && (options.additionalClients ?? []).includes(dotted))) {
    const base: ClientBase = { client: 'fetch', instanceConfig: undefined, instanceKnown: true, binding: undefined, listedBounded: listed || listedImport(callee, context) };
    return { ...base, calleeMethod: undefined, optionsIndex: 1, bodyArg: undefined, opaqueInput: isRequestObject(call.arguments[0], context, scope) };
  }

  // Direct call of a library or instance: axios(config), got(url, opts), ky(url, opts), request(opts).
  if (callee.type === AST_NODE_TYPES.Identifier) {
    const base = clientBase(callee, context, scope, options);
    if (!base) return undefined;
    if (base.client === 'undici') return undiciShape(base.listedBounded);
    const first = call.arguments[0];
    const urlFirst = first !== undefined && !isObjectLike(first, scope);
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
      return { ...base, calleeMethod: method === 'del' ? 'DELETE' : method.toUpperCase(), optionsIndex: urlFirst ? 1 : 0, bodyArg: undefined, opaqueInput: false };
    }
    case 'fetch':
    case 'undici':
      return undefined;
  }
}

function undiciShape(listed: boolean): CallShape {
  return { client: 'undici', instanceConfig: undefined, instanceKnown: true, binding: undefined, listedBounded: listed, calleeMethod: undefined, optionsIndex: 1, bodyArg: undefined, opaqueInput: false };
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
  if (def.type === TSESLint.Scope.DefinitionType.Variable && def.node.id.type === AST_NODE_TYPES.Identifier && def.node.init) {
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
    return FETCH_PARAMETERS.has(target.name) && variable.references.every((reference) => !reference.isWrite() || reference.init === true);
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

/**
 * The library or instance an expression is: the axios/got/ky/request default import, the
 * undici `request` import, an instance built with `axios.create` / `got.extend` /
 * `ky.create` / `request.defaults` in this file, or (with type information) any value whose
 * type is axios's `AxiosInstance`.
 */
function clientBase(
  node: TSESTree.Node,
  context: AnyRuleContext,
  scope: Scope,
  options: RequestModelOptions,
  depth = 0,
): ClientBase | undefined {
  const target = unwrap(node);
  const dotted = dottedName(target);
  const listed = (dotted !== undefined && (options.boundedClients ?? []).includes(dotted)) || listedImport(target, context);
  if (target.type === AST_NODE_TYPES.Identifier) {
    const source = importSource(target, scope);
    if (source) {
      const library = libraryOf(source.module, source.imported);
      if (library) return { client: library, instanceConfig: undefined, instanceKnown: true, binding: target, listedBounded: listed };
      if (isListedImport(target, context, settingsOf(context).timeoutlessClients)) return timeoutlessAxios(target, listed);
    } else {
      const init = resolveValue(target, scope);
      if (init !== target && depth < 4) {
        const instance = instanceFrom(init, context, scope, options, depth);
        if (instance) return { ...instance, binding: target, listedBounded: instance.listedBounded || listed };
        // `const api = await createApiClient()`, the helper imported from a module that builds it without a timeout.
        const made = unwrap(init.type === AST_NODE_TYPES.AwaitExpression ? init.argument : init);
        if (made.type === AST_NODE_TYPES.CallExpression && made.callee.type === AST_NODE_TYPES.Identifier && isListedImport(made.callee, context, settingsOf(context).timeoutlessClientFactories)) {
          return timeoutlessAxios(target, listed);
        }
      }
    }
  }
  const typed = typedAxios(target, context);
  if (typed) return { client: 'axios', instanceConfig: undefined, instanceKnown: false, binding: undefined, listedBounded: listed };
  return undefined;
}

/** An axios instance another module builds with no timeout: only a call's own options can bound its requests. */
function timeoutlessAxios(binding: TSESTree.Identifier, listedBounded: boolean): ClientBase {
  return { client: 'axios', instanceConfig: undefined, instanceKnown: true, binding, listedBounded };
}

function libraryOf(module: string, imported: string): HttpClient | undefined {
  if (module === 'axios' && (imported === 'default' || imported === 'axios')) return 'axios';
  if (module === 'got' && (imported === 'default' || imported === 'got')) return 'got';
  if ((module === 'ky' || module === 'ky-universal') && imported === 'default') return 'ky';
  if (module === 'undici' && imported === 'request') return 'undici';
  if (REQUEST_MODULES.has(module) && imported === 'default') return 'request';
  return undefined;
}

/** `axios.create(cfg)`, `got.extend(cfg)`, `ky.create(cfg)` / `ky.extend(cfg)`, `request.defaults(cfg)`. */
function instanceFrom(
  init: TSESTree.Node,
  context: AnyRuleContext,
  scope: Scope,
  options: RequestModelOptions,
  depth: number,
): ClientBase | undefined {
  if (init.type !== AST_NODE_TYPES.CallExpression || init.callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const factory = memberName(init.callee);
  const parent = clientBase(init.callee.object, context, scope, options, depth + 1);
  if (!parent || !factory) return undefined;
  const expected: Record<HttpClient, readonly string[]> = {
    axios: ['create'],
    got: ['extend'],
    ky: ['create', 'extend'],
    request: ['defaults'],
    fetch: [],
    undici: [],
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

function listedImport(node: TSESTree.Node, context: AnyRuleContext): boolean {
  let head = unwrap(node);
  while (head.type === AST_NODE_TYPES.MemberExpression) head = unwrap(head.object);
  return head.type === AST_NODE_TYPES.Identifier && isListedImport(head, context, settingsOf(context).boundedClients);
}

/** With type information: true when the expression's type is axios's `AxiosInstance` or `AxiosStatic`. */
function typedAxios(node: TSESTree.Node, context: AnyRuleContext): boolean {
  const type = typeNameOf(node, context);
  return type !== undefined && ['AxiosInstance', 'AxiosStatic'].includes(type.name) && type.files.some((file) => /[\\/]axios[\\/]/.test(file));
}

/** With type information: the name of an expression's type and the files declaring it. */
export function typeNameOf(node: TSESTree.Node, context: AnyRuleContext): { name: string; files: string[] } | undefined {
  const services = context.sourceCode.parserServices;
  const map = services?.esTreeNodeToTSNodeMap;
  if (!services?.program || !map?.has(node)) return undefined;
  const type = services.program.getTypeChecker().getTypeAtLocation(map.get(node));
  const symbol = type.aliasSymbol ?? type.getSymbol();
  if (!symbol) return undefined;
  return { name: symbol.getName(), files: (symbol.getDeclarations() ?? []).map((declaration) => declaration.getSourceFile().fileName) };
}

/** The dotted text of an identifier or member chain (`api`, `this.http`), for option lists. */
function dottedName(node: TSESTree.Node): string | undefined {
  const target = unwrap(node);
  if (target.type === AST_NODE_TYPES.Identifier) return target.name;
  if (target.type === AST_NODE_TYPES.ThisExpression) return 'this';
  if (target.type === AST_NODE_TYPES.MemberExpression && !target.computed && target.property.type === AST_NODE_TYPES.Identifier) {
    const head = dottedName(target.object);
    return head === undefined ? undefined : `${head}.${target.property.name}`;
  }
  return undefined;
}

function isFunction(node: TSESTree.Node): boolean {
  return node.type === AST_NODE_TYPES.ArrowFunctionExpression || node.type === AST_NODE_TYPES.FunctionExpression;
}

/** True when an argument is (or holds) an object rather than a URL. */
function isObjectLike(node: TSESTree.Node, scope: Scope): boolean {
  const target = resolveValue(node, scope);
  return target.type === AST_NODE_TYPES.ObjectExpression;
}

/** True when fetch's first argument is a `Request`, which carries its own signal and method. */
function isRequestObject(node: TSESTree.Node | undefined, context: AnyRuleContext, scope: Scope): boolean {
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
function callerObjects(node: TSESTree.Node, context: AnyRuleContext, scope: Scope): TSESTree.ObjectExpression[] | undefined {
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
    return parent.type === AST_NODE_TYPES.MemberExpression && parent.parent.type === AST_NODE_TYPES.AssignmentExpression && parent.parent.left === parent;
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
    if (call.arguments.slice(0, index + 1).some((argument) => argument.type === AST_NODE_TYPES.SpreadElement)) return undefined;
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
    const exported = fn.parent.type === AST_NODE_TYPES.ExportNamedDeclaration || fn.parent.type === AST_NODE_TYPES.ExportDefaultDeclaration;
    return exported ? undefined : (fn.id ?? undefined);
  }
  if (fn.type !== AST_NODE_TYPES.ArrowFunctionExpression && fn.type !== AST_NODE_TYPES.FunctionExpression) return undefined;
  const declarator = fn.parent;
  if (declarator.type !== AST_NODE_TYPES.VariableDeclarator || declarator.id.type !== AST_NODE_TYPES.Identifier) return undefined;
  return declarator.parent.parent.type === AST_NODE_TYPES.ExportNamedDeclaration ? undefined : declarator.id;
}

/** The object literal an options argument is, directly or through a single-assignment binding. */
function resolveOptions(node: TSESTree.Node, scope: Scope): TSESTree.ObjectExpression | undefined {
  const target = resolveValue(node, scope);
  return target.type === AST_NODE_TYPES.ObjectExpression ? target : undefined;
}

// ---------------------------------------------------------------------------
// Method, body, headers

function methodOf(
  shape: CallShape,
  object: TSESTree.ObjectExpression | undefined,
  optionsKnown: boolean,
  scope: Scope,
): string | undefined {
  if (shape.calleeMethod !== undefined) return shape.calleeMethod;
  if (shape.opaqueInput || !optionsKnown) return undefined;
  const property = object ? findProperty(object, (name) => name === 'method', scope) : undefined;
  if (property === 'unknown') return undefined;
  if (property === undefined) {
    // An instance default method would be unusual; only trust GET where nothing else can set it.
    if (shape.instanceConfig && findProperty(shape.instanceConfig, (name) => name === 'method', scope) !== undefined) return undefined;
    return shape.instanceKnown ? 'GET' : undefined;
  }
  return staticString(property.value, scope)?.toUpperCase();
}

function bodyOf(object: TSESTree.ObjectExpression, scope: Scope): TSESTree.Node | undefined {
  const property = findProperty(object, (name) => ['body', 'json', 'data', 'form'].includes(name), scope);
  return property === undefined || property === 'unknown' ? undefined : property.value;
}

function headersOf(
  shape: CallShape,
  object: TSESTree.ObjectExpression | undefined,
  optionsKnown: boolean,
  context: AnyRuleContext,
  scope: Scope,
): RequestHeaders {
  const result: RequestHeaders = { entries: [], complete: optionsKnown && !shape.opaqueInput && shape.instanceKnown };
  if (shape.instanceConfig) addHeadersFrom(shape.instanceConfig, result, context, scope);
  if (object) addHeadersFrom(object, result, context, scope);
  if (shape.binding && fileFacts(context).configured.has(variableKey(shape.binding, scope))) result.complete = false;
  return result;
}

function addHeadersFrom(object: TSESTree.ObjectExpression, result: RequestHeaders, context: AnyRuleContext, scope: Scope): void {
  const property = findProperty(object, (name) => name === 'headers', scope);
  if (property === 'unknown') {
    result.complete = false;
    return;
  }
  if (!property) return;
  const headers = readHeaders(property.value, context, scope);
  result.entries.push(...headers.entries);
  if (!headers.complete) result.complete = false;
}

/**
 * The entries of a headers value: an object literal, `new Headers(init)`, an array of
 * pairs, or a binding holding one of those plus the `set`/`append`/`[name] =` writes made
 * to it in this file.
 */
export function readHeaders(node: TSESTree.Node, context: AnyRuleContext, scope: Scope): RequestHeaders {
  const result: RequestHeaders = { entries: [], complete: true };
  const target = unwrap(node);
  const value = resolveValue(target, scope);
  const source = keyHeaderSource(target, context, scope) ?? (value === target ? undefined : keyHeaderSource(value, context, scope));
  if (source) {
    result.entries.push(source);
    result.complete = false;
  } else if (value.type === AST_NODE_TYPES.ObjectExpression) {
    addObjectEntries(value, result, context, scope);
  } else if (
    value.type === AST_NODE_TYPES.NewExpression &&
    value.callee.type === AST_NODE_TYPES.Identifier &&
    value.callee.name === 'Headers'
  ) {
    const init = value.arguments[0];
    if (init) {
      const inner = readHeaders(init, context, scope);
      result.entries.push(...inner.entries);
      if (!inner.complete) result.complete = false;
    }
  } else if (value.type === AST_NODE_TYPES.ArrayExpression) {
    for (const element of value.elements) {
      const pair = element && unwrap(element);
      const name = pair?.type === AST_NODE_TYPES.ArrayExpression && pair.elements[0] ? staticString(pair.elements[0], scope) : undefined;
      if (pair?.type !== AST_NODE_TYPES.ArrayExpression || name === undefined || !pair.elements[1]) {
        result.complete = false;
        continue;
      }
      result.entries.push({ name, value: pair.elements[1], node: pair });
    }
  } else {
    result.complete = false;
  }
  if (target.type === AST_NODE_TYPES.Identifier && value !== target) addWrites(target, result, scope);
  return result;
}

function addObjectEntries(object: TSESTree.ObjectExpression, result: RequestHeaders, context: AnyRuleContext, scope: Scope): void {
  for (const property of object.properties) {
    if (property.type === AST_NODE_TYPES.SpreadElement) {
      const source = keyHeaderSource(property.argument, context, scope);
      if (source) result.entries.push(source);
      result.complete = false;
      continue;
    }
    const name = propertyKeyName(property, scope);
    if (name === undefined) {
      result.complete = false;
      continue;
    }
    result.entries.push({ name, value: property.value, node: property });
  }
}

/** The name a key-header source's entry gets: the factory's own header name is in another module. */
const SHARED_KEY_HEADER = 'Idempotency-Key';

/**
 * Headers built by an imported function or object that `settings.idempotency.keyHeaderSources`
 * lists (computed by the CLI across files): `buildHeaders()`, `await authHeaders()`,
 * `commonHeaders`, `api.headers()`. The entry points at the import, outside any one request.
 */
function keyHeaderSource(node: TSESTree.Node, context: AnyRuleContext, scope: Scope): HeaderEntry | undefined {
  const listed = settingsOf(context).keyHeaderSources;
  if (!listed?.length) return undefined;
  let head = unwrap(node);
  if (head.type === AST_NODE_TYPES.CallExpression) head = unwrap(head.callee);
  while (head.type === AST_NODE_TYPES.MemberExpression) head = unwrap(head.object);
  if (head.type !== AST_NODE_TYPES.Identifier || !isListedImport(head, context, listed)) return undefined;
  const definition = findVariable(scope, head)?.defs[0]?.node;
  return definition ? { name: SHARED_KEY_HEADER, value: node, node: definition } : undefined;
}

/** `h.set(name, v)`, `h.append(name, v)`, `h[name] = v` on the binding; other escapes make the set incomplete. */
function addWrites(identifier: TSESTree.Identifier, result: RequestHeaders, scope: Scope): void {
  const variable = findVariable(scope, identifier);
  if (!variable) return;
  for (const reference of variable.references) {
    if (reference.init === true) continue;
    const use = reference.identifier;
    if (use === identifier) continue;
    const parent = use.parent;
    if (parent.type !== AST_NODE_TYPES.MemberExpression || parent.object !== use) {
      // Passed somewhere (a helper may add headers), except into a request's options.
      if (parent.type === AST_NODE_TYPES.Property && parent.value === use) continue;
      result.complete = false;
      continue;
    }
    const grand = parent.parent;
    const member = memberName(parent, scope);
    if (grand.type === AST_NODE_TYPES.CallExpression && grand.callee === parent && (member === 'set' || member === 'append')) {
      const name = grand.arguments[0] ? staticString(grand.arguments[0], scope) : undefined;
      const value = grand.arguments[1];
      if (name === undefined || !value) result.complete = false;
      else result.entries.push({ name, value, node: grand });
    } else if (grand.type === AST_NODE_TYPES.AssignmentExpression && grand.left === parent) {
      if (member === undefined) result.complete = false;
      else result.entries.push({ name: member, value: grand.right, node: grand });
    } else if (grand.type === AST_NODE_TYPES.CallExpression && grand.callee === parent && member !== 'get' && member !== 'has' && member !== 'delete') {
      result.complete = false;
    }
  }
}

// ---------------------------------------------------------------------------
// Timeout

interface TimeoutAnswer {
  timeout: RequestTimeout;
  disabled: TSESTree.Property | undefined;
}

function timeoutOf(
  shape: CallShape,
  candidates: readonly TSESTree.ObjectExpression[] | undefined,
  context: AnyRuleContext,
  scope: Scope,
): TimeoutAnswer {
  if (shape.listedBounded) return { timeout: 'bounded', disabled: undefined };
  if (shape.opaqueInput || !candidates) return { timeout: 'unknown', disabled: undefined };

  // The request's own options decide first; several candidates must agree.
  const own = candidates.map((candidate) => timeoutIn(shape.client, candidate, scope));
  if (own.length === 1 && own[0] !== 'absent' && own[0]) return own[0];
  if (own.length > 1 && !own.every((verdict) => verdict === 'absent')) {
    if (own.every((verdict) => verdict !== 'absent' && verdict.timeout === 'bounded')) return { timeout: 'bounded', disabled: undefined };
    return { timeout: 'unknown', disabled: undefined };
  }

  // Then the instance, then the library's file-wide defaults and interceptors.
  if (shape.instanceConfig) {
    const inherited = timeoutIn(shape.client, shape.instanceConfig, scope);
    if (inherited !== 'absent') {
      // The instance disabled it; the report belongs at the instance, this call just inherits.
      return inherited.timeout === 'unbounded' ? { timeout: 'unbounded', disabled: undefined } : inherited;
    }
  }
  if (!shape.instanceKnown) return { timeout: 'unknown', disabled: undefined };
  if (shape.binding && fileFacts(context).bounded.has(variableKey(shape.binding, scope))) {
    return { timeout: 'bounded', disabled: undefined };
  }
  if (shape.binding && fileFacts(context).configured.has(variableKey(shape.binding, scope))) {
    return { timeout: 'unknown', disabled: undefined };
  }
  return { timeout: shape.client === 'ky' ? 'bounded' : 'unbounded', disabled: undefined };
}

/**
 * `axios.create({ timeout: 5000 })`, `got.extend({ timeout: {...} })`, `ky.create({ timeout: 5000 })`
 * (also on an instance of those): an instance whose own config bounds every request made
 * through it. `timeout: 0`, `Infinity` and ky's `false` switch the bound off.
 */
export function isBoundedClientFactory(value: TSESTree.Node, context: AnyRuleContext): boolean {
  const scope = context.sourceCode.getScope(value);
  const instance = instanceFrom(unwrap(value), context, scope, {}, 0);
  if (!instance?.instanceConfig) return false;
  const verdict = timeoutIn(instance.client, instance.instanceConfig, scope);
  return verdict !== 'absent' && verdict.timeout === 'bounded';
}

/**
 * An axios instance built here with no timeout (`axios.create({ baseURL })`, directly or through a
 * `const`), for the importing modules' settings. Quiet when this file mentions a timeout or a
 * signal anywhere: a default, an interceptor or a wrapper may set one, and a wrong fact would
 * make every importer noisy.
 */
export function isTimeoutlessClient(value: TSESTree.Node, context: AnyRuleContext): boolean {
  if (/timeout|signal/i.test(context.sourceCode.text)) return false;
  const scope = context.sourceCode.getScope(value);
  const target = unwrap(value);
  const instance = target.type === AST_NODE_TYPES.Identifier ? clientBase(target, context, scope, {}) : instanceFrom(target, context, scope, {}, 0);
  return instance !== undefined && instance.client === 'axios' && instance.instanceConfig !== undefined && instance.instanceKnown && !instance.listedBounded;
}

const TIMEOUT_KEYS: Readonly<Record<HttpClient, readonly string[]>> = {
  fetch: ['signal'],
  axios: ['signal', 'timeout', 'cancelToken'],
  got: ['signal', 'timeout'],
  ky: ['signal', 'timeout'],
  undici: ['signal', 'headersTimeout', 'bodyTimeout'],
  request: ['timeout'],
};

/** What one options object says about the timeout, or 'absent' when it says nothing. */
function timeoutIn(client: HttpClient, object: TSESTree.ObjectExpression, scope: Scope): TimeoutAnswer | 'absent' {
  let sawUnknown = false;
  let disabled: TSESTree.Property | undefined;
  for (const key of TIMEOUT_KEYS[client]) {
    const property = findProperty(object, (name) => name === key, scope);
    if (property === 'unknown') {
      sawUnknown = true;
      continue;
    }
    if (!property) continue;
    const verdict = key === 'signal' || key === 'cancelToken' ? signalVerdict(property, scope) : timeoutVerdict(client, property, scope);
    if (verdict === 'bounded') return { timeout: 'bounded', disabled: undefined };
    if (verdict === 'disabled') disabled = property;
  }
  if (client === 'fetch') {
    // node-fetch v2 honours `timeout`; a custom undici `dispatcher` may carry its own timeouts.
    const other = findProperty(object, (name) => name === 'timeout' || name === 'dispatcher' || name === 'agent', scope);
    if (other !== undefined) sawUnknown = true;
  }
  if (disabled) return { timeout: 'unbounded', disabled };
  if (sawUnknown) return { timeout: 'unknown', disabled: undefined };
  return 'absent';
}

function signalVerdict(property: TSESTree.Property, scope: Scope): 'bounded' | 'absent' {
  const value = staticValue(property.value, scope);
  if (value && (value.value === undefined || value.value === null)) return 'absent';
  return 'bounded';
}

/** `timeout: n`: bounded unless statically 0, Infinity, or (ky) false; undici 0 also disables. */
function timeoutVerdict(client: HttpClient, property: TSESTree.Property, scope: Scope): 'bounded' | 'disabled' | 'absent' {
  const value = staticValue(property.value, scope);
  if (!value) return 'bounded';
  if (value.value === undefined || value.value === null) return 'absent';
  if (value.value === 0 || value.value === Infinity || value.value === false) return 'disabled';
  if (client === 'got' && typeof value.value === 'object') {
    // got's per-phase object: only some phase bounding the whole request or its socket counts.
    const phases = Object.entries(value.value as Record<string, unknown>);
    return phases.some(([, ms]) => typeof ms === 'number' && ms > 0 && Number.isFinite(ms)) ? 'bounded' : 'disabled';
  }
  return 'bounded';
}

// ---------------------------------------------------------------------------
// File-wide facts: `axios.defaults.timeout = n`, interceptors that set a timeout or headers

interface FileFacts {
  /** Bindings whose defaults or interceptors set a timeout or signal. */
  bounded: Set<string>;
  /** Bindings whose defaults or interceptors are touched at all (headers may come from there). */
  configured: Set<string>;
}

const factsCache = new WeakMap<object, FileFacts>();

function variableKey(identifier: TSESTree.Identifier, scope: Scope): string {
  const variable = findVariable(scope, identifier);
  const def = variable?.defs[0];
  return def ? `${def.name.range[0]}` : identifier.name;
}

function fileFacts(context: AnyRuleContext): FileFacts {
  const cached = factsCache.get(context.sourceCode.ast);
  if (cached) return cached;
  const facts: FileFacts = { bounded: new Set(), configured: new Set() };
  forEachNode(context.sourceCode.ast, context, (node) => {
    if (node.type === AST_NODE_TYPES.MemberExpression) noteConfiguration(node, context, facts);
  });
  factsCache.set(context.sourceCode.ast, facts);
  return facts;
}

/** Notes `x.defaults.<...> = v` and `x.interceptors.request.use(fn)` on a binding `x`. */
function noteConfiguration(member: TSESTree.MemberExpression, context: AnyRuleContext, facts: FileFacts): void {
  const object = unwrap(member.object);
  if (object.type !== AST_NODE_TYPES.Identifier) return;
  const name = memberName(member);
  if (name !== 'defaults' && name !== 'interceptors') return;
  const scope = context.sourceCode.getScope(member);
  const key = variableKey(object, scope);
  if (name === 'defaults') {
    // Walk up to the assignment: x.defaults.timeout = n, x.defaults.headers.common[k] = v.
    let top: TSESTree.Node = member;
    const path: string[] = [];
    while (top.parent.type === AST_NODE_TYPES.MemberExpression && top.parent.object === top) {
      path.push(memberName(top.parent, scope) ?? '');
      top = top.parent;
    }
    if (top.parent.type !== AST_NODE_TYPES.AssignmentExpression || top.parent.left !== top) return;
    facts.configured.add(key);
    if (path[0] === 'timeout' || path[0] === 'signal') {
      const value = staticValue(top.parent.right, scope);
      if (!value || (value.value !== 0 && value.value !== Infinity && value.value !== false)) facts.bounded.add(key);
    }
    return;
  }
  // x.interceptors.request.use(fn)
  const request = member.parent;
  if (request.type !== AST_NODE_TYPES.MemberExpression || memberName(request) !== 'request') return;
  facts.configured.add(key);
  const use = request.parent;
  const call = use.parent;
  if (use.type !== AST_NODE_TYPES.MemberExpression || memberName(use) !== 'use' || call?.type !== AST_NODE_TYPES.CallExpression) return;
  const handler = call.arguments[0];
  if (handler && walk(handler, context, setsTimeout)) facts.bounded.add(key);
}

/** `config.timeout = n`, `config.signal = s`, or `{ timeout: n }` / `{ signal }` written in an interceptor. */
function setsTimeout(node: TSESTree.Node): boolean {
  const isTimeoutName = (name: string | undefined): boolean => name === 'timeout' || name === 'signal';
  if (node.type === AST_NODE_TYPES.AssignmentExpression && node.left.type === AST_NODE_TYPES.MemberExpression) {
    return isTimeoutName(memberName(node.left));
  }
  return node.type === AST_NODE_TYPES.Property && node.parent.type === AST_NODE_TYPES.ObjectExpression && isTimeoutName(propertyKeyName(node));
}

/** Visits every node under `root` until `visit` returns true; returns whether it did. */
function walk(root: TSESTree.Node, context: AnyRuleContext, visit: (node: TSESTree.Node) => boolean): boolean {
  const keys = context.sourceCode.visitorKeys;
  const stack: TSESTree.Node[] = [root];
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (visit(node)) return true;
    stack.push(...childNodes(node, keys));
  }
  return false;
}

// ---------------------------------------------------------------------------
// Headers held on an instance and shared by all of its requests

export interface HeldHeadersRead {
  /** The `headers: this.<name>` property of the read request's options. */
  node: TSESTree.Property;
  method: string;
}

/**
 * The read requests (options literals with a static GET/HEAD/OPTIONS `method`) in the same
 * class that send the headers object held at `holder` (`this.headers`). A header written
 * into that object stays for every later request of the instance. Empty when the class
 * deletes `name` from the holder again (the write is scoped to one request).
 */
export function readsSendingHeldHeaders(holder: TSESTree.Node, name: string, context: AnyRuleContext): HeldHeadersRead[] {
  const field = thisField(holder);
  if (field === undefined) return [];
  let classBody: TSESTree.Node | undefined = holder.parent;
  while (classBody && classBody.type !== AST_NODE_TYPES.ClassBody) classBody = classBody.parent;
  if (!classBody) return [];

  const reads: HeldHeadersRead[] = [];
  const state = { removed: false };
  walk(classBody, context, (node) => {
    if (
      node.type === AST_NODE_TYPES.CallExpression &&
      node.callee.type === AST_NODE_TYPES.MemberExpression &&
      memberName(node.callee) === 'delete' &&
      thisField(node.callee.object) === field &&
      node.arguments[0] !== undefined &&
      staticString(node.arguments[0], context.sourceCode.getScope(node))?.toLowerCase() === name.toLowerCase()
    ) {
      state.removed = true;
    }
    if (node.type !== AST_NODE_TYPES.ObjectExpression) return false;
    const scope = context.sourceCode.getScope(node);
    // Written properties count even beside a spread: the spread passes per-call extras.
    const headers = writtenProperty(node, 'headers');
    const method = writtenProperty(node, 'method');
    const value = method && staticString(method.value, scope)?.toUpperCase();
    if (headers && thisField(headers.value) !== field) return false;
    if (headers && isReadMethod(value)) reads.push({ node: headers, method: value ?? 'GET' });
    return false;
  });
  return state.removed ? [] : reads;
}

/** The last property written with this name (spreads ignored). */
function writtenProperty(object: TSESTree.ObjectExpression, name: string): TSESTree.Property | undefined {
  let found: TSESTree.Property | undefined;
  for (const property of object.properties) {
    if (property.type === AST_NODE_TYPES.Property && propertyKeyName(property) === name) found = property;
  }
  return found;
}

/** `x` for `this.x`, else undefined. */
function thisField(node: TSESTree.Node): string | undefined {
  const target = unwrap(node);
  if (target.type !== AST_NODE_TYPES.MemberExpression || unwrap(target.object).type !== AST_NODE_TYPES.ThisExpression) return undefined;
  return memberName(target);
}

// ---------------------------------------------------------------------------
// Browser-only requests

/**
 * True for a `fetch` that can only run in a browser: a relative URL (`'/api/x'`,
 * `` `/api/${id}` ``, `'./x'`), which Node's fetch rejects, or `window.fetch`. No queue
 * worker makes these, and their timeout is the user's patience.
 */
export function isBrowserOnly(request: OutgoingRequest): boolean {
  if (request.client !== 'fetch') return false;
  const callee = unwrap(request.call.callee);
  if (callee.type === AST_NODE_TYPES.MemberExpression && unwrap(callee.object).type === AST_NODE_TYPES.Identifier) {
    const object = unwrap(callee.object) as TSESTree.Identifier;
    if (object.name === 'window') return true;
  }
  const url = request.call.arguments[0];
  if (!url) return false;
  let head: string | undefined;
  if (url.type === AST_NODE_TYPES.Literal && typeof url.value === 'string') head = url.value;
  else if (url.type === AST_NODE_TYPES.TemplateLiteral) head = url.quasis[0]?.value.cooked ?? undefined;
  if (head === undefined) return false;
  return (head.startsWith('/') && !head.startsWith('//')) || head.startsWith('./') || head.startsWith('../');
}
