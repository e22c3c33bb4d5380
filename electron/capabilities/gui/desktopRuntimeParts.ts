import type { TaskState } from '../../contract/index.js';
import { isTerminal } from '../../runtime/engine/stateMachine.js';
import { createHash } from 'node:crypto';
import type { AgentRuntime } from '../../runtime/agentRuntime.js';
import type { CheckRunner } from '../../runtime/engine/ports.js';
import type { Handlers } from '../../runtime/gateway/handlers.js';
import type { AnyTool } from '../../runtime/tools/types.js';
import { buildDesktopImage, sandboxSourceRoot } from '../sandbox/imageBuilder.js';
import { computerTool, dockerConfigured, type FrameSink } from './computerTool.js';
import { LiveView } from './liveView.js';
import { sandboxAwareChecks } from './sandboxChecks.js';
import { sandboxTools } from './sandboxTools.js';
import { takeoverHandlers } from './takeoverHandlers.js';
import { TaskDesktops } from './taskDesktops.js';

/** True while a task is not over: its desktop is kept for it across a restart. */
function taskMayResume(rt: AgentRuntime, taskId: string): boolean {
  const state = rt.store.tasks.get(taskId)?.state;
  return state !== undefined && !isTerminal(state);
}

/** The owner label of a data folder's sandboxes: runtimes of other folders never reap them. */
export const sandboxOwnerOf = (home: string): string => createHash('sha256').update(home).digest('hex').slice(0, 16);

/** What an entry point adds to RuntimeOptions for the GUI tier, plus `attach` once the runtime exists. */
export interface DesktopRuntimeParts {
  desktops: TaskDesktops;
  live: LiveView;
  tools: readonly AnyTool[];
  handlers: (rt: AgentRuntime) => Handlers;
  runChecks: CheckRunner;
  onClose: readonly (() => Promise<void>)[];
  attach(rt: AgentRuntime): void;
  /** Fills the warm pool now (a long-lived gateway), resolving the image first; no-op without a pool. */
  prewarm(): Promise<void>;
  /** Start-up reaping, once begun (`reapDesktopOrphans`); listings wait for it. */
  reaping: Promise<unknown>;
}

/** Options: the runtime's data folder (sandboxes are owned per folder) and the warm pool size. */
export interface DesktopPartsOptions {
  home: string;
  poolSize?: number;
  egressAllow?: readonly string[];
  /** Origins whose state-changing requests the desktop's egress gate lets pass (`policy.allowWrites`). */
  allowWrites?: readonly string[];
  /** An image reference to use as is; default: the content-hash tag of the sources (built if absent). */
  image?: string;
  /** Live-view frames per second while a task uses its desktop (default 5; 0 = frames of actions only). */
  liveFps?: number;
  /** The desktop's screen size (default 1280×800). */
  screen?: { width: number; height: number };
}

/** States in which the live view of a task's desktop streams (paused streams only when taken over). */
const LIVE = new Set(['planning', 'running', 'retrying', 'waiting_approval', 'waiting_user']);

/**
 * The disposable-desktop tier wired for one runtime: `computer` and `sandbox.*` tools (a container
 * per task, created on first use, destroyed when the task ends), sandbox acceptance checks,
 * the live view (`screen.frame`), sandboxes/takeover methods, and orphan reaping at start-up.
 */
export function desktopRuntimeParts(opts: DesktopPartsOptions): DesktopRuntimeParts {
  const owner = sandboxOwnerOf(opts.home);
  const image = opts.image ?? process.env.AGENT_DESK_SANDBOX_IMAGE;
  const live = new LiveView(opts.liveFps ?? 5);
  const desktops = new TaskDesktops({
    owner,
    poolSize: opts.poolSize ?? 0,
    ...(opts.egressAllow ? { egressAllow: opts.egressAllow } : {}),
    ...(opts.allowWrites ? { allowWrites: opts.allowWrites } : {}),
    ...(opts.screen ? { limits: { screen: opts.screen } } : {}),
    image: async () => image ?? (await buildDesktopImage({ root: sandboxSourceRoot() })).image,
    onReady: (session) => live.start(session),
    onRelease: (session) => void live.stop(session.taskId, true),
  });
  const frames: FrameSink = (session, data, format, width, height) => live.publish(session.taskId, data, format, width, height);
  // A task that is not over keeps its desktop across a restart (the next process adopts it).
  let mayResume: (taskId: string) => boolean = () => false;
  const parts: DesktopRuntimeParts = {
    desktops,
    live,
    reaping: Promise.resolve(),
    tools: [computerTool(desktops, frames), ...sandboxTools(desktops)] as AnyTool[],
    runChecks: sandboxAwareChecks(desktops),
    onClose: [() => live.close(), () => desktops.close((taskId) => mayResume(taskId))],
    handlers: (rt) => ({
      'sandboxes.list': async () => {
        await parts.reaping;
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
      ...takeoverHandlers(rt, desktops, live, frames),
    }),
    attach: (rt) => {
      mayResume = (taskId) => taskMayResume(rt, taskId);
      live.publishTo((frame) => rt.bus.emit('screen.frame', frame));
      rt.bus.on({ events: ['task.updated'] }, (frame) => {
        const task = frame.data as { id: string; state: TaskState; workspace: string };
        if (isTerminal(task.state)) return void desktops.release(task.workspace).catch(() => undefined);
        const session = desktops.byTask(task.id);
        if (!session) return;
        if (LIVE.has(task.state) || session.takenOver) live.start(session);
        else void live.stop(task.id);
      });
    },
    prewarm: async () => {
      if ((opts.poolSize ?? 0) > 0 && dockerConfigured()) await desktops.driver();
    },
  };
  return parts;
}

/**
 * Start-up reaping: removes sandboxes a killed runtime of this data folder left behind, except
 * the running desktops of tasks that are not over (their task adopts them when it resumes).
 */
export function reapDesktopOrphans(parts: DesktopRuntimeParts, rt: AgentRuntime): Promise<string[]> {
  const reaping = dockerConfigured() ? parts.desktops.reapOrphans((taskId) => taskMayResume(rt, taskId)) : Promise.resolve([]);
  parts.reaping = reaping.catch(() => undefined);
  return reaping;
}
