import { registeredTable, tableLookups } from '../model/handler/decorator-tables.js';
import type { Rule } from 'eslint';
import type { ImplicitTransactionLibrary } from '../model/settings.js';
import { computedLoadFolders, onlyDefines, runsNothing } from '../model/modules.js';
import { ownFunctionUses } from '../model/roles/unreached.js';
import { folderPicks, loadedFolders, type FolderPick } from '../model/handler/folder-tables.js';
import {
  registryClasses,
  registryPicks,
  selfRegistrations,
  type RegistryClass,
  type RegistryPick,
  type SelfRegistration,
} from '../model/handler/service-registries.js';
import { templateCalls, type TemplateCalls } from '../model/handler/template-methods.js';
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { unwrap } from '../model/ast/nodes.js';
import { memberPath, moduleExportName, propertyKeyName } from '../model/ast/names.js';
import { type AnyRuleContext, type Scope } from '../model/ast/context.js';
import { findVariable, resolveValue } from '../model/ast/values.js';
import {
  exportKinds,
  findImportedRegistrarCalls,
  findImportedRegistrations,
  importedDispatches,
  importedPick,
  reachedDispatches,
  type ReachedDispatch,
  summariseFunction,
  type ExportKind,
  type FunctionSummary,
  type ImportedCall,
  type ImportedFunctionValue,
  type ImportedRegistrarCall,
  type ImportedRegistration,
} from '../model/effects.js';
import {
  type ClassShape,
  type Forward,
  type HandOff,
  type ParameterRegistrar,
  handOffsOf,
  parameterRegistrars,
} from '../model/handler/hand-offs.js';
import { ackedOnSettle } from '../model/handler/ack.js';
import { awaitedImports } from '../model/handler/floating-work.js';
import { returnsPromise } from '../model/handler/async-call.js';
import { type ConsumerHandler, findConsumerHandlers, isDelivery } from '../model/handler/consumer-handler.js';
import { resolveHandlerFunction } from '../model/handler/methods.js';
import { checksSender } from '../model/handler/webhooks.js';
import { temporalModuleSpecifiers } from '../model/handler/temporal.js';
import { projectDecoratedMethods } from '../model/handler/nestjs.js';
import { roleDecisionOf, roleOf, type RoleDecision } from '../model/roles.js';
import { exportedClassMethods } from '../model/class-members.js';
import { forwardPicks } from '../model/handler/type-dispatch.js';
import { wrappedHandler } from '../model/handler/library-registrations.js';
import { writesOnItsOwn } from '../model/orm/own-handle.js';
import { isFunction, resolveFunction, returnedFunction, returnedObject } from '../model/ast/function.js';
import { keyParametersOf, type KeyParameterFact } from '../model/keys/imported.js';
import { defaultHandleParameter } from '../model/orm/omitted-handle.js';
import { forwardedOptionsParameter } from '../model/orm/sequelize-options.js';
import { sessionlessCallbackParameter } from '../model/orm/sessionless-wrapper.js';
import { implicitTransactionSwitches } from '../model/orm/implicit-transactions.js';
import { wrappedTransactionCallback, type WrappedCallback } from '../model/orm/transaction-wrapper.js';
import { importedKeyCalls, unstableKeyMint } from '../model/keys/key-helpers.js';
import { importedArgumentMints, keyedBodyParameters, type ArgumentMints } from '../model/keys/key-origins.js';
import { type ParameterPath } from '../model/keys/fresh-keys.js';
import {
  parameterTypesOf,
  slotTypesOf,
  exportedValueTypes,
  typeAliasesOf,
  slotValuesOf,
  type SlotMember,
  type SlotValue,
  type TypeRef,
} from '../model/handler/slots.js';

/**
 * The facts pass: an internal ESLint rule that records, per file, what other files need to
 * know about it (its imports, its exports and what they are: pools, per-attempt helpers,
 * bounded clients, key-header sources) and its consumer handlers with their effects. The
 * domain questions are all answered by `src/model`; this file only collects the answers.
 */

interface ImportBinding {
  local: string;
  specifier: string;
  /** `'default'`, `'*'` for a namespace, or the imported name. */
  imported: string;
}

interface ReExport {
  specifier: string;
  /** `'*'` for `export * from`. */
  imported: string;
  exported: string;
}

export interface ExportFact extends Picks {
  kinds: ExportKind[];
  summary?: FunctionSummary;
  /** Imported functions this function waits for: a delivery through it waits for them too. */
  waits?: ImportedCall[];
  /** The parameter through which the function takes its database handle, defaulting to the pool (orm-handles.ts). */
  handle?: number;
  /** The callback parameter the function runs in a Mongoose session transaction without the session (orm/sessionless-wrapper.ts). */
  sessionless?: number;
  /** The parameter the function forwards as a Sequelize write's options (orm/sequelize-options.ts). */
  forwardsOptions?: number;
  /** The callback parameter the function runs inside an ORM transaction, handed its handle (orm/transaction-wrapper.ts). */
  transactionWrapper?: WrappedCallback;
  /** The exported function returns a promise: a caller that drops it leaves work running. */
  async?: true;
  /** It writes through a fork of the MikroORM entity manager it makes itself (orm/own-handle.ts). */
  ownHandle?: true;
  /** Where an exported function starts and ends, for the inventory of activities defined here. */
  position?: { line: number; column: number; endLine: number; name?: string };
  /** Parameters of an exported function that it writes as an idempotency key. */
  keyParameters?: KeyParameterFact[];
  /** An exported key helper whose output is never stable: reported at itself, not at its callers. */
  unstableKeyHelper?: true;
  /** Parameters the key of a keyed request with a per-attempt body is made of (keys/key-origins.ts). */
  keyedBodyParameters?: ParameterPath[];
  /** The function this one returns (a processor factory's processor): what a caller registering its result registers. */
  returns?: ExportFact;
  /** The functions of the object this one returns (a factory of Temporal activities), by property name. */
  returnsTable?: ExportFact[];
  /** The named types of its parameters: an object literal a caller hands it is one of these (handler/slots.ts). */
  parameterTypes?: (TypeRef | null)[];
  /** A decorator factory whose decorator stores each member it marks in this module-level table (handler/decorator-tables.ts). */
  registersTable?: string;
}

