import type { ComputerAction, Task } from '../../contract/index.js';
import type { RuntimeCore } from '../../runtime/core/runtimeCore.js';
import { isTerminal } from '../../runtime/engine/stateMachine.js';
import { recordUserStep } from '../../runtime/engine/userSteps.js';
import { AgentDeskError, toErrorShape } from '../../runtime/errors.js';
import type { Handlers } from '../../runtime/gateway/handlers.js';
import { performAction, type FrameSink } from './computerTool.js';
import type { LiveView } from './liveView.js';
import type { TaskDesktops } from './taskDesktops.js';

/** The tool name user actions are recorded under. */
export const USER_ACTION_TOOL = 'gui.user_action';

/** How long `tasks.takeover` waits for the agent to finish its current step. */
const STOP_WAIT_MS = 15_000;

/** Polls until the task no longer runs in this process (or the wait is over). */
async function untilStopped(rt: Pick<RuntimeCore, 'engine'>, taskId: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (rt.engine.isRunningHere(taskId) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
}

/** What the step records of an action: typed secrets keep their length only. */
function recordedArgs(action: ComputerAction, secret: boolean): ComputerAction {
  if (!secret || action.action !== 'type') return action;
  return { action: 'type', text: `[secret: ${[...action.text].length} characters]` };
}

/**
 * Human takeover: `tasks.takeover` pauses the agent and hands the desktop to the user,
 * `screen.input` performs the user's actions there and records each as a step, and
 * `tasks.release` gives the desktop back (the agent resumes from the screen as the user left it).
 */
export function takeoverHandlers(
  rt: Pick<RuntimeCore, 'engine' | 'trace' | 'store' | 'redactor' | 'clock' | 'bus'>,
  desktops: TaskDesktops,
  live: LiveView,
  frames: FrameSink,
): Handlers {
  const inOrder = serialPerTask();
  return {
    'tasks.takeover': async (p) => {
      const session = desktops.require(p.taskId);
      // Set first: the agent's next GUI action is refused, and the live view keeps streaming while paused.
      session.takenOver = true;
      try {
        await rt.engine.pause(p.taskId);
      } catch (error) {
        session.takenOver = false;
        throw error;
      }
      live.start(session);
      await untilStopped(rt, p.taskId, STOP_WAIT_MS);
      return rt.engine.get(p.taskId);
    },
    'tasks.release': async (p) => {
      desktops.require(p.taskId).takenOver = false;
      return rt.engine.resume(p.taskId);
    },
    // A person's inputs reach the desktop in the order they were sent (keys, composed text, pastes):
    // the order is taken on arrival, before the first await (a read may wait behind a commit).
    'screen.input': (p) =>
      inOrder(p.taskId, async () => {
        const session = desktops.require(p.taskId);
        const task: Task = await rt.engine.get(p.taskId);
        if (!session.takenOver || isTerminal(task.state))
          throw new AgentDeskError(
            'conflict',
            `task ${p.taskId} is not taken over (${task.state}): call tasks.takeover first; until then the agent drives its desktop`,
          );
        if (rt.engine.isRunningHere(p.taskId))
          throw new AgentDeskError(
            'conflict',
            `the agent of task ${p.taskId} is still finishing its current step; try again when it is paused`,
          );
        if (p.secret && p.action.action === 'type' && p.action.text.length >= 4) rt.redactor.add('typed_by_user', p.action.text);
        const clock = rt.clock;
        const deps = { store: rt.store, trace: rt.trace, redactor: rt.redactor, clock, emit: rt.bus.emit.bind(rt.bus) };
        const args = recordedArgs(p.action, p.secret);
        const startedAt = clock.now();
        try {
          const output = await performAction(session, p.action, frames);
          return { step: await recordUserStep(deps, p.taskId, { tool: USER_ACTION_TOOL, args, output, startedAt }) };
        } catch (error) {
          await recordUserStep(deps, p.taskId, { tool: USER_ACTION_TOOL, args, error: toErrorShape(error).message, startedAt });
          throw error;
        }
      }),
  };
}

/** Runs each task's jobs one after another, in the order they came (other tasks' jobs do not wait). */
function serialPerTask(): <T>(taskId: string, job: () => Promise<T>) => Promise<T> {
  const tails = new Map<string, Promise<unknown>>();
  return (taskId, job) => {
    const run = (tails.get(taskId) ?? Promise.resolve()).then(job, job);
    const tail = run.catch(() => undefined);
    tails.set(taskId, tail);
    void tail.then(() => tails.get(taskId) === tail && tails.delete(taskId));
    return run;
  };
}
