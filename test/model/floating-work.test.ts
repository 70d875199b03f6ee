import type { TSESTree } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';

import { awaitedImports } from '../../src/model/handler/floating-work.js';
import { lintSnippet } from '../rule-tester.js';

/** The imported calls the first function of `code` waits for, as `specifier:name`. */
function waited(code: string): string[] {
  let found: string[] = [];
  lintSnippet(code, (context) => ({
    'Program > ExportNamedDeclaration > FunctionDeclaration'(fn: TSESTree.FunctionDeclaration) {
      if (found.length === 0) found = awaitedImports(fn, context).map((call) => `${call.specifier}:${call.imported}`);
    },
  }));
  return found;
}

describe('awaitedImports', () => {
  it('counts the calls the function waits for, directly and through its local helpers', () => {
    const code = [
      "import { settle } from './settle';",
      "import { audit } from './audit';",
      'async function record(job) { await audit(job); }',
      'export async function handle(job) { await settle(job); return record(job); }',
    ].join('\n');
    expect(waited(code).sort()).toEqual(['./audit:audit', './settle:settle']);
  });

  it('leaves out a call whose promise chain is dropped, and what the floated helper waits for', () => {
    const code = [
      "import { settle } from './settle';",
      "import { notify } from './notify';",
      "import { voucher } from './voucher';",
      'async function later(job) { await voucher(job); }',
      'export async function handle(job) {',
      '  await settle(job);',
      '  notify(job).catch((error) => console.error(error));',
      '  later(job).then(() => undefined, () => undefined);',
      '}',
    ].join('\n');
    expect(waited(code)).toEqual(['./settle:settle']);
  });
});
