import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';

import { enclosingFunction, unwrap } from '../ast/nodes.js';
import { findProperty, findVariable, staticValue } from '../ast/values.js';
import { memberName, memberPath } from '../ast/names.js';
import { type AnyRuleContext } from '../ast/context.js';
import { importSource } from '../modules.js';

const { DefinitionType } = TSESLint.Scope;

/**
 * Library calls whose output embeds the current time although no clock appears in the code: built
 * twice from the same input, they give different bytes, so such output in a keyed request's body
 * differs on every attempt like `Date.now()` does.
 *
 * pdf-lib: `PDFDocument.load(bytes, options)` and `PDFDocument.create(options)` default
 * `updateMetadata` to true, and the constructor then stamps the document's Info dictionary
 * (`updateInfoDict`: `ModDate`, and on `create` `CreationDate`, set to `new Date()`), which
 * `save()` / `saveAsBase64()` write out (src/api/PDFDocument.ts). `updateMetadata: false` keeps them.
 */
interface ClockLibrary {
  /** The documents' factories, as `<export>.<method>` of the module, with the index of their options argument. */
  factories: Readonly<Record<string, number>>;
  /** Methods of a made document that write it out, clock stamp included. */
  outputs: ReadonlySet<string>;
  /** The option that turns the stamp off when false. */
  stampOption: string;
}

const PDF_LIB: ClockLibrary = {
  factories: { 'PDFDocument.load': 1, 'PDFDocument.create': 0 },
  outputs: new Set(['save', 'saveAsBase64']),
  stampOption: 'updateMetadata',
};

const CLOCK_LIBRARIES: Readonly<Record<string, ClockLibrary>> = {
  'pdf-lib': PDF_LIB,
  '@cantoo/pdf-lib': PDF_LIB,
  '@pdfme/pdf-lib': PDF_LIB,
};

/**
 * How `call` reads in a message (`PDFDocument.load()`) when it is a clock-stamping factory of a
 * known library or the output of a document it made (`pdf.save()` with `const pdf = await
 * PDFDocument.load(template)` in the same function); undefined otherwise.
 */
export function libraryClockIn(call: TSESTree.CallExpression, context: AnyRuleContext): string | undefined {
  const factory = stampingFactory(call, context);
  if (factory) return factory;
  const callee = unwrap(call.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const method = memberName(callee);
  const document = unwrap(callee.object);
  if (method === undefined || document.type !== AST_NODE_TYPES.Identifier) return undefined;
  const variable = findVariable(context.sourceCode.getScope(document), document);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (def?.type !== DefinitionType.Variable || !def.node.init || !enclosingFunction(def.node)) return undefined;
  const init = unwrap(def.node.init);
  if (init.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const made = stampingFactory(init, context);
  if (made === undefined) return undefined;
  return libraryOf(init, context)?.library.outputs.has(method) ? made : undefined;
}

function stampingFactory(call: TSESTree.CallExpression, context: AnyRuleContext): string | undefined {
  const found = libraryOf(call, context);
  if (!found) return undefined;
  const index = found.library.factories[found.path];
  if (index === undefined) return undefined;
  const options = call.arguments[index];
  if (options && !stamps(options, found.library, context)) return undefined;
  return `${found.path}()`;
}

function libraryOf(
  call: TSESTree.CallExpression,
  context: AnyRuleContext,
): { library: ClockLibrary; path: string } | undefined {
  const callee = unwrap(call.callee);
  const path = memberPath(callee);
  let head = callee;
  while (head.type === AST_NODE_TYPES.MemberExpression) head = unwrap(head.object);
  if (!path || head.type !== AST_NODE_TYPES.Identifier) return undefined;
  const source = importSource(head, context.sourceCode.getScope(head));
  const library = source && CLOCK_LIBRARIES[source.module];
  if (!source || !library) return undefined;
  const names =
    source.imported === '*' || source.imported === 'default' ? path.slice(1) : [source.imported, ...path.slice(1)];
  return { library, path: names.join('.') };
}

/** The options leave the stamp on: no `updateMetadata`, or one that is not a static `false`. */
function stamps(options: TSESTree.Node, library: ClockLibrary, context: AnyRuleContext): boolean {
  const scope = context.sourceCode.getScope(options);
  const object = unwrap(options);
  if (object.type !== AST_NODE_TYPES.ObjectExpression) return true;
  const property = findProperty(object, (key) => key === library.stampOption, scope);
  if (property === undefined) return true;
  if (property === 'unknown') return false;
  return staticValue(property.value, scope)?.value !== false;
}
