import { ESLintUtils, type TSESTree } from '@typescript-eslint/utils';
import type * as ts from 'typescript';

import { type AnyRuleContext } from './ast/context.js';

/**
 * The one optional type lookup. Type information sharpens the model, never gates it: every
 * caller has a syntax answer for when this returns undefined (no program, a parser without
 * typescript-eslint's services, or a node the program does not map).
 */
export function tsNodeOf(
  node: TSESTree.Node,
  context: AnyRuleContext,
): { checker: ts.TypeChecker; tsNode: ts.Node } | undefined {
  // Checked first: getParserServices throws for parsers without typescript-eslint's maps.
  if (context.sourceCode.parserServices?.program == null) return undefined;
  const services = ESLintUtils.getParserServices(context, true);
  if (!services.program || !services.esTreeNodeToTSNodeMap.has(node)) return undefined;
  return { checker: services.program.getTypeChecker(), tsNode: services.esTreeNodeToTSNodeMap.get(node) };
}

/** With type information: the checker and the type of `node`. */
export function typeOf(
  node: TSESTree.Node,
  context: AnyRuleContext,
): { checker: ts.TypeChecker; type: ts.Type } | undefined {
  const at = tsNodeOf(node, context);
  return at && { checker: at.checker, type: at.checker.getTypeAtLocation(at.tsNode) };
}

/** True when the file is linted with type information. */
export function hasTypes(context: AnyRuleContext): boolean {
  return context.sourceCode.parserServices?.program != null;
}

/** With type information: the name of an expression's type and the files declaring it. */
export function typeNameOf(
  node: TSESTree.Node,
  context: AnyRuleContext,
): { name: string; files: string[] } | undefined {
  const typed = typeOf(node, context);
  const symbol = typed && (typed.type.aliasSymbol ?? typed.type.getSymbol());
  if (!symbol) return undefined;
  return {
    name: symbol.getName(),
    files: (symbol.getDeclarations() ?? []).map((declaration) => declaration.getSourceFile().fileName),
  };
}
