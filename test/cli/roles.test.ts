import { describe, expect, it } from 'vitest';

import { runCli, writeRepo } from './helpers.js';

const request = "await fetch('https://api.example.com/charges', { method: 'POST' });";

describe('file roles in idempotency-check', () => {
  it('reports only the server file of a repository with a test, a React component and a script', () => {
    const root = writeRepo({
      'package.json': '{ "name": "shop", "type": "module" }',
      'src/pay.ts': `export async function pay() { ${request} }\n`,
      'src/pay.test.ts': `import { it } from 'vitest';\nit('pays', async () => { ${request} });\n`,
      'src/components/Cart.tsx': `import { useState } from 'react';\nexport function Cart() { const [n] = useState(0); return <button onClick={async () => { ${request} }}>{n}</button>; }\n`,
      'scripts/backfill.ts': `async function main() { ${request} }\nmain();\n`,
    });
    const run = runCli([root, '--format', 'json'], { cwd: root });
    expect(run.stderr).toBe('');
    const report = JSON.parse(run.stdout) as { findings: { file: string; ruleId: string }[] };
    expect(report.findings.map((finding) => [finding.file, finding.ruleId])).toEqual([
      ['src/pay.ts', 'idempotency/require-request-timeout'],
    ]);
    expect(run.code).toBe(1);
  });
});
