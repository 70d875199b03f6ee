/**
 * The strongly connected components of the graph reachable from `root`, each handed to
 * `onComponent` (and returned) after every component it reaches: Tarjan's algorithm, iterative so
 * that a chain of thousands of calls does not overflow the stack. Composing summaries in this
 * order visits each function once, and a recursion is one component whose members are solved
 * together. A component lists its members from the first one the walk reached. `successors` is
 * called once per node, when the walk reaches it, and its iterator is read one step at a time, so a
 * node it would yield may be skipped at that moment (one composed by `onComponent` meanwhile).
 */
export function componentsFrom<N>(
  root: N,
  successors: (node: N) => Iterable<N>,
  onComponent?: (component: N[]) => void,
): N[][] {
  const marks = new Map<N, { index: number; low: number; onStack: boolean }>();
  const stack: N[] = [];
  const components: N[][] = [];
  const frames: { node: N; mark: { index: number; low: number; onStack: boolean }; next: Iterator<N> }[] = [];
  const open = (node: N): void => {
    const mark = { index: marks.size, low: marks.size, onStack: true };
    marks.set(node, mark);
    stack.push(node);
    frames.push({ node, mark, next: successors(node)[Symbol.iterator]() });
  };
  open(root);
  for (let frame = frames.at(-1); frame !== undefined; frame = frames.at(-1)) {
    const step = frame.next.next();
    if (!step.done) {
      const seen = marks.get(step.value);
      if (seen === undefined) open(step.value);
      else if (seen.onStack) frame.mark.low = Math.min(frame.mark.low, seen.index);
      continue;
    }
    frames.pop();
    const parent = frames.at(-1);
    if (parent) parent.mark.low = Math.min(parent.mark.low, frame.mark.low);
    if (frame.mark.low !== frame.mark.index) continue;
    const component: N[] = [];
    for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
      const mark = marks.get(member);
      if (mark) mark.onStack = false;
      component.unshift(member);
      if (member === frame.node) break;
    }
    components.push(component);
    onComponent?.(component);
  }
  return components;
}
