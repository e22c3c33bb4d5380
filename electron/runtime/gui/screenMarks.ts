import type { A11yNode, ElementTarget, OcrLine, ScreenBox } from '../../contract/index.js';
import type { CoordinateSpace, Size } from './coordinates.js';
import { labelKey, roleFamily } from './targetMatch.js';

// Set-of-marks for a screenshot: numbered boxes over what a person can act on (the accessibility
// tree's controls, plus OCR lines where the tree has nothing) and a legend of role + name per
// number, so a model that cannot point precisely can say "click 7". Pure: the capability reads
// the tree and OCR, draws the SVG this builds, and keeps the marks to resolve a later click.

/** How many marks a screenshot gets, and how much of a name the legend shows (the context budget). */
export const MARK_LIMITS = { marks: 40, label: 60 } as const;
/** Longest name a mark keeps: a target's name is at most 200 characters. */
const TARGET_NAME = 200;
/** OCR lines read with less mean confidence are noise (icons, borders), not text to act on. */
const MIN_CONFIDENCE = 50;

/** Control families a person operates (folded by `roleFamily`). */
const ACTIONABLE = new Set([
  'button',
  'entry',
  'checkbox',
  'radiobutton',
  'combobox',
  'link',
  'menuitem',
  'checkmenuitem',
  'radiomenuitem',
  'menu',
  'tab',
  'slider',
  'spinbutton',
  'switch',
]);

/** One numbered element of a marked screenshot, in screen pixels, with what re-finds it. */
export interface ScreenMark {
  n: number;
  source: 'accessibility' | 'ocr';
  /** Tree marks: the role and name a click resolves again. */
  role?: string;
  name?: string;
  /** OCR marks: the line's text. */
  text?: string;
  box: ScreenBox;
  disabled?: boolean;
}

/** The marks of one screenshot and how many candidates the cap left out. */
export interface MarkSet {
  marks: ScreenMark[];
  omitted: number;
}

const center = (b: ScreenBox) => ({ x: b.x + b.width / 2, y: b.y + b.height / 2 });
const within = (p: { x: number; y: number }, b: ScreenBox): boolean =>
  p.x >= b.x && p.x < b.x + b.width && p.y >= b.y && p.y < b.y + b.height;
const contains = (outer: ScreenBox, inner: ScreenBox): boolean =>
  inner.x >= outer.x &&
  inner.y >= outer.y &&
  inner.x + inner.width <= outer.x + outer.width &&
  inner.y + inner.height <= outer.y + outer.height;

/** A box cut to the screen; undefined when nothing of it is on the screen. */
export function clipToScreen(b: ScreenBox, screen: Size): ScreenBox | undefined {
  const x = Math.max(0, b.x);
  const y = Math.max(0, b.y);
  const right = Math.min(screen.width, b.x + b.width);
  const bottom = Math.min(screen.height, b.y + b.height);
  return right > x && bottom > y ? { x, y, width: right - x, height: bottom - y } : undefined;
}

type Candidate = Omit<ScreenMark, 'n'>;

/** The tree's named controls on the screen, the outermost of a nested pair with one name. */
function treeCandidates(nodes: readonly A11yNode[], screen: Size): Candidate[] {
  const kept: Candidate[] = [];
  const controls = nodes
    .filter((n) => ACTIONABLE.has(roleFamily(n.role)) && n.name.trim() !== '' && n.name.length <= TARGET_NAME)
    .map((n) => ({ node: n, box: clipToScreen(n.bounds, screen) }))
    .filter((c): c is { node: A11yNode; box: ScreenBox } => c.box !== undefined)
    .sort((a, b) => b.box.width * b.box.height - a.box.width * a.box.height);
  for (const { node, box } of controls) {
    if (kept.some((k) => labelKey(k.name!) === labelKey(node.name) && contains(k.box, box))) continue;
    const disabled = !node.states.includes('enabled') && !node.states.includes('sensitive');
    kept.push({ source: 'accessibility', role: node.role, name: node.name.trim(), box, ...(disabled && { disabled }) });
  }
  return kept;
}

/** An OCR line this much under tree marks is read across controls the tree already names ("Shift layout | Old banner"). */
const COVERED = 0.25;

const overlap = (a: ScreenBox, b: ScreenBox): number =>
  Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)) *
  Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y));

/** The share of a box that tree marks cover (overlaps between marks counted twice: an upper bound, capped at 1). */
const coveredShare = (b: ScreenBox, tree: readonly Candidate[]): number =>
  Math.min(1, tree.reduce((sum, t) => sum + overlap(b, t.box), 0) / Math.max(1, b.width * b.height));

/** OCR lines where the tree has nothing: not inside or mostly over tree marks, not a name the tree already gives. */
function ocrCandidates(lines: readonly OcrLine[], tree: readonly Candidate[], nodes: readonly A11yNode[], screen: Size): Candidate[] {
  const treeNames = new Set(nodes.map((n) => labelKey(n.name)).filter((k) => k !== ''));
  return lines.flatMap((line) => {
    const text = line.text.trim();
    const box = clipToScreen(line.box, screen);
    const confidence = line.words.reduce((sum, w) => sum + w.confidence, 0) / Math.max(1, line.words.length);
    if (!box || !/[\p{L}\p{N}]/u.test(text) || text.length > TARGET_NAME || confidence < MIN_CONFIDENCE) return [];
    if (treeNames.has(labelKey(text)) || tree.some((t) => within(center(box), t.box)) || coveredShare(box, tree) >= COVERED) return [];
    return [{ source: 'ocr' as const, text, box }];
  });
}

/**
 * The marks of a screen: tree controls first, then OCR lines, at most `limit`, numbered from 1 in
 * reading order (top to bottom, then left to right); `omitted` counts what the cap left out.
 */
