import { isMinified, MINIFIED_AVERAGE_LINE_LENGTH } from '../model/minified.js';
import { readFileSync, statSync } from 'node:fs';

import type * as TS from 'typescript';

import type { NotAnalysed } from '../report/model.js';
import { ts } from './typescript.js';

/**
 * Reading sources: a file's text (or why it is not analysed), and for a file the prefilter sets
 * aside, TypeScript's parse without the ESTree conversion: its first syntax error and the module
 * specifiers it imports. The parse uses the `typescript` the Linter parses with, so a syntax
 * error reads the same whichever path a file took.
 */

/** 1 MiB: larger sources are generated (bundles, API clients) and would dominate the scan. */
export const DEFAULT_MAX_FILE_SIZE = 1024 * 1024;

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Reads one source, or lists it as not analysed (too large, unreadable, binary). */
export function readSource(
  path: string,
  relativePath: string,
  limit: number,
  notAnalysed: NotAnalysed[],
): string | undefined {
  let text: string;
  try {
    const size = statSync(path).size;
    if (size > limit) {
      notAnalysed.push({
        file: relativePath,
        reason: `${megabytes(size)} is over the ${megabytes(limit)} limit (raise it with --max-file-size)`,
      });
      return undefined;
    }
    text = readFileSync(path, 'utf8');
  } catch (error) {
    notAnalysed.push({ file: relativePath, reason: `cannot read: ${(error as Error).message}` });
    return undefined;
  }
  if (text.slice(0, 8192).includes('\u0000')) {
    notAnalysed.push({ file: relativePath, reason: 'binary file' });
    return undefined;
  }
  if (isMinified(text, relativePath)) {
    notAnalysed.push({
      file: relativePath,
      reason: `minified (lines over ${MINIFIED_AVERAGE_LINE_LENGTH} characters on average): check its source`,
    });
    return undefined;
  }
  return text;
}

/** TypeScript's own parse, without the ESTree conversion. */
export function parseOnly(path: string, text: string): TS.SourceFile {
  const kind = /\.[cm]?jsx?$/.test(path)
    ? ts.ScriptKind.JSX
    : path.endsWith('.tsx')
      ? ts.ScriptKind.TSX
      : ts.ScriptKind.TS;
  // JSDoc is not parsed: it holds no syntax errors, and typescript-eslint skips it without types too.
  return ts.createSourceFile(
    path,
    text,
    { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseNone },
    false,
    kind,
  );
}

/** The parser's first syntax error, formatted as the Linter reports it. */
export function firstSyntaxError(source: TS.SourceFile): string | undefined {
  // parseDiagnostics is internal but has held the parser's errors since TypeScript 1.x.
  const diagnostic = (source as unknown as { parseDiagnostics?: readonly TS.DiagnosticWithLocation[] })
    .parseDiagnostics?.[0];
  if (!diagnostic) return undefined;
  const { line, character } = source.getLineAndCharacterOfPosition(diagnostic.start);
  return `Parsing error: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')} (${line + 1}:${character + 1})`;
}

/**
 * An import of a TypeScript module whose bindings nothing reads as a value: TypeScript leaves it
 * out of its output (facts.ts `isElided`, read here from the parse: a name written anywhere
 * outside a type counts as read).
 */
function isElided(statement: TS.ImportDeclaration | TS.ExportDeclaration, source: TS.SourceFile): boolean {
  if (!ts.isImportDeclaration(statement) || !/\.[cm]?tsx?$/.test(source.fileName)) return false;
  const clause = statement.importClause;
  if (!clause) return false;
  const names: string[] = [];
  if (clause.name) names.push(clause.name.text);
  const bindings = clause.namedBindings;
  if (bindings && ts.isNamespaceImport(bindings)) names.push(bindings.name.text);
  else if (bindings) for (const element of bindings.elements) if (!element.isTypeOnly) names.push(element.name.text);
  const read = valueNames(source);
  return names.every((name) => !read.has(name));
}

const valueNamesOf = new WeakMap<TS.SourceFile, Set<string>>();

