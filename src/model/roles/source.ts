import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';

import { type PackageManifest } from './package.js';

/** What `fileRole` reads: the text, and the parsed program with its scopes when there is one. */
export interface RoleSource {
  text: string;
  ast?: TSESTree.Program;
  scopeManager?: TSESLint.Scope.ScopeManager | null;
  /** The nearest `package.json`, when the file is on disk. */
  manifest?: PackageManifest;
  /**
   * Without scopes: whether the module's code reads a property of this name while declaring no
   * binding of it (`document.cookie`, not a `document` parameter's `document.id` or a comment).
   */
  readsGlobal?: (name: string) => boolean;
}

export function folders(where: string): string[] {
  const parts = where.split('/');
  return parts.slice(1, -1);
}

/** `'use client'` / `'use server'`: the string directives that open the module. */
export function directives(file: RoleSource): string[] {
  if (file.ast) {
    const found: string[] = [];
    for (const statement of file.ast.body) {
      if (statement.type !== AST_NODE_TYPES.ExpressionStatement || statement.directive === undefined) break;
      found.push(statement.directive);
    }
    return found;
  }
  const match = /^(?:\s|\/\/[^\n]*\n|\/\*[\s\S]*?\*\/)*(['"])(use (?:client|server))\1/.exec(file.text);
  return match?.[2] ? [match[2]] : [];
}

const IMPORT_SOURCE =
  /\bfrom\s*['"]([^'"]+)['"]|\bimport\s*\(?\s*['"]([^'"]+)['"]|\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g;

/** True when the text imports or requires a module `matches` accepts. */
export function importsAny(text: string, matches: (module: string) => boolean): boolean {
  for (const match of text.matchAll(IMPORT_SOURCE)) {
    const module = match[1] ?? match[2] ?? match[3];
    if (module !== undefined && matches(module)) return true;
  }
  return false;
}
