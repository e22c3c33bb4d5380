import { AgentDeskError } from '../errors.js';

/** A size in pixels. */
export interface Size {
  width: number;
  height: number;
}

/** A point in pixels. */
export interface Point {
  x: number;
  y: number;
}

/** Scaling targets computer-use models are trained on, in order of preference. */
export const SCALING_TARGETS: Readonly<Record<'XGA' | 'WXGA' | 'FWXGA', Size>> = {
  XGA: { width: 1024, height: 768 },
  WXGA: { width: 1280, height: 800 },
  FWXGA: { width: 1366, height: 768 },
};

/** Aspect ratios closer than this count as equal (1366×768 vs 16:9 is 0.0018 off). */
const ASPECT_TOLERANCE = 0.02;
/** Long-edge and pixel-count limits for a screenshot shown to a model (Anthropic's guidance). */
const MAX_LONG_EDGE = 1568;
const MAX_PIXELS = 1_150_000;

function checkSize(s: Size, what: string): void {
  if (!Number.isInteger(s.width) || !Number.isInteger(s.height) || s.width < 1 || s.height < 1)
    throw new AgentDeskError('invalid_params', `${what} must be whole positive pixels, got ${s.width}×${s.height}`);
}

/** True when two sizes have the same aspect ratio (within the tolerance). */
export function sameAspect(a: Size, b: Size): boolean {
  return Math.abs(a.width / a.height - b.width / b.height) / (b.width / b.height) < ASPECT_TOLERANCE;
}

/**
 * The model space for a screen: the largest scaling target with the screen's aspect that is no
 * larger than the screen; else the screen itself when within the limits; else the screen scaled
 * down (aspect kept) to fit them. Screenshots are sent at this size.
 */
export function chooseModelSpace(screen: Size): Size {
  checkSize(screen, 'screen size');
  const fitting = Object.values(SCALING_TARGETS).filter((t) => sameAspect(t, screen) && t.width <= screen.width);
  if (fitting.length > 0) return fitting.reduce((a, b) => (b.width > a.width ? b : a));
  const factor = Math.min(1, MAX_LONG_EDGE / Math.max(screen.width, screen.height), Math.sqrt(MAX_PIXELS / (screen.width * screen.height)));
  return { width: Math.max(1, Math.floor(screen.width * factor)), height: Math.max(1, Math.floor(screen.height * factor)) };
}

/**
 * A screen's device pixels for its size in points at a scale factor (a HiDPI screen: 1280×800 at
 * 2 is 2560×1600). X, screenshots, input, the accessibility tree and OCR all count device pixels.
 */
export function devicePixels(points: Size, scale = 1): Size {
  checkSize(points, 'screen size');
  const size = { width: points.width * scale, height: points.height * scale };
  if (!(scale >= 1) || !Number.isInteger(size.width) || !Number.isInteger(size.height))
    throw new AgentDeskError(
      'invalid_params',
      `a ${points.width}×${points.height} screen at scale ${scale} is not whole device pixels (${size.width}×${size.height}); use a scale ≥ 1 that gives whole pixels, e.g. 1.25, 1.5 or 2`,
      { screen: points, scale },
    );
  return size;
}

/** A screen's size in points: its device pixels over the scale factor (what `auto` picks a model space for). */
export function pointsOf(screen: Size, scale = 1): Size {
  return { width: Math.max(1, Math.round(screen.width / scale)), height: Math.max(1, Math.round(screen.height / scale)) };
}

/** A named model space: a scaling target, normalized 0–999 (UI-TARS), or the screen itself. */
export type ModelSpaceSpec = keyof typeof SCALING_TARGETS | 'auto' | 'screen' | 'normalized1000' | Size;

/**
 * Resolves a model space for a screen. A scaling target whose aspect differs from the screen's is
 * refused (it would distort the picture and every click); normalized spaces are aspect-free.
 */
export function resolveModelSpace(spec: ModelSpaceSpec, screen: Size): Size {
  checkSize(screen, 'screen size');
  if (spec === 'auto') return chooseModelSpace(screen);
  if (spec === 'screen') return { ...screen };
  if (spec === 'normalized1000') return { width: 1000, height: 1000 };
  const target = typeof spec === 'string' ? SCALING_TARGETS[spec] : spec;
  checkSize(target, 'model space');
  if (!sameAspect(target, screen))
    throw new AgentDeskError(
      'invalid_params',
      `model space ${target.width}×${target.height} does not match the screen's aspect (${screen.width}×${screen.height}); use "auto" or a target with the same aspect`,
      { screen, modelSpace: target },
    );
  return { ...target };
}

// Pixel-centre mapping in integer arithmetic: no float drift, symmetric, round trip exact.
function mapAxis(v: number, from: number, to: number, what: string): number {
  if (!Number.isInteger(v) || v < 0 || v >= from)
    throw new AgentDeskError('invalid_params', `${what} ${v} is outside 0..${from - 1}`, { value: v, limit: from - 1 });
  return Math.min(to - 1, Math.floor(((2 * v + 1) * to) / (2 * from)));
}

/** A model-space point → the screen pixel under the centre of that model pixel. */
export function modelToScreen(p: Point, model: Size, screen: Size): Point {
  return { x: mapAxis(p.x, model.width, screen.width, 'x'), y: mapAxis(p.y, model.height, screen.height, 'y') };
}

/** A screen pixel → the model pixel that contains its centre (e.g. the cursor shown to a model). */
export function screenToModel(p: Point, model: Size, screen: Size): Point {
  return { x: mapAxis(p.x, screen.width, model.width, 'x'), y: mapAxis(p.y, screen.height, model.height, 'y') };
}

/** Converts between one model space and one screen: the runtime's only coordinate conversion. */
export class CoordinateSpace {
  readonly model: Size;
  /**
   * `screen`: device pixels. `scale`: device pixels per point; `auto` picks the model space for the
   * size in points, so a HiDPI screen shows the model the picture a scale-1 screen would (sharper),
   * and each model pixel maps onto the device pixels under its centre, exactly.
   */
  constructor(
    readonly screen: Size,
    spec: ModelSpaceSpec = 'auto',
    readonly scale = 1,
  ) {
    this.model = spec === 'auto' ? chooseModelSpace(pointsOf(screen, scale)) : resolveModelSpace(spec, screen);
  }

  /** Model → screen. */
  toScreen(p: Point): Point {
    return modelToScreen(p, this.model, this.screen);
  }

  /** Screen → model. */
  toModel(p: Point): Point {
    return screenToModel(p, this.model, this.screen);
  }

  /** True when screenshots must be resized before a model sees them. */
  get scaled(): boolean {
    return this.model.width !== this.screen.width || this.model.height !== this.screen.height;
  }
}
