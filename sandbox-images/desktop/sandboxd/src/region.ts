import sharp, { type Sharp } from 'sharp';
import type { ScreenBox } from '../../../../electron/contract/sandboxProtocol.js';
import type { RawFrame } from './capture.js';
import { SandboxdFailure } from './failure.js';

/** A region clipped to the screen; the whole screen when none is asked for. */
export function clipRegion(frame: { width: number; height: number }, region: ScreenBox | undefined): ScreenBox {
  if (!region) return { x: 0, y: 0, width: frame.width, height: frame.height };
  const x = Math.min(region.x, frame.width);
  const y = Math.min(region.y, frame.height);
  const width = Math.min(region.width, frame.width - x);
  const height = Math.min(region.height, frame.height - y);
  if (width < 1 || height < 1)
    throw new SandboxdFailure('invalid_params', `region ${JSON.stringify(region)} lies outside the ${frame.width}×${frame.height} screen`);
  return { x, y, width, height };
}

/** The pixels of one region of a frame, as a sharp pipeline (RGB). */
export function regionImage(frame: RawFrame, box: ScreenBox): Sharp {
  const image = sharp(frame.data, { raw: { width: frame.width, height: frame.height, channels: 4 } }).removeAlpha();
  return box.width === frame.width && box.height === frame.height
    ? image
    : image.extract({ left: box.x, top: box.y, width: box.width, height: box.height });
}
