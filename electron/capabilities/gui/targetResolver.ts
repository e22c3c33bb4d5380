import type { ElementTarget, OcrLanguageSchema, ResolvedTarget, ScreenBox } from '../../contract/index.js';
import type { Point } from '../../runtime/gui/coordinates.js';
import { elementUnder } from '../../runtime/gui/elementUnder.js';
import { contradictedByTree, describeNode, matchText, matchTree, wantedLabel } from '../../runtime/gui/targetMatch.js';
import { ToolError } from '../../runtime/tools/types.js';
import type { DesktopSandbox } from '../sandbox/desktopSandbox.js';
import type { z } from 'zod';

const CJK = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/;

/** A target as found on the screen, plus the tree object's id (to watch it after the action). */
export interface Resolution {
  target: ResolvedTarget;
  nodeId?: string;
}

/** No element, or several, fit a target: the error names what the screen offered instead. */
export class TargetError extends ToolError {
  constructor(
    message: string,
    code: 'target_missed' | 'target_ambiguous',
    /** What the error names: tree objects and OCR text, each with its box. */
    readonly candidates: readonly string[],
  ) {
    super(message, false, code);
    this.name = 'TargetError';
  }
}

const center = (b: ScreenBox): Point => ({ x: Math.round(b.x + b.width / 2), y: Math.round(b.y + b.height / 2) });
const boxText = (b: ScreenBox): string => `(${b.x}, ${b.y}) ${b.width}×${b.height}`;
const inside = (p: Point, b: ScreenBox): boolean => p.x >= b.x && p.x < b.x + b.width && p.y >= b.y && p.y < b.y + b.height;
const describeTarget = (t: ElementTarget): string =>
  t.role ? `${t.role} "${wantedLabel(t)}"` : t.name !== undefined ? `element "${t.name}"` : `text "${t.text}"`;

/** Several fit: the one the given point lies in (an explicit choice), else an ambiguity error. */
function pick<T extends { box: ScreenBox }>(matches: readonly T[], at: Point | undefined): T | undefined {
  if (matches.length === 1) return matches[0];
  const chosen = at ? matches.filter((m) => inside(at, m.box)) : [];
  return chosen.length === 1 ? chosen[0] : undefined;
}

/** OCR languages for a label: Chinese data only where the label has Chinese (English reads faster alone). */
export const languagesFor = (label: string): z.infer<typeof OcrLanguageSchema>[] => (CJK.test(label) ? ['chi_sim', 'eng'] : ['eng']);

/**
 * Finds a target on the desktop: the accessibility tree first, OCR second, the coordinate `at`
 * (screen pixels) last. None, or several with no coordinate choosing one, is a `TargetError`
 * naming the candidates — never a click somewhere else.
 */
export async function resolveTarget(sandbox: DesktopSandbox, target: ElementTarget, at?: Point): Promise<Resolution> {
  const tree = await sandbox.call('a11y.tree', { values: false });
  const named: string[] = [];
  if (tree.available) {
    const found = matchTree(tree.nodes, target, sandbox.screen);
    const nodes = found.matches.map((n) => ({ ...n, box: n.bounds }));
    const node = pick(nodes, at);
    if (node) {
      const resolved: ResolvedTarget = {
        resolver: 'accessibility',
        box: node.bounds,
        point: center(node.bounds),
        role: node.role,
        name: node.name,
        app: node.app,
        states: node.states,
      };
      return { target: resolved, nodeId: node.id };
    }
    if (nodes.length > 1)
      throw ambiguous(
        target,
        nodes.map((n) => `${describeNode(n)} at ${boxText(n.bounds)}`),
      );
    named.push(...found.near.map((n) => `${describeNode(n)} at ${boxText(n.bounds)}`));
  }
  const label = wantedLabel(target);
  const ocr = await sandbox.call('ocr.read', { languages: languagesFor(label) });
  const read = matchText(ocr.lines, target);
  const { kept, owners } = contradictedByTree(read.matches, tree.available ? tree.nodes : [], target);
  read.matches = kept;
  named.push(
    ...owners.filter((o) => !named.some((n) => n.startsWith(describeNode(o)))).map((o) => `${describeNode(o)} at ${boxText(o.bounds)}`),
  );
  const hit = pick(read.matches, at);
  if (hit) return { target: { resolver: 'ocr', box: hit.box, point: center(hit.box), text: hit.text } };
  if (read.matches.length > 1)
    throw ambiguous(
      target,
      read.matches.map((m) => `text "${m.text}" at ${boxText(m.box)} in "${m.line.slice(0, 80)}"`),
    );
  named.push(...read.near.map((line) => `text "${line.slice(0, 80)}"`));
  if (at) return { target: { resolver: 'coordinate', box: { x: at.x - 12, y: at.y - 12, width: 24, height: 24 }, point: at } };
  const tried = tree.available
    ? 'the accessibility tree and OCR'
    : `OCR (no accessibility tree: ${tree.reason ?? 'no application publishes one'})`;
  const offered = named.length > 0 ? `; the screen shows ${named.join('; ')}` : '';
  throw new TargetError(
    `no element on the screen is ${describeTarget(target)} (searched ${tried})${offered}. Name one of those, or take a screenshot and give x/y.`,
    'target_missed',
    named,
  );
}

/**
 * What a bare-coordinate click is on (screen pixels), asked of the tree before the click: the
 * named control there that its role and name alone find again, else nothing. The step records it
 * beside the coordinate, so a recording can find the element where the coordinate no longer is.
 */
export async function elementAt(sandbox: DesktopSandbox, at: Point): Promise<ResolvedTarget | undefined> {
  const tree = await sandbox.call('a11y.tree', { values: false }).catch(() => undefined);
  if (!tree?.available) return undefined;
  const node = elementUnder(tree.nodes, at, sandbox.screen);
  if (!node) return undefined;
  return { resolver: 'coordinate', box: node.bounds, point: at, role: node.role, name: node.name, app: node.app, states: node.states };
}

function ambiguous(target: ElementTarget, candidates: string[]): TargetError {
  return new TargetError(
    `${candidates.length} elements are ${describeTarget(target)}: ${candidates.join('; ')}. Add x/y inside the one you mean.`,
    'target_ambiguous',
    candidates,
  );
}
