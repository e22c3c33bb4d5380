import type { A11yNode } from '../../contract/index.js';
import type { Point, Size } from './coordinates.js';
import { CONTAINERS, matchTree, roleFamily } from './targetMatch.js';

/** Roles a bare click is never said to be "on": the containers, and text that labels a control rather than being one. */
const HOLDERS = new Set([...CONTAINERS, 'static', 'paragraph']);

const inside = (p: Point, n: A11yNode): boolean =>
  p.x >= n.bounds.x && p.x < n.bounds.x + n.bounds.width && p.y >= n.bounds.y && p.y < n.bounds.y + n.bounds.height;

/**
 * The named control under a screen point (the smallest one that holds it), when its role and name
 * find it and nothing else on the screen: what a bare-coordinate click was on, in a form that
 * finds it again at another size or place. A name shared with another control, or no named
 * control there, is undefined — a recording keeps only the coordinate then.
 */
export function elementUnder(nodes: readonly A11yNode[], point: Point, screen: Size): A11yNode | undefined {
  const under = nodes
    .filter((n) => n.name.trim() !== '' && !HOLDERS.has(roleFamily(n.role)) && inside(point, n))
    .sort((a, b) => a.bounds.width * a.bounds.height - b.bounds.width * b.bounds.height);
  for (const node of under) {
    const { matches } = matchTree(nodes, { role: node.role, name: node.name }, screen);
    if (matches.length === 1 && inside(point, matches[0]!)) return matches[0];
    if (matches.length > 1) return undefined; // the smallest named control is not unique: no target
  }
  return undefined;
}