/**
 * What a function picks by the type of what it is handed (handler/type-dispatch.ts), itself or in
 * a function of its file it calls (`reached`: by what that function was handed), each under the
 * type's key: its own file's functions with their facts, and the functions of other modules it
 * picks as the imported function or injected method it calls, which the graph resolves.
 */
export interface Picks {
  picks?: { key?: string; reached?: true; byField?: true; forward?: true; fact: ExportFact }[];
  importedPicks?: { key?: string; reached?: true; byField?: true; forward?: true; call: ImportedFunctionValue }[];
  /** Elements of another module's folder table it picks by what was delivered (handler/folder-tables.ts). */
  folderPicks?: FolderPick[];
  /** Methods it calls on what an injected registry's getter returns (handler/service-registries.ts). */
  registryPicks?: RegistryPick[];
}

/** A function this file stores in a typed slot (handler/slots.ts), with what a delivery running it does. */
interface SlotFact extends Omit<SlotValue, 'fn'> {
  fact: ExportFact;
}

interface HandlerFact extends Picks {
  line: number;
  column: number;
  endLine: number;
  name?: string;
  /** The name the handler is exported under, when it is exported. */
  exportedAs?: string;
  broker: string;
  queue?: string;
  summary: FunctionSummary;
  /** For a handler whose delivery ends when it settles: the imported functions it waits for. */
  waits?: ImportedCall[];
  /** For the work method of a class that extends a base worker by name (handler/workers.ts): the class. */
  workerClass?: string;
  /** Module-level tables of this file it looks up by a computed key: decorators may fill them (handler/decorator-tables.ts). */
  tableLookups?: string[];
  /** The methods it calls on the instance of the class it is written in: its subclasses' are handlers (handler/template-methods.ts). */
  templateCalls?: TemplateCalls;
}

interface OwnExport {
  name: string;
  local?: string;
  /**
   * A variable whose value holds functions without being one (`export const tool = { handler:
   * async () => … }`, a table of handlers, a call given a callback): importing it can run code.
   */
  holdsCode?: true;
}

export interface FileFacts {
  imports: ImportBinding[];
  /**
   * Every module the file loads when it runs: imports that are not type-only (side-effect ones
   * too), re-exports, `require(...)` and `import(...)` anywhere. The edges roles follow.
   */
  specifiers: string[];
  /** The file's role from its own path and code, and whether they decide it (roles.ts `fileRoleDecision`). */
  role: RoleDecision;
  reExports: ReExport[];
  exports: Map<string, ExportFact>;
  /** The methods of the classes this file exports, by `Class.method` (the class's exported name). */
  members: Map<string, ExportFact>;
  /** The static methods of the classes this file exports, by `Class.method`. */
  statics: Map<string, ExportFact>;
  /**
   * Exported constants made once as instances of a class (`export const monitorManager = new
   * MonitorManager()`): an importer's `monitorManager.x()` runs that class's `x`, whether the class
   * is this file's ({@link classes}) or an import binding's ({@link imports}). By the constant's and
   * the class's local names.
   */
  instances: { name: string; class: string }[];
  handlers: HandlerFact[];
  /** Handlers registered here whose function is imported from another module. */
  importedHandlers: ImportedRegistration[];
  /** Functions this file exports (and static methods of its exported classes, as `Class.method`) that register a parameter as a handler. */
  /** Calls of this file's named functions given their parameters: the edges of the registrar fixpoint (analysis/registrars.ts). */
  forwards: Forward[];
  /** Named functions of this file whose handlers run a function their callers hand them: the fixpoint's own seeds. */
  parameterRegistrars: ParameterRegistrar[];
  /** Calls given functions of this file: a handler each, where the callee is a registrar. */
  handOffs: HandOff<ExportFact>[];
  /** The file's classes: their methods and what each extends. */
  classes: ClassShape[];
  /** This file's calls of imported functions handed imported functions: registrations once the callee is known to register. */
  registrarCalls: ImportedRegistrarCall[];
  /** Specifiers of modules whose exported functions are Temporal activities. */
  activityModules: string[];
  /** Imported functions whose returned object's functions are Temporal activities. */
  activityFactories: { specifier: string; imported: string }[];
  /** Specifiers of modules whose exported functions a Temporal worker registers as workflows (`workflowsPath`). */
  workflowModules: string[];
  /** Imported functions whose result this file writes as an idempotency key. */
  keyCalls: ImportedCall[];
  /** This file's calls of imported functions, with the arguments that hold a value minted for the call. */
  argumentMints: ArgumentMints[];
  /**
   * Every name the file exports itself, values and types (not those it re-exports), in source
   * order, with the local binding it exports when it has one: a barrel's own name shadows an
   * `export *` of the same name, and two names of one binding are one declaration.
   */
  ownExports: OwnExport[];
  /** The file exports in a way {@link ownExports} does not describe (`export =`): only ts-morph can say what. */
  opaqueExports: boolean;
  /** The file runs nothing of its own when loaded (model/modules.ts `runsNothing`): a barrel, no entry. */
  runsNothing: boolean;
  /** Loading the file only defines what it exports and calls nothing (model/modules.ts `onlyDefines`): unloaded, it is dead code. */
  onlyDefines: boolean;
  /** Local names of its exported functions that the module itself names (roles/unreached.ts): they run where it runs. */
  namedFunctions: string[];
  /** Exported constants an imported factory makes (`export const handler = kafkaHandler({ … })`): what it returns. */
  madeExports: { name: string; specifier: string; imported: string }[];
  /** Its top-level functions it neither exports nor names: dead code (roles/unreached.ts). */
  unnamedFunctions: string[];
  /** Folders, relative to the file's own, it loads a module of by a computed path (modules.ts `computedLoadFolders`). */
  computedLoadFolders: string[];
  /** Folders, relative to the file's own, whose every module it loads into a table (handler/folder-tables.ts). */
  loadedFolders: string[];
  /** Libraries whose managed transactions this file switches on for the whole process (`Sequelize.useCLS(ns)`). */
  implicitTransactions: ImplicitTransactionLibrary[];
  /** The object types this file declares, with their function-valued and named-type properties (handler/slots.ts). */
  slotTypes: Map<string, Map<string, SlotMember>>;
  /** The named types its exported values are declared with, of each element for a container (handler/slots.ts). */
  valueTypes: Map<string, TypeRef>;
  /** The named types each type alias it declares is made of (handler/slots.ts `typeAliasesOf`). */
  typeAliases: Map<string, TypeRef[]>;
  /** The functions this file stores in typed slots. */
  slotValues: SlotFact[];
  /** Its classes that keep what a method is handed and hand it back from getters (handler/service-registries.ts). */
  registries: RegistryClass[];
  /** Its classes that register themselves with an injected registry. */
  selfRegistrations: SelfRegistration[];
  /** Methods decorated by a decorator of another module of the project, which the graph may know as a handler decorator. */
  decoratedMethods: { specifier: string; imported: string; queue?: string; fact: ExportFact }[];
}

