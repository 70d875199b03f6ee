import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { DELIVERY_LIBRARIES } from '../libraries/index.js';
import { isOrmModule } from '../orm/libraries.js';
import { type PackageManifest } from './package.js';
import { folders, importsAny, type RoleSource } from './source.js';

/**
 * A module marked as client-only: it imports the `client-only` package (which throws when a
 * server bundle imports it), or it lives in a `client-only/` folder, the convention's name.
 */
export function isClientOnlyModule(where: string, file: RoleSource): boolean {
  return (
    folders(where).some((folder) => folder.toLowerCase() === 'client-only') ||
    importsAny(file.text, (module) => module === 'client-only')
  );
}

/** UI frameworks whose components run in the browser. */
const UI_MODULES = new Set([
  'react',
  'react-dom',
  'react-dom/client',
  'vue',
  'svelte',
  'solid-js',
  'solid-js/web',
  'preact',
  'preact/hooks',
]);

/** `solid-js/store`, `svelte/store`, `preact/compat`: a UI framework's own subpaths. */
function isUiModule(module: string): boolean {
  if (UI_MODULES.has(module)) return true;
  const slash = module.indexOf('/');
  return slash !== -1 && UI_MODULES.has(module.slice(0, slash));
}

/** `@react-email/render`, `@react-email/components`, `react-email`, `jsx-email`, `mjml-react`. */
function isEmailRenderer(module: string): boolean {
  return module.startsWith('@react-email/') || ['react-email', 'jsx-email', 'mjml-react'].includes(module);
}

const COMPONENT_FILE = /\.(?:[cm]?[jt]sx|vue|svelte)$/;

/** Globals only a browser (or a worker in one) has. */
const DOM_GLOBALS = new Set(['window', 'document', 'localStorage', 'sessionStorage', 'navigator']);

/**
 * Client code: components (`.tsx`/`.jsx`/`.vue`/`.svelte` files that render or import a UI
 * framework), hook modules (an exported `useX` that calls a hook), code that reaches for DOM
 * globals, browser-extension code and service workers. A module that checks `typeof window`
 * runs on both sides and stays a server file.
 */
