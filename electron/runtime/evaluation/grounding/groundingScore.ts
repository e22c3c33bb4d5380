import type { ScreenBox } from '../../../contract/index.js';
import type { GroundingExpect } from './groundingCase.js';

/** What resolving one target gave on the desktop (the product's resolver, its errors mapped to outcomes). */
export type GroundingOutcome =
  | { outcome: 'found'; resolver: 'accessibility' | 'ocr' | 'coordinate'; box: ScreenBox; label?: string }
  | { outcome: 'ambiguous' | 'missed'; candidates: string[]; message: string }
  | { outcome: 'error'; message: string };

/** Where the scene's own layout puts the target: a page element's box, or an application's window. */
export interface LayoutBox {
  kind: 'element' | 'window';
  box?: ScreenBox;
}

/** A case's verdict: pass, or why not. */
export interface GroundingVerdict {
  pass: boolean;
  why?: string;
}

/** A tree box is the element's own box: each edge within this many pixels of the page's layout. */
export const TREE_EDGE_TOLERANCE = 3;
/** An OCR box is text inside its element: its centre (the click point) inside, and this share of it overlapping. */
export const OCR_MIN_OVERLAP = 0.75;

const right = (b: ScreenBox) => b.x + b.width;
const bottom = (b: ScreenBox) => b.y + b.height;
const text = (b: ScreenBox) => `(${b.x}, ${b.y}) ${b.width}×${b.height}`;

/** Whether `inner` lies inside `outer` grown by `slack` pixels on every side. */
export function within(inner: ScreenBox, outer: ScreenBox, slack: number): boolean {
  return (
    inner.x >= outer.x - slack &&
    inner.y >= outer.y - slack &&
    right(inner) <= right(outer) + slack &&
    bottom(inner) <= bottom(outer) + slack
  );
}

/** The share of `a`'s area that lies inside `b`. */
export function overlapShare(a: ScreenBox, b: ScreenBox): number {
  const w = Math.max(0, Math.min(right(a), right(b)) - Math.max(a.x, b.x));
  const h = Math.max(0, Math.min(bottom(a), bottom(b)) - Math.max(a.y, b.y));
  return a.width * a.height === 0 ? 0 : (w * h) / (a.width * a.height);
}

/** Whether two boxes' edges all lie within `slack` pixels of each other. */
export function sameBox(a: ScreenBox, b: ScreenBox, slack: number): boolean {
  return [a.x - b.x, a.y - b.y, right(a) - right(b), bottom(a) - bottom(b)].every((d) => Math.abs(d) <= slack);
}

/** Scores one case: the outcome, the resolver, and for a found target its box against the layout. */
export function scoreCase(expect: GroundingExpect, actual: GroundingOutcome, layout: LayoutBox): GroundingVerdict {
  if (actual.outcome !== expect.outcome) {
    const detail = actual.outcome === 'found' ? ` by ${actual.resolver} at ${text(actual.box)}` : `: ${actual.message}`;
    return { pass: false, why: `expected ${expect.outcome}, got ${actual.outcome}${detail}` };
  }
  if (expect.outcome === 'ambiguous' && actual.outcome === 'ambiguous' && actual.candidates.length !== expect.candidates)
    return { pass: false, why: `expected ${expect.candidates} candidates, the error named ${actual.candidates.length}: ${actual.message}` };
  if (expect.outcome !== 'found' || actual.outcome !== 'found') return { pass: true };
  if (actual.resolver !== expect.resolver)
    return { pass: false, why: `expected the ${expect.resolver} resolver, found by ${actual.resolver}` };
  return scoreBox(expect.resolver, actual.box, layout);
}

function scoreBox(resolver: 'accessibility' | 'ocr', box: ScreenBox, layout: LayoutBox): GroundingVerdict {
  if (!layout.box) return { pass: false, why: `the scene's ${layout.kind} to check the box against was not found on the screen` };
  const expected = layout.box;
  if (layout.kind === 'window') {
    const inside = within(box, expected, 2) && box.width * box.height < expected.width * expected.height;
    return inside ? { pass: true } : { pass: false, why: `box ${text(box)} is not a part of the window at ${text(expected)}` };
  }
  if (resolver === 'accessibility')
    return sameBox(box, expected, TREE_EDGE_TOLERANCE)
      ? { pass: true }
      : { pass: false, why: `box ${text(box)} is not the element's ${text(expected)} (±${TREE_EDGE_TOLERANCE} px)` };
  // OCR boxes are Tesseract's estimate of the glyphs: what must hold is that the click lands on the element.
  const centre = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  const lands = centre.x >= expected.x && centre.x < right(expected) && centre.y >= expected.y && centre.y < bottom(expected);
  return lands && overlapShare(box, expected) >= OCR_MIN_OVERLAP
    ? { pass: true }
    : {
        pass: false,
        why: `box ${text(box)} is not on the element's ${text(expected)} (centre inside, ≥ ${OCR_MIN_OVERLAP * 100} % overlap)`,
      };
}
