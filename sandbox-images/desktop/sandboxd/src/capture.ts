import { createHash } from 'node:crypto';
import nut from '@nut-tree-fork/nut-js';
import sharp from 'sharp';
import type { SandboxdParams, SandboxdResult } from '../../../../electron/contract/sandboxProtocol.js';

const { screen } = nut;

export interface RawFrame {
  width: number;
  height: number;
  /** RGBA pixels. */
  data: Buffer;
}

/** The screen's pixels now (RGBA). */
export async function grab(): Promise<RawFrame> {
  const image = await (await screen.grab()).toRGB();
  return { width: image.width, height: image.height, data: image.data };
}

/** screen.capture: the whole screen as PNG or JPEG, optionally downscaled to width×height. */
export async function capture(
  p: Required<Omit<SandboxdParams<'screen.capture'>, 'width' | 'height'>> & SandboxdParams<'screen.capture'>,
): Promise<SandboxdResult<'screen.capture'>> {
  const frame = await grab();
  const width = p.width ?? frame.width;
  const height = p.height ?? frame.height;
  let image = sharp(frame.data, { raw: { width: frame.width, height: frame.height, channels: 4 } }).removeAlpha();
  if (width !== frame.width || height !== frame.height) image = image.resize(width, height, { fit: 'fill' });
  const bytes =
    p.format === 'jpeg'
      ? await image.jpeg({ quality: p.quality }).toBuffer()
      : await image.png({ compressionLevel: 1, adaptiveFiltering: false }).toBuffer();
  return { format: p.format, width, height, screenWidth: frame.width, screenHeight: frame.height, data: bytes.toString('base64') };
}

/** The screen size in pixels. */
export async function screenSize(): Promise<{ width: number; height: number }> {
  return { width: await screen.width(), height: await screen.height() };
}

/** screen.waitStable: grabs until `frames` consecutive frames are identical, or the timeout. */
export async function waitStable(p: Required<SandboxdParams<'screen.waitStable'>>): Promise<SandboxdResult<'screen.waitStable'>> {
  const started = Date.now();
  let last = '';
  let same = 0;
  let grabs = 0;
  while (Date.now() - started <= p.timeoutMs) {
    const digest = createHash('sha1')
      .update((await grab()).data)
      .digest('hex');
    grabs++;
    same = digest === last ? same + 1 : 1;
    last = digest;
    if (same >= p.frames) return { stable: true, waitedMs: Date.now() - started, grabs };
    await new Promise((r) => setTimeout(r, p.intervalMs));
  }
  return { stable: false, waitedMs: Date.now() - started, grabs };
}