export function isBrowserFile(base: string, file: RoleSource): boolean {
  // React Email and its kin render JSX to an email's HTML on the server that sends it.
  if (importsAny(file.text, isEmailRenderer)) return false;
  const ui = importsAny(file.text, isUiModule);
  if (/\.(?:vue|svelte)$/.test(base)) return true;
  if (COMPONENT_FILE.test(base) && (ui || rendersJsx(file))) return true;
  // Plain `.js` components: JSX and a UI framework together (server rendering has no JSX of its own).
  if (/\.[cm]?js$/.test(base) && ui && rendersJsx(file)) return true;
  if (exportsHook(file.text)) return true;
  // Capacitor's runtime and plugins run inside the app's web view (capacitorjs.com/docs/basics/workflow).
  if (importsAny(file.text, (module) => module === '@capacitor/core')) return true;
  if (/\b(?:chrome|browser)\.(?:runtime|tabs|storage)\./.test(file.text)) return true;
  if (/\bself\.addEventListener\s*\(\s*['"](?:fetch|install|activate|push)['"]/.test(file.text)) return true;
  if (usesDomGlobals(file)) return true;
  // Meteor's own modules (`meteor/meteor`, `meteor/mongo`) exist only in a Meteor app, which runs a
  // server beside its client whatever UI its package depends on
  // (https://guide.meteor.com/structure.html#intro-to-import-export): such a file is judged by itself.
  if (importsAny(file.text, (module) => module.startsWith('meteor/'))) return false;
  return file.manifest !== undefined && isBrowserPackage(file.manifest);
}

/** Dependencies of a package that renders in the browser: a UI framework, or a browser bundler's dev server. */
const BROWSER_PACKAGES = new Set([
  'react-dom',
  'vue',
  'svelte',
  'solid-js',
  'preact',
  '@angular/core',
  'react-native',
  'expo',
]);

/**
 * Dependencies that put a package's code on a server besides the brokers and ORMs the model knows
 * ({@link isServerPackage}): full-stack frameworks (which render the UI there too), HTTP servers,
 * database clients, serverless runtimes and Electron's main process.
 */
const SERVER_PACKAGES = new Set([
  'next',
  'nuxt',
  '@sveltejs/kit',
  'astro',
  '@solidjs/start',
  'solid-start',
  '@tanstack/react-start',
  '@tanstack/start',
  'gatsby',
  'express',
  'fastify',
  'koa',
  'hono',
  'h3',
  'nitropack',
  'elysia',
  '@hapi/hapi',
  '@nestjs/core',
  'mysql2',
  'mongodb',
  'prisma',
  'electron',
  'wrangler',
  '@cloudflare/workers-types',
  '@types/aws-lambda',
  '@google-cloud/functions-framework',
  // A Meteor app: `meteor create` adds `meteor-node-stubs`, the Node core modules Meteor bundles
  // for the client side of an app that also runs a server (https://docs.meteor.com/packages/modules.html#node-core-modules,
  // https://guide.meteor.com/structure.html#special-directories: `server/` runs only there).
  'meteor-node-stubs',
]);

const SERVER_PREFIXES = ['@remix-run/', '@react-router/', '@aws-sdk/client-', '@nestjs/'];

/**
 * The brokers, job runners and webhook frameworks of `libraries/` and the ORMs of `orm/` run on a
 * server too: a package that depends on one beside a UI framework (a bridge with a settings
 * widget, an app with its worker) is no browser package.
 */
const LIBRARY_MODULES: ReadonlySet<string> = new Set(DELIVERY_LIBRARIES.flatMap((library) => library.modules));

function isServerPackage(name: string): boolean {
  return (
    SERVER_PACKAGES.has(name) ||
    SERVER_PREFIXES.some((prefix) => name.startsWith(prefix)) ||
    LIBRARY_MODULES.has(name) ||
    isOrmModule(name)
  );
}

/**
 * A package that only renders in the browser (a Vite or React Native app, a component library,
 * the front-end package of a monorepo): its nearest `package.json` depends on a UI framework and on
 * nothing that runs on a server, or its `browser` field is its only entry.
 */
function isBrowserPackage(manifest: PackageManifest): boolean {
  const names = [...manifest.dependencies];
  if (names.some(isServerPackage)) return false;
  return manifest.browserOnlyEntry || names.some((name) => BROWSER_PACKAGES.has(name));
}

function rendersJsx(file: RoleSource): boolean {
  if (!file.ast) return /<\/[A-Za-z][\w.]*>|\/>/.test(file.text);
  return (
    file.ast.tokens?.some((token) => (token.type as string) === 'JSXIdentifier') ?? /<\/[A-Za-z][\w.]*>/.test(file.text)
  );
}

/** `export function useCart() { ... useState(...) }`: a React (or Solid, Preact) hook module. */
const HOOK_EXPORT = /\bexport\s+(?:default\s+)?(?:async\s+)?(?:function\s+|(?:const|let)\s+)use[A-Z]\w*/g;

function exportsHook(text: string): boolean {
  if (!/\buse[A-Z]/.test(text)) return false;
  const rest = text.replace(HOOK_EXPORT, '');
  return rest.length < text.length && /(?<![\w$.])use[A-Z]\w*\s*(?:<[^>]*>)?\s*\(/.test(rest);
}

/** `window.location`, `document.cookie`, `localStorage.getItem(...)` on the globals themselves, not guarded by `typeof`. */
function usesDomGlobals(file: RoleSource): boolean {
  // `typeof window === 'undefined'` guards code that also runs without a DOM; `typeof
  // window.rrweb` is no guard: it reads `window` first, which throws where there is none.
  if (/\btypeof\s+(?:window|document|navigator|localStorage)\b(?!\s*(?:\?\.|\.|\[))/.test(file.text)) return false;
  const through = file.scopeManager?.globalScope?.through;
  if (!through) {
    const reads = file.readsGlobal;
    return reads
      ? ['window', 'document', 'localStorage', 'sessionStorage'].some(reads)
      : /(?<![\w$.])(?:window|document|localStorage|sessionStorage)\s*\./.test(file.text);
  }
  return through.some(
    (reference) =>
      DOM_GLOBALS.has(reference.identifier.name) &&
      readsDomGlobal(reference.identifier) &&
      !insideEvaluate(reference.identifier),
  );
}

/**
 * A use of a DOM global that needs a browser: a member of it (`document.title`; `navigator.`
 * only for what Node 21+ lacks, since it has `navigator.hardwareConcurrency`), or `window` or
 * `document` itself handed to a function or destructured (a tracker script's
 * `(window => { const { document } = window; … })(window)`): Node has neither, so such code
 * throws there.
 */
function readsDomGlobal(identifier: TSESTree.Identifier | TSESTree.JSXIdentifier): boolean {
  const parent = identifier.parent;
  if (parent.type === AST_NODE_TYPES.MemberExpression && parent.object === identifier)
    return identifier.name !== 'navigator' || isBrowserNavigator(parent);
  if (identifier.name !== 'window' && identifier.name !== 'document') return false;
  return (
    (parent.type === AST_NODE_TYPES.CallExpression && parent.arguments.some((argument) => argument === identifier)) ||
    (parent.type === AST_NODE_TYPES.VariableDeclarator &&
      parent.init === identifier &&
      parent.id.type === AST_NODE_TYPES.ObjectPattern)
  );
}

function isBrowserNavigator(member: TSESTree.MemberExpression): boolean {
  return (
    member.property.type === AST_NODE_TYPES.Identifier &&
    /^(?:clipboard|geolocation|serviceWorker|sendBeacon|share|mediaDevices|onLine|vibrate|permissions)$/.test(
      member.property.name,
    )
  );
}

/** Puppeteer and Playwright send `page.evaluate(() => document.title)` to the browser from Node. */
function insideEvaluate(node: TSESTree.Node): boolean {
  for (let current = node.parent; current; current = current.parent) {
    if (
      current.type === AST_NODE_TYPES.CallExpression &&
      current.callee.type === AST_NODE_TYPES.MemberExpression &&
      current.callee.property.type === AST_NODE_TYPES.Identifier &&
      /^(?:evaluate|evaluateHandle|\$eval|\$\$eval|addInitScript|waitForFunction)$/.test(current.callee.property.name)
    )
      return true;
  }
  return false;
}
