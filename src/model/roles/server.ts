import { directives, folders, type RoleSource } from './source.js';

/**
 * An export named for an HTTP method: what a Next.js route handler exports, and all it may export
 * besides its segment config (https://nextjs.org/docs/app/api-reference/file-conventions/route). A
 * `route.tsx` without one is a Remix or React Router route folder's module, whose component runs in
 * the browser (https://remix.run/docs/en/main/file-conventions/routes#folders-for-organization).
 */
const HTTP_METHOD_EXPORT =
  /\bexport\s+(?:async\s+)?(?:function\s*|(?:const|let|var)\s+)(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\b|\bexport\s*\{[^}]*\b(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\b[^}]*\}/;

/**
 * Files a full-stack framework runs on the server even beside components: Next.js route
 * handlers (not a Remix route folder's `route.tsx`, which holds a page), API routes and middleware, Remix and SvelteKit `.server` modules and `+server`
 * endpoints, server actions, and modules that fetch on the server without rendering
 * ({@link serverDataExports} without a component).
 */
export function isServerFrameworkFile(where: string, base: string, file: RoleSource): boolean {
  const inApp = folders(where).includes('app');
  if (/^route\.[cm]?[jt]sx?$/.test(base) && inApp && HTTP_METHOD_EXPORT.test(file.text)) return true;
  // Next.js image, sitemap and metadata routes render on the server, JSX and all.
  if (/^(?:opengraph-image|twitter-image|icon|apple-icon|sitemap|robots|manifest)\.[cm]?[jt]sx?$/.test(base) && inApp)
    return !directives(file).includes('use client');
  if (/\/pages\/api\//.test(where)) return true;
  if (/\.server\.[cm]?[jt]sx?$|^\+server\.[cm]?[jt]s$|^middleware\.[cm]?[jt]s$/.test(base)) return true;
  return directives(file).includes('use server');
}

/** The data functions of a page or route module, by the name its framework calls them. */
const SERVER_DATA_EXPORT =
  /\bexport\s+(?:async\s+)?(?:function\s*\*?\s*|(?:const|let|var)\s+)(getServerSideProps|loader|action)\b/g;

/**
 * The exports a full-stack framework calls on the server, per request, in a page or route module:
 * the Next.js Pages Router's `getServerSideProps` (removed from the client bundle,
 * https://nextjs.org/docs/pages/building-your-application/data-fetching/get-server-side-props)
 * and Remix's `loader` and `action` (https://remix.run/docs/en/main/route/loader). The module's
 * component runs in the browser: only these and what they call are server code.
 */
export function serverDataExports(file: RoleSource): string[] {
  return [...new Set([...file.text.matchAll(SERVER_DATA_EXPORT)].map((match) => match[1] ?? ''))];
}