export function emptyFacts(): FileFacts {
  return {
    imports: [],
    specifiers: [],
    role: { role: 'server', decided: false },
    reExports: [],
    exports: new Map(),
    members: new Map(),
    statics: new Map(),
    instances: [],
    handlers: [],
    importedHandlers: [],
    forwards: [],
    parameterRegistrars: [],
    handOffs: [],
    classes: [],
    registrarCalls: [],
    activityModules: [],
    activityFactories: [],
    workflowModules: [],
    keyCalls: [],
    argumentMints: [],
    ownExports: [],
    opaqueExports: false,
    runsNothing: false,
    onlyDefines: false,
    namedFunctions: [],
    unnamedFunctions: [],
    madeExports: [],
    computedLoadFolders: [],
    loadedFolders: [],
    implicitTransactions: [],
    slotTypes: new Map(),
    valueTypes: new Map(),
    typeAliases: new Map(),
    slotValues: [],
    registries: [],
    selfRegistrations: [],
    decoratedMethods: [],
  };
}

/**
 * An import of a TypeScript module that TypeScript leaves out of its output: none of its bindings
 * is read as a value (used only in types, or not at all), as `tsc`, esbuild and SWC elide such an
 * import (https://www.typescriptlang.org/tsconfig/#verbatimModuleSyntax; a project that sets that
 * option keeps it, which the facts, read without the tsconfig, count as most projects' output
 * does). A client that imports a server module's functions for `typeof` loads none of that
 * module. An import for its side effects, and any import in a JavaScript file, stays.
 */
function isElided(declaration: TSESTree.ImportDeclaration, context: AnyRuleContext): boolean {
  if (declaration.specifiers.length === 0 || !/\.[cm]?tsx?$/.test(context.filename)) return false;
  return declaration.specifiers.every((item) =>
    context.sourceCode
      .getDeclaredVariables(item)
      .every((variable) =>
        variable.references.every((reference) => !reference.isValueReference || inType(reference.identifier)),
      ),
  );
}

/** Types that hold a value's name without reading it at run time (`typeof charge` in a type). */
const TYPE_CONTEXTS: ReadonlySet<string> = new Set([
  AST_NODE_TYPES.TSTypeQuery,
  AST_NODE_TYPES.TSTypeAnnotation,
  AST_NODE_TYPES.TSTypeAliasDeclaration,
  AST_NODE_TYPES.TSInterfaceDeclaration,
  AST_NODE_TYPES.TSTypeParameterInstantiation,
  AST_NODE_TYPES.TSTypeParameterDeclaration,
]);

function inType(node: TSESTree.Node): boolean {
  for (let current = node.parent; current; current = current.parent) if (TYPE_CONTEXTS.has(current.type)) return true;
  return false;
}

/**
 * Where the facts rule writes, and what it collects: every fact (pass 1), or only the handlers
 * (pass 2, which keeps nothing else of the facts: the graph was joined from pass 1's).
 */
export interface FactsSink {
  current: FileFacts;
  handlersOnly?: boolean;
}

/** Creates the facts rule; each run writes into `sink.current`. */
export function createFactsRule(sink: FactsSink): Rule.RuleModule {
  return {
    meta: { type: 'problem', schema: [] },
    create(context) {
      const loaded = new Set<string>();
      const load = (node: { source?: unknown } | undefined): void => {
        const source = node?.source as TSESTree.Node | null | undefined;
        if (source?.type === AST_NODE_TYPES.Literal && typeof source.value === 'string') loaded.add(source.value);
      };
      return {
        ImportDeclaration(node) {
          const declaration = node as unknown as TSESTree.ImportDeclaration;
          const typeOnly =
            declaration.importKind === 'type' ||
            (declaration.specifiers.length > 0 &&
              declaration.specifiers.every(
                (item) => item.type === AST_NODE_TYPES.ImportSpecifier && item.importKind === 'type',
              ));
          if (!typeOnly && !isElided(declaration, context as unknown as AnyRuleContext)) load(declaration);
        },
        ExportNamedDeclaration(node) {
          if ((node as unknown as TSESTree.ExportNamedDeclaration).exportKind !== 'type') load(node);
        },
        ExportAllDeclaration(node) {
          if ((node as unknown as TSESTree.ExportAllDeclaration).exportKind !== 'type') load(node);
        },
        ImportExpression: load,
        'CallExpression[callee.type="Identifier"][callee.name="require"]'(node: unknown) {
          const specifier = requireSpecifier(node as TSESTree.CallExpression);
          if (specifier !== undefined) loaded.add(specifier);
        },
        'Program:exit'(program) {
          const ruleContext = context as unknown as AnyRuleContext;
          sink.current = collectFacts(program as unknown as TSESTree.Program, ruleContext, sink.handlersOnly === true);
          sink.current.specifiers = [...loaded];
          sink.current.role = roleDecisionOf(ruleContext);
        },
      };
    },
  };
}

function requireSpecifier(node: TSESTree.Node | null | undefined): string | undefined {
  const target = node && unwrap(node);
  if (
    target?.type === AST_NODE_TYPES.CallExpression &&
    target.callee.type === AST_NODE_TYPES.Identifier &&
    target.callee.name === 'require' &&
    target.arguments[0]?.type === AST_NODE_TYPES.Literal &&
    typeof target.arguments[0].value === 'string'
  ) {
    return target.arguments[0].value;
  }
  return undefined;
}

