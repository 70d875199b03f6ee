import Module, { createRequire } from 'node:module';

/**
 * `typescript` is an optional peer: a project that lints without type information may not have
 * it (pnpm, `--legacy-peer-deps`, `--omit=peer`). Both the analysis and typescript-eslint's parser
 * `require('typescript')`, so when no copy resolves, that request is answered with the complete
 * TypeScript that ts-morph (a dependency) bundles, and both modes run. A project's own copy always
 * wins: the fallback is only consulted when Node's resolution fails.
 */

type Resolve = (request: string, parent: unknown, ...rest: unknown[]) => string;
const loader = Module as unknown as { _resolveFilename: Resolve };

/** Installs the fallback once, before anything loads TypeScript; returns the bundled path it would use. */
export function resolveTypeScriptFromTsMorph(): string {
  // Resolved from ts-morph's own folder: @ts-morph/common is its dependency, not ours, and a strict
  // layout (pnpm) only lets ts-morph see it.
  const fromTsMorph = createRequire(createRequire(import.meta.url).resolve('ts-morph'));
  const bundled = fromTsMorph.resolve('@ts-morph/common/dist/typescript.js');
  const original = loader._resolveFilename;
  loader._resolveFilename = function resolveFilename(this: unknown, request, parent, ...rest) {
    try {
      return original.call(this, request, parent, ...rest);
    } catch (error) {
      if (request === 'typescript' && (error as { code?: unknown }).code === 'MODULE_NOT_FOUND') return bundled;
      throw error;
    }
  };
  return bundled;
}
