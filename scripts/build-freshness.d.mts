export function newestSource(dir: string): number;
export function isStale(root: string, built: string): boolean;
