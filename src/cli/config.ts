import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { Linter, type ESLint } from 'eslint';

import { settingsProblem, type FileRuleConfig, type RuleConfigLookup } from '../analysis/lint.js';
import plugin from '../index.js';
import { NAMESPACE } from '../configs.js';
import { packageInfo } from '../util/package-info.js';
import { UsageError } from './args.js';

/**
 * Which rules the CLI runs, at which severity, with which options and settings, so that it agrees
 * with ESLint in the user's project. The CLI never executes the project's code by default, so the
 * default source is static: `idempotency.config.json` at the root, or the `idempotency` key of
 * the root package.json, in the shape of one ESLint flat-config object:
 *
 *   { "extends": "strict", "rules": { "idempotency/no-key-on-read": "off" },
 *     "settings": { "idempotency": { "pools": [...] } } }
 *
 * With `--eslint-config` the project's own ESLint (its `eslint.config.*`, found and loaded by
 * ESLint's API in a child process) decides per file instead.
 */

const CONFIG_FILE = 'idempotency.config.json';
const PACKAGE_KEY = 'idempotency';

type ConfigName = keyof typeof plugin.configs;
const CONFIG_NAMES = Object.keys(plugin.configs) as ConfigName[];
const KEYS = new Set(['extends', 'rules', 'settings']);

/** Where the static config was found, for messages. */
interface StaticConfig {
  source: string;
  config: FileRuleConfig;
}

