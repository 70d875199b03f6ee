import { readFileSync } from 'node:fs';

import { parseDocument } from 'yaml';

/**
 * An infrastructure file as data, or the reason it could not be read. CloudFormation's short
 * tags (`!Ref Queue`, `!GetAtt Queue.Arn`, `!Sub '${Queue.Arn}'`) are kept as the plain values
 * they tag (`'Queue'`, `'Queue.Arn'`, `['Queue', 'Arn']`), which is all a reader here needs.
 */
export function readYaml(file: string): { text: string; data: unknown } | { problem: string } {
  const unread = (why: string): { problem: string } => ({
    problem: `not read (${why.split('\n')[0] ?? why}); the Lambdas it declares are not listed`,
  });
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return unread(error instanceof Error ? error.message : String(error));
  }
  const document = parseDocument(text, { logLevel: 'silent', uniqueKeys: false });
  const [error] = document.errors;
  return error ? unread(error.message) : { text, data: document.toJS() as unknown };
}

/** What a reader of one infrastructure file found: its declarations, or why it could not read it. */
export type Declared<T> = { declarations: T[]; problem?: string };

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The 1-based line of the first `key:` at the start of a line (after indentation), or 1. */
export function lineOfKey(text: string, key: string): number {
  const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`^[ \\t]*['"]?${escaped}['"]?[ \\t]*:`, 'm').exec(text);
  return match ? text.slice(0, match.index).split('\n').length : 1;
}
