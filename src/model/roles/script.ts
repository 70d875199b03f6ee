import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { folders, importsAny, type RoleSource } from './source.js';

/**
 * Folders of code that runs by hand or once, not as the service: commands, migrations, seeds,
 * examples and samples for integrators, a `*-cli` tool, a `create-*` project generator, and the
 * tooling of operations and CI (`ops/`, `terraform/`, `.circleci/`, `.github/`).
 */
const SCRIPT_FOLDER =
  /^(?:bin|scripts?|migrations?|seeds?|seeders?|cli|examples?|samples?|[\w.-]+-cli|create-[\w.-]*app|ops|terraform|\.circleci|\.github)$/i;

/** True under a `cli/` folder: a command-line tool, even when it listens for an OAuth callback. */
export function isCliPath(where: string): boolean {
  return folders(where).some((folder) => folder.toLowerCase() === 'cli');
}

/**
 * Scripts by name, and the configs build tools load when they build or start (`next build` runs
 * `next.config.js`'s `redirects()` and writes their result to the routes manifest:
 * nextjs.org/docs/app/api-reference/config/next-config-js/redirects; Vite, webpack, Rollup, tsup
 * and the rest read theirs once per build): what they fetch, they fetch once, not per request.
 */
const SCRIPT_NAME =
  /\.script\.[cm]?[jt]sx?$|^(?:seeds?|seeders?|migrate)(?:[.-]\w+)*\.[cm]?[jt]sx?$|^(?:next|vite|nuxt|astro|svelte|remix|webpack|rollup|rolldown|tsup|esbuild|babel|postcss|tailwind|drizzle|gatsby|docusaurus|quasar|electron-builder)\.config(?:\.\w+)?\.[cm]?[jt]s$/i;

export function isScriptPath(where: string, base: string): boolean {
  return SCRIPT_NAME.test(base) || folders(where).some((folder) => SCRIPT_FOLDER.test(folder));
}

/**
 * `process.argv` read by the module itself as it loads, outside any function or in one it calls
 * at once as a statement of its body (`(function () { … })()`, `(async () => { … })()`): a
 * command line, not a server.
 */
export function readsArgvAtTopLevel(file: RoleSource): boolean {
  if (!file.text.includes('process.argv')) return false;
  if (!file.scopeManager) return /^(?:const|let|var|if|for)\b.*\bprocess\.argv\b/m.test(file.text);
  return (file.scopeManager.globalScope?.through ?? []).some(
    (reference) =>
      reference.identifier.name === 'process' &&
      runsOnLoad(reference.from.variableScope.block) &&
      reference.identifier.parent.type === AST_NODE_TYPES.MemberExpression &&
      reference.identifier.parent.property.type === AST_NODE_TYPES.Identifier &&
      reference.identifier.parent.property.name === 'argv',
  );
}

/** The module's body, or a function it calls at once as a statement of its body (an IIFE). */
function runsOnLoad(block: TSESTree.Node): boolean {
  if (block.type === AST_NODE_TYPES.Program) return true;
  if (block.type !== AST_NODE_TYPES.FunctionExpression && block.type !== AST_NODE_TYPES.ArrowFunctionExpression)
    return false;
  const call = block.parent;
  return (
    call.type === AST_NODE_TYPES.CallExpression &&
    call.callee === block &&
    call.parent.type === AST_NODE_TYPES.ExpressionStatement &&
    call.parent.parent.type === AST_NODE_TYPES.Program
  );
}

/**
 * Command-line argument parsers: a module that imports one parses its own command line
 * (`program.parse()` reads `process.argv` for it), a program someone runs, not a server.
 */
const CLI_PARSERS: ReadonlySet<string> = new Set([
  'commander',
  'yargs',
  'yargs/yargs',
  'meow',
  'cac',
  'sade',
  '@oclif/core',
  'minimist',
  'arg',
  'command-line-args',
  'clipanion',
  'citty',
]);

/** A module that imports a command-line argument parser and serves nothing. */
export function parsesCommandLine(file: RoleSource): boolean {
  return importsAny(file.text, (module) => CLI_PARSERS.has(module)) && !SERVES.test(file.text);
}

/** Words of code that serves or runs on a schedule. */
export const SERVES =
  /\.listen\s*\(|\bcreateServer\s*\(|\bNestFactory\b|\bnew\s+Worker\b|\bcron(?:Time|Expression|Schedule)?\b/i;

/** Words of a process that stays up: it serves, listens, consumes or repeats. */
const LONG_RUNNING =
  /\.listen\s*\(|\bcreateServer\s*\(|\bNestFactory\b|\bnew\s+Worker\b|\.(?:consume|subscribe|process|run|start)\s*\(|\bserve\s*\(|\bsetInterval\s*\(|\bcron\b|\bhandler\b/i;

/** What a program's entry function is called (`main`, `run`); `bootstrap` usually starts a server. */
const ENTRY_NAMES = /^(?:main|run|runScript|script|cli|execute)$/i;

/**
 * A run-to-completion program: a module that calls its own entry function as a statement of its
 * body (`main()`, `main().catch(...)`, `void run()`, `await main()`; importing it would run it
 * too) or only when it is the program (`require.main === module`), and holds nothing that stays
 * up (no server, listener, consumer or timer).
 */
export function isRunToCompletion(file: RoleSource): boolean {
  const body = file.ast?.body;
  if (!body || LONG_RUNNING.test(file.text)) return false;
  // `if (require.main === module)`: the module runs when it is the program, whatever it exports.
  if (/\brequire\.main\s*===?\s*module\b/.test(file.text)) return true;
  const declared = new Set<string>();
  for (const item of body) {
    const statement = item.type === AST_NODE_TYPES.ExportNamedDeclaration && item.declaration ? item.declaration : item;
    if (statement.type === AST_NODE_TYPES.FunctionDeclaration && statement.id) declared.add(statement.id.name);
    if (statement.type === AST_NODE_TYPES.VariableDeclaration)
      for (const declarator of statement.declarations)
        if (
          declarator.id.type === AST_NODE_TYPES.Identifier &&
          (declarator.init?.type === AST_NODE_TYPES.ArrowFunctionExpression ||
            declarator.init?.type === AST_NODE_TYPES.FunctionExpression)
        )
          declared.add(declarator.id.name);
  }
  return body.some((statement) => {
    if (statement.type !== AST_NODE_TYPES.ExpressionStatement) return false;
    let expression: TSESTree.Node = statement.expression;
    for (;;) {
      if (expression.type === AST_NODE_TYPES.AwaitExpression) expression = expression.argument;
      else if (expression.type === AST_NODE_TYPES.UnaryExpression && expression.operator === 'void')
        expression = expression.argument;
      else if (
        // `main().catch(...)`, `main().then(...).finally(...)`
        expression.type === AST_NODE_TYPES.CallExpression &&
        expression.callee.type === AST_NODE_TYPES.MemberExpression &&
        expression.callee.object.type === AST_NODE_TYPES.CallExpression
      )
        expression = expression.callee.object;
      else break;
    }
    return (
      expression.type === AST_NODE_TYPES.CallExpression &&
      expression.callee.type === AST_NODE_TYPES.Identifier &&
      ENTRY_NAMES.test(expression.callee.name) &&
      declared.has(expression.callee.name)
    );
  });
}
