import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

import { rootIdentifier } from '../keys/minting.js';
import { folders, importsAny, type RoleSource } from './source.js';

/** Test files: paths and names, test-runner imports, top-level `describe` / `it`. */
/**
 * Folders whose files are tests, mocks, fixtures or stories, Cucumber's step definitions
 * (`features/step_definitions/`, where cucumber-js looks for them:
 * https://github.com/cucumber/cucumber-js/blob/main/docs/configuration.md), and the stand-ins a test stack
 * deploys for a third party's service (`yoti-stub`, `payments-mock`: a stub gives canned answers
 * to the calls a test makes, martinfowler.com/articles/mocksArentStubs.html). A bare `stubs/` may
 * hold a gRPC client's generated stubs, which are production code.
 */
const TEST_FOLDER =
  /^(?:__(?:tests?|mocks?|fixtures?|snapshots?)__|tests?|specs?|e2e|step[-_]?definitions|cypress|playwright|fixtures?|mocks?|(?:e2e|tests?|integration-tests?)[-_].*|tests?(?:helpers?|utils?|support)|.*[-_](?:e2e|tests?|stubs?|mocks?))$/i;

/**
 * File names of tests, stories, test-runner setup and config, and the helpers tests share
 * (`testHelpers.js`, `test-utils.ts`, `monitoring.testHelpers.ts`, `calculator-test-utils.ts`).
 */
const TEST_NAME =
  /\.(?:test|spec|e2e|e2e-spec|cy|stories|story)\.[cm]?[jt]sx?$|^(?:tests?|specs?|setup-?tests?|test-?setup)\.[cm]?[jt]sx?$|(?:^|[.\-_])tests?[-_]?(?:helpers?|utils?|utilities|support)\.[cm]?[jt]sx?$|^(?:jest|vitest|playwright|cypress|karma|wdio)\.(?:config|setup|workspace)(?:\.\w+)?\.[cm]?[jt]s$/i;

export function isTestPath(where: string, base: string): boolean {
  return TEST_NAME.test(base) || folders(where).some((folder) => TEST_FOLDER.test(folder));
}

/** Test runners, assertion and mocking libraries: modules only tests import. */
const TEST_MODULES = new Set([
  'vitest',
  'jest',
  '@jest/globals',
  'mocha',
  'chai',
  'sinon',
  'ava',
  'tap',
  'tape',
  'uvu',
  'node:test',
  '@playwright/test',
  // Cucumber's step definitions and hooks (`Given`, `When`, `Before`), wherever they sit.
  '@cucumber/cucumber',
  'cucumber',
  'cypress',
  'supertest',
  'msw',
  'nock',
  'testcontainers',
  '@nestjs/testing',
  'jest-mock-extended',
  'vitest-mock-extended',
  'aws-sdk-client-mock',
]);

const TEST_MODULE_PREFIXES = ['@testing-library/', 'msw/', '@vitest/', 'vitest/', '@testcontainers/'];

function isTestModule(module: string): boolean {
  return TEST_MODULES.has(module) || TEST_MODULE_PREFIXES.some((prefix) => module.startsWith(prefix));
}

const TEST_CALLS = new Set(['describe', 'it', 'test', 'suite', 'context']);

/** `describe(...)`, `it.each(...)(...)`, `test.describe(...)` as a statement of the module itself. */
export function hasTopLevelTestCall(file: RoleSource): boolean {
  if (!file.ast) return /^(?:describe|it|test|suite)(?:\.\w+)*\s*\((?:\s*['"`]|[^\n]*\)\s*\(\s*['"`])/m.test(file.text);
  return file.ast.body.some((statement) => {
    if (statement.type !== AST_NODE_TYPES.ExpressionStatement) return false;
    let expression = statement.expression;
    if (expression.type === AST_NODE_TYPES.AwaitExpression) expression = expression.argument;
    if (expression.type !== AST_NODE_TYPES.CallExpression) return false;
    // The innermost callee: `it.each(rows)('name', fn)` calls the result of `it.each(rows)`.
    let callee: TSESTree.Node = expression.callee;
    while (callee.type === AST_NODE_TYPES.CallExpression) callee = callee.callee;
    const head = rootIdentifier(callee);
    if (!head || !TEST_CALLS.has(head.name)) return false;
    // `context` is an ordinary name too: only a call with a title and a callback counts.
    const [title, body] = expression.arguments;
    return (
      title !== undefined &&
      body !== undefined &&
      (title.type === AST_NODE_TYPES.Literal || title.type === AST_NODE_TYPES.TemplateLiteral) &&
      (body.type === AST_NODE_TYPES.ArrowFunctionExpression || body.type === AST_NODE_TYPES.FunctionExpression)
    );
  });
}

const TEST_CALLBACKS = new Set([...TEST_CALLS, 'beforeEach', 'beforeAll', 'afterEach', 'afterAll', 'before', 'after']);

/**
 * True inside a test callback (`it`, `test`, `describe`, the hooks) in any file, such as an
 * in-source test: every run is a new request on purpose.
 */
export function isInTestCallback(node: TSESTree.Node): boolean {
  for (let current = node.parent; current; current = current.parent) {
    if (current.type !== AST_NODE_TYPES.CallExpression) continue;
    const head = rootIdentifier(current.callee);
    if (head && TEST_CALLBACKS.has(head.name)) return true;
  }
  return false;
}

/** True for a file whose text imports a test runner or helper. */
export function importsTestModule(text: string): boolean {
  return importsAny(text, isTestModule);
}
