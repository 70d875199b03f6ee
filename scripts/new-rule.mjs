#!/usr/bin/env node
// `npm run new-rule <name> [-- --root <dir>]`: scaffolds rules/<name>.ts, docs/rules/<name>.md and
// test/rules/<name>.test.ts, and adds the rule to rules/index.ts in sorted order (eslint-plugin-
// regexp's tools/new-rule.ts). The scaffold is meant to fail its tests until the rule is written.
// Exit codes: 0 written, 2 bad name or usage.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const USAGE = 'usage: npm run new-rule <name> [-- --root <dir>]';

function fail(message) {
  console.error(message);
  process.exit(2);
}

let parsed;
try {
  parsed = parseArgs({ allowPositionals: true, options: { root: { type: 'string' } } });
} catch (error) {
  fail(`${error.message}\n${USAGE}`);
}
const [name, ...extra] = parsed.positionals;
if (!name || extra.length > 0) fail(USAGE);
const root = resolve(parsed.values.root ?? fileURLToPath(new URL('..', import.meta.url)));

if (!/^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/.test(name)) fail(`new-rule: '${name}' is not kebab-case.`);
const prefix = /^(no|require|prefer)-./.exec(name)?.[1];
if (!prefix) fail(`new-rule: '${name}' must start with no-, require- or prefer- (STYLE.md).`);

const camel = (text) => text.replace(/-([a-z0-9])/g, (_, letter) => letter.toUpperCase());
const identifier = camel(name);
const messageId = camel(name.slice(prefix.length + 1));
const verb = { no: 'Disallow', require: 'Require', prefer: 'Enforce' }[prefix];

const paths = {
  rule: `rules/${name}.ts`,
  doc: `docs/rules/${name}.md`,
  test: `test/rules/${name}.test.ts`,
};
const index = 'rules/index.ts';
if (!existsSync(join(root, index))) fail(`new-rule: no ${index} under ${root}.`);
const taken = Object.values(paths).filter((path) => existsSync(join(root, path)));
if (taken.length > 0) fail(`new-rule: '${name}' already exists (${taken.join(', ')}).`);

// rules/index.ts: one `import x from './x.js';` per rule, then the sorted `rules` map.
const IMPORT = /^import (\w+) from '\.\/([\w-]+)\.js';$/;
const ENTRY = /^ {2}'([\w-]+)': (\w+),$/;
const lines = readFileSync(join(root, index), 'utf8').split('\n');
const imports = lines.flatMap((line, at) => (IMPORT.test(line) ? [at] : []));
const entries = lines.flatMap((line, at) => (ENTRY.test(line) ? [at] : []));
if (imports.length === 0 || entries.length === 0)
  fail(`new-rule: ${index} does not have the expected import lines and { name: rule } map.`);
if (entries.some((at) => lines[at].match(ENTRY)[1] === name)) fail(`new-rule: '${name}' already exists (${index}).`);
// The first line whose rule name sorts after the new one, or after the last line.
const sortedAt = (at, pattern, group) =>
  at.find((line) => lines[line].match(pattern)[group] > name) ?? at[at.length - 1] + 1;
lines.splice(sortedAt(entries, ENTRY, 1), 0, `  '${name}': ${identifier},`);
lines.splice(sortedAt(imports, IMPORT, 2), 0, `import ${identifier} from './${name}.js';`);

const rule = `import { enclosingConsumerHandler } from '../src/model/handler/consumer-handler.js';
import { createRule } from '../src/util/create-rule.js';

export type Options = [];
export type MessageIds = '${messageId}';

export default createRule<Options, MessageIds>({
  name: '${name}',
  meta: {
    type: 'problem',
    docs: {
      description: '${verb} TODO',
      // The lowest config that enables it: 'recommended' or 'strict'; without it, only 'all'.
      recommended: 'strict',
      // Where it reports (src/model/roles.ts): test files never; browser code only for mistakes made there.
      roles: ['server', 'script'],
    },
    messages: {
      ${messageId}: 'TODO: what is wrong, and what a redelivery duplicates or loses because of it.',
    },
    schema: [],
  },
  create(context) {
    return {
      CallExpression(node) {
        // Guards as early returns, cheapest first.
        if (node.arguments.length === 0) return;
        // TODO: one call into src/model (a concept in its own file, with a test in test/model/)
        // that decides; this one only asks whether a consumer handler makes the call.
        const handler = enclosingConsumerHandler(node, context);
        if (!handler) return;
        context.report({ node, messageId: '${messageId}' });
      },
    };
  },
});
`;

const doc = `# ${name}

<!-- end auto-generated rule header -->

TODO: what the rule reports and why it matters: which duplicate or loss it prevents, with the
broker or API behaviour behind it.

**What stays quiet.** TODO: the correct pattern and the near misses that are not reported.

## Examples

### ❌ Incorrect

\`\`\`ts
// TODO: code the rule reports
\`\`\`

### ✅ Correct

\`\`\`ts
// TODO: the correct pattern
\`\`\`

## When not to use it

TODO.
`;

const test = `import rule from '../../rules/${name}.js';
import { syntaxRuleTester } from '../rule-tester.js';

syntaxRuleTester().run('${name}', rule, {
  valid: [
    // TODO: the correct pattern, then every near miss a user would write.
    'TODO',
  ],
  invalid: [
    {
      // TODO: code the rule reports.
      code: 'TODO',
      errors: [{ messageId: '${messageId}', line: 1, column: 1 }],
      output: null,
    },
  ],
});
`;

const write = (path, text) => {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
  console.log(`wrote ${path}`);
};
write(paths.rule, rule);
write(paths.doc, doc);
write(paths.test, test);
writeFileSync(join(root, index), lines.join('\n'));
console.log(`added '${name}' to ${index}`);
console.log(`
Next:
- The prefilter: src/model/prefilter.ts's RULE_ANCHORS (or CASED_ANCHORS, PAIRED_ANCHORS) must hold
  a token of every shape the rule starts from. In a file whose text holds none, createRule registers
  no listeners and the rule reports nothing, silently (CONTRIBUTING.md, "How a rule joins the
  prefilter"). Add the anchors, a mayMatter case to test/model/prefilter.test.ts, and a ❌ example
  to ${paths.doc}: that test checks every ❌ example passes the prefilter.
- Write the rule, its tests and its doc, then \`npm run build && npm run docs\` for the doc header
  and the README table, and \`npx vitest run ${paths.test}\`.`);
