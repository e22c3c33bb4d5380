import type { A11yNode, ElementTarget, OcrLine, ScreenBox } from '../../contract/index.js';
import { normalizeLabel } from '../policy/effects/labelText.js';

// Pure matching of an element target against what the desktop shows: the accessibility tree's
// objects by role and name, OCR lines by text. Exact (after normalization) or nothing: a near
// miss is named to the caller as a candidate, never clicked.

const CJK = /[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]/;
/** How many candidates an error names. */
const NAMED = 8;

/** A label as compared: normalized, case folded, whitespace collapsed. */
export const labelKey = (text: string): string => normalizeLabel(text).toLowerCase().replace(/\s+/g, ' ').trim();
/** The same without any whitespace (OCR splits and joins words unpredictably). */
const compactKey = (text: string): string => labelKey(text).replace(/\s+/g, '');

/** AT-SPI role names and the words a model or a recording uses for them, folded to one family. */
const ROLE_FAMILIES: Readonly<Record<string, string>> = {
  pushbutton: 'button',
  togglebutton: 'button',
  button: 'button',
  entry: 'entry',
  textbox: 'entry',
  textfield: 'entry',
  textarea: 'entry',
  input: 'entry',
  text: 'entry',
  passwordtext: 'entry',
  searchbox: 'entry',
  checkbox: 'checkbox',
  radiobutton: 'radiobutton',
  radio: 'radiobutton',
  combobox: 'combobox',
  link: 'link',
  menuitem: 'menuitem',
  pagetab: 'tab',
  tab: 'tab',
  heading: 'heading',
  static: 'static',
  label: 'static',
  statictext: 'static',
};
/** A role folded to its family (`push button` → `button`). */
export const roleFamily = (role: string): string => {
  const key = role.toLowerCase().replace(/[\s_-]+/g, '');
  return ROLE_FAMILIES[key] ?? key;
};

/** Roles that hold other controls: a target without a role never means one of them. */
export const CONTAINERS = new Set([
  'application',
  'frame',
  'window',
  'documentweb',
  'documentframe',
  'filler',
  'panel',
  'section',
  'scrollpane',
  'viewport',
]);

/** The wanted label of a target: its name, else its text. */
export const wantedLabel = (target: ElementTarget): string => target.name ?? target.text ?? '';

/** A tree object as an error names it: `button "Save note" (yad)`. */
export const describeNode = (n: Pick<A11yNode, 'role' | 'name' | 'app'>): string => `${n.role} "${n.name.slice(0, 80)}" (${n.app})`;

/** What the tree offers for a target: the exact matches and, when none, what came closest. */
export interface TreeMatch {
  matches: A11yNode[];
  near: A11yNode[];
}

const intersects = (b: ScreenBox, screen: { width: number; height: number }): boolean =>
  b.x < screen.width && b.y < screen.height && b.x + b.width > 0 && b.y + b.height > 0;

/** Objects of the tree whose name (and role, when given) is the target's, outermost of nested ones. */
export function matchTree(nodes: readonly A11yNode[], target: ElementTarget, screen: { width: number; height: number }): TreeMatch {
  const wanted = labelKey(wantedLabel(target));
  const family = target.role === undefined ? undefined : roleFamily(target.role);
  const onScreen = nodes.filter((n) => intersects(n.bounds, screen));
  const roleFits = (n: A11yNode): boolean => (family === undefined ? !CONTAINERS.has(roleFamily(n.role)) : roleFamily(n.role) === family);
  const hits = onScreen.filter((n) => roleFits(n) && labelKey(n.name) === wanted);
  const ids = new Set(hits.map((n) => n.id));
  const parents = new Map(nodes.map((n) => [n.id, n.parent]));
  const insideAnother = (n: A11yNode): boolean => {
    for (let up = n.parent, hops = 0; up !== undefined && hops < 64; up = parents.get(up), hops++) if (ids.has(up)) return true;
    return false;
  };
  const matches = hits.filter((n) => !insideAnother(n));
  if (matches.length > 0) return { matches, near: [] };
  const near = onScreen
    .filter((n) => n.name.trim() !== '' && roleFits(n) && closeLabels(labelKey(n.name), wanted))
    .concat(family === undefined ? [] : onScreen.filter((n) => n.name.trim() !== '' && roleFamily(n.role) === family))
    .filter((n, i, all) => all.findIndex((m) => m.id === n.id) === i)
    .slice(0, NAMED);
  return { matches: [], near };
}

/** A place OCR read the target's text, with the line it is on. */
export interface TextHit {
  box: ScreenBox;
  text: string;
  line: string;
}

/** What OCR offers for a target: exact occurrences and, when none, the lines that came closest. */
export interface TextMatch {
  matches: TextHit[];
  near: string[];
}

