import { type TSESTree } from '@typescript-eslint/utils';
import { unwrap } from '../ast/nodes.js';
import { type AnyRuleContext } from '../ast/context.js';
import { type Kind, DRIVER_DECLARATION, POOL_TYPE_NAMES, type AcquireMethod, CLIENT_TYPE_NAMES } from './pools.js';
import { typeOf } from '../types.js';

// ---------------------------------------------------------------------------------------------
// Types

interface TsSymbolLike {
  getName(): string;
  declarations?: readonly { getSourceFile(): { fileName: string } }[];
}

interface TsTypeLike {
  getSymbol(): TsSymbolLike | undefined;
  aliasSymbol?: TsSymbolLike;
  isUnion(): boolean;
  types?: TsTypeLike[];
}

export function typedKind(receiver: TSESTree.Node, context: AnyRuleContext): Kind | undefined {
  const typed = typeOf(unwrap(receiver), context);
  return typed && kindOfType(typed.type);
}

/**
 * The kind a type names. A type without a symbol (`any`, `unknown`, primitives, `undefined`)
 * decides nothing, so the syntax is asked instead; `undefined` / `null` members of a union
 * are ignored. (Read through symbols: TypeScript's flag values differ between versions.)
 */
function kindOfType(type: TsTypeLike): Kind | undefined {
  if (type.isUnion()) {
    const kinds = (type.types ?? [])
      .filter((member) => (member.aliasSymbol ?? member.getSymbol()) !== undefined)
      .map(kindOfType);
    const [first] = kinds;
    if (!first || kinds.some((kind) => kind === undefined)) return undefined;
    return kinds.every((kind) => kind?.kind === first.kind) ? first : { kind: 'other' };
  }
  const symbol = type.aliasSymbol ?? type.getSymbol();
  if (!symbol) return undefined;
  const name = symbol.getName();
  for (const declaration of symbol.declarations ?? []) {
    const match = DRIVER_DECLARATION.exec(declaration.getSourceFile().fileName.replaceAll('\\', '/'));
    if (!match) continue;
    const [, module = '', file = ''] = match;
    if (POOL_TYPE_NAMES.has(name)) {
      const promise = module === 'mysql2' ? file.startsWith('promise') : module === 'mariadb';
      const acquire: AcquireMethod | undefined =
        module === 'pg' || module.includes('neondatabase') || module.includes('vercel')
          ? 'connect'
          : promise
            ? 'getConnection'
            : undefined;
      return { kind: 'pool', evidence: 'type', acquire };
    }
    if (CLIENT_TYPE_NAMES.has(name)) return { kind: 'client' };
  }
  return { kind: 'other' };
}
