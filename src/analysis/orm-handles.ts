import type { ImportedName } from '../model/settings.js';
import type { ExportFact } from './facts.js';

/**
 * Cross-file ORM facts: which imported functions take the database handle to query with and
 * fall back to the pool without one (`export const insertTaxonomy = (surveyId, taxonomy,
 * client = db) => …`, the fact `handle` of its export). A file that calls one inside a
 * transaction without the transaction's handle queries outside it; the rules read the list as
 * `settings.idempotency.defaultHandleFunctions`. A namespace import (`import * as Repo from
 * './repo'`) lists each such export of the module under its own name, which is how
 * `Repo.insertTaxonomy(...)` is matched.
 */
export function defaultHandleImports(
  imports: readonly { specifier: string; imported: string }[],
  resolve: (specifier: string) => string | undefined,
  exportOf: (file: string, name: string) => ExportFact | undefined,
  exportsOf: (file: string) => ReadonlyMap<string, ExportFact> | undefined,
): ImportedName[] {
  const found: ImportedName[] = [];
  for (const binding of imports) {
    const target = resolve(binding.specifier);
    if (target === undefined) continue;
    if (binding.imported === '*') {
      for (const [name, fact] of exportsOf(target) ?? [])
        if (fact.handle !== undefined) found.push({ from: binding.specifier, name });
      continue;
    }
    if (exportOf(target, binding.imported)?.handle !== undefined)
      found.push({ from: binding.specifier, name: binding.imported });
  }
  return found;
}

/**
 * Cross-file ORM facts: which imported functions, or methods of imported classes (by
 * `Class.method`), open a Mongoose session transaction around a callback they call without the
 * session (the fact `sessionless`, orm/sessionless-wrapper.ts). A file that writes inside such a
 * callback writes outside the transaction; the rules read the list as
 * `settings.idempotency.sessionlessTransactions`.
 */
export function sessionlessImports(
  imports: readonly { specifier: string; imported: string }[],
  resolve: (specifier: string) => string | undefined,
  exportOf: (file: string, name: string) => ExportFact | undefined,
  exportsOf: (file: string) => ReadonlyMap<string, ExportFact> | undefined,
  methodsOf: (file: string, name: string) => readonly [string, ExportFact][],
): ImportedName[] {
  const found: ImportedName[] = [];
  for (const binding of imports) {
    const target = resolve(binding.specifier);
    if (target === undefined) continue;
    if (binding.imported === '*') {
      for (const [name, fact] of exportsOf(target) ?? [])
        if (fact.sessionless !== undefined) found.push({ from: binding.specifier, name });
      continue;
    }
    if (exportOf(target, binding.imported)?.sessionless !== undefined)
      found.push({ from: binding.specifier, name: binding.imported });
    for (const [method, fact] of methodsOf(target, binding.imported))
      if (fact.sessionless !== undefined)
        found.push({ from: binding.specifier, name: `${binding.imported}.${method}` });
  }
  return found;
}