interface Glyph {
  ch: string;
  box: ScreenBox;
  /** First or last character of its word. */
  starts: boolean;
  ends: boolean;
}

/** Each word's characters with an even share of its box (OCR gives words, CJK targets are substrings). */
function glyphsOf(line: OcrLine): Glyph[] {
  return line.words.flatMap((w) => {
    const chars = [...compactKey(w.text)];
    const step = w.box.width / Math.max(1, chars.length);
    return chars.map((ch, i) => ({
      ch,
      box: { x: Math.round(w.box.x + i * step), y: w.box.y, width: Math.max(1, Math.round(step)), height: w.box.height },
      starts: i === 0,
      ends: i === chars.length - 1,
    }));
  });
}

const union = (boxes: readonly ScreenBox[]): ScreenBox => {
  const x = Math.min(...boxes.map((b) => b.x));
  const y = Math.min(...boxes.map((b) => b.y));
  return { x, y, width: Math.max(...boxes.map((b) => b.x + b.width)) - x, height: Math.max(...boxes.map((b) => b.y + b.height)) - y };
};

/**
 * Occurrences of the target's text in OCR lines, spaces ignored. A Latin occurrence must begin and
 * end at word edges ("Save" is not inside "Saved"); a CJK one may sit inside a word, since
 * Tesseract often reads a run of characters as one word.
 */
export function matchText(lines: readonly OcrLine[], target: ElementTarget): TextMatch {
  const wanted = [...compactKey(wantedLabel(target))];
  if (wanted.length === 0) return { matches: [], near: [] };
  const cjkEdges = CJK.test(wanted[0]!) && CJK.test(wanted.at(-1)!);
  const matches: TextHit[] = [];
  for (const line of lines) {
    const glyphs = glyphsOf(line);
    for (let i = 0; i + wanted.length <= glyphs.length; i++) {
      const run = glyphs.slice(i, i + wanted.length);
      if (!run.every((g, k) => g.ch === wanted[k])) continue;
      if (!cjkEdges && !(run[0]!.starts && run.at(-1)!.ends)) continue;
      matches.push({ box: union(run.map((g) => g.box)), text: wantedLabel(target), line: line.text });
      i += wanted.length - 1;
    }
  }
  if (matches.length > 0) return { matches, near: [] };
  const key = wanted.join('');
  const near = lines
    .map((l) => ({ text: l.text, score: bestWindowDistance(compactKey(l.text), key) }))
    .filter((l) => l.score <= Math.max(1, Math.floor(key.length / 3)))
    .sort((a, b) => a.score - b.score)
    .slice(0, NAMED)
    .map((l) => l.text);
  return { matches: [], near };
}

/** Roles a person operates: OCR text inside one of them belongs to it. */
const CONTROLS = new Set(['button', 'link', 'entry', 'checkbox', 'radiobutton', 'combobox', 'menuitem', 'tab']);

/**
 * OCR hits the tree contradicts: text lying inside a control the tree knows under another name
 * ("Save" read on the button "Save note") is part of that control's label, not an element of its own.
 */
export function contradictedByTree(
  hits: readonly TextHit[],
  nodes: readonly A11yNode[],
  target: ElementTarget,
): { kept: TextHit[]; owners: A11yNode[] } {
  const wanted = labelKey(wantedLabel(target));
  const owners: A11yNode[] = [];
  const kept = hits.filter((hit) => {
    const cx = hit.box.x + hit.box.width / 2;
    const cy = hit.box.y + hit.box.height / 2;
    const owner = nodes.find(
      (n) =>
        CONTROLS.has(roleFamily(n.role)) &&
        labelKey(n.name) !== '' &&
        labelKey(n.name) !== wanted &&
        cx >= n.bounds.x &&
        cx < n.bounds.x + n.bounds.width &&
        cy >= n.bounds.y &&
        cy < n.bounds.y + n.bounds.height,
    );
    if (owner) owners.push(owner);
    return !owner;
  });
  return { kept, owners };
}

/** Two labels one of which holds the other, or one or two edits apart. */
function closeLabels(a: string, b: string): boolean {
  if (a.length === 0 || b.length === 0) return false;
  return a.includes(b) || b.includes(a) || editDistance(a, b) <= Math.max(1, Math.floor(b.length / 4));
}

/** The smallest edit distance between `key` and any same-length window of `text`. */
function bestWindowDistance(text: string, key: string): number {
  if (text.length <= key.length) return editDistance(text, key);
  let best = Infinity;
  for (let i = 0; i + key.length <= text.length; i++) best = Math.min(best, editDistance(text.slice(i, i + key.length), key));
  return best;
}

/** Levenshtein distance over code points. */
export function editDistance(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  let row = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const next = [i];
    for (let j = 1; j <= y.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
    row = next;
  }
  return row[y.length]!;
}