function collectFacts(program: TSESTree.Program, context: AnyRuleContext, handlersOnly: boolean): FileFacts {
  const facts = emptyFacts();
  /** Exported name → the node holding its value (a function, an initialiser, an identifier). */
  const exported = new Map<string, TSESTree.Node>();

  for (const statement of program.body) {
    switch (statement.type) {
      case AST_NODE_TYPES.ImportDeclaration: {
        if (statement.importKind === 'type') break;
        const specifier = statement.source.value;
        for (const item of statement.specifiers) {
          if (item.type === AST_NODE_TYPES.ImportSpecifier && item.importKind === 'type') continue;
          const imported =
            item.type === AST_NODE_TYPES.ImportDefaultSpecifier
              ? 'default'
              : item.type === AST_NODE_TYPES.ImportNamespaceSpecifier
                ? '*'
                : item.imported.type === AST_NODE_TYPES.Identifier
                  ? item.imported.name
                  : item.imported.value;
          facts.imports.push({ local: item.local.name, specifier, imported });
        }
        break;
      }
      case AST_NODE_TYPES.VariableDeclaration:
        for (const declarator of statement.declarations) {
          const specifier = requireSpecifier(declarator.init);
          if (specifier === undefined) continue;
          if (declarator.id.type === AST_NODE_TYPES.Identifier) {
            facts.imports.push({ local: declarator.id.name, specifier, imported: 'default' });
          } else if (declarator.id.type === AST_NODE_TYPES.ObjectPattern) {
            for (const property of declarator.id.properties) {
              if (
                property.type === AST_NODE_TYPES.Property &&
                property.key.type === AST_NODE_TYPES.Identifier &&
                property.value.type === AST_NODE_TYPES.Identifier
              ) {
                facts.imports.push({ local: property.value.name, specifier, imported: property.key.name });
              }
            }
          }
        }
        break;
      case AST_NODE_TYPES.ExportAllDeclaration:
        facts.reExports.push({
          specifier: statement.source.value,
          imported: '*',
          exported: statement.exported ? moduleExportName(statement.exported) : '*',
        });
        break;
      case AST_NODE_TYPES.ExportNamedDeclaration: {
        if (statement.exportKind === 'type') break;
        const declaration = statement.declaration;
        if (declaration?.type === AST_NODE_TYPES.FunctionDeclaration && declaration.id)
          exported.set(declaration.id.name, declaration);
        if (declaration?.type === AST_NODE_TYPES.ClassDeclaration && declaration.id)
          exported.set(declaration.id.name, declaration);
        if (declaration?.type === AST_NODE_TYPES.VariableDeclaration) {
          for (const declarator of declaration.declarations) {
            if (declarator.id.type !== AST_NODE_TYPES.Identifier || !declarator.init) continue;
            // `export const bootstrap = bootstrapBase` of an import re-exports it, as `export { a }` does.
            const binding = importedAlias(declarator, facts.imports);
            if (binding)
              facts.reExports.push({
                specifier: binding.specifier,
                imported: binding.imported,
                exported: declarator.id.name,
              });
            else exported.set(declarator.id.name, declarator.id);
            // `export const handler = kafkaHandler({ … })`: what an imported factory returns.
            const init = unwrap(declarator.init);
            const callee = init.type === AST_NODE_TYPES.CallExpression ? unwrap(init.callee) : undefined;
            const maker =
              callee?.type === AST_NODE_TYPES.Identifier
                ? facts.imports.find((entry) => entry.local === callee.name)
                : undefined;
            if (maker && maker.imported !== '*')
              facts.madeExports.push({
                name: declarator.id.name,
                specifier: maker.specifier,
                imported: maker.imported,
              });
          }
        }
        for (const item of statement.specifiers) {
          const local = moduleExportName(item.local);
          const name = moduleExportName(item.exported);
          if (statement.source)
            facts.reExports.push({ specifier: statement.source.value, imported: local, exported: name });
          else if (item.local.type === AST_NODE_TYPES.Identifier) {
            // `import { a } from './a'; export { a }` re-exports, as `export { a } from './a'` does.
            const binding = facts.imports.find((entry) => entry.local === local && entry.imported !== '*');
            if (binding)
              facts.reExports.push({ specifier: binding.specifier, imported: binding.imported, exported: name });
            else exported.set(name, item.local);
          }
        }
        break;
      }
      case AST_NODE_TYPES.ExportDefaultDeclaration:
        exported.set('default', statement.declaration);
        break;
      case AST_NODE_TYPES.ExpressionStatement:
        collectCommonJsExports(statement.expression, exported);
        break;
      default:
        break;
    }
  }

  // `const { a } = require('./a'); module.exports = { a }` (and `export default a` of an import)
  // re-exports `a`, as `export { a } from './a'` does: the binding is another module's.
  for (const [name, node] of exported) {
    if (node.type !== AST_NODE_TYPES.Identifier) continue;
    const binding = facts.imports.find((entry) => entry.local === node.name && entry.imported !== '*');
    if (!binding) continue;
    facts.reExports.push({ specifier: binding.specifier, imported: binding.imported, exported: name });
    exported.delete(name);
  }
  if (handlersOnly) {
    facts.handlers = handlerFacts(serverHandlers(program, context), context, exported);
    return facts;
  }
  for (const [name, node] of exported) {
    const kinds = exportKinds(node, context);
    const fn = functionOf(node, context);
    if (fn) facts.exports.set(name, functionFact(fn, kinds, context));
    else if (kinds.length > 0) facts.exports.set(name, { kinds });
  }
  // A method of an injected service, or a static one a route is handed, that checks the sender
  // (`webhooksService.processResendData(req)`, `router.post(path, PaymentController.webhook)`).
  const methodKinds = (fn: TSESTree.FunctionLike): ExportKind[] => (checksSender(fn, context) ? ['senderCheck'] : []);
  for (const [name, fn] of exportedClassMethods(program))
    facts.members.set(name, functionFact(fn, methodKinds(fn), context));
  for (const [name, node] of exported) {
    // `export const queues = new QueueManager()`, `export default new QueueManager()`, and
    // `export default QueueManager = new QueueManager()` (the class's binding reassigned).
    const value = node.type === AST_NODE_TYPES.AssignmentExpression && node.operator === '=' ? node.right : node;
    const made =
      value.type === AST_NODE_TYPES.Identifier
        ? unwrap(resolveValue(value, context.sourceCode.getScope(value)))
        : unwrap(value);
    const cls = made.type === AST_NODE_TYPES.NewExpression ? unwrap(made.callee) : undefined;
    if (cls?.type === AST_NODE_TYPES.Identifier)
      facts.instances.push({ name: value.type === AST_NODE_TYPES.Identifier ? value.name : name, class: cls.name });
  }
  for (const [name, fn] of exportedClassMethods(program, true))
    facts.statics.set(name, functionFact(fn, methodKinds(fn), context));
  // An exported object of functions (`const paymentController = { processPaymentWebhook };
  // export default paymentController`): an importer's `paymentController.processPaymentWebhook`
  // runs that function, as it runs a method of an exported instance.
  for (const [name, node] of exported)
    for (const [key, fn] of objectFunctions(node, context))
      if (!facts.members.has(`${name}.${key}`))
        facts.members.set(`${name}.${key}`, functionFact(fn, methodKinds(fn), context));

  const handlers = serverHandlers(program, context);
  facts.handlers = handlerFacts(handlers, context, exported);
  const registrations = findImportedRegistrations(program, context);
  facts.importedHandlers = [...registrations.imported, ...importedDispatches(handlers, context)];
  facts.registrarCalls = findImportedRegistrarCalls(program, context);
  const handOffs = handOffsOf(program, context);
  facts.forwards = handOffs.forwards;
  facts.parameterRegistrars = parameterRegistrars(handlers, registrations.handedOn, context);
  facts.classes = handOffs.classes;
  // Like handlers: a test's fake worker is not one the service runs.
  if (roleOf(context) === 'server')
    facts.handOffs = handOffs.handOffs.map(({ functions, tables, ...call }) => ({
      ...call,
      functions: functions.map((fn) => fn && positionedFact(fn, context, handlerName(fn))),
      ...(tables
        ? {
            tables: tables.map(
              (table) => table && table.map(({ key, fn }) => ({ key, fn: positionedFact(fn, context, key) })),
            ),
          }
        : {}),
    }));
  facts.slotTypes = slotTypesOf(program, context);
  facts.valueTypes = exportedValueTypes(program, context);
  facts.typeAliases = typeAliasesOf(program, context);
  // Like handlers: a test's fake job definition is not one the service runs.
  if (roleOf(context) === 'server')
    facts.slotValues = slotValuesOf(program, context).map(({ fn, ...value }) => ({
      ...value,
      fact: positionedFact(fn, context, value.name),
    }));
  // Like handlers: a test's fake controller is not one the service runs.
  if (roleOf(context) === 'server')
    facts.decoratedMethods = projectDecoratedMethods(program, context).map(({ fn, ...decorator }) => ({
      ...decorator,
      fact: positionedFact(
        fn,
        context,
        fn.parent.key.type === AST_NODE_TYPES.Identifier ? fn.parent.key.name : undefined,
      ),
    }));
  facts.registries = registryClasses(program, context);
  // Like handlers: a test's fake service is not one the registry holds.
  if (roleOf(context) === 'server') facts.selfRegistrations = selfRegistrations(program, context);
  const temporal = temporalModuleSpecifiers(program, context);
  facts.activityModules = temporal.activities;
  facts.activityFactories = temporal.factories;
  facts.workflowModules = temporal.workflows;
  facts.keyCalls = importedKeyCalls(program, context);
  // A test's own setup (`Sequelize.useCLS` in a spec helper) says nothing of how the service runs.
  if (roleOf(context) !== 'test') facts.implicitTransactions = [...implicitTransactionSwitches(context)];
  facts.argumentMints = importedArgumentMints(program, context);
  const own = ownExportNames(program, facts.imports, context.sourceCode.text);
  for (const name of exported.keys()) if (!own.names.some((entry) => entry.name === name)) own.names.push({ name });
  facts.ownExports = own.names;
  facts.opaqueExports = own.opaque;
  facts.runsNothing = runsNothing(program);
  facts.onlyDefines = onlyDefines(program);
  facts.computedLoadFolders = computedLoadFolders(context.sourceCode.text);
  facts.loadedFolders = loadedFolders(program, context);
  const uses = ownFunctionUses(
    context.sourceCode,
    new Set(own.names.flatMap((entry) => (facts.exports.has(entry.name) ? [entry.local ?? entry.name] : []))),
  );
  facts.namedFunctions = uses.named;
  // What a `.vue` template names, its script's scopes do not show.
  if (/\.[cm]?[jt]sx?$/.test(context.filename)) facts.unnamedFunctions = uses.unnamed;
  return facts;
}

