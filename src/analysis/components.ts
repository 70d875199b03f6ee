import { readFileSync } from 'node:fs';

/**
 * Single-file components (`.vue`, `.svelte`) and the `index.html` pages of a bundler: the checker
 * does not analyse them, but what their `<script>` blocks import or load is loaded by a component
 * or a page, which run in the browser (vuejs.org/guide/scaling-up/sfc,
 * svelte.dev/docs/svelte/svelte-files, vite.dev/guide/#index-html-and-project-root). A module
 * only they load is browser code (reached-roles.ts), as one only `"use client"` components load.
 */

/** A component's `<script>` blocks (Vue's `<script setup>` among them), the markup left out. */
const SCRIPT_BLOCK = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;
/** A script element's `src`: the module a page loads (Vite's `<script type="module" src="/src/main.ts">`). */
const SCRIPT_SOURCE = /\bsrc\s*=\s*['"]([^'"]+)['"]/i;
/** `import … from 'x'`, `export … from 'x'`, `import 'x'` and `import('x')`. */
const SPECIFIER =
  /\b(?:import|export)\s+(?:type\s+)?[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]|\bimport\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The specifiers a component's scripts import, type-only imports left out; none when it cannot be read. */
export function componentImports(file: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const specifiers = new Set<string>();
  for (const [, attributes = '', script = ''] of text.matchAll(SCRIPT_BLOCK)) {
    // A page's `src="/src/main.ts"` is from the page's own folder, Vite's project root.
    const source = SCRIPT_SOURCE.exec(attributes)?.[1];
    if (source !== undefined && !/^[a-z]+:|^\/\//i.test(source))
      specifiers.add(source.startsWith('/') ? `.${source}` : source.startsWith('.') ? source : `./${source}`);
    for (const match of script.matchAll(SPECIFIER)) {
      if (/^\s*(?:import|export)\s+type\b/.test(match[0])) continue;
      const specifier = match[1] ?? match[2] ?? match[3];
      if (specifier !== undefined) specifiers.add(specifier);
    }
  }
  return [...specifiers];
}
