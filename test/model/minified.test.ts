import { describe, expect, it } from 'vitest';

import { isMinified } from '../../src/model/minified.js';

describe('isMinified', () => {
  it('takes a JavaScript file for minified by its name or by lines averaging over 200 characters', () => {
    expect(isMinified('a();\n', 'vendor/app.min.js')).toBe(true);
    expect(isMinified('a();\n', 'vendor/app-min.cjs')).toBe(true);
    expect(isMinified('x'.repeat(199), 'src/app.js')).toBe(false);
    expect(isMinified(`${'x'.repeat(401)}\n`, 'src/app.js')).toBe(true);
    expect(isMinified(`${'x'.repeat(399)}\n\n`, 'src/app.js')).toBe(false);
  });

  it('never takes TypeScript or a file of ordinary lines for minified', () => {
    expect(isMinified('x'.repeat(5000), 'src/long.ts')).toBe(false);
    expect(isMinified('const a = 1;\n'.repeat(100), 'src/app.mjs')).toBe(false);
  });
});
