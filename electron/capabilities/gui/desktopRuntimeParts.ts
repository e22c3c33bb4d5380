import { createHash } from 'node:crypto';
import type { AgentRuntime } from '../../runtime/agentRuntime.js';
import type { CheckRunner } from '../../runtime/engine/ports.js';
import type { Handlers } from '../../runtime/gateway/handlers.js';
import type { AnyTool } from '../../runtime/tools/types.js';
import { buildDesktopImage, sandboxSourceRoot } from '../sandbox/imageBuilder.js';
import { computerTool, dockerConfigured, type FrameSink } from './computerTool.js';
import { sandboxAwareChecks } from './sandboxChecks.js';
import { sandboxTools } from './sandboxTools.js';
import { TaskDesktops } from './taskDesktops.js';

const FINISHED = new Set(['succeeded', 'failed', 'cancelled']);

/** The owner label of a data folder's sandboxes: runtimes of other folders never reap them. */
export const sandboxOwnerOf = (home: string): string => createHash('sha256').update(home).digest('hex').slice(0, 16);

/** What an entry point adds to RuntimeOptions for the GUI tier, plus `attach` once the runtime exists. */
export interface DesktopRuntimeParts {
  desktops: TaskDesktops;
  tools: readonly AnyTool[];
  handlers: (rt: AgentRuntime) => Handlers;
  runChecks: CheckRunner;
  onClose: readonly (() => Promise<void>)[];
  attach(rt: AgentRuntime): void;
}

/** Options: the runtime's data folder (sandboxes are owned per folder) and the warm pool size. */
export interface DesktopPartsOptions {
  home: string;
  poolSize?: number;
  egressAllow?: readonly string[];
  /** An image reference to use as is; default: the content-hash tag of the sources (built if absent). */
  image?: string;
}

/**
 * The disposable-desktop tier wired for one runtime: `computer` and `sandbox.*` tools (a container
 * per task, created on first use, destroyed when the task ends), sandbox acceptance checks,
 * `screen.frame` events, sandboxes/takeover methods, and orphan reaping at start-up.
 */
export function desktopRuntimeParts(opts: DesktopPartsOptions): DesktopRuntimeParts {
  const owner = sandboxOwnerOf(opts.home);
  const image = opts.image ?? process.env.AGENT_DESK_SANDBOX_IMAGE;
  const desktops = new TaskDesktops({
    owner,
    poolSize: opts.poolSize ?? 0,
    ...(opts.egressAllow ? { egressAllow: opts.egressAllow } : {}),
    image: async () => image ?? (await buildDesktopImage({ root: sandboxSourceRoot() })).image,
  });
  let emitFrame: FrameSink = () => undefined;
  let seq = 0;
  const frames: FrameSink = (...args) => emitFrame(...args);
  return {
    desktops,
    tools: [computerTool(desktops, frames), ...sandboxTools(desktops)] as AnyTool[],
    runChecks: sandboxAwareChecks(desktops),
    onClose: [() => desktops.close()],
    handlers: (rt) => ({
      'sandboxes.list': async () => ({ sandboxes: await desktops.control.list() }),
      'sandboxes.destroy': async (p) => {
        await desktops.control.destroy(p.id);
        return { destroyed: p.id };
      },
      'screen.latest': async (p) => {
        const shot = await desktops.require(p.taskId).sandbox.call('screen.capture', { format: p.format });
        return { taskId: p.taskId, format: shot.format, width: shot.width, height: shot.height, data: shot.data };
      },
      'tasks.takeover': async (p) => {
        const session = desktops.require(p.taskId);
        const task = await rt.engine.pause(p.taskId);
        session.takenOver = true;
        return task;
      },
      'tasks.release': async (p) => {
        desktops.require(p.taskId).takenOver = false;
        return rt.engine.resume(p.taskId);
      },
    }),
    attach: (rt) => {
      emitFrame = (session, data, format, width, height) =>
        rt.bus.emit('screen.frame', { taskId: session.taskId, seq: seq++, format, width, height, data, at: new Date().toISOString() });
      rt.bus.on({ events: ['task.updated'] }, (frame) => {
        const task = frame.data as { state: string; workspace: string };
        if (FINISHED.has(task.state)) void desktops.release(task.workspace).catch(() => undefined);
      });
    },
  };
}

/** Start-up reaping: removes sandboxes a killed runtime of this data folder left behind. */
export async function reapDesktopOrphans(parts: DesktopRuntimeParts): Promise<string[]> {
  if (!dockerConfigured()) return [];
  return parts.desktops.reapOrphans();
}
