import type { ComputerAction, ScreenFrame } from '../../../electron/contract/index.js';
import type { AppState } from './store.js';
import type { SliceGet, SliceSet } from './types.js';

/** The newest image of a task's desktop: from `screen.latest` or a `screen.frame` event. */
export interface ScreenImage {
  format: 'jpeg' | 'png';
  width: number;
  height: number;
  data: string;
  /** Frame sequence; a `screen.latest` answer counts as -1 so any later frame replaces it. */
  seq: number;
}

/** Live screens: the newest frame per task, and which tasks the user has taken over. */
export interface ScreenSlice {
  screens: Record<string, ScreenImage>;
  /** Tasks whose desktop the user holds (the runtime pauses the agent meanwhile). */
  takenOver: Record<string, boolean>;
  /** Fetches a fresh screenshot; rejects (e.g. `not_found`) when the task has no desktop. */
  loadScreen(taskId: string): Promise<void>;
  applyFrame(frame: ScreenFrame): void;
  takeover(taskId: string): Promise<void>;
  release(taskId: string): Promise<void>;
  /** Sends one user action to a taken-over desktop; actions run one after another, in order. `secret`: typed text is recorded by length only. */
  sendInput(taskId: string, action: ComputerAction, secret?: boolean): Promise<void>;
}

/** Keeps the newer of two images of one task (an event may overtake the slower `screen.latest`). */
export function newerImage(current: ScreenImage | undefined, incoming: ScreenImage): ScreenImage {
  return current && current.seq > incoming.seq ? current : incoming;
}

/** The screen slice creator. */
export function createScreenSlice(set: SliceSet<AppState>, get: SliceGet<AppState>): ScreenSlice {
  const put = (taskId: string, image: ScreenImage) =>
    set((s) => ({ screens: { ...s.screens, [taskId]: newerImage(s.screens[taskId], image) } }));
  const client = () => {
    const c = get().client;
    if (!c) throw new Error('not connected');
    return c;
  };
  // One chain for every input, so a click and the typing after it arrive in the order made.
  let inputs: Promise<unknown> = Promise.resolve();
  return {
    screens: {},
    takenOver: {},
    async loadScreen(taskId) {
      const shot = await client().call('screen.latest', { taskId });
      put(taskId, { format: shot.format, width: shot.width, height: shot.height, data: shot.data, seq: -1 });
    },
    applyFrame(frame) {
      put(frame.taskId, { format: frame.format, width: frame.width, height: frame.height, data: frame.data, seq: frame.seq });
    },
    async takeover(taskId) {
      get().applyTask(await client().call('tasks.takeover', { taskId }));
      set((s) => ({ takenOver: { ...s.takenOver, [taskId]: true } }));
    },
    async release(taskId) {
      get().applyTask(await client().call('tasks.release', { taskId }));
      set((s) => ({ takenOver: { ...s.takenOver, [taskId]: false } }));
    },
    sendInput(taskId, action, secret = false) {
      const sent = inputs.then(async () => {
        const { step } = await client().call('screen.input', { taskId, action, ...(secret && action.action === 'type' ? { secret } : {}) });
        get().applyStep(step);
      });
      inputs = sent.catch(() => undefined);
      return sent;
    },
  };
}
