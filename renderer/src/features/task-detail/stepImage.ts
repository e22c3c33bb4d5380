import type { Step } from '../../../../electron/contract/index.js';

/** A box in percent of the image. */
export interface PercentBox {
  xPct: number;
  yPct: number;
  wPct: number;
  hPct: number;
}

/** The element a desktop step acted on, drawn over its screenshot. */
export interface StepElement {
  box: PercentBox;
  /** Which part of the desktop found it. */
  resolver: 'accessibility' | 'ocr' | 'coordinate';
  /** `button 'Save note'`, `'保存'`: the element as the step recorded it (the page's own words). */
  what: string;
}

/** A step's screenshot as an image source, with the click it made and the element it acted on (in percent of the image) when known. */
export interface StepImage {
  src: string;
  mark?: { xPct: number; yPct: number };
  element?: StepElement;
}

type Shot = { data?: unknown; format?: unknown; width?: unknown; height?: unknown };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

function source(shot: unknown): { src: string; width?: number; height?: number } | undefined {
  if (typeof shot === 'string' && shot.length > 100) return { src: `data:image/png;base64,${shot}` };
  if (!isRecord(shot)) return undefined;
  const { data, format, width, height } = shot as Shot;
  if (typeof data !== 'string' || data.length < 100) return undefined;
  return {
    src: `data:image/${format === 'jpeg' ? 'jpeg' : 'png'};base64,${data}`,
    ...(typeof width === 'number' && { width }),
    ...(typeof height === 'number' && { height }),
  };
}

const RESOLVERS = new Set(['accessibility', 'ocr', 'coordinate']);
const clampPct = (v: number): number => Math.min(100, Math.max(0, v));

/**
 * The resolved element of a desktop step (`target: {resolver, box, role, name, text}`), its box in
 * screen pixels turned into percent of the screen (`screen`), so it lies right over a smaller
 * screenshot too. Nothing without the screen's size: a guessed scale would draw it elsewhere.
 */
function stepElement(output: Record<string, unknown>): StepElement | undefined {
  const { target, screen } = output;
  if (!isRecord(target) || !isRecord(screen) || !isRecord(target.box)) return undefined;
  const { x, y, width, height } = target.box;
  const { width: sw, height: sh } = screen;
  if (![x, y, width, height, sw, sh].every(isNumber) || (sw as number) <= 0 || (sh as number) <= 0) return undefined;
  if (typeof target.resolver !== 'string' || !RESOLVERS.has(target.resolver)) return undefined;
  const [bx, by, bw, bh, w, h] = [x, y, width, height, sw, sh] as number[];
  const left = clampPct((100 * bx!) / w!);
  const top = clampPct((100 * by!) / h!);
  const box = { xPct: left, yPct: top, wPct: clampPct((100 * (bx! + bw!)) / w!) - left, hPct: clampPct((100 * (by! + bh!)) / h!) - top };
  const name = typeof target.name === 'string' ? target.name : typeof target.text === 'string' ? target.text : '';
  const role = typeof target.role === 'string' ? `${target.role} ` : '';
  return { box, resolver: target.resolver as StepElement['resolver'], what: `${role}'${name.slice(0, 80)}'` };
}

/**
 * The screenshot a browser or desktop step returned (`screenshot`, or `data` of browser.screenshot),
 * where it clicked (`x`/`y` of its arguments are in the screenshot's own, model, space), and the
 * element it acted on when the desktop resolved one.
 */
export function stepImage(step: Step): StepImage | undefined {
  if (!isRecord(step.output)) return undefined;
  const found = source(step.output.screenshot) ?? (step.tool === 'browser.screenshot' ? source(step.output) : undefined);
  if (!found) return undefined;
  const args = isRecord(step.args) ? step.args : {};
  const { x, y } = args;
  const element = stepElement(step.output);
  return {
    src: found.src,
    ...(typeof x === 'number' && typeof y === 'number' && found.width && found.height
      ? { mark: { xPct: (100 * x) / found.width, yPct: (100 * y) / found.height } }
      : {}),
    ...(element && { element }),
  };
}