/** The file's consumer handlers: tests, browser code and scripts receive no deliveries, so their look-alikes are not listed. */
function serverHandlers(program: TSESTree.Program, context: AnyRuleContext): ConsumerHandler[] {
  return roleOf(context) === 'server' ? findConsumerHandlers(program, context) : [];
}

/** What each handler does, picks, waits for and looks up, as the graph reads it. */
function handlerFacts(
  handlers: readonly ConsumerHandler[],
  context: AnyRuleContext,
  exported: ReadonlyMap<string, TSESTree.Node>,
): HandlerFact[] {
  const facts: HandlerFact[] = [];
  for (const handler of handlers) {
    const fact: HandlerFact = {
      line: handler.fn.loc.start.line,
      column: handler.fn.loc.start.column + 1,
      endLine: handler.fn.loc.end.line,
      broker: handler.broker,
      summary: summariseFunction(handler.fn, context),
    };
    const name = handlerName(handler.fn);
    if (name !== undefined) fact.name = name;
    const exportedAs = [...exported].find(([, node]) => functionOf(node, context) === handler.fn)?.[0];
    if (exportedAs !== undefined) fact.exportedAs = exportedAs;
    if (handler.queue !== undefined) fact.queue = handler.queue;
    if (
      handler.broker === 'project-worker' &&
      handler.registration.type === AST_NODE_TYPES.ClassDeclaration &&
      handler.registration.id
    )
      fact.workerClass = handler.registration.id.name;
    // What the functions of this file it hands the delivery to pick (its own picks are handlers of
    // their own). A function another module registers (`generic`: `new Worker(q, processor)` with
    // `processor` imported) is no delivery's handler in this file, so nothing here lists what it
    // picks itself: its own picks go with it, listed where the registration is found.
    const { picks, importedPicks } = picksOf(handler.fn, context, 0);
    const all = !isDelivery(handler.broker);
    const reachedPicks = all ? picks : picks?.filter((pick) => pick.reached);
    const reachedImported = all ? importedPicks : importedPicks?.filter((pick) => pick.reached);
    if (reachedPicks?.length) fact.picks = reachedPicks;
    if (reachedImported?.length) fact.importedPicks = reachedImported;
    const fromFolders = isDelivery(handler.broker) ? folderPicks(handler.fn, context) : [];
    if (fromFolders.length > 0) fact.folderPicks = fromFolders;
    const fromRegistries = isDelivery(handler.broker) ? registryPicks(handler.fn, context) : [];
    if (fromRegistries.length > 0) fact.registryPicks = fromRegistries;
    if (ackedOnSettle(handler, context)) {
      const waits = awaitedImports(handler.fn, context);
      if (waits.length > 0) fact.waits = waits;
    }
    const lookups = isDelivery(handler.broker) ? tableLookups(handler.fn, context) : [];
    if (lookups.length > 0) fact.tableLookups = lookups;
    const template = isDelivery(handler.broker) ? templateCalls(handler.fn) : undefined;
    if (template) fact.templateCalls = template;
    facts.push(fact);
  }
  return facts;
}

