import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { text } from 'node:stream/consumers';

import type { ESLint as ESLintClass, Linter } from 'eslint';

/**
 * Child process of `--eslint-config`: reads `{ root, files, configFile, pluginName, namespace }`
 * on stdin, loads the project's ESLint config with the project's own ESLint (as `npx eslint`
 * would find both), and prints, per file, the plugin's rules under its own namespace and
 * `settings.idempotency`, or null for a file ESLint ignores or no config matches.
 */

interface Request {
  root: string;
  files: string[];
  configFile?: string;
  pluginName: string;
  namespace: string;
}

async function answer(request: Request): Promise<string> {
  const require = createRequire(join(request.root, 'package.json'));
  let resolved: string;
  try {
    resolved = require.resolve('eslint');
  } catch {
    throw new Error(`ESLint is not installed in ${request.root} (npm i -D eslint), so its config cannot be loaded`);
  }
  const { ESLint } = (await import(pathToFileURL(resolved).href)) as { ESLint: typeof ESLintClass };
  const eslint = new ESLint({
    cwd: request.root,
    ...(request.configFile === undefined ? {} : { overrideConfigFile: request.configFile }),
  });

  const answers: Record<string, { rules: Linter.RulesRecord; settings: unknown } | null> = {};
  for (const file of request.files) {
    const config = (await eslint.calculateConfigForFile(file)) as Linter.Config | undefined;
    if (!config) {
      answers[file] = null;
      continue;
    }
    // The namespace the project registered this plugin under (usually `idempotency`).
    const registered = Object.entries(config.plugins ?? {}).find(
      ([, plugin]) => (plugin as { meta?: { name?: string } }).meta?.name === request.pluginName,
    )?.[0];
    const rules: Linter.RulesRecord = {};
    if (registered !== undefined) {
      for (const [id, entry] of Object.entries(config.rules ?? {})) {
        if (entry !== undefined && id.startsWith(`${registered}/`))
          rules[`${request.namespace}/${id.slice(registered.length + 1)}`] = entry;
      }
    }
    const settings = config.settings?.[request.namespace] ?? {};
    answers[file] = { rules, settings };
  }
  return JSON.stringify(answers);
}

try {
  process.stdout.write(await answer(JSON.parse(await text(process.stdin)) as Request));
} catch (error) {
  // One line for the parent to show: ESLint's own message (a config that does not load, a missing plugin).
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
