import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { unwrap } from '../ast/nodes.js';
import { resolveValue } from '../ast/values.js';
import { forEachNode } from '../ast/walk.js';
import { type AnyRuleContext } from '../ast/context.js';
import { isFunction, returnedValues } from '../ast/function.js';
import { importedCallee, type ImportedCall } from '../effects.js';
import { exportedFunctions, exportedName } from '../handler/exports.js';
import { ownSummary, hasSummaryFact } from '../settings.js';
import { findPerAttemptValue, type PerAttemptValue } from './per-attempt.js';
import { keySinksAt, mayHoldIdempotencyKey } from './sinks.js';
import { keyParts } from './imported.js';

/**
 * Key helpers across modules: a function of one module whose result another writes as an
 * idempotency key. When its output is never stable, the fault is the helper's, reported once
 * there (as the plugin reports a helper of the same file), not at each caller.
 */
/**
 * The mint in an exported key helper whose output is never stable: a function that takes the
 * parts of a key (`keyFor(orderId)`) and still returns a per-attempt value (`` `${orderId}-${Date.now()}` ``,
 * a default `at = Date.now()`). A function without parameters is a minting function, reported where
 * it is called; a helper with parts is one fault, reported once at the helper.
 */
export function unstableKeyMint(fn: TSESTree.FunctionLike, context: AnyRuleContext): PerAttemptValue | undefined {
  if (fn.params.length === 0 || !fn.body) return undefined;
  const returned = fn.body.type === AST_NODE_TYPES.BlockStatement ? returnedValues(fn.body) : [fn.body];
  for (const value of returned) {
    // An object or a list is a record or a request built for the caller, not a key.
    const shape = resolveValue(value, context.sourceCode.getScope(value));
    if (shape.type === AST_NODE_TYPES.ObjectExpression || shape.type === AST_NODE_TYPES.ArrayExpression) continue;
    const found = findPerAttemptValue(value, context);
    if (found) return found;
  }
  return undefined;
}

/**
 * The imported functions whose result this file writes as an idempotency key (`'Idempotency-Key':
 * keyFor(id)`, or a `const` holding such a call): the module that defines one learns it
 * (`settings.idempotency.keyFunctions`) and reports a helper of it whose output is never stable.
 */
export function importedKeyCalls(program: TSESTree.Program, context: AnyRuleContext): ImportedCall[] {
  if (!mayHoldIdempotencyKey(context)) return [];
  const found = new Map<string, ImportedCall>();
  forEachNode(program, context, (node) => {
    if (
      node.type !== AST_NODE_TYPES.Property &&
      node.type !== AST_NODE_TYPES.AssignmentExpression &&
      node.type !== AST_NODE_TYPES.CallExpression
    )
      return;
    for (const sink of keySinksAt(node, context)) {
      for (const part of keyParts(sink.value)) {
        const value = resolveValue(part, context.sourceCode.getScope(part));
        const call = value.type === AST_NODE_TYPES.AwaitExpression ? unwrap(value.argument) : value;
        if (call.type !== AST_NODE_TYPES.CallExpression) continue;
        const imported = importedCallee(unwrap(call.callee), context.sourceCode.getScope(call));
        if (imported) found.set(`${imported.specifier}\0${imported.imported}`, imported);
      }
    }
  });
  return [...found.values()];
}

/**
 * The never-stable key helpers this file exports that another module writes as a key
 * (`settings.idempotency.keyFunctions`), each with its mint: reported once, at the helper.
 */
export function listedKeyHelperMints(
  program: TSESTree.Program,
  context: AnyRuleContext,
): { helper: TSESTree.FunctionLike; name: string; mint: PerAttemptValue }[] {
  if (!hasSummaryFact(context, 'writtenAsKey')) return [];
  const found: { helper: TSESTree.FunctionLike; name: string; mint: PerAttemptValue }[] = [];
  for (const statement of program.body) {
    const node = statement.type === AST_NODE_TYPES.ExpressionStatement ? statement.expression : statement;
    for (const [fn, exportNode] of exportedFunctions(node, context)) {
      const name = exportedName(fn, exportNode);
      if (name === undefined || !ownSummary(name, context)?.writtenAsKey) continue;
      const mint = unstableKeyMint(fn, context);
      if (mint) found.push({ helper: fn, name, mint });
    }
  }
  return found;
}

/**
 * The never-stable key helpers this file names as idempotency-key helpers, each with its mint:
 * `generateIdempotencyKey(order)` / `idempotencyKeyFor(id)`, or a `generateKey(data)` that a
 * `useIdempotencyKey()` hook or an `IdempotencyKeys` object hands out. The name is what makes its
 * output a key, whoever calls it; a helper whose output is never stable is reported once, there.
 */
export function namedKeyHelperMints(
  program: TSESTree.Program,
  context: AnyRuleContext,
): { helper: TSESTree.FunctionLike; name: string; mint: PerAttemptValue }[] {
  if (!IDEMPOTENCY_TEXT.test(context.sourceCode.text)) return [];
  const found: { helper: TSESTree.FunctionLike; name: string; mint: PerAttemptValue }[] = [];
  forEachNode(program, context, (node) => {
    if (!isFunction(node)) return;
    const name = bindingName(node);
    if (name === undefined || !KEY_HELPER_NAME.test(name)) return;
    const named = IDEMPOTENCY_TEXT.test(name) || enclosingNames(node).some((outer) => IDEMPOTENCY_TEXT.test(outer));
    if (!named) return;
    const mint = unstableKeyMint(node, context);
    if (mint) found.push({ helper: node, name, mint });
  });
  return found;
}

const IDEMPOTENCY_TEXT = /idempoten/i;
/** A name for a function that makes a key: `generateKey`, `idempotencyKeyFor`, `makeIdempotencyToken`. */
const KEY_HELPER_NAME = /(?:key|token)(?:for|of|from)?$/i;

/** The name a function is bound to: its declaration, a `const`, a property or a method. */
function bindingName(fn: TSESTree.FunctionLike): string | undefined {
  if (fn.type === AST_NODE_TYPES.FunctionDeclaration) return fn.id?.name;
  const parent = fn.parent;
  if (parent.type === AST_NODE_TYPES.VariableDeclarator && parent.id.type === AST_NODE_TYPES.Identifier)
    return parent.id.name;
  if ((parent.type === AST_NODE_TYPES.Property || parent.type === AST_NODE_TYPES.MethodDefinition) && !parent.computed)
    return parent.key.type === AST_NODE_TYPES.Identifier ? parent.key.name : undefined;
  return undefined;
}

/** The names of the functions, classes and objects a function sits in. */
function enclosingNames(fn: TSESTree.FunctionLike): string[] {
  const names: string[] = [];
  for (let current: TSESTree.Node | undefined = fn.parent; current; current = current.parent) {
    if (isFunction(current)) {
      const name = bindingName(current);
      if (name !== undefined) names.push(name);
    } else if (
      (current.type === AST_NODE_TYPES.ClassDeclaration || current.type === AST_NODE_TYPES.ClassExpression) &&
      current.id
    )
      names.push(current.id.name);
    else if (current.type === AST_NODE_TYPES.VariableDeclarator && current.id.type === AST_NODE_TYPES.Identifier)
      names.push(current.id.name);
  }
  return names;
}