/** The names a module declares and exports itself, and whether it also exports in a way names do not describe. */
function ownExportNames(
  program: TSESTree.Program,
  imports: readonly ImportBinding[],
  text: string,
): { names: OwnExport[]; opaque: boolean } {
  const names: OwnExport[] = [];
  let opaque = false;
  let holdsCode = false;
  const bindingNames = (pattern: TSESTree.Node): void => {
    if (pattern.type === AST_NODE_TYPES.Identifier)
      names.push({ name: pattern.name, local: pattern.name, ...(holdsCode && { holdsCode: true as const }) });
    else if (pattern.type === AST_NODE_TYPES.ObjectPattern)
      for (const property of pattern.properties)
        bindingNames(property.type === AST_NODE_TYPES.Property ? property.value : property.argument);
    else if (pattern.type === AST_NODE_TYPES.ArrayPattern) {
      for (const element of pattern.elements) if (element) bindingNames(element);
    } else if (pattern.type === AST_NODE_TYPES.AssignmentPattern) bindingNames(pattern.left);
    else if (pattern.type === AST_NODE_TYPES.RestElement) bindingNames(pattern.argument);
  };
  for (const statement of program.body) {
    if (statement.type === AST_NODE_TYPES.TSExportAssignment) opaque = true;
    else if (statement.type === AST_NODE_TYPES.ExportDefaultDeclaration) {
      const declaration = statement.declaration;
      const local =
        declaration.type === AST_NODE_TYPES.Identifier
          ? declaration.name
          : 'id' in declaration && declaration.id?.type === AST_NODE_TYPES.Identifier
            ? declaration.id.name
            : undefined;
      names.push(local === undefined ? { name: 'default' } : { name: 'default', local });
    } else if (statement.type === AST_NODE_TYPES.ExportNamedDeclaration && statement.source === null) {
      const declaration = statement.declaration;
      if (declaration?.type === AST_NODE_TYPES.VariableDeclaration) {
        for (const declarator of declaration.declarations) {
          if (importedAlias(declarator, imports)) continue;
          const init = declarator.init;
          holdsCode = init !== null && FUNCTION_TEXT.test(text.slice(init.range[0], init.range[1]));
          bindingNames(declarator.id);
          holdsCode = false;
        }
      } else if (declaration && 'id' in declaration && declaration.id?.type === AST_NODE_TYPES.Identifier)
        names.push({ name: declaration.id.name, local: declaration.id.name });
      else if (declaration) opaque = true;
      for (const item of statement.specifiers) {
        const local = moduleExportName(item.local);
        // `import { a } from './a'; export { a }` is a re-export, recorded as one.
        if (!imports.some((binding) => binding.local === local && binding.imported !== '*'))
          names.push({ name: moduleExportName(item.exported), local });
      }
    } else if (
      statement.type === AST_NODE_TYPES.ExpressionStatement &&
      statement.expression.type === AST_NODE_TYPES.AssignmentExpression
    )
      names.push(...commonJsExportNames(statement.expression, imports));
  }
  // `export const communitiesApi = express.Router()` given its routes by the module's own body
  // (`communitiesApi.get('/', route)`): a constant that holds code, as a table of handlers does.
  const given = registeredOn(program);
  for (const entry of names) if (entry.local !== undefined && given.has(entry.local)) entry.holdsCode = true;
  return { names, opaque };
}

/**
 * The module-level bindings the module's own body calls a method of with something that is not a
 * literal (`router.get('/', handler)`, `bus.on('event', listener)`): objects it gives code to.
 */
function registeredOn(program: TSESTree.Program): Set<string> {
  const found = new Set<string>();
  for (const statement of program.body) {
    if (statement.type !== AST_NODE_TYPES.ExpressionStatement) continue;
    // `router.get(…).post(…)`: the chain's first receiver.
    let call = unwrap(statement.expression);
    while (
      call.type === AST_NODE_TYPES.CallExpression &&
      call.callee.type === AST_NODE_TYPES.MemberExpression &&
      unwrap(call.callee.object).type === AST_NODE_TYPES.CallExpression
    )
      call = unwrap(call.callee.object);
    if (call.type !== AST_NODE_TYPES.CallExpression || call.callee.type !== AST_NODE_TYPES.MemberExpression) continue;
    const receiver = unwrap(call.callee.object);
    if (
      receiver.type === AST_NODE_TYPES.Identifier &&
      call.arguments.some(
        (argument) => argument.type !== AST_NODE_TYPES.Literal && argument.type !== AST_NODE_TYPES.TemplateLiteral,
      )
    )
      found.add(receiver.name);
  }
  return found;
}

