import { readFileSync } from 'node:fs';

import { parse } from 'yaml';

/**
 * An infrastructure file as data, or undefined when it does not parse. CloudFormation's short
 * tags (`!Ref Queue`, `!GetAtt Queue.Arn`, `!Sub '${Queue.Arn}'`) are kept as the plain values
 * they tag (`'Queue'`, `'Queue.Arn'`, `['Queue', 'Arn']`), which is all a reader here needs.
 */
export function readYaml(file: string): { text: string; data: unknown } | undefined {
  try {
    const text = readFileSync(file, 'utf8');
    return { text, data: parse(text, { logLevel: 'silent', uniqueKeys: false }) as unknown };
  } catch {
    return undefined;
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The 1-based line of the first `key:` at the start of a line (after indentation), or 1. */
export function lineOfKey(text: string, key: string): number {
  const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`^[ \\t]*['"]?${escaped}['"]?[ \\t]*:`, 'm').exec(text);
  return match ? text.slice(0, match.index).split('\n').length : 1;
}