function fail(source: string, message: string): never {
  throw new UsageError(`${source}: ${message}`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const SEVERITIES = new Set<unknown>(['off', 'warn', 'error', 0, 1, 2]);

/** Validates one flat-config-shaped object; throws a UsageError naming the bad key. */
function ruleConfigFrom(value: unknown, source: string): FileRuleConfig {
  if (!isObject(value)) fail(source, 'expected an object with "extends", "rules" and "settings"');
  for (const key of Object.keys(value))
    if (!KEYS.has(key)) fail(source, `unknown key "${key}"; expected one of ${[...KEYS].join(', ')}`);
  const base = value.extends;
  if (base !== undefined && !CONFIG_NAMES.includes(base as ConfigName))
    fail(source, `"extends" must be one of ${CONFIG_NAMES.join(', ')}, got ${JSON.stringify(base)}`);
  const rules = { ...(base === undefined ? {} : plugin.configs[base as ConfigName].rules) } as Linter.RulesRecord;
  if (value.rules !== undefined) {
    if (!isObject(value.rules)) fail(source, '"rules" must be an object of rule id → severity');
    for (const [id, entry] of Object.entries(value.rules)) {
      const name = id.startsWith(`${NAMESPACE}/`) ? id.slice(NAMESPACE.length + 1) : undefined;
      if (name === undefined || !(name in plugin.rules))
        fail(source, `"rules": unknown rule "${id}" (rule ids are ${NAMESPACE}/<name>, see docs/rules/)`);
      const severity: unknown = Array.isArray(entry) ? entry[0] : entry;
      if (!SEVERITIES.has(severity))
        fail(source, `"rules": "${id}" must be "off", "warn" or "error" (or [severity, options])`);
      rules[id] = entry as Linter.RuleEntry;
    }
  }
  let settings: Record<string, unknown> = {};
  if (value.settings !== undefined) {
    if (!isObject(value.settings)) fail(source, '"settings" must be an object');
    for (const key of Object.keys(value.settings))
      if (key !== NAMESPACE) fail(source, `"settings": unknown key "${key}"; only "${NAMESPACE}" is read`);
    const own = value.settings[NAMESPACE];
    const problem = own === undefined ? undefined : settingsProblem(own);
    if (problem !== undefined) fail(source, `"settings.${NAMESPACE}": ${problem}`);
    settings = (own ?? {}) as Record<string, unknown>;
  }
  checkOptions(rules, source);
  // Without "extends", rules left unnamed keep the CLI's default levels.
  return { rules: base === undefined ? { ...defaultLevels(), ...rules } : rules, settings };
}

/** Rule options checked against each rule's schema by ESLint itself, before any file is read. */
function checkOptions(rules: Linter.RulesRecord, source: string): void {
  try {
    new Linter({ configType: 'flat' }).verify('', [
      { plugins: { [NAMESPACE]: plugin as unknown as ESLint.Plugin }, rules },
    ]);
  } catch (error) {
    // ESLint's message spans lines ("Key \"rules\": Key \"idempotency/x\":\n\tValue ... should NOT ..."): one line here.
    fail(source, (error as Error).message.replace(/\s+/g, ' ').trim());
  }
}

/** The CLI's levels without a config: `recommended` rules are errors, every other rule a warning. */
function defaultLevels(): Linter.RulesRecord {
  const recommended = plugin.configs.recommended.rules ?? {};
  return Object.fromEntries(
    Object.keys(plugin.rules).map((name) => {
      const id = `${NAMESPACE}/${name}`;
      return [id, id in recommended ? 'error' : 'warn'];
    }),
  );
}

function readJson(path: string, source: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as unknown;
  } catch (error) {
    return fail(source, `not valid JSON: ${(error as Error).message.split('\n')[0]}`);
  }
}

/** The static config at `root`, if any: idempotency.config.json first, then package.json's key. */
export function loadStaticConfig(root: string): StaticConfig | undefined {
  const file = join(root, CONFIG_FILE);
  if (existsSync(file))
    return { source: CONFIG_FILE, config: ruleConfigFrom(readJson(file, CONFIG_FILE), CONFIG_FILE) };
  const manifest = join(root, 'package.json');
  if (!existsSync(manifest)) return undefined;
  const json = readJson(manifest, 'package.json');
  if (!isObject(json) || json[PACKAGE_KEY] === undefined) return undefined;
  const source = `package.json "${PACKAGE_KEY}"`;
  return { source, config: ruleConfigFrom(json[PACKAGE_KEY], source) };
}

/** What the child prints for each file: the plugin's rules and settings, or null when ESLint ignores it. */
type ChildAnswer = { rules: Linter.RulesRecord; settings: Record<string, unknown> } | null;

/**
 * The project's ESLint config per file, computed by the project's own ESLint (resolved from the
 * root, as `npx eslint` would) in a child process: loading `eslint.config.*` runs the project's
 * code and is asynchronous, and the analysis is neither. One child for all files.
 */
export function loadEslintConfig(root: string, files: readonly string[], configFile?: string): RuleConfigLookup {
  // Built, the child sits beside this file; run from src/ (the tests), it is the built one in dist/.
  const beside = fileURLToPath(new URL('./eslint-config-child.js', import.meta.url));
  const args = [existsSync(beside) ? beside : join(packageInfo.root, 'dist/src/cli/eslint-config-child.js')];
  let output: string;
  try {
    output = execFileSync(process.execPath, args, {
      cwd: root,
      input: JSON.stringify({ root, files, configFile, pluginName: plugin.meta.name, namespace: NAMESPACE }),
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
  } catch (error) {
    const { stderr } = error as { stderr?: string };
    const text = (stderr ?? '').trim();
    const line = text.split('\n').find((text) => text.trim() !== '') ?? (error as Error).message;
    throw new UsageError(`--eslint-config: ${line.replace(/^Error: /, '')}`);
  }
  const answers = JSON.parse(output) as Record<string, ChildAnswer>;
  const configs = new Map<string, FileRuleConfig>();
  const byValue = new Map<string, FileRuleConfig>();
  const off: FileRuleConfig = { rules: {}, settings: {} };
  for (const [file, answer] of Object.entries(answers)) {
    const config = answer ?? off;
    const problem = Object.keys(config.settings).length === 0 ? undefined : settingsProblem(config.settings);
    if (problem !== undefined) throw new UsageError(`--eslint-config: settings.${NAMESPACE} for ${file}: ${problem}`);
    // One object per distinct config, so the runner normalises each once.
    const key = JSON.stringify(config);
    let shared = byValue.get(key);
    if (!shared) {
      shared = config;
      byValue.set(key, shared);
    }
    configs.set(file, shared);
  }
  return (path) => configs.get(path) ?? off;
}
