// One JSON value a line, blank lines skipped: the format of every label file under realworld/.
import { readFileSync } from 'node:fs';

/** The values of a JSON Lines file. */
export function readJsonl(file) {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));
}
