import { type TSESTree } from '@typescript-eslint/utils';
import { type AnyRuleContext } from './ast/context.js';

/** With type information: the name of an expression's type and the files declaring it. */
export function typeNameOf(
  node: TSESTree.Node,
  context: AnyRuleContext,
): { name: string; files: string[] } | undefined {
  const services = context.sourceCode.parserServices;
  const map = services?.esTreeNodeToTSNodeMap;
  if (!services?.program || !map?.has(node)) return undefined;
  const type = services.program.getTypeChecker().getTypeAtLocation(map.get(node));
  const symbol = type.aliasSymbol ?? type.getSymbol();
  if (!symbol) return undefined;
  return {
    name: symbol.getName(),
    files: (symbol.getDeclarations() ?? []).map((declaration) => declaration.getSourceFile().fileName),
  };
}
