import { directives, folders, type RoleSource } from './source.js';

/**
 * Files a full-stack framework runs on the server even beside components: Next.js route
 * handlers, API routes and middleware, Remix and SvelteKit `.server` modules and `+server`
 * endpoints, server actions, and pages that fetch on the server (`getServerSideProps`, Remix
 * `loader` / `action`).
 */
export function isServerFrameworkFile(where: string, base: string, file: RoleSource): boolean {
  const inApp = folders(where).includes('app');
  if (/^route\.[cm]?[jt]sx?$/.test(base) && inApp) return true;
  // Next.js image, sitemap and metadata routes render on the server, JSX and all.
  if (/^(?:opengraph-image|twitter-image|icon|apple-icon|sitemap|robots|manifest)\.[cm]?[jt]sx?$/.test(base) && inApp)
    return !directives(file).includes('use client');
  if (/\/pages\/api\//.test(where)) return true;
  if (/\.server\.[cm]?[jt]sx?$|^\+server\.[cm]?[jt]s$|^middleware\.[cm]?[jt]s$/.test(base)) return true;
  if (directives(file).includes('use server')) return true;
  return /\bexport\s+(?:async\s+)?(?:function\s*\*?\s*|(?:const|let|var)\s+)(?:getServerSideProps|loader|action)\b/.test(
    file.text,
  );
}
