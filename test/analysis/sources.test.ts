import { describe, expect, it } from 'vitest';

import { globalsRead, moduleSpecifiers, parseOnly } from '../../src/analysis/sources.js';

describe('sources: what a file set aside loads and reads', () => {
  it('moduleSpecifiers(…, true) leaves out type-only imports and re-exports', () => {
    const source = parseOnly(
      '/x/a.ts',
      [
        "import type { A } from './types';",
        "import { type B } from './b-types';",
        "import { type C, d } from './mixed';",
        "import './side-effect';",
        "export type { E } from './e';",
        "export { f } from './f';",
        "const g = require('./g');",
        "export async function login() { const { run } = await import('./commands/login'); return run(); }",
      ].join('\n'),
    );
    expect(moduleSpecifiers(source, true)).toEqual(['./mixed', './side-effect', './f', './g', './commands/login']);
    expect(moduleSpecifiers(source)).toHaveLength(7);
  });

  it('globalsRead names what the module reads properties of without declaring it', () => {
    const source = parseOnly(
      '/x/a.ts',
      [
        '// window.location in a comment',
        "const s = 'document.cookie';",
        'export function title(document: { id: string }) { return document.id; }',
        'export const go = () => localStorage.getItem(s);',
      ].join('\n'),
    );
    const read = globalsRead(source);
    expect(read.has('localStorage')).toBe(true);
    expect(read.has('document')).toBe(false);
    expect(read.has('window')).toBe(false);
  });
});
