import { createHash } from 'node:crypto';

import { resolveLocal, type FileState } from './graph.js';
import type { LoadedProject } from './project.js';

/**
 * A run over a share of the files (`--shard i/n`, `--files-from`): only the share is reported,
 * but its results must be what a run over every file gives. A file outside the share that the
 * prefilter would keep is set aside like a file the prefilter skips ({@link FileState.deferred}),
 * and the reach of skipped files ({@link reachedSkippedFiles}) lints it after all when the
 * share's facts need it; {@link reachedDeferredFiles} adds the one direction that reach does not
 * follow, from a file to the files that import it.
 */

/**
 * The shard a file belongs to: a hash of its repo-relative path, so a file keeps its shard when
 * others are added or removed (and with it the cache entries of the machine that runs that shard).
 */
export function shardOf(relativePath: string, count: number): number {
  return (createHash('sha1').update(relativePath).digest().readUInt32BE(0) % count) + 1;
}

/**
 * The deferred files that import the share and may register its functions ({@link mayRegister}):
 * their registrations (`new Worker(queue, handle)` of a function the share exports) and Temporal
 * activity modules are facts of the share's files, known only once they are linted. An import of
 * a file that re-exports the share counts too: through analysed files' re-exports, and through
 * any import of a skipped or deferred file (whose parse lists only its specifiers).
 */
export function reachedDeferredFiles(
  project: LoadedProject,
  states: ReadonlyMap<string, FileState>,
  inShare: (state: FileState) => boolean,
): FileState[] {
  const leadsToShare = new Map<string, boolean>();
  const leads = (file: string): boolean => {
    const known = leadsToShare.get(file);
    if (known !== undefined) return known;
    leadsToShare.set(file, false);
    const state = states.get(file);
    let found = false;
    if (state && inShare(state) && !state.deferred) found = true;
    else if (state) {
      // A skipped or deferred file's imports stand for its re-exports, which its parse does not tell apart.
      const specifiers = state.skipped
        ? (state.specifiers ?? [])
        : state.facts.reExports.map((entry) => entry.specifier);
      found = specifiers.some((specifier) => {
        const target = resolveLocal(project, specifier, file);
        return target !== undefined && leads(target);
      });
    }
    leadsToShare.set(file, found);
    return found;
  };
  const reached: FileState[] = [];
  for (const state of states.values()) {
    if (!state.deferred || state.registers !== true) continue;
    const importsShare = (state.specifiers ?? []).some((specifier) => {
      const target = resolveLocal(project, specifier, state.path);
      return target !== undefined && leads(target);
    });
    if (importsShare) reached.push(state);
  }
  return reached;
}
