import type { ScreenFrame } from '../../contract/index.js';
import type { DesktopSession } from './desktopSession.js';
import { streamFrames } from './frameStream.js';

/**
 * The live view of task desktops: a capped-rate JPEG stream per task while its desktop is in use,
 * plus the frames actions take, all published as `screen.frame` with one increasing `seq`.
 * The newest frame per task is kept for `screen.latest`.
 */
export class LiveView {
  private readonly streams = new Map<string, () => Promise<void>>();
  private readonly newest = new Map<string, ScreenFrame>();
  private seq = 0;
  private emit: (frame: ScreenFrame) => void = () => undefined;

  /** @param fps frames per second of the stream; 0 publishes only the frames actions take. */
  constructor(readonly fps: number) {}

  /** Where frames go (the runtime's event bus, once it exists). */
  publishTo(emit: (frame: ScreenFrame) => void): void {
    this.emit = emit;
  }

  /** Publishes one frame of a task's desktop with the next sequence number. */
  publish(taskId: string, data: string, format: 'jpeg' | 'png', width: number, height: number): void {
    const frame: ScreenFrame = { taskId, seq: this.seq++, format, width, height, data, at: new Date().toISOString() };
    this.newest.set(taskId, frame);
    this.emit(frame);
  }

  /** Starts streaming a desktop (no-op when already streaming or the rate is 0). */
  start(session: DesktopSession): void {
    if (this.fps <= 0 || this.streams.has(session.taskId) || !session.sandbox.alive) return;
    const { taskId } = session;
    // One request in flight: the stream must not crowd out the agent's own calls on two cores.
    const stop = streamFrames(session.sandbox, (f) => this.publish(taskId, f.data, f.format, f.width, f.height), {
      maxFps: this.fps,
      inFlight: 1,
    });
    this.streams.set(taskId, stop);
  }

  /** Stops a task's stream; `forget` also drops its newest frame (the desktop is gone). */
  async stop(taskId: string, forget = false): Promise<void> {
    const stop = this.streams.get(taskId);
    this.streams.delete(taskId);
    if (forget) this.newest.delete(taskId);
    await stop?.();
  }

  /** True while a task's desktop is being streamed. */
  streaming(taskId: string): boolean {
    return this.streams.has(taskId);
  }

  /** The newest frame published for a task. */
  latest(taskId: string): ScreenFrame | undefined {
    return this.newest.get(taskId);
  }

  /** Stops every stream. */
  async close(): Promise<void> {
    await Promise.all([...this.streams.keys()].map((id) => this.stop(id, true)));
  }
}