/**
 * The names a CommonJS assignment exports with the local binding behind each (`module.exports =
 * createConsumers` exports `default` as `createConsumers`; `module.exports = { start, stop: halt }`,
 * `exports.start = start`), for the bindings the module declares itself.
 */
function commonJsExportNames(
  assignment: TSESTree.AssignmentExpression,
  imports: readonly ImportBinding[],
): OwnExport[] {
  const path = memberPath(assignment.left);
  const own = (value: TSESTree.Node, name: string): OwnExport[] => {
    const local = unwrap(value);
    return local.type === AST_NODE_TYPES.Identifier && !imports.some((binding) => binding.local === local.name)
      ? [{ name, local: local.name }]
      : [];
  };
  if (path?.length === 2 && path[0] === 'module' && path[1] === 'exports') {
    const right = unwrap(assignment.right);
    if (right.type !== AST_NODE_TYPES.ObjectExpression) return own(right, 'default');
    return right.properties.flatMap((property) =>
      property.type === AST_NODE_TYPES.Property && !property.computed && property.key.type === AST_NODE_TYPES.Identifier
        ? own(property.value, property.key.name)
        : [],
    );
  }
  const name =
    path?.length === 2 && path[0] === 'exports'
      ? path[1]
      : path?.length === 3 && path[0] === 'module' && path[1] === 'exports'
        ? path[2]
        : undefined;
  return name === undefined ? [] : own(assignment.right, name);
}

/** A function or class written somewhere inside a value's text. */
const FUNCTION_TEXT = /=>|\bfunction\b|\bclass\b/;

/** The import a `const` only renames (`export const bootstrap = bootstrapBase`): not a namespace, never reassigned. */
function importedAlias(
  declarator: TSESTree.VariableDeclarator,
  imports: readonly ImportBinding[],
): ImportBinding | undefined {
  const init = declarator.init && unwrap(declarator.init);
  if (init?.type !== AST_NODE_TYPES.Identifier || declarator.parent.kind !== 'const') return undefined;
  return imports.find((binding) => binding.local === init.name && binding.imported !== '*');
}

/** `module.exports = x`, `module.exports = { a, b: c }`, `exports.a = x`, `module.exports.a = x`. */
function collectCommonJsExports(expression: TSESTree.Expression, exported: Map<string, TSESTree.Node>): void {
  if (expression.type !== AST_NODE_TYPES.AssignmentExpression || expression.operator !== '=') return;
  const path = memberPath(expression.left);
  if (!path) return;
  if (path.length === 2 && path[0] === 'module' && path[1] === 'exports') {
    const right = unwrap(expression.right);
    if (right.type === AST_NODE_TYPES.ObjectExpression) {
      for (const property of right.properties) {
        if (
          property.type === AST_NODE_TYPES.Property &&
          !property.computed &&
          property.key.type === AST_NODE_TYPES.Identifier
        ) {
          exported.set(property.key.name, property.value);
        }
      }
    } else {
      exported.set('default', right);
    }
  } else if (
    (path.length === 2 && path[0] === 'exports') ||
    (path.length === 3 && path[0] === 'module' && path[1] === 'exports')
  ) {
    exported.set(path[path.length - 1] ?? 'default', expression.right);
  }
}

/** What importers need to know about an exported function (or an exported class's method). */
function functionFact(fn: TSESTree.FunctionLike, kinds: ExportKind[], context: AnyRuleContext): ExportFact {
  const fact: ExportFact = { kinds, summary: summariseFunction(fn, context) };
  if (returnsPromise(fn)) fact.async = true;
  if (writesOnItsOwn(fn, context)) fact.ownHandle = true;
  const waits = awaitedImports(fn, context);
  if (waits.length > 0) fact.waits = waits;
  const keyParameters = keyParametersOf(fn, context);
  if (keyParameters.length > 0) fact.keyParameters = keyParameters;
  const handle = defaultHandleParameter(fn, context);
  if (handle !== undefined) fact.handle = handle;
  const sessionless = sessionlessCallbackParameter(fn, context);
  if (sessionless !== undefined) fact.sessionless = sessionless;
  const forwardsOptions = forwardedOptionsParameter(fn, context);
  if (forwardsOptions !== undefined) fact.forwardsOptions = forwardsOptions;
  const wrapper = wrappedTransactionCallback(fn, context);
  if (wrapper) fact.transactionWrapper = wrapper;
  if (kinds.includes('perAttemptFunction') && unstableKeyMint(fn, context)) fact.unstableKeyHelper = true;
  const keyedBody = keyedBodyParameters(fn, context);
  if (keyedBody.length > 0) fact.keyedBodyParameters = keyedBody;
  fact.position = { line: fn.loc.start.line, column: fn.loc.start.column + 1, endLine: fn.loc.end.line };
  const local = handlerName(fn);
  if (local !== undefined) fact.position.name = local;
  Object.assign(fact, picksOf(fn, context, 0));
  const parameterTypes = parameterTypesOf(fn, context.sourceCode.getScope(fn));
  if (parameterTypes) fact.parameterTypes = parameterTypes;
  const returned = returnedFunction(fn, context.sourceCode.getScope(fn));
  if (returned) fact.returns = functionFact(returned, [], context);
  const table = returnedTable(fn, context);
  if (table.length > 0) fact.returnsTable = table;
  const registers = registeredTable(fn, context);
  if (registers !== undefined) fact.registersTable = registers;
  return fact;
}

/** The functions of the object literal `fn` returns, each where it is defined (`({ async send() {…} })`). */
function returnedTable(fn: TSESTree.FunctionLike, context: AnyRuleContext): ExportFact[] {
  const object = returnedObject(fn, context.sourceCode.getScope(fn));
  if (!object) return [];
  return object.properties.flatMap((property) => {
    if (property.type !== AST_NODE_TYPES.Property) return [];
    const value = unwrap(property.value);
    if (!isFunction(value)) return [];
    return [positionedFact(value, context, propertyKeyName(property) ?? handlerName(value))];
  });
}

/** How many levels of picks a registered function's fact carries (a dispatcher picking a dispatcher). */
const PICK_DEPTH = 3;

