import type { Step } from '../../../../electron/contract/index.js';

/** A step's screenshot as an image source, with the click it made (in percent of the image) when known. */
export interface StepImage {
  src: string;
  mark?: { xPct: number; yPct: number };
}

type Shot = { data?: unknown; format?: unknown; width?: unknown; height?: unknown };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

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

/**
 * The screenshot a browser or desktop step returned (`screenshot`, or `data` of browser.screenshot),
 * and where it clicked: `x`/`y` of its arguments are in the screenshot's own (model) space.
 */
export function stepImage(step: Step): StepImage | undefined {
  if (!isRecord(step.output)) return undefined;
  const found = source(step.output.screenshot) ?? (step.tool === 'browser.screenshot' ? source(step.output) : undefined);
  if (!found) return undefined;
  const args = isRecord(step.args) ? step.args : {};
  const { x, y } = args;
  if (typeof x === 'number' && typeof y === 'number' && found.width && found.height) {
    return { src: found.src, mark: { xPct: (100 * x) / found.width, yPct: (100 * y) / found.height } };
  }
  return { src: found.src };
}
