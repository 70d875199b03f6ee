import { describe, expect, it } from 'vitest';

import { componentsFrom } from '../../src/model/ast/components.js';

const graph =
  (edges: Record<string, string[]>) =>
  (node: string): string[] =>
    edges[node] ?? [];

describe('componentsFrom', () => {
  it('puts each component after every component it reaches, a cycle as one component', () => {
    const components = componentsFrom(
      'a',
      graph({ a: ['b', 'e'], b: ['c'], c: ['d', 'b'], d: [], e: ['d'], unreached: ['a'] }),
    );
    expect(components).toEqual([['d'], ['b', 'c'], ['e'], ['a']]);
  });

  it('hands each component to the callback as it is found, before the components that reach it are walked on', () => {
    const order: string[] = [];
    componentsFrom(
      'a',
      (node) => {
        order.push(`open ${node}`);
        return graph({ a: ['b', 'c'], b: [], c: [] })(node);
      },
      (component) => order.push(`component ${component.join()}`),
    );
    expect(order).toEqual(['open a', 'open b', 'component b', 'open c', 'component c', 'component a']);
  });

  it('takes a self-loop and a cycle through the root', () => {
    expect(componentsFrom('a', graph({ a: ['a', 'b'], b: ['a'] })).map((component) => component.sort())).toEqual([
      ['a', 'b'],
    ]);
  });

  it('walks a chain of a hundred thousand calls without overflowing the stack, each node once', () => {
    const length = 100_000;
    let visits = 0;
    const components = componentsFrom(0, (node) => {
      visits++;
      return node < length ? [node + 1] : [];
    });
    expect(components).toHaveLength(length + 1);
    expect(components[0]).toEqual([length]);
    expect(visits).toBe(length + 1);
  });
});
