import { describe, expect, it } from 'vitest';

import { globalsRead, moduleSpecifiers, parseOnly } from '../../src/analysis/sources.js';

describe('sources: what a file set aside loads and reads', () => {
  it('moduleSpecifiers(…, true) leaves out type-only imports and re-exports, and imports read only in types', () => {
    const source = parseOnly(
      '/x/a.ts',
      [
        "import type { A } from './types';",
        "import { type B } from './b-types';",
        "import { type C, d } from './mixed';",
        // Read only in a type, or not at all: TypeScript leaves the import out of its output.
        "import { charge } from './charge';",
        "import { unused } from './unused';",
        "import { Base } from './base';",
        'export type Charged = Awaited<ReturnType<typeof charge>>;',
        'export class Job extends Base<C> { run() { return d; } }',
        "import './side-effect';",
        "export type { E } from './e';",
        "export { f } from './f';",
        "const g = require('./g');",
        "export async function login() { const { run } = await import('./commands/login'); return run(); }",
      ].join('\n'),
    );
    expect(moduleSpecifiers(source, true)).toEqual([
      './mixed',
      './base',
      './side-effect',
      './f',
      './g',
      './commands/login',
    ]);
    expect(moduleSpecifiers(source)).toHaveLength(10);
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