/** The identifiers a file writes outside types and its imports: every name it may read as a value. */
function valueNames(source: TS.SourceFile): Set<string> {
  let names = valueNamesOf.get(source);
  if (names) return names;
  const found = new Set<string>();
  // The parse sets no parents: a class's heritage clauses are read from the class.
  const visit = (node: TS.Node): void => {
    if (ts.isImportDeclaration(node)) return;
    if (ts.isTypeNode(node) || ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) return;
    if (ts.isIdentifier(node)) found.add(node.text);
    // `class A extends B<T>`: B is a value; `implements` names types.
    if (ts.isHeritageClause(node)) {
      if (node.token === ts.SyntaxKind.ExtendsKeyword) for (const type of node.types) visit(type.expression);
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  names = found;
  valueNamesOf.set(source, names);
  return names;
}

/** The module specifiers of a file's top-level imports, re-exports and `require` calls. */
export function moduleSpecifiers(source: TS.SourceFile, runtimeOnly = false): string[] {
  const specifiers: string[] = [];
  const requireOf = (node: TS.Node | undefined): void => {
    let target = node;
    while (
      target &&
      (ts.isPropertyAccessExpression(target) || ts.isAwaitExpression(target) || ts.isParenthesizedExpression(target))
    )
      target = target.expression;
    if (
      target &&
      ts.isCallExpression(target) &&
      (target.expression.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(target.expression) && target.expression.text === 'require'))
    ) {
      const first = target.arguments[0];
      if (first && ts.isStringLiteralLike(first)) specifiers.push(first.text);
    }
  };
  for (const statement of source.statements) {
    if (
      (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) &&
      statement.moduleSpecifier &&
      ts.isStringLiteralLike(statement.moduleSpecifier)
    ) {
      if (!runtimeOnly || (!isTypeOnly(statement) && !isElided(statement, source)))
        specifiers.push(statement.moduleSpecifier.text);
    } else if (
      ts.isImportEqualsDeclaration(statement) &&
      ts.isExternalModuleReference(statement.moduleReference) &&
      ts.isStringLiteralLike(statement.moduleReference.expression)
    ) {
      specifiers.push(statement.moduleReference.expression.text);
    } else if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) requireOf(declaration.initializer);
    } else if (ts.isExpressionStatement(statement)) {
      requireOf(ts.isBinaryExpression(statement.expression) ? statement.expression.right : statement.expression);
    }
  }
  // What runs loads what a function loads too: `await import('./commands/login')` in a command's action.
  if (runtimeOnly && /\b(?:import|require)\s*\(/.test(source.text)) {
    const visit = (node: TS.Node): void => {
      if (ts.isCallExpression(node)) {
        const first = node.arguments[0];
        const loads =
          node.expression.kind === ts.SyntaxKind.ImportKeyword ||
          (ts.isIdentifier(node.expression) && node.expression.text === 'require');
        if (loads && first && ts.isStringLiteralLike(first) && !specifiers.includes(first.text))
          specifiers.push(first.text);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return specifiers;
}

/** `import type { A } from`, `import { type A } from`, `export type { A } from`: nothing loads at run time. */
function isTypeOnly(statement: TS.ImportDeclaration | TS.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(statement)) return statement.isTypeOnly;
  const clause = statement.importClause;
  if (!clause) return false;
  if (clause.phaseModifier === ts.SyntaxKind.TypeKeyword) return true;
  const bindings = clause.namedBindings;
  return (
    clause.name === undefined &&
    bindings !== undefined &&
    ts.isNamedImports(bindings) &&
    bindings.elements.length > 0 &&
    bindings.elements.every((element) => element.isTypeOnly)
  );
}

/**
 * The names whose properties a module reads (`document.cookie`) while declaring no binding of
 * them anywhere (variables, parameters, functions, classes, imports): the globals it uses, for the
 * role of a file read without ESLint's scopes. A `document` parameter is not the DOM's.
 */
export function globalsRead(source: TS.SourceFile): Set<string> {
  const declared = new Set<string>();
  const read = new Set<string>();
  const bind = (name: TS.BindingName | TS.Identifier | undefined): void => {
    if (!name) return;
    if (ts.isIdentifier(name)) declared.add(name.text);
    else for (const element of name.elements) if (!ts.isOmittedExpression(element)) bind(element.name);
  };
  // `window` or `document` handed to a function or destructured in the module's own code (a
  // tracker script's `((window) => { … })(window)`), as browser.ts `readsDomGlobal` reads them,
  // unless the module declares the name itself; the function's own parameter of that name is no read.
  const topDeclared = new Set<string>();
  const handed = new Set<string>();
  const visit = (node: TS.Node, inFunction = false): void => {
    if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression)) read.add(node.expression.text);
    if (!inFunction && ts.isCallExpression(node))
      for (const argument of node.arguments) if (ts.isIdentifier(argument)) handed.add(argument.text);
    if (
      !inFunction &&
      ts.isVariableDeclaration(node) &&
      ts.isObjectBindingPattern(node.name) &&
      node.initializer !== undefined &&
      ts.isIdentifier(node.initializer)
    )
      handed.add(node.initializer.text);
    if (
      !inFunction &&
      (ts.isVariableDeclaration(node) ||
        ts.isFunctionDeclaration(node) ||
        ts.isClassDeclaration(node) ||
        ts.isImportClause(node) ||
        ts.isImportSpecifier(node) ||
        ts.isNamespaceImport(node)) &&
      node.name !== undefined &&
      ts.isIdentifier(node.name)
    )
      topDeclared.add(node.name.text);
    if (
      ts.isVariableDeclaration(node) ||
      ts.isParameter(node) ||
      ts.isFunctionDeclaration(node) ||
      ts.isClassDeclaration(node) ||
      ts.isImportClause(node) ||
      ts.isImportSpecifier(node) ||
      ts.isNamespaceImport(node)
    )
      bind(node.name);
    const inner = inFunction || ts.isFunctionLike(node);
    ts.forEachChild(node, (child) => {
      visit(child, inner);
    });
  };
  visit(source);
  for (const name of declared) read.delete(name);
  for (const name of handed) if ((name === 'window' || name === 'document') && !topDeclared.has(name)) read.add(name);
  return read;
}

