import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { type AnyRuleContext } from '../ast/context.js';
import { unwrap } from '../ast/nodes.js';
import { findVariable } from '../ast/values.js';
import { calleeName } from '../ast/names.js';
import { importSource, importedModules } from '../modules.js';
import { typeNameOf } from '../types.js';

/** The ORMs and query builders whose transactions the model reads. */
export type OrmLibrary =
  | 'prisma'
  | 'drizzle'
  | 'knex'
  | 'kysely'
  | 'typeorm'
  | 'sequelize'
  | 'mikro-orm'
  | 'mongoose'
  | 'pg-promise'
  | 'objection';

/** The modules each library is imported from (an import of one marks the file as using it). */
const MODULES: readonly (readonly [OrmLibrary, RegExp])[] = [
  // Prisma 6.6+ generates the client into the project (`output = "../generated/prisma"`).
  ['prisma', /^@prisma\/client(?:\/|$)|^\.prisma\/client|(?:^|\/)generated\/prisma(?:\/|$)/],
  ['drizzle', /^drizzle-orm(?:\/|$)/],
  ['knex', /^knex$/],
  ['kysely', /^kysely(?:\/|$)/],
  ['typeorm', /^typeorm(?:\/|$)|^@nestjs\/typeorm$/],
  ['sequelize', /^sequelize(?:-typescript)?$|^@nestjs\/sequelize$|^@sequelize\/core$/],
  ['mikro-orm', /^@mikro-orm\//],
  ['mongoose', /^mongoose$|^@nestjs\/mongoose$|^@typegoose\/typegoose$/],
  ['pg-promise', /^pg-promise$/],
  ['objection', /^objection$/],
];

/** The module is one of these libraries' (a database client: code that imports it runs on a server). */
export function isOrmModule(module: string): boolean {
  return MODULES.some(([, pattern]) => pattern.test(module));
}

/** Every library's name, as settings write it (`transactionWrappers[].library`). */
export const ORM_LIBRARIES: readonly string[] = MODULES.map(([library]) => library);

/** The constructors and factories whose result is a library's database handle. */
const FACTORIES: ReadonlyMap<string, OrmLibrary> = new Map([
  ['PrismaClient', 'prisma'],
  ['drizzle', 'drizzle'],
  ['knex', 'knex'],
  ['Knex', 'knex'],
  ['Kysely', 'kysely'],
  ['DataSource', 'typeorm'],
  ['Sequelize', 'sequelize'],
  ['MikroORM', 'mikro-orm'],
  ['pgPromise', 'pg-promise'],
  ['pgp', 'pg-promise'],
]);

/** The type names (declared in the library's own files) of each library's handles. */
const TYPE_FILES: readonly (readonly [OrmLibrary, RegExp])[] = [
  ['prisma', /[\\/](?:@prisma[\\/]client|\.prisma[\\/]client|generated[\\/]prisma)[\\/]/],
  ['drizzle', /[\\/]drizzle-orm[\\/]/],
  ['knex', /[\\/]knex[\\/]/],
  ['kysely', /[\\/]kysely[\\/]/],
  ['typeorm', /[\\/]typeorm[\\/]/],
  ['sequelize', /[\\/](?:sequelize(?:-typescript)?|@sequelize[\\/]core)[\\/]/],
  ['mikro-orm', /[\\/]@mikro-orm[\\/]/],
  ['mongoose', /[\\/](?:mongoose|mongodb)[\\/]/],
  ['pg-promise', /[\\/]pg-promise[\\/]/],
  ['objection', /[\\/]objection[\\/]/],
];

/** True when a file (a path) belongs to one of the libraries' own packages. */
export function isLibraryFile(file: string): boolean {
  return TYPE_FILES.some(([, pattern]) => pattern.test(file));
}
/** Each file's libraries, read once: every call the write model looks at asks. */
const librariesOfFile = new WeakMap<object, Set<OrmLibrary>>();

/** The libraries this file imports. */
export function fileLibraries(context: AnyRuleContext): Set<OrmLibrary> {
  const program = context.sourceCode.ast;
  const known = librariesOfFile.get(program);
  if (known) return known;
  const found = new Set<OrmLibrary>();
  for (const module of importedModules(program)) {
    for (const [library, pattern] of MODULES) if (pattern.test(module)) found.add(library);
  }
  librariesOfFile.set(program, found);
  return found;
}

/**
 * With type information: the library that declares the type of `node`, or `null` when the
 * type is known and declared elsewhere (so the node is not a handle of any of them). Undefined
 * without type information or for `any`.
 */
function typedLibrary(node: TSESTree.Node, context: AnyRuleContext): OrmLibrary | null | undefined {
  const typed = typeNameOf(node, context);
  if (!typed) return undefined;
  for (const [library, pattern] of TYPE_FILES) if (typed.files.some((file) => pattern.test(file))) return library;
  return null;
}

/** How the library of a handle is known: its type, the call that made it, or the file's only ORM import. */
export type HandleEvidence = 'type' | 'construction' | 'annotation' | 'name' | 'import';

/**
 * Names that say which library a handle belongs to when nothing else does: Sequelize's own
 * `QueryInterface` and the models index of `sequelize-cli` hold the instance as `.sequelize`
 * (`queryInterface.sequelize.transaction(...)` in every migration, `db.sequelize`).
 */
const HANDLE_NAME_LIBRARIES: readonly (readonly [OrmLibrary, RegExp])[] = [['sequelize', /^sequelize$/]];

function handleName(node: TSESTree.Node): string | undefined {
  if (node.type === AST_NODE_TYPES.Identifier) return node.name;
  if (
    node.type === AST_NODE_TYPES.MemberExpression &&
    !node.computed &&
    node.property.type === AST_NODE_TYPES.Identifier
  )
    return node.property.name;
  return undefined;
}

/** The library whose module the type a binding is annotated with is imported from (`em: EntityManager`, `trx: Knex.Transaction`). */
function annotationLibrary(name: TSESTree.Identifier, context: AnyRuleContext): OrmLibrary | undefined {
  const type = name.typeAnnotation?.typeAnnotation;
  if (type?.type !== AST_NODE_TYPES.TSTypeReference) return undefined;
  let root: TSESTree.EntityName = type.typeName;
  while (root.type === AST_NODE_TYPES.TSQualifiedName) root = root.left;
  if (root.type !== AST_NODE_TYPES.Identifier) return undefined;
  const source = importSource(root, context.sourceCode.getScope(root));
  return source && MODULES.find(([, pattern]) => pattern.test(source.module))?.[0];
}

/** {@link handleLibrary} with how it was told. */
export function describeHandle(
  handle: TSESTree.Node,
  context: AnyRuleContext,
): { library: OrmLibrary; evidence: HandleEvidence } | undefined {
  const typed = typedLibrary(handle, context);
  if (typed !== undefined) return typed === null ? undefined : { library: typed, evidence: 'type' };
  const target = unwrap(handle);
  if (target.type === AST_NODE_TYPES.Identifier) {
    const def = findVariable(context.sourceCode.getScope(target), target)?.defs[0];
    const init = def?.node.type === AST_NODE_TYPES.VariableDeclarator ? def.node.init : undefined;
    const made = init ? FACTORIES.get(calleeName(unwrap(init)) ?? '') : undefined;
    if (made) return { library: made, evidence: 'construction' };
    // `em: EntityManager` with `EntityManager` imported from `@mikro-orm/core`.
    const annotated = def?.name.type === AST_NODE_TYPES.Identifier ? annotationLibrary(def.name, context) : undefined;
    if (annotated) return { library: annotated, evidence: 'annotation' };
  }
  const name = handleName(target);
  const named = name === undefined ? undefined : HANDLE_NAME_LIBRARIES.find(([, pattern]) => pattern.test(name))?.[0];
  if (named) return { library: named, evidence: 'name' };
  const imported = fileLibraries(context);
  const [only] = imported;
  return imported.size === 1 && only ? { library: only, evidence: 'import' } : undefined;
}

/**
 * The library a database handle belongs to: by its type; else by the call that made it
 * (`new PrismaClient()`, `drizzle(...)`, `knex(...)`, `new DataSource(...)`); else, when the
 * file imports exactly one of the libraries, that one. Undefined when nothing tells.
 */
export function handleLibrary(handle: TSESTree.Node, context: AnyRuleContext): OrmLibrary | undefined {
  return describeHandle(handle, context)?.library;
}
