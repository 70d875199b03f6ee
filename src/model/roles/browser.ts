import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { importsAny, type RoleSource } from './source.js';

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
  const ui = importsAny(file.text, (module) => UI_MODULES.has(module));
  if (/\.(?:vue|svelte)$/.test(base)) return true;
  if (COMPONENT_FILE.test(base) && (ui || rendersJsx(file))) return true;
  // Plain `.js` components: JSX and a UI framework together (server rendering has no JSX of its own).
  if (/\.[cm]?js$/.test(base) && ui && rendersJsx(file)) return true;
  if (exportsHook(file.text)) return true;
  if (/\b(?:chrome|browser)\.(?:runtime|tabs|storage)\./.test(file.text)) return true;
  if (/\bself\.addEventListener\s*\(\s*['"](?:fetch|install|activate|push)['"]/.test(file.text)) return true;
  return usesDomGlobals(file);
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
  if (/\btypeof\s+(?:window|document|navigator|localStorage)\b/.test(file.text)) return false;
  const through = file.scopeManager?.globalScope?.through;
  if (!through) return /(?<![\w$.])(?:window|document|localStorage|sessionStorage)\s*\./.test(file.text);
  return through.some(
    (reference) =>
      DOM_GLOBALS.has(reference.identifier.name) &&
      reference.identifier.parent.type === AST_NODE_TYPES.MemberExpression &&
      reference.identifier.parent.object === reference.identifier &&
      // `navigator.` alone is shared by Node 21+ (`navigator.hardwareConcurrency`).
      (reference.identifier.name !== 'navigator' || isBrowserNavigator(reference.identifier.parent)) &&
      !insideEvaluate(reference.identifier),
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
