import { TSESLint } from '@typescript-eslint/utils';

/**
 * Small, shared AST helpers on ESTree. Everything here is syntax only; the domain
 * modules beside this file build on it.
 */

export type Scope = TSESLint.Scope.Scope;

/** The rule context every model function takes; rules pass their own `context`. */
export type AnyRuleContext = Readonly<TSESLint.RuleContext<string, readonly unknown[]>>;
