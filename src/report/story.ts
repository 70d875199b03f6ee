import { activeFindings, type Finding, type HandlerEntry, type PathStep, type Report } from './model.js';

/**
 * One handler's story, as `--explain` prints it and the HTML report draws it: each effect a
 * redelivery repeats and each protection on the way, with the functions the delivery goes through
 * to reach it, and the findings inside the handler and those functions.
 */
export interface HandlerStory {
  /** Each effect, with the functions on the way (empty: the handler makes it itself) and the call that makes it. */
  effects: { name: string; via: readonly PathStep[]; at?: { file: string; line: number } }[];
  protections: { name: string; via: readonly PathStep[] }[];
  /** Unsuppressed findings inside the handler's lines, then in each function on the way. */
  findings: Finding[];
}

/** The last segment of a function's name: `Class.method` → `method`, as a finding names it. */
function shortName(name: string): string {
  return name.slice(name.lastIndexOf('.') + 1);
}

export function storyOf(handler: HandlerEntry, report: Pick<Report, 'findings'>): HandlerStory {
  const paths = new Map((handler.paths ?? []).map((path) => [path.effect, path.via]));
  const guards = new Map((handler.protectionPaths ?? []).map((path) => [path.protection, path.via]));
  const active = activeFindings(report);
  // The handler's own lines, then each function on the way by its file and name.
  const findings = active.filter(
    (finding) =>
      finding.file === handler.file &&
      finding.line >= handler.line &&
      finding.line <= (handler.endLine ?? handler.line),
  );
  for (const step of [...paths.values(), ...guards.values()].flat()) {
    const short = shortName(step.name);
    for (const finding of active)
      if (finding.file === step.file && finding.enclosingFunction === short && !findings.includes(finding))
        findings.push(finding);
  }
  return {
    effects: handler.effects.map((name) => {
      const site = handler.effectSites?.find((entry) => entry.effect === name);
      return { name, via: paths.get(name) ?? [], ...(site ? { at: { file: site.file, line: site.line } } : {}) };
    }),
    protections: handler.protections.map((name) => ({ name, via: guards.get(name) ?? [] })),
    findings,
  };
}
