import { createHash } from 'node:crypto';
import type { TaskState } from '../../contract/index.js';
import type { RuntimeCore } from '../../runtime/core/runtimeCore.js';
import type { RuntimeModule } from '../../runtime/core/runtimeModule.js';
import { isTerminal } from '../../runtime/engine/stateMachine.js';
import type { Handlers } from '../../runtime/gateway/handlers.js';
import type { AnyTool } from '../../runtime/tools/types.js';
import { fleetEngines } from '../sandbox/fleet/engineClient.js';
import { fleetDesktopImage } from '../sandbox/fleet/fleetImage.js';
import { sandboxSourceRoot } from '../sandbox/imageBuilder.js';
import { computerTool, dockerConfigured, type FrameSink } from './computerTool.js';
import { LiveView } from './liveView.js';
import { sandboxAwareChecks } from './sandboxChecks.js';
import { sandboxTools } from './sandboxTools.js';
import { takeoverHandlers } from './takeoverHandlers.js';
import { TaskDesktops } from './taskDesktops.js';

/** The owner label of a store's sandboxes (its data folder, or its PostgreSQL database): runtimes of other stores never reap them. */
export const sandboxOwnerOf = (home: string): string => createHash('sha256').update(home).digest('hex').slice(0, 16);

/** The desktop tier as a runtime module, with its desktops and live view. */
export interface DesktopModule extends RuntimeModule {
  readonly desktops: TaskDesktops;
  readonly live: LiveView;
  /** Fills the warm pool now (a long-lived gateway), resolving the image first; no-op without a pool. */
  prewarm(): Promise<void>;
  /** Start-up reaping: the sandboxes it removed, once it ran (listings and close wait for it). */
  readonly reaped: Promise<string[]>;
}

/** Overrides of what the config's `sandbox` section says (tests pin an image or a pool size). */
export interface DesktopOverrides {
  poolSize?: number;
  /** An image reference to use as is; default: the content-hash tag of the sources (built if absent). */
  image?: string;
  /** Reap sandboxes a killed runtime of this data folder left (default true; a control process does not). */
  reap?: boolean;
}

/** States in which the live view of a task's desktop streams (paused streams only when taken over). */
const LIVE = new Set(['planning', 'running', 'retrying', 'waiting_approval', 'waiting_user']);

type DesktopCore = Pick<
  RuntimeCore,
  'home' | 'config' | 'store' | 'storeName' | 'lease' | 'bus' | 'engine' | 'trace' | 'redactor' | 'clock' | 'secrets'
>;

/**
 * The disposable-desktop tier wired for one runtime: `computer` and `sandbox.*` tools (a container
 * per task, created on first use, destroyed when the task ends), sandbox acceptance checks,
 * the live view (`screen.frame`), sandboxes/takeover methods, and orphan reaping at start-up.
 */
export function desktopModule(core: DesktopCore, overrides: DesktopOverrides = {}): DesktopModule {
  const { sandbox, policy } = core.config.startup;
  const image = overrides.image ?? sandbox.image ?? process.env.AGENT_DESK_SANDBOX_IMAGE;
  const poolSize = overrides.poolSize ?? sandbox.poolSize;
  const live = new LiveView(sandbox.liveFps);
  const engines = fleetEngines(sandbox, core.secrets);
  // A fleet of remote engines needs no local one: the image tag is looked for on the fleet first.
  const engineConfigured = () => Boolean(sandbox.hosts?.length) || dockerConfigured();
  const desktops = new TaskDesktops({
    owner: sandboxOwnerOf(core.storeName),
    engines,
    // Workers sharing the store (and a Docker engine) adopt each other's desktops once the creator is gone.
    worker: { id: () => core.lease.id, joined: () => core.lease.joined(), isLive: (id) => core.lease.isLive(id) },
    poolSize,
    egressAllow: sandbox.egressAllow,
    // Origins whose state-changing requests the desktop's egress gate lets pass.
    allowWrites: policy.allowWrites,
    limits: { screen: sandbox.screen },
    image: async () => image ?? (await fleetDesktopImage(engines, sandboxSourceRoot())),
    onReady: (session) => live.start(session),
    onRelease: (session) => void live.stop(session.taskId, true),
  });
  const frames: FrameSink = (session, data, format, width, height) => live.publish(session.taskId, data, format, width, height);
  // A task that is not over keeps its desktop across a restart (the next process adopts it).
  const mayResume = (taskId: string) => taskMayResume(core, taskId);
  let reaped: Promise<string[]> = Promise.resolve([]);
  const module: DesktopModule = {
    name: 'desktop',
    desktops,
    live,
    get reaped() {
      return reaped;
    },
    tools: [computerTool(desktops, frames, { marks: sandbox.marks ?? false }), ...sandboxTools(desktops)] as AnyTool[],
    checks: () => sandboxAwareChecks(desktops),
    handlers: desktopHandlers(core, desktops, live, frames, () => reaped),
    start() {
      live.publishTo((frame) => core.bus.emit('screen.frame', frame));
      core.bus.on({ events: ['task.updated'] }, (frame) => followTask(desktops, live, frame.data as TaskNews));
      if ((overrides.reap ?? true) && engineConfigured()) reaped = desktops.reapOrphans(mayResume).catch(() => []);
    },
    async close() {
      await reaped;
      await live.close();
      await desktops.close(mayResume);
    },
    prewarm: async () => {
      if (poolSize > 0 && engineConfigured()) await desktops.driver();
    },
  };
  return module;
}

type TaskNews = { id: string; state: TaskState; workspace: string };

/** A task's news moves its desktop: released when it ends, the live view on while it works. */
function followTask(desktops: TaskDesktops, live: LiveView, task: TaskNews): void {
  if (isTerminal(task.state)) return void desktops.release(task.workspace).catch(() => undefined);
  const session = desktops.byTask(task.id);
  if (!session) return;
  if (LIVE.has(task.state) || session.takenOver) live.start(session);
  else void live.stop(task.id);
}

/** True while a task is not over: its desktop is kept for it across a restart. */
async function taskMayResume(core: Pick<RuntimeCore, 'store'>, taskId: string): Promise<boolean> {
  const state = (await core.store.tasks.get(taskId))?.state;
  return state !== undefined && !isTerminal(state);
}

function desktopHandlers(
  core: DesktopCore,
  desktops: TaskDesktops,
  live: LiveView,
  frames: FrameSink,
  reaped: () => Promise<unknown>,
): Handlers {
  return {
    'sandboxes.list': async () => {
      await reaped();
      return { sandboxes: await desktops.control.list() };
    },
    'sandboxes.destroy': async (p) => {
      await desktops.control.destroy(p.id);
      return { destroyed: p.id };
    },
    'screen.latest': async (p) => {
      const frame = live.latest(p.taskId);
      if (frame && p.format === frame.format && live.streaming(p.taskId)) return frame;
      const shot = await desktops.require(p.taskId).sandbox.call('screen.capture', { format: p.format });
      return { taskId: p.taskId, format: shot.format, width: shot.width, height: shot.height, data: shot.data };
    },
    ...takeoverHandlers(core, desktops, live, frames),
  };
}