/** An import binding as the facts rule records it: the local name, the module and the name imported. */
export interface ImportBinding {
  local: string;
  specifier: string;
  /** `'default'`, `'*'` for a namespace, or the imported name. */
  imported: string;
}

/**
 * The value imports of a file the prefilter sets aside, read from TypeScript's parse as the
 * facts rule reads them from ESTree: top-level `import` declarations (without `import type` and
 * `type` specifiers) and `const x = require('m')` / `const { a } = require('m')`.
 */
export function importBindings(source: TS.SourceFile): ImportBinding[] {
  return bindingsOf(source, false);
}

/**
 * The type-only imports of a file the prefilter sets aside (`import type { QueueConsumer }`,
 * `import { type QueueConsumer }`): a value declared with such a type may call a member the type
 * declares, which an implementation elsewhere may make a registrar.
 */
export function typeImportBindings(source: TS.SourceFile): ImportBinding[] {
  return bindingsOf(source, true);
}

function bindingsOf(source: TS.SourceFile, types: boolean): ImportBinding[] {
  const bindings: ImportBinding[] = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      if (!clause || !ts.isStringLiteralLike(statement.moduleSpecifier)) continue;
      const typeOnly = ts.isTypeOnlyImportDeclaration(clause);
      if (typeOnly && !types) continue;
      const specifier = statement.moduleSpecifier.text;
      if (clause.name && typeOnly === types) bindings.push({ local: clause.name.text, specifier, imported: 'default' });
      const named = clause.namedBindings;
      if (named && ts.isNamespaceImport(named)) {
        if (typeOnly === types) bindings.push({ local: named.name.text, specifier, imported: '*' });
      } else if (named)
        for (const element of named.elements) {
          if ((typeOnly || element.isTypeOnly) !== types) continue;
          const imported = element.propertyName ?? element.name;
          bindings.push({ local: element.name.text, specifier, imported: imported.text });
        }
    } else if (types) continue;
    else if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        const specifier = requiredModule(declaration.initializer);
        if (specifier === undefined) continue;
        if (ts.isIdentifier(declaration.name))
          bindings.push({ local: declaration.name.text, specifier, imported: 'default' });
        else if (ts.isObjectBindingPattern(declaration.name))
          for (const element of declaration.name.elements) {
            let key = element.propertyName ?? element.name;
            // The facts rule reads `{ [a]: b }` as a key named `a`, as ESTree spells it.
            if (ts.isComputedPropertyName(key) && ts.isIdentifier(key.expression)) key = key.expression;
            if (!element.dotDotDotToken && ts.isIdentifier(key) && ts.isIdentifier(element.name))
              bindings.push({ local: element.name.text, specifier, imported: key.text });
          }
      }
    }
  }
  return bindings;
}

