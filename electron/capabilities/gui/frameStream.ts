import type { DesktopSandbox } from '../sandbox/desktopSandbox.js';

/** One frame of the live view, as published in `screen.frame` events. */
export interface LiveFrame {
  seq: number;
  format: 'jpeg' | 'png';
  width: number;
  height: number;
  data: string;
  at: string;
}

/** Options of a live stream. */
export interface FrameStreamOptions {
  /** Frames requested concurrently: hides the exec round trip behind the next grab. */
  inFlight?: number;
  quality?: number;
  width?: number;
  height?: number;
  /** Upper bound on the frame rate (0 = as fast as the sandbox delivers). */
  maxFps?: number;
}

/**
 * Streams screenshots from a sandbox until stopped: JPEG frames in order, for the live view.
 * Returns a stop function that resolves once the last request has finished.
 */
export function streamFrames(
  sandbox: DesktopSandbox,
  onFrame: (frame: LiveFrame) => void,
  opts: FrameStreamOptions = {},
): () => Promise<void> {
  let running = true;
  let seq = 0;
  let delivered = -1;
  const minGapMs = opts.maxFps ? 1000 / opts.maxFps : 0;
  const worker = async (): Promise<void> => {
    while (running && sandbox.alive) {
      const started = Date.now();
      const mine = seq++;
      const shot = await sandbox
        .call('screen.capture', {
          format: 'jpeg',
          quality: opts.quality ?? 70,
          ...(opts.width && opts.height ? { width: opts.width, height: opts.height } : {}),
        })
        .catch(() => undefined);
      if (!shot) break;
      // An older frame that lost the race is dropped: the view never goes backwards.
      if (running && mine > delivered) {
        delivered = mine;
        onFrame({ seq: mine, format: 'jpeg', width: shot.width, height: shot.height, data: shot.data, at: new Date().toISOString() });
      }
      const wait = minGapMs - (Date.now() - started);
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
  };
  const workers = Array.from({ length: Math.max(1, opts.inFlight ?? 2) }, () => worker());
  return async () => {
    running = false;
    await Promise.all(workers);
  };
}
