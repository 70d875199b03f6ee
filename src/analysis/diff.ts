/**
 * A small unified diff for `--fix-dry-run`. Autofixes touch a few lines, so the common
 * head and tail are trimmed first and only the middle is compared line by line.
 */

const CONTEXT = 3;

type Op = { kind: ' ' | '-' | '+'; text: string; oldLine: number; newLine: number };

function lineOps(before: string[], after: string[]): Op[] {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let endBefore = before.length;
  let endAfter = after.length;
  while (endBefore > start && endAfter > start && before[endBefore - 1] === after[endAfter - 1]) {
    endBefore--;
    endAfter--;
  }
  const a = before.slice(start, endBefore);
  const b = after.slice(start, endAfter);
  // Longest common subsequence over the changed middle.
  const width = b.length + 1;
  const lcs = new Int32Array((a.length + 1) * width);
  const at = (i: number, j: number): number => lcs[i * width + j] ?? 0;
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i * width + j] = a[i] === b[j] ? at(i + 1, j + 1) + 1 : Math.max(at(i + 1, j), at(i, j + 1));
    }
  }
  const ops: Op[] = [];
  for (let k = 0; k < start; k++) ops.push({ kind: ' ', text: before[k] ?? '', oldLine: k + 1, newLine: k + 1 });
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      ops.push({ kind: ' ', text: a[i] ?? '', oldLine: start + i + 1, newLine: start + j + 1 });
      i++;
      j++;
    } else if (i < a.length && (j >= b.length || at(i + 1, j) >= at(i, j + 1))) {
      // Removals before additions, as diff(1) prints them.
      ops.push({ kind: '-', text: a[i] ?? '', oldLine: start + i + 1, newLine: start + j });
      i++;
    } else {
      ops.push({ kind: '+', text: b[j] ?? '', oldLine: start + i, newLine: start + j + 1 });
      j++;
    }
  }
  for (let k = endBefore; k < before.length; k++) {
    ops.push({ kind: ' ', text: before[k] ?? '', oldLine: k + 1, newLine: k - endBefore + endAfter + 1 });
  }
  return ops;
}

/** A unified diff of `before` → `after` for one file; empty when they are equal. */
export function unifiedDiff(file: string, before: string, after: string): string {
  if (before === after) return '';
  const ops = lineOps(before.split('\n'), after.split('\n'));
  const changed = ops.map((op, index) => (op.kind === ' ' ? -1 : index)).filter((index) => index >= 0);
  const hunks: [number, number][] = [];
  for (const index of changed) {
    const from = Math.max(0, index - CONTEXT);
    const to = Math.min(ops.length - 1, index + CONTEXT);
    const last = hunks[hunks.length - 1];
    if (last && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else hunks.push([from, to]);
  }
  const out = [`--- a/${file}`, `+++ b/${file}`];
  for (const [from, to] of hunks) {
    const slice = ops.slice(from, to + 1);
    const oldCount = slice.filter((op) => op.kind !== '+').length;
    const newCount = slice.filter((op) => op.kind !== '-').length;
    const first = slice[0];
    if (!first) continue;
    const oldStart = oldCount === 0 ? first.oldLine : (slice.find((op) => op.kind !== '+')?.oldLine ?? first.oldLine);
    const newStart = newCount === 0 ? first.newLine : (slice.find((op) => op.kind !== '-')?.newLine ?? first.newLine);
    out.push(`@@ -${oldStart},${oldCount} +${newStart},${newCount} @@`);
    for (const op of slice) out.push(op.kind + op.text);
  }
  return out.join('\n') + '\n';
}
