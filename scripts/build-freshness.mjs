// Whether dist/ is older than the sources it is built from; shared by eslint.config.js (which
// lints the project with its own built rules), the demo and the binary smoke test.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Newest modification time of the .ts files under `dir`, 0 when there are none. */
export function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** True when `built` (a file of dist/) is missing or older than a source under src/ or rules/. */
export function isStale(root, built) {
  let time = 0;
  try {
    time = statSync(built).mtimeMs;
  } catch {
    return true;
  }
  return time < Math.max(newestSource(join(root, 'src')), newestSource(join(root, 'rules')));
}