export function collectMarks(
  nodes: readonly A11yNode[],
  lines: readonly OcrLine[],
  screen: Size,
  limit: number = MARK_LIMITS.marks,
): MarkSet {
  const tree = treeCandidates(nodes, screen);
  const all = [...tree, ...ocrCandidates(lines, tree, nodes, screen)];
  const chosen = all.slice(0, limit).sort((a, b) => a.box.y - b.box.y || a.box.x - b.box.x);
  return { marks: chosen.map((c, i) => ({ n: i + 1, ...c })), omitted: all.length - chosen.length };
}

const shorten = (s: string, max: number): string => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

/** Converts the screen to the model space (the one the screenshot and x/y are in). */
type ModelSpaceOf = Pick<CoordinateSpace, 'toModel' | 'screen'>;

/** The centre of a mark in model space: where x/y would click it on the screenshot. */
const modelCentre = (m: ScreenMark, space: ModelSpaceOf): { x: number; y: number } => {
  const b = modelBox(m.box, space);
  return { x: b.x + Math.floor((b.width - 1) / 2), y: b.y + Math.floor((b.height - 1) / 2) };
};

/**
 * One legend line: `7: button 'Save note'`, `12: text '保存草稿'`; with the model space, where its
 * centre is on the screenshot (` at (412, 230)`), for models that can only click x/y.
 */
export function legendLine(m: ScreenMark, space?: ModelSpaceOf, labelLimit: number = MARK_LIMITS.label): string {
  const what =
    m.source === 'accessibility' ? `${m.role} '${shorten(m.name ?? '', labelLimit)}'` : `text '${shorten(m.text ?? '', labelLimit)}'`;
  const at = space ? modelCentre(m, space) : undefined;
  return `${m.n}: ${what}${m.disabled ? ' (disabled)' : ''}${at ? ` at (${at.x}, ${at.y})` : ''}`;
}

/** The legend sent beside a marked screenshot: how to use it, one line per mark, and what was left out. */
export function legendText(set: MarkSet, space?: ModelSpaceOf, labelLimit: number = MARK_LIMITS.label): string {
  if (set.marks.length === 0) return 'No element to mark on this screen: give x/y instead.';
  const head = `Marks 1–${set.marks.length} on this screenshot; click one with {"action":"click","mark":N}:`;
  const tail = set.omitted > 0 ? [`(${set.omitted} more elements not marked: limit ${set.marks.length}; zoom or give x/y for them)`] : [];
  return [head, ...set.marks.map((m) => legendLine(m, space, labelLimit)), ...tail].join('\n');
}

/** A screen box in model pixels: the model pixels holding the centres of its first and last screen pixels. */
export function modelBox(b: ScreenBox, space: Pick<CoordinateSpace, 'toModel' | 'screen'>): ScreenBox {
  const clipped = clipToScreen(b, space.screen) ?? { x: 0, y: 0, width: 1, height: 1 };
  const from = space.toModel({ x: clipped.x, y: clipped.y });
  const to = space.toModel({ x: clipped.x + clipped.width - 1, y: clipped.y + clipped.height - 1 });
  return { x: from.x, y: from.y, width: to.x - from.x + 1, height: to.y - from.y + 1 };
}

/** Where one mark is drawn on the model-space image: its box and its number's tag. */
export interface MarkShape {
  n: number;
  box: ScreenBox;
  tag: ScreenBox;
  colour: string;
}

const TAG_HEIGHT = 16;
const DIGIT_WIDTH = 8;
const COLOURS = ['#e6194b', '#0057e7', '#008a3e', '#b8008a', '#d35400', '#00838f'];

/** Each mark's box and number tag in model space; tags sit above the box, or inside it at the top edge, and never leave the image. */
export function markShapes(marks: readonly ScreenMark[], space: Pick<CoordinateSpace, 'toModel' | 'screen' | 'model'>): MarkShape[] {
  const { width, height } = space.model;
  return marks.map((m, i) => {
    const box = modelBox(m.box, space);
    const tagWidth = Math.min(width, String(m.n).length * DIGIT_WIDTH + 6);
    const tagHeight = Math.min(height, TAG_HEIGHT);
    const x = Math.max(0, Math.min(box.x, width - tagWidth));
    const y = box.y >= tagHeight ? box.y - tagHeight : Math.min(box.y, height - tagHeight);
    return { n: m.n, box, tag: { x, y, width: tagWidth, height: tagHeight }, colour: COLOURS[i % COLOURS.length]! };
  });
}

/** The SVG overlay for a model-space image of `size`: an outline and a numbered tag per mark. */
export function marksSvg(shapes: readonly MarkShape[], size: Size): string {
  const parts = shapes.map(
    (s) =>
      `<rect x="${s.box.x + 0.5}" y="${s.box.y + 0.5}" width="${Math.max(1, s.box.width - 1)}" height="${Math.max(1, s.box.height - 1)}" fill="none" stroke="${s.colour}" stroke-width="2"/>` +
      `<rect x="${s.tag.x}" y="${s.tag.y}" width="${s.tag.width}" height="${s.tag.height}" fill="${s.colour}"/>` +
      `<text x="${s.tag.x + s.tag.width / 2}" y="${s.tag.y + s.tag.height - 3}" text-anchor="middle" font-family="DejaVu Sans, sans-serif" font-size="13" font-weight="bold" fill="#fff">${s.n}</text>`,
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size.width}" height="${size.height}">${parts.join('')}</svg>`;
}

/** What finds a mark's element again on the screen as it is now: its role and name, or its text. */
export function markElement(m: ScreenMark): ElementTarget {
  return m.source === 'accessibility' ? { role: m.role!, name: m.name! } : { text: m.text! };
}
