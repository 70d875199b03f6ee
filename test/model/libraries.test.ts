import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

import { DELIVERY_LIBRARIES } from '../../src/model/libraries/index.js';
import { LIBRARY_REGISTRARS } from '../../src/model/libraries/registrars.js';
import { mayMatter } from '../../src/model/prefilter.js';

const doc = readFileSync(new URL('../../docs/libraries.md', import.meta.url), 'utf8');
const rows = doc.split('\n').filter((line) => line.startsWith('| `'));

describe('the libraries', () => {
  it('have one file each, with a broker name of their own (webhook receivers share `webhook`) and registrations', () => {
    // A queue or job runner is its own broker; a library that serves a third party's HTTP pushes
    // (Probot's GitHub events, better-auth's Stripe endpoint) hands out webhooks, whoever sends them.
    const brokers = DELIVERY_LIBRARIES.map((library) => library.broker).filter((broker) => broker !== 'webhook');
    expect(new Set(brokers).size).toBe(brokers.length);
    for (const library of DELIVERY_LIBRARIES) {
      expect(library.modules.length, library.broker).toBeGreaterThan(0);
      expect(library.registrations.length, library.broker).toBeGreaterThan(0);
    }
  });

  it('each have their row in docs/libraries.md, with every module', () => {
    expect(rows).toHaveLength(DELIVERY_LIBRARIES.length);
    for (const library of DELIVERY_LIBRARIES) {
      const row = rows.find((line) => line.startsWith(`| \`${library.broker}\` | \`${library.modules[0] ?? ''}\``));
      expect(row, library.broker).toBeDefined();
      for (const module of library.modules) expect(row, `${library.broker}: ${module}`).toContain(`\`${module}\``);
    }
  });

  it('pass the prefilter in a file that imports them, or that shows their anchor', () => {
    for (const library of DELIVERY_LIBRARIES) {
      for (const module of library.modules)
        expect(mayMatter(`import x from '${module}';\nx();\n`, 'src/jobs/x.ts'), module).toBe(true);
      for (const anchor of library.anchors ?? [])
        expect(mayMatter(`taskServices.${anchor}({ a });\n`, 'src/jobs/x.ts'), anchor).toBe(true);
    }
  });

  it('give the program its registrars: the constructors that take the handler as an argument', () => {
    expect(LIBRARY_REGISTRARS).toContainEqual({
      module: 'bullmq',
      imported: 'Worker',
      member: 'constructor',
      index: 1,
      queueIndex: 0,
      broker: 'bullmq',
    });
    expect(LIBRARY_REGISTRARS.every((registrar) => registrar.member === 'constructor')).toBe(true);
  });
});