/**
 * What a delivery running `fn` does, and where `fn` is: for a function other files' facts may list
 * as a handler, with the functions of this file it picks by the delivery's type.
 */
function positionedFact(
  fn: TSESTree.FunctionLike,
  context: AnyRuleContext,
  name: string | undefined,
  depth = 0,
): ExportFact {
  const fact: ExportFact = {
    kinds: [],
    summary: summariseFunction(fn, context),
    position: {
      line: fn.loc.start.line,
      column: fn.loc.start.column + 1,
      endLine: fn.loc.end.line,
      ...(name === undefined ? {} : { name }),
    },
  };
  if (depth >= PICK_DEPTH) return fact;
  return Object.assign(fact, picksOf(fn, context, depth));
}

/**
 * The functions `fn` (or a function of its file it calls) picks by the type of what it is handed
 * (handler/type-dispatch.ts): those of this file with their own facts, those of other modules (an
 * imported function, an injected service's method) as the call the graph resolves.
 */
function picksOf(fn: TSESTree.FunctionLike, context: AnyRuleContext, depth: number): Picks {
  const picks: NonNullable<Picks['picks']> = [];
  const importedPicks: NonNullable<Picks['importedPicks']> = [];
  // And, for a function a registration may hand the delivery (not one picked per type, whose
  // arguments are no longer the delivery), the one function it hands what it was handed to when
  // that is all it does (`(event) => manager.handleBroadcast(event)`), or each record of its batch.
  const forwarded =
    depth > 0 ? [] : forwardPicks(fn, context).map((pick) => ({ ...pick, key: undefined, forward: true as const }));
  const dispatched: (ReachedDispatch & { forward?: true })[] = [...reachedDispatches(fn, context), ...forwarded];
  for (const { value, key, at, reached, byField, forward } of dispatched) {
    const scope = context.sourceCode.getScope(at);
    const keyed = {
      ...(key === undefined ? {} : { key }),
      ...(reached ? { reached } : {}),
      ...(byField ? { byField } : {}),
      ...(forward ? { forward } : {}),
    };
    const picked = resolveHandlerFunction(value, scope);
    if (picked) {
      if (picked !== fn)
        picks.push({ ...keyed, fact: positionedFact(picked, context, handlerName(picked), depth + 1) });
      continue;
    }
    const call = importedPick(value, scope);
    if (call) importedPicks.push({ ...keyed, call });
  }
  return {
    ...(picks.length > 0 ? { picks } : {}),
    ...(importedPicks.length > 0 ? { importedPicks } : {}),
  };
}

/**
 * The functions an object literal holds by key, where `node` is one, a constant that holds one, or
 * a call handed one (a definer's options, which it keeps under their keys).
 */
function objectFunctions(node: TSESTree.Node, context: AnyRuleContext): [string, TSESTree.FunctionLike][] {
  let value = unwrap(node);
  const scope = context.sourceCode.getScope(value);
  if (value.type === AST_NODE_TYPES.Identifier) value = unwrap(resolveValue(value, scope));
  // `export const job = createJob({ id, handle })`: a definer that keeps what it is handed under its keys.
  if (value.type === AST_NODE_TYPES.CallExpression) {
    const options = value.arguments.find((argument) => unwrap(argument).type === AST_NODE_TYPES.ObjectExpression);
    if (options) value = unwrap(options);
  }
  if (value.type !== AST_NODE_TYPES.ObjectExpression) return [];
  const found: [string, TSESTree.FunctionLike][] = [];
  for (const property of value.properties) {
    if (property.type !== AST_NODE_TYPES.Property || property.computed) continue;
    const key = propertyKeyName(property);
    const fn = key === undefined ? undefined : resolveFunction(property.value, scope);
    if (key !== undefined && fn) found.push([key, fn]);
  }
  return found;
}

function functionOf(node: TSESTree.Node, context: AnyRuleContext): TSESTree.FunctionLike | undefined {
  const target = unwrap(node);
  if (target.type === AST_NODE_TYPES.FunctionDeclaration) return target;
  const scope = context.sourceCode.getScope(target);
  return resolveFunction(target, scope) ?? factoryResult(target, scope, context) ?? wrappedExport(target, scope);
}

/**
 * `export const main = middyfy(keepPubSubAlive)`: an export made by a wrapper of another module
 * (middy's `middy(handler)`, a template's `middyfy`, `withSentry(handler)`) handed one function of
 * this file, which is what a caller of the export, or the platform, runs
 * (library-registrations.ts `wrappedHandler`).
 */
function wrappedExport(target: TSESTree.Node, scope: Scope): TSESTree.FunctionLike | undefined {
  if (target.type !== AST_NODE_TYPES.Identifier) return undefined;
  const def = findVariable(scope, target)?.defs[0];
  const init =
    def?.node.type === AST_NODE_TYPES.VariableDeclarator && def.node.init ? unwrap(def.node.init) : undefined;
  return init?.type === AST_NODE_TYPES.CallExpression ? wrappedHandler(init, scope) : undefined;
}

/**
 * `export const handler = buildHandler(deps)` with `buildHandler` a function of this file that
 * returns one function: what is exported is that function (a Lambda handler built with its
 * dependencies, the shape that lets tests hand in fakes).
 */
function factoryResult(
  target: TSESTree.Node,
  scope: Scope,
  context: AnyRuleContext,
): TSESTree.FunctionLike | undefined {
  if (target.type !== AST_NODE_TYPES.Identifier) return undefined;
  const def = findVariable(scope, target)?.defs[0];
  const init =
    def?.node.type === AST_NODE_TYPES.VariableDeclarator && def.node.init ? unwrap(def.node.init) : undefined;
  if (init?.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const factory = resolveFunction(init.callee, scope);
  return factory && returnedFunction(factory, context.sourceCode.getScope(factory));
}

function handlerName(fn: TSESTree.FunctionLike): string | undefined {
  if (fn.id) return fn.id.name;
  const parent = fn.parent;
  if (parent.type === AST_NODE_TYPES.VariableDeclarator && parent.id.type === AST_NODE_TYPES.Identifier)
    return parent.id.name;
  if (parent.type === AST_NODE_TYPES.Property && parent.key.type === AST_NODE_TYPES.Identifier) return parent.key.name;
  return undefined;
}
