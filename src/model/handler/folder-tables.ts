import { dirname, join, relative, resolve } from 'node:path';
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext, type Scope } from '../ast/context.js';
import { isFunction } from '../ast/function.js';
import { calleeName, memberName } from '../ast/names.js';
import { ownChildNodes, unwrap } from '../ast/nodes.js';
import { findVariable, resolveValue } from '../ast/values.js';
import { importSource } from '../modules.js';

/**
 * Folder tables: a module that lists a folder and loads each module in it (`for (const file of
 * await fs.readdir(path.join(__dirname, 'jobs'))) { const job = await import(path.join(__dirname,
 * 'jobs', file)) … }`, `fs.readdirSync(__dirname).forEach((file) => handlers.push(require('./' +
 * file)))`) makes a table of modules no import names: a folder of jobs or webhook handlers read at
 * startup. A handler that picks an element of such a table by what was delivered
 * (`jobs[job.name].handle(job.data)`, `const { handle } = handlers.find((h) =>
 * h.eventTypes.includes(event.type))`) runs that function of each module in the folder.
 */

/** `readdir`, `readdirSync`, `promises.readdir`, `fsp.readdir`: the calls that list a folder. */
const LIST_CALLS = new Set(['readdir', 'readdirSync']);

/**
 * The folders this module lists and loads each module of, relative to its own folder (`jobs`,
 * `.`): a listing of a folder the
 * module's own path names (`__dirname`, `path.join(__dirname, 'jobs')`, `new URL('./jobs/',
 * import.meta.url)`), in a function (or the module's body) that also loads a module by a computed
 * path (`import(…)`, `require(…)`).
 */
