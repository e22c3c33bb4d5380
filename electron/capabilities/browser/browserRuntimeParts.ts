import type { TaskState } from '../../contract/index.js';
import { isTerminal } from '../../runtime/engine/stateMachine.js';
import path from 'node:path';
import type { Config } from '../../contract/index.js';
import type { AgentRuntime } from '../../runtime/agentRuntime.js';
import type { AnyTool } from '../../runtime/tools/types.js';
import { BrowserHost } from './browserHost.js';
import { browserTools } from './browserTools.js';
import { PageStates } from './pageState.js';

/** States in which a task waits for a person and may resume in another process. */
const WAITING = new Set(['waiting_approval', 'waiting_user', 'paused']);

/** What an entry point adds to RuntimeOptions for the browser tier, plus `attach` once the runtime exists. */
export interface BrowserRuntimeParts {
  host: BrowserHost;
  tools: readonly AnyTool[];
  onClose: readonly (() => Promise<void>)[];
  onStop: readonly (() => Promise<void>)[];
  attach(rt: AgentRuntime): void;
}

/**
 * The host browser backend wired for one runtime: `browser.*` tools (Chromium launches on first
 * use), a task's context (or its page, with a configured profile) closed when the task ends,
 * the browser closed with the runtime.
 */
export function browserRuntimeParts(
  config: Config,
  home: string,
  /** True when a text holds a known secret value (the runtime's redactor): such page state is never saved. */
  holdsSecret: (text: string) => boolean = () => false,
): BrowserRuntimeParts {
  const { profileDir } = config.browser;
  const host = new BrowserHost({
    networkAllow: config.policy.networkAllow,
    allowWrites: config.policy.allowWrites,
    ...(profileDir !== undefined && { profileDir: path.resolve(home, profileDir) }),
    pageStates: new PageStates(path.join(home, 'browser-pages'), holdsSecret),
  });
  return {
    host,
    tools: browserTools(host),
    onClose: [() => host.close()],
    onStop: [() => host.savesDone()],
    attach: (rt) => {
      rt.bus.on({ events: ['task.updated'] }, (frame) => {
        const task = frame.data as { state: TaskState; workspace: string };
        if (WAITING.has(task.state)) host.savePage(task.workspace);
        if (isTerminal(task.state)) {
          host.forgetPage(task.workspace);
          void host.closeSession(task.workspace);
        }
      });
    },
  };
}