/** `require('m')`, also under `await`, `as`, `!`, `satisfies` and `<T>` (the facts rule's `unwrap`). */
function requiredModule(node: TS.Expression | undefined): string | undefined {
  let target = node;
  while (
    target &&
    (ts.isAwaitExpression(target) ||
      ts.isParenthesizedExpression(target) ||
      ts.isAsExpression(target) ||
      ts.isNonNullExpression(target) ||
      ts.isSatisfiesExpression(target) ||
      ts.isTypeAssertionExpression(target))
  )
    target = target.expression;
  if (
    target &&
    ts.isCallExpression(target) &&
    ts.isIdentifier(target.expression) &&
    target.expression.text === 'require' &&
    target.arguments[0] &&
    ts.isStringLiteral(target.arguments[0])
  )
    return target.arguments[0].text;
  return undefined;
}

/**
 * A module that runs nothing of its own when it is loaded (model/modules.ts `runsNothing`, on
 * TypeScript's parse): imports, re-exports and types only.
 */
export function runsNothing(source: TS.SourceFile): boolean {
  return source.statements.every(
    (statement) =>
      (ts.isImportDeclaration(statement) && statement.importClause !== undefined) ||
      (ts.isExportDeclaration(statement) &&
        (statement.moduleSpecifier !== undefined || statement.exportClause !== undefined)) ||
      ts.isInterfaceDeclaration(statement) ||
      ts.isTypeAliasDeclaration(statement),
  );
}

/**
 * The types the file's classes declare they implement (`class X implements DomainEventHandlerInterface`),
 * by the name the file writes: a call through one of them may run these classes' methods.
 */
export function implementedNames(source: TS.SourceFile): string[] {
  const names = new Set<string>();
  for (const statement of source.statements) {
    if (!ts.isClassDeclaration(statement)) continue;
    for (const clause of statement.heritageClauses ?? []) {
      if (clause.token !== ts.SyntaxKind.ImplementsKeyword) continue;
      for (const type of clause.types) if (ts.isIdentifier(type.expression)) names.add(type.expression.text);
    }
  }
  return [...names];
}

/**
 * The names a file the prefilter sets aside exports, from TypeScript's parse: its declarations
 * with `export`, `export { a as b }` and `export default`. Undefined when it exports in a way
 * names do not describe (`export =`, `export … from`, CommonJS `exports`): then only ts-morph can
 * tell what it provides.
 */
export function exportedNames(source: TS.SourceFile): string[] | undefined {
  const names: string[] = [];
  const bindings = (name: TS.BindingName): void => {
    if (ts.isIdentifier(name)) names.push(name.text);
    else for (const element of name.elements) if (!ts.isOmittedExpression(element)) bindings(element.name);
  };
  for (const statement of source.statements) {
    if (ts.isExportAssignment(statement)) {
      if (statement.isExportEquals) return undefined;
      names.push('default');
    } else if (ts.isExportDeclaration(statement)) {
      if (statement.moduleSpecifier || !statement.exportClause || !ts.isNamedExports(statement.exportClause))
        return undefined;
      for (const element of statement.exportClause.elements) names.push(element.name.text);
    } else if (
      ts.canHaveModifiers(statement) &&
      ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
    ) {
      const isDefault = ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);
      if (isDefault) names.push('default');
      else if (ts.isVariableStatement(statement))
        for (const declaration of statement.declarationList.declarations) bindings(declaration.name);
      else if ('name' in statement && statement.name && ts.isIdentifier(statement.name))
        names.push(statement.name.text);
      else return undefined;
    }
  }
  // CommonJS assignments are not declarations: a file that has them is left to ts-morph.
  if (/\b(?:module\.)?exports\s*(?:\.|\[|=)/.test(source.text)) return undefined;
  return names;
}