export function loadedFolders(program: TSESTree.Program, context: AnyRuleContext): string[] {
  const text = context.sourceCode.text;
  if (!/\breaddir(?:Sync)?\b/.test(text) || !/\b(?:import|require)\s*\(/.test(text)) return [];
  const here = dirname(context.filename);
  const folders = new Set<string>();
  const visit = (node: TSESTree.Node, owner: TSESTree.Node): void => {
    const inner = isFunction(node) ? node : owner;
    if (node.type === AST_NODE_TYPES.CallExpression && isListCall(node) && node.arguments[0]) {
      const folder = pathOf(node.arguments[0], context.sourceCode.getScope(node), here, 0);
      if (folder !== undefined && loadsComputed(outermostLoader(inner, program)))
        folders.add(relative(here, resolve(here, folder)) || '.');
    }
    for (const child of ownChildNodes(node)) visit(child, inner);
  };
  visit(program, program);
  return [...folders];
}

/** A pick of an element of another module's table by what was delivered, and the element's function it calls. */
export interface FolderPick {
  /** The module and name the table comes from (`getJobs` of `@/queue/get-jobs`, `default` of `./webhooks/index`). */
  specifier: string;
  imported: string;
  /** The element's member the handler calls (`handle`), or undefined when it calls the element. */
  member?: string;
}

/**
 * The elements of imported tables `fn` picks and calls: `table[key].member(…)`, `table[key](…)`,
 * `table.find(predicate).member(…)` or a member destructured from such a pick, where the table is
 * an import, a `require(…)`, or what an imported function returns (`await getJobs()`), followed
 * through the bindings made once that hold each.
 */
export function folderPicks(fn: TSESTree.FunctionLike, context: AnyRuleContext): FolderPick[] {
  const found: FolderPick[] = [];
  const visit = (node: TSESTree.Node): void => {
    if (node !== fn && isFunction(node)) return;
    if (node.type === AST_NODE_TYPES.CallExpression) {
      const pick = pickedCall(node, context.sourceCode.getScope(node));
      if (pick && !found.some((other) => other.specifier === pick.specifier && other.member === pick.member))
        found.push(pick);
    }
    for (const child of ownChildNodes(node)) visit(child);
  };
  if (fn.body) visit(fn.body);
  return found;
}

function pickedCall(call: TSESTree.CallExpression, scope: Scope): FolderPick | undefined {
  const callee = unwrap(call.callee);
  let element: TSESTree.Node | undefined;
  let member: string | undefined;
  if (callee.type === AST_NODE_TYPES.MemberExpression && !callee.computed) {
    element = callee.object;
    member = memberName(callee);
  } else if (callee.type === AST_NODE_TYPES.Identifier) {
    // `const { handle } = handlers.find(…); handle(event)`
    const def = findVariable(scope, callee)?.defs[0];
    const declarator = def?.node.type === AST_NODE_TYPES.VariableDeclarator ? def.node : undefined;
    if (declarator?.id.type === AST_NODE_TYPES.ObjectPattern && declarator.init) {
      const property = declarator.id.properties.find(
        (entry) =>
          entry.type === AST_NODE_TYPES.Property &&
          unwrap(entry.value).type === AST_NODE_TYPES.Identifier &&
          (unwrap(entry.value) as TSESTree.Identifier).name === callee.name,
      );
      if (
        property?.type === AST_NODE_TYPES.Property &&
        !property.computed &&
        property.key.type === AST_NODE_TYPES.Identifier
      ) {
        element = declarator.init;
        member = property.key.name;
      }
    } else element = callee;
  }
  if (!element) return undefined;
  const picked = unwrapAwait(resolveValue(element, scope));
  const container = pickedFrom(picked);
  if (!container) return undefined;
  const source = tableSource(container, scope);
  return source && { ...source, ...(member === undefined ? {} : { member }) };
}

/** The table a pick takes its element from: `table[key]` (not a literal key) or `table.find(…)`. */
function pickedFrom(node: TSESTree.Node): TSESTree.Node | undefined {
  if (node.type === AST_NODE_TYPES.MemberExpression && node.computed && node.property.type !== AST_NODE_TYPES.Literal)
    return node.object;
  if (
    node.type === AST_NODE_TYPES.CallExpression &&
    node.callee.type === AST_NODE_TYPES.MemberExpression &&
    memberName(node.callee) === 'find'
  )
    return node.callee.object;
  return undefined;
}

/** Where a table comes from: an import binding, a `require('…')`, or a call of an imported function. */
function tableSource(container: TSESTree.Node, scope: Scope): { specifier: string; imported: string } | undefined {
  const identifier = unwrap(container);
  if (identifier.type === AST_NODE_TYPES.Identifier) {
    const imported = importSource(identifier, scope);
    if (imported) return { specifier: imported.module, imported: imported.imported };
  }
  const value = unwrapAwait(resolveValue(container, scope));
  if (value.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const callee = unwrap(value.callee);
  if (callee.type !== AST_NODE_TYPES.Identifier) return undefined;
  if (callee.name === 'require') {
    const first = value.arguments[0];
    return first?.type === AST_NODE_TYPES.Literal && typeof first.value === 'string'
      ? { specifier: first.value, imported: 'default' }
      : undefined;
  }
  const imported = importSource(callee, scope);
  return imported ? { specifier: imported.module, imported: imported.imported } : undefined;
}

function unwrapAwait(node: TSESTree.Node): TSESTree.Node {
  const value = unwrap(node);
  return value.type === AST_NODE_TYPES.AwaitExpression ? unwrap(value.argument) : value;
}

function isListCall(call: TSESTree.CallExpression): boolean {
  const name = calleeName(call);
  return name !== undefined && LIST_CALLS.has(name);
}

/**
 * The folder a path expression names, relative to the module's own folder: `__dirname`,
 * `import.meta.dirname`, `path.join(…)`/`path.resolve(…)` of those and string literals, a template
 * literal over them, `new URL('./jobs/', import.meta.url)` (and `fileURLToPath` of one), through
 * constants.
 */
function pathOf(node: TSESTree.Node, scope: Scope, here: string, depth: number): string | undefined {
  if (depth > 6) return undefined;
  const value = unwrap(node);
  if (value.type === AST_NODE_TYPES.Literal) return typeof value.value === 'string' ? value.value : undefined;
  if (value.type === AST_NODE_TYPES.Identifier) {
    if (value.name === '__dirname') return here;
    const resolved = resolveValue(value, scope);
    return resolved === value ? undefined : pathOf(resolved, scope, here, depth + 1);
  }
  if (
    value.type === AST_NODE_TYPES.MemberExpression &&
    value.object.type === AST_NODE_TYPES.MetaProperty &&
    memberName(value) === 'dirname'
  )
    return here;
  if (value.type === AST_NODE_TYPES.TemplateLiteral) {
    let joined = '';
    for (const [index, quasi] of value.quasis.entries()) {
      joined += quasi.value.cooked ?? quasi.value.raw;
      const expression = value.expressions[index];
      if (!expression) continue;
      const part = pathOf(expression, scope, here, depth + 1);
      if (part === undefined) return undefined;
      joined += part;
    }
    return joined;
  }
  if (value.type === AST_NODE_TYPES.NewExpression || value.type === AST_NODE_TYPES.CallExpression) {
    const name = calleeName(value);
    if (name === 'URL' && value.arguments[1] && isImportMetaUrl(value.arguments[1])) {
      const relativePath = value.arguments[0] && pathOf(value.arguments[0], scope, here, depth + 1);
      return relativePath === undefined ? undefined : join(here, relativePath);
    }
    if (name === 'fileURLToPath' && value.arguments[0]) return pathOf(value.arguments[0], scope, here, depth + 1);
    if (name === 'join' || name === 'resolve') {
      const parts = value.arguments.map((argument) => pathOf(argument, scope, here, depth + 1));
      if (parts.length === 0 || parts.some((part) => part === undefined)) return undefined;
      const [first, ...rest] = parts as string[];
      // A relative first part is relative to the working directory, which the code does not say.
      if (first === undefined || !first.startsWith('/')) return undefined;
      return join(first, ...rest);
    }
  }
  return undefined;
}

function isImportMetaUrl(node: TSESTree.Node): boolean {
  const value = unwrap(node);
  return (
    value.type === AST_NODE_TYPES.MemberExpression &&
    value.object.type === AST_NODE_TYPES.MetaProperty &&
    memberName(value) === 'url'
  );
}

/**
 * The function whose body the listing runs in, taken outward past the callbacks it is handed to
 * (`readdirSync(dir).forEach((file) => …)`): the module itself for a listing in its body.
 */
function outermostLoader(fn: TSESTree.Node, program: TSESTree.Program): TSESTree.Node {
  let current = fn;
  while (current !== program && isFunction(current) && current.parent.type === AST_NODE_TYPES.CallExpression) {
    let outer: TSESTree.Node = current.parent;
    while (outer.type !== AST_NODE_TYPES.Program && !isFunction(outer)) outer = outer.parent;
    current = outer;
  }
  return current;
}

/** Whether the code loads a module by a computed path: `import(x)` or `require(x)` of no literal. */
function loadsComputed(root: TSESTree.Node): boolean {
  let found = false;
  const visit = (node: TSESTree.Node): void => {
    if (found) return;
    if (node.type === AST_NODE_TYPES.ImportExpression && node.source.type !== AST_NODE_TYPES.Literal) found = true;
    if (
      node.type === AST_NODE_TYPES.CallExpression &&
      node.callee.type === AST_NODE_TYPES.Identifier &&
      node.callee.name === 'require' &&
      node.arguments[0] &&
      node.arguments[0].type !== AST_NODE_TYPES.Literal
    )
      found = true;
    for (const child of ownChildNodes(node)) visit(child);
  };
  visit(root);
  return found;
}
