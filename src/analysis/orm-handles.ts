import type { ImportedName, KeyParameter, TransactionWrapper } from '../model/settings.js';
import type { ExportFact } from './facts.js';

type Imports = readonly { specifier: string; imported: string }[];
type ExportOf = (file: string, name: string) => ExportFact | undefined;
type ExportsOf = (file: string) => ReadonlyMap<string, ExportFact> | undefined;
type MethodsOf = (file: string, name: string) => readonly [string, ExportFact][];

/**
 * The imported names whose export fact `holds`: each named import, each export of a namespace
 * import under its own name (`Repo.insertTaxonomy(...)` is matched so), and with `methodsOf` each
 * method of an imported class as `Class.method`.
 */
function importsWhere(
  imports: Imports,
  resolve: (specifier: string) => string | undefined,
  exportOf: ExportOf,
  exportsOf: ExportsOf,
  holds: (fact: ExportFact) => boolean,
  methodsOf?: MethodsOf,
): { entry: ImportedName; fact: ExportFact }[] {
  const found: { entry: ImportedName; fact: ExportFact }[] = [];
  for (const binding of imports) {
    const target = resolve(binding.specifier);
    if (target === undefined) continue;
    if (binding.imported === '*') {
      for (const [name, fact] of exportsOf(target) ?? [])
        if (holds(fact)) found.push({ entry: { from: binding.specifier, name }, fact });
      continue;
    }
    const fact = exportOf(target, binding.imported);
    if (fact !== undefined && holds(fact))
      found.push({ entry: { from: binding.specifier, name: binding.imported }, fact });
    for (const [method, methodFact] of methodsOf?.(target, binding.imported) ?? [])
      if (holds(methodFact))
        found.push({ entry: { from: binding.specifier, name: `${binding.imported}.${method}` }, fact: methodFact });
  }
  return found;
}

/**
 * Cross-file ORM facts: which imported functions take the database handle to query with and
 * fall back to the pool without one (`export const insertTaxonomy = (surveyId, taxonomy,
 * client = db) => …`, the fact `handle` of its export). A file that calls one inside a
 * transaction without the transaction's handle queries outside it; the rules read the list as
 * `settings.idempotency.defaultHandleFunctions`.
 */
export function defaultHandleImports(
  imports: Imports,
  resolve: (specifier: string) => string | undefined,
  exportOf: ExportOf,
  exportsOf: ExportsOf,
): ImportedName[] {
  return importsWhere(imports, resolve, exportOf, exportsOf, (fact) => fact.handle !== undefined).map(
    ({ entry }) => entry,
  );
}

/**
 * Cross-file ORM facts held by functions and by methods of imported (injected) classes (listed as
 * `Class.method`): `sessionless`, it opens a Mongoose session transaction around a callback it
 * calls without the session (orm/sessionless-wrapper.ts; a write inside that callback writes
 * outside the transaction; `settings.idempotency.sessionlessTransactions`); `ownHandle`, it
 * writes through a fork of the MikroORM entity manager it makes itself (orm/own-handle.ts; called
 * inside a transaction it writes outside it; `settings.idempotency.ownHandleFunctions`).
 */
export function importsWithFact(
  key: 'sessionless' | 'ownHandle',
  imports: Imports,
  resolve: (specifier: string) => string | undefined,
  exportOf: ExportOf,
  exportsOf: ExportsOf,
  methodsOf: MethodsOf,
): ImportedName[] {
  return importsWhere(imports, resolve, exportOf, exportsOf, (fact) => fact[key] !== undefined, methodsOf).map(
    ({ entry }) => entry,
  );
}

/**
 * Cross-file ORM facts: which imported functions, or methods of imported classes (by
 * `Class.method`), run a callback inside an ORM transaction and hand it the transaction's handle
 * (the fact `transactionWrapper`, orm/transaction-wrapper.ts). A file that passes one a callback
 * has opened that transaction, though it may import no ORM; the rules read the list as
 * `settings.idempotency.transactionWrappers`.
 */
export function transactionWrapperImports(
  imports: Imports,
  resolve: (specifier: string) => string | undefined,
  exportOf: ExportOf,
  exportsOf: ExportsOf,
  methodsOf: MethodsOf,
): TransactionWrapper[] {
  return importsWhere(
    imports,
    resolve,
    exportOf,
    exportsOf,
    (fact) => fact.transactionWrapper !== undefined,
    methodsOf,
  ).flatMap(({ entry, fact }) => (fact.transactionWrapper ? [{ ...entry, ...fact.transactionWrapper }] : []));
}

/**
 * Cross-file ORM facts: which imported functions, or methods of imported classes, forward a
 * parameter as the options of a Sequelize write (the fact `forwardsOptions`,
 * orm/sequelize-options.ts), with its position. A call inside a transaction that leaves it
 * out writes outside the transaction; the rules read the list as
 * `settings.idempotency.optionForwardingFunctions`.
 */
export function optionForwardingImports(
  imports: Imports,
  resolve: (specifier: string) => string | undefined,
  exportOf: ExportOf,
  exportsOf: ExportsOf,
  methodsOf: MethodsOf,
): KeyParameter[] {
  const found: KeyParameter[] = [];
  for (const binding of imports) {
    const target = resolve(binding.specifier);
    if (target === undefined) continue;
    const candidates: (readonly [string, ExportFact | undefined])[] =
      binding.imported === '*'
        ? [...(exportsOf(target) ?? [])]
        : [
            [binding.imported, exportOf(target, binding.imported)],
            ...methodsOf(target, binding.imported).map(
              ([method, fact]) => [`${binding.imported}.${method}`, fact] as const,
            ),
          ];
    for (const [name, fact] of candidates)
      if (fact?.forwardsOptions !== undefined)
        found.push({ from: binding.specifier, name, index: fact.forwardsOptions, parameter: 'options' });
  }
  return found;
}
