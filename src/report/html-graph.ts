import * as dagre from '@dagrejs/dagre';

import type { HandlerEntry, Verdict } from './model.js';
import { escapeHtml } from './format-util.js';

/**
 * The inventory as a picture: each broker, the handlers it delivers to, the functions a delivery goes through and the effects
 * it reaches, laid out left to right by dagre (https://github.com/dagrejs/dagre) when the report is
 * written, and drawn as inline SVG, so the picture needs no script and no network. Shared helpers
 * and effects are one node each, so a helper many handlers reach stands out. Every node and edge
 * lists the handlers it belongs to (`data-h`), which is all the page's filters need to hide it.
 */

/** The part of dagre's graph this file uses. */
interface LayoutGraph {
  setGraph(label: { rankdir: string; nodesep: number; ranksep: number; marginx: number; marginy: number }): void;
  setNode(id: string, label: { width: number; height: number }): void;
  setEdge(from: string, to: string, label: { weight: number }): void;
  node(id: string): { x: number; y: number; width: number; height: number };
  edge(from: string, to: string): { points?: { x: number; y: number }[] };
  graph(): { width?: number; height?: number };
}

/**
 * dagre's own declarations import their siblings without extensions, which a NodeNext program
 * cannot resolve (they come out `any`), so the calls used here are typed by hand.
 */
const { Graph, layout } = dagre as unknown as {
  Graph: new () => LayoutGraph;
  layout: (graph: LayoutGraph) => void;
};

type NodeKind = 'broker' | 'handler' | 'function' | 'effect';

interface DrawnNode {
  kind: NodeKind;
  label: string;
  /** Tooltip: where the function is, what the handler is. */
  title: string;
  /** In-page link: the handler's story. */
  href?: string;
  verdict?: Verdict;
  handlers: Set<number>;
}

/** The monospace font's advance at the node font size, close enough to size a box around a label. */
const CHAR_WIDTH = 7.2;
const NODE_HEIGHT = 26;
/** Labels longer than this are cut with an ellipsis; the tooltip has the whole text. */
const MAX_LABEL = 48;

function cut(label: string): string {
  return label.length > MAX_LABEL ? `${label.slice(0, MAX_LABEL - 1)}…` : label;
}

function handlerLabel(handler: HandlerEntry): string {
  return handler.name ?? handler.queue ?? `${handler.file.slice(handler.file.lastIndexOf('/') + 1)}:${handler.line}`;
}

/** The nodes and edges: broker → handler → function → … → effect, one node per broker, function and effect. */
function buildGraph(handlers: readonly HandlerEntry[]): {
  nodes: Map<string, DrawnNode>;
  edges: Map<string, { from: string; to: string; handlers: Set<number> }>;
} {
  const nodes = new Map<string, DrawnNode>();
  const edges = new Map<string, { from: string; to: string; handlers: Set<number> }>();
  const node = (id: string, make: () => Omit<DrawnNode, 'handlers'>, index: number): string => {
    const known = nodes.get(id) ?? { ...make(), handlers: new Set<number>() };
    known.handlers.add(index);
    nodes.set(id, known);
    return id;
  };
  const edge = (from: string, to: string, index: number): void => {
    const id = `${from}\u0000${to}`;
    const known = edges.get(id) ?? { from, to, handlers: new Set<number>() };
    known.handlers.add(index);
    edges.set(id, known);
  };
  handlers.forEach((handler, index) => {
    const broker = node(
      `b:${handler.broker}`,
      () => ({ kind: 'broker', label: handler.broker, title: `deliveries from ${handler.broker}` }),
      index,
    );
    const start = node(
      `h${index}`,
      () => ({
        kind: 'handler',
        label: handlerLabel(handler),
        title: `${handler.broker} handler at ${handler.file}:${handler.line} (${handler.verdict})`,
        href: `#handler-${index + 1}`,
        verdict: handler.verdict,
      }),
      index,
    );
    edge(broker, start, index);
    const paths = new Map((handler.paths ?? []).map((path) => [path.effect, path.via]));
    for (const effect of handler.effects) {
      let from = start;
      for (const step of paths.get(effect) ?? []) {
        const at = `${step.file}${step.line === undefined ? '' : `:${step.line}`}`;
        const to = node(
          `f:${step.file}\u0000${step.name}`,
          () => ({ kind: 'function', label: step.name, title: at }),
          index,
        );
        edge(from, to, index);
        from = to;
      }
      const to = node(`e:${effect}`, () => ({ kind: 'effect', label: effect, title: `effect: ${effect}` }), index);
      edge(from, to, index);
    }
  });
  return { nodes, edges };
}

function handlerList(handlers: ReadonlySet<number>): string {
  return [...handlers].sort((a, b) => a - b).join(' ');
}

/** The SVG of the handlers' graph, or undefined when no handler reaches anything. */
export function inventorySvg(handlers: readonly HandlerEntry[]): string | undefined {
  if (handlers.length === 0) return undefined;
  const { nodes, edges } = buildGraph(handlers);
  const graph = new Graph();
  graph.setGraph({ rankdir: 'LR', nodesep: 10, ranksep: 48, marginx: 8, marginy: 8 });
  // Insertion order is the report's order (handlers sorted by file), so the layout is deterministic.
  for (const [id, drawn] of nodes)
    graph.setNode(id, { width: Math.ceil(cut(drawn.label).length * CHAR_WIDTH) + 20, height: NODE_HEIGHT });
  // A delivery edge weighs more, so every handler stands one step from its broker, in one column.
  for (const { from, to } of edges.values()) graph.setEdge(from, to, { weight: from.startsWith('b:') ? 8 : 1 });
  layout(graph);
  const { width = 0, height = 0 } = graph.graph();
  const parts: string[] = [];
  for (const { from, to, handlers: owners } of edges.values()) {
    const points = graph.edge(from, to).points ?? [];
    const d = points.map((point, i) => `${i === 0 ? 'M' : 'L'}${round(point.x)},${round(point.y)}`).join(' ');
    parts.push(`<path class="edge" d="${d}" data-h="${handlerList(owners)}" marker-end="url(#arrow)"/>`);
  }
  for (const [id, drawn] of nodes) {
    const { x, y, width: w, height: h } = graph.node(id);
    const left = round(x - w / 2);
    const top = round(y - h / 2);
    const classes = ['node', drawn.kind, ...(drawn.verdict ? [drawn.verdict] : [])].join(' ');
    const box =
      `<rect x="${left}" y="${top}" width="${round(w)}" height="${round(h)}" rx="${drawn.kind === 'effect' ? 13 : 4}"/>` +
      `<text x="${round(x)}" y="${round(y)}">${escapeHtml(cut(drawn.label))}</text>`;
    const title = `<title>${escapeHtml(`${drawn.label}: ${drawn.title}`)}</title>`;
    const body = drawn.href ? `<a href="${drawn.href}">${title}${box}</a>` : `${title}${box}`;
    parts.push(`<g class="${classes}" data-h="${handlerList(drawn.handlers)}">${body}</g>`);
  }
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" class="inventory" width="${round(width)}" height="${round(height)}" viewBox="0 0 ${round(width)} ${round(height)}" role="img" aria-labelledby="graph-title">`,
    '<defs><marker id="arrow" viewBox="0 0 8 8" refX="8" refY="4" markerWidth="7" markerHeight="7" orient="auto"><path d="M0,0 L8,4 L0,8 z"/></marker></defs>',
    ...parts,
    '</svg>',
  ].join('\n');
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
