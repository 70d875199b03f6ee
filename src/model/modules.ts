import { isBuiltin } from 'node:module';
import { AST_NODE_TYPES, TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { nearestManifest } from './roles/package.js';
import { type Scope } from './ast/context.js';
import { ownChildNodes, unwrap } from './ast/nodes.js';
import { findVariable } from './ast/values.js';
import { propertyKeyName, memberName } from './ast/names.js';

/** The module a binding was imported from (`import x from 'm'`, `const x = require('m')`), with the imported name. */
export function importSource(
  identifier: TSESTree.Identifier,
  scope: Scope,
): { module: string; imported: string } | undefined {
  const variable = findVariable(scope, identifier);
  const def = variable?.defs[0];
  if (!def) return undefined;
  if (def.type === TSESLint.Scope.DefinitionType.ImportBinding) {
    const declaration = def.parent;
    const specifier = def.node;
    if (declaration.type !== AST_NODE_TYPES.ImportDeclaration) return undefined;
    const module = declaration.source.value;
    if (specifier.type === AST_NODE_TYPES.ImportDefaultSpecifier) return { module, imported: 'default' };
    if (specifier.type === AST_NODE_TYPES.ImportNamespaceSpecifier) return { module, imported: '*' };
    if (specifier.type === AST_NODE_TYPES.ImportSpecifier) {
      const imported = specifier.imported;
      return { module, imported: imported.type === AST_NODE_TYPES.Identifier ? imported.name : imported.value };
    }
    return undefined;
  }
  if (def.node.type === AST_NODE_TYPES.VariableDeclarator && def.node.init) {
    const init = unwrap(def.node.init);
    // const m = await import('m'): the module's namespace object, as `import * as m` gives it.
    if (
      init.type === AST_NODE_TYPES.ImportExpression &&
      init.source.type === AST_NODE_TYPES.Literal &&
      typeof init.source.value === 'string'
    ) {
      const module = init.source.value;
      if (def.node.id.type === AST_NODE_TYPES.Identifier) return { module, imported: '*' };
      if (def.node.id.type === AST_NODE_TYPES.ObjectPattern) {
        const property = def.node.id.properties.find(
          (entry) =>
            entry.type === AST_NODE_TYPES.Property &&
            entry.value.type === AST_NODE_TYPES.Identifier &&
            entry.value.name === identifier.name,
        );
        const imported = property?.type === AST_NODE_TYPES.Property ? propertyKeyName(property) : undefined;
        if (imported !== undefined) return { module, imported };
      }
      return undefined;
    }
    // const x = require('m') / const { a } = require('m') / const x = require('m').a
    const required = requiredModule(init);
    if (required !== undefined) {
      if (def.node.id.type === AST_NODE_TYPES.Identifier) return { module: required, imported: 'default' };
      if (def.node.id.type === AST_NODE_TYPES.ObjectPattern) {
        for (const property of def.node.id.properties) {
          if (
            property.type === AST_NODE_TYPES.Property &&
            property.value.type === AST_NODE_TYPES.Identifier &&
            property.value.name === identifier.name
          ) {
            return { module: required, imported: propertyKeyName(property) ?? identifier.name };
          }
        }
      }
    }
    if (init.type === AST_NODE_TYPES.MemberExpression) {
      const module = requiredModule(unwrap(init.object));
      const name = memberName(init);
      if (module !== undefined && name !== undefined) return { module, imported: name };
    }
  }
  return undefined;
}

/**
 * A specifier of a module of the project (`./x`, `/abs/x`, `~/x`, `@/x`, `#x`), not of a package
 * (`lodash`, `@scope/pkg/sub`, `node:fs`).
 */
export function isProjectSpecifier(specifier: string): boolean {
  return /^(?:\.|\/|~|#|@\/)/.test(specifier);
}

/**
 * A module of the project as `filename` imports it: a specifier {@link isProjectSpecifier} says
 * is one, or a bare one that names no package its `package.json` depends on and no Node built-in
 * (`@users/services/seller.service` of a `paths` mapping in tsconfig.json, whose prefixes are the
 * project's to choose).
 */
export function isProjectModule(specifier: string, filename: string): boolean {
  if (isProjectSpecifier(specifier)) return true;
  if (specifier.startsWith('node:')) return false;
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
  if (isBuiltin(name)) return false;
  const manifest = nearestManifest(filename);
  return manifest !== undefined && manifest.dependencies.size > 0 && !manifest.dependencies.has(name);
}

/** The module a static `require('x')` names, or undefined for anything else. */
export function requiredModule(node: TSESTree.Node): string | undefined {
  if (
    node.type === AST_NODE_TYPES.CallExpression &&
    node.callee.type === AST_NODE_TYPES.Identifier &&
    node.callee.name === 'require' &&
    node.arguments[0]?.type === AST_NODE_TYPES.Literal &&
    typeof node.arguments[0].value === 'string'
  ) {
    return node.arguments[0].value;
  }
  return undefined;
}

/** The module specifiers this file imports or requires. */
export function importedModules(program: TSESTree.Program): Set<string> {
  const modules = new Set<string>();
  for (const statement of program.body) {
    if (statement.type === AST_NODE_TYPES.ImportDeclaration) modules.add(statement.source.value);
  }
  // require() anywhere at module level, in declarations.
  for (const statement of program.body) {
    if (statement.type !== AST_NODE_TYPES.VariableDeclaration) continue;
    for (const declarator of statement.declarations) {
      let init = declarator.init && unwrap(declarator.init);
      while (init?.type === AST_NODE_TYPES.MemberExpression) init = unwrap(init.object);
      while (init?.type === AST_NODE_TYPES.CallExpression && init.callee.type === AST_NODE_TYPES.CallExpression)
        init = init.callee;
      if (
        init?.type === AST_NODE_TYPES.CallExpression &&
        init.callee.type === AST_NODE_TYPES.Identifier &&
        init.callee.name === 'require' &&
        init.arguments[0]?.type === AST_NODE_TYPES.Literal
      ) {
        modules.add(String(init.arguments[0].value));
      }
    }
  }
  return modules;
}

/**
 * A module that runs nothing of its own when it is loaded: imports, re-exports and types only (a
 * package's barrel, `index.ts` of `export * from './a'`). Nothing starts when such a file is run,
 * so it is no program's entry: what it re-exports runs where the modules that load it run. An
 * import for its side effects (`import './server'`) starts that module, as a main does.
 */
export function runsNothing(program: TSESTree.Program): boolean {
  return program.body.every((statement) => {
    switch (statement.type) {
      case AST_NODE_TYPES.ImportDeclaration:
        return statement.specifiers.length > 0;
      case AST_NODE_TYPES.ExportAllDeclaration:
      case AST_NODE_TYPES.TSInterfaceDeclaration:
      case AST_NODE_TYPES.TSTypeAliasDeclaration:
        return true;
      case AST_NODE_TYPES.ExportNamedDeclaration:
        return (
          statement.declaration === null ||
          statement.declaration.type === AST_NODE_TYPES.TSInterfaceDeclaration ||
          statement.declaration.type === AST_NODE_TYPES.TSTypeAliasDeclaration
        );
      default:
        return false;
    }
  });
}

/**
 * A module that only defines: loading it declares functions, classes and values and calls
 * nothing (a `require` aside), so its code runs only when something calls what it exports. Such a
 * module that nothing loads is no program's entry but dead code (analysis/reached-roles.ts): a
 * main starts something at its top level, and a platform calls an entry by the name it exports
 * (`handler`, a default export), which the caller checks. Decorators and a default export count as
 * running: a framework reads them when the module loads.
 */
export function onlyDefines(program: TSESTree.Program): boolean {
  return program.body.every((statement) => definesOnly(statement));
}

function definesOnly(statement: TSESTree.ProgramStatement | TSESTree.NamedExportDeclarations): boolean {
  switch (statement.type) {
    case AST_NODE_TYPES.ImportDeclaration:
      return statement.specifiers.length > 0 || statement.importKind === 'type';
    case AST_NODE_TYPES.ExportAllDeclaration:
    case AST_NODE_TYPES.TSInterfaceDeclaration:
    case AST_NODE_TYPES.TSTypeAliasDeclaration:
    case AST_NODE_TYPES.TSDeclareFunction:
    case AST_NODE_TYPES.TSEnumDeclaration:
    case AST_NODE_TYPES.TSModuleDeclaration:
    case AST_NODE_TYPES.FunctionDeclaration:
      return true;
    case AST_NODE_TYPES.ClassDeclaration:
      return statement.decorators.length === 0 && !callsOnLoad(statement);
    case AST_NODE_TYPES.VariableDeclaration:
      return statement.declarations.every((declarator) => !declarator.init || !callsOnLoad(declarator.init));
    case AST_NODE_TYPES.ExportNamedDeclaration:
      return statement.declaration === null || definesOnly(statement.declaration);
    case AST_NODE_TYPES.ExpressionStatement: {
      if (statement.directive !== undefined) return true;
      // CommonJS exports: `module.exports = { ... }`, `exports.run = run`.
      // `module.exports = async (job) => …` is a default export: what its loader calls.
      const expression = statement.expression;
      return (
        expression.type === AST_NODE_TYPES.AssignmentExpression &&
        isCommonJsExport(expression.left) &&
        !(
          expression.left.type === AST_NODE_TYPES.MemberExpression &&
          memberName(expression.left) === 'exports' &&
          isFunction(expression.right)
        ) &&
        !callsOnLoad(expression.right)
      );
    }
    default:
      return false;
  }
}

function isFunction(node: TSESTree.Node): boolean {
  return node.type === AST_NODE_TYPES.FunctionExpression || node.type === AST_NODE_TYPES.ArrowFunctionExpression;
}

function isCommonJsExport(target: TSESTree.Node): boolean {
  if (target.type !== AST_NODE_TYPES.MemberExpression) return false;
  const object = target.object;
  if (object.type === AST_NODE_TYPES.Identifier)
    return object.name === 'exports' || (object.name === 'module' && memberName(target) === 'exports');
  return isCommonJsExport(object);
}

/** Whether evaluating a node calls something, outside the functions it defines (`require` aside). */
function callsOnLoad(node: TSESTree.Node): boolean {
  switch (node.type) {
    case AST_NODE_TYPES.FunctionExpression:
    case AST_NODE_TYPES.ArrowFunctionExpression:
    case AST_NODE_TYPES.FunctionDeclaration:
      return false;
    case AST_NODE_TYPES.MethodDefinition:
    case AST_NODE_TYPES.TSAbstractMethodDefinition:
      return node.computed && callsOnLoad(node.key);
    // An instance field runs when an instance is made, not when the module loads.
    case AST_NODE_TYPES.PropertyDefinition:
      if (!node.static) return node.computed && callsOnLoad(node.key);
      break;
    case AST_NODE_TYPES.Decorator:
    case AST_NODE_TYPES.NewExpression:
    case AST_NODE_TYPES.TaggedTemplateExpression:
    case AST_NODE_TYPES.AwaitExpression:
    case AST_NODE_TYPES.ImportExpression:
      return true;
    case AST_NODE_TYPES.CallExpression:
      if (node.callee.type !== AST_NODE_TYPES.Identifier || node.callee.name !== 'require') return true;
      break;
    default:
      break;
  }
  return ownChildNodes(node).some((child) => callsOnLoad(child));
}

const COMPUTED_LOAD = /\b(?:require|import)\s*\(\s*(?:`(\.{1,2}\/[^`$]*)\$\{|(['"])(\.{1,2}\/[^'"\n]*)\2\s*\+)/g;

/**
 * The folders, relative to the module, from which it loads a module by a path it computes from a
 * fixed start (`require(`./${name}.js`)`, `import('./handlers/' + type)`): any module there may be
 * the one it loads, whatever the imports say.
 */
export function computedLoadFolders(text: string): string[] {
  const folders = new Set<string>();
  for (const match of text.matchAll(COMPUTED_LOAD)) {
    const prefix = match[1] ?? match[3] ?? '';
    folders.add(prefix.slice(0, prefix.lastIndexOf('/')) || '.');
  }
  return [...folders];
}
