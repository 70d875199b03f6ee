import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext } from '../ast/context.js';
import { settingsOf } from '../settings.js';

/**
 * Functions of a module that nothing runs: `unreached` code, where no rule reports unless its
 * `roles` name it. Only `idempotency-check`, which sees every module, can tell (one file says
 * nothing of who imports it, and a snippet's function is what its test lints): it gives their
 * local names as `settings.idempotency.unreachedFunctions` (analysis/reached-roles.ts
 * `unreachedFunctions`).
 *
 * Returns the ranges of the top-level statements that declare them, or undefined when there are none.
 */
export function unreachedPartsOf(context: AnyRuleContext): readonly (readonly [number, number])[] | undefined {
  const sourceCode = context.sourceCode;
  if (partsCache.has(sourceCode)) return partsCache.get(sourceCode);
  const given = new Set(settingsOf(context).unreachedFunctions ?? []);
  const ranges: (readonly [number, number])[] = [];
  if (given.size > 0)
    for (const { variable, statement } of topLevelFunctions(sourceCode))
      if (given.has(variable.name)) ranges.push(statement.range);
  const parts = ranges.length > 0 ? ranges : undefined;
  partsCache.set(sourceCode, parts);
  return parts;
}

const partsCache = new WeakMap<Readonly<TSESLint.SourceCode>, readonly (readonly [number, number])[] | undefined>();

/**
 * A module's top-level functions by whether it names them outside their own declaration (an
 * `export { run }` aside): `named`, of these exported local bindings, those the module uses itself
 * (they run where its other code runs, whoever imports it); `unnamed`, of the functions it does
 * not export, those it never uses (dead in the module, as TypeScript's `noUnusedLocals` says).
 */
export function ownFunctionUses(
  sourceCode: Readonly<TSESLint.SourceCode>,
  exported: ReadonlySet<string>,
): { named: string[]; unnamed: string[] } {
  const named: string[] = [];
  const unnamed: string[] = [];
  for (const { variable, statement } of topLevelFunctions(sourceCode)) {
    const uses = referencesOutside(variable, statement);
    const own = uses.filter((reference) => reference.identifier.parent.type !== AST_NODE_TYPES.ExportSpecifier);
    if (exported.has(variable.name)) {
      if (own.length > 0) named.push(variable.name);
    } else if (statement.type !== AST_NODE_TYPES.ExportNamedDeclaration && uses.length === 0)
      unnamed.push(variable.name);
  }
  return { named, unnamed };
}

/** The module's top-level functions (declarations, and constants a function or arrow initialises), with the statement declaring each. */
function topLevelFunctions(
  sourceCode: Readonly<TSESLint.SourceCode>,
): { variable: TSESLint.Scope.Variable; statement: TSESTree.ProgramStatement }[] {
  const scope =
    sourceCode.scopeManager?.scopes.find((each) => each.type === TSESLint.Scope.ScopeType.module) ??
    sourceCode.scopeManager?.globalScope;
  const found: { variable: TSESLint.Scope.Variable; statement: TSESTree.ProgramStatement }[] = [];
  for (const variable of scope?.variables ?? []) {
    const definition = variable.defs[0];
    if (!definition || variable.defs.length > 1) continue;
    const node = definition.node;
    let declaration: TSESTree.Node | undefined;
    if (node.type === AST_NODE_TYPES.FunctionDeclaration) declaration = node;
    else if (
      node.type === AST_NODE_TYPES.VariableDeclarator &&
      (node.init?.type === AST_NODE_TYPES.ArrowFunctionExpression ||
        node.init?.type === AST_NODE_TYPES.FunctionExpression) &&
      node.parent.declarations.length === 1
    )
      declaration = node.parent;
    const statement =
      declaration?.parent?.type === AST_NODE_TYPES.ExportNamedDeclaration ? declaration.parent : declaration;
    if (statement?.parent?.type === AST_NODE_TYPES.Program)
      found.push({ variable, statement: statement as TSESTree.ProgramStatement });
  }
  return found;
}

/** A variable's references outside the statement declaring it (a recursive call is no use). */
function referencesOutside(
  variable: TSESLint.Scope.Variable,
  statement: TSESTree.ProgramStatement,
): TSESLint.Scope.Reference[] {
  const [from, to] = statement.range;
  return variable.references.filter(
    (reference) => reference.identifier.range[0] < from || reference.identifier.range[0] >= to,
  );
}
