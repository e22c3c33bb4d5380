import path from 'node:path';
import type { TaskState } from '../../contract/index.js';
import type { RuntimeCore } from '../../runtime/core/runtimeCore.js';
import type { RuntimeModule } from '../../runtime/core/runtimeModule.js';
import { isTerminal } from '../../runtime/engine/stateMachine.js';
import { BrowserHost } from './browserHost.js';
import { browserTools } from './browserTools.js';
import { PageStates } from './pageState.js';

/** States in which a task waits for a person and may resume in another process. */
const WAITING = new Set(['waiting_approval', 'waiting_user', 'paused']);

/** The browser tier as a runtime module, with its host. */
export type BrowserModule = RuntimeModule & { host: BrowserHost };

/**
 * The host browser backend wired for one runtime: `browser.*` tools (Chromium launches on first
 * use), a task's context (or its page, with a configured profile) closed when the task ends,
 * a waiting task's page saved for the process that resumes it, the browser closed with the runtime.
 */
export function browserModule(
  core: Pick<RuntimeCore, 'home' | 'config' | 'bus' | 'redactor'>,
  options: { processOwnsSignals?: boolean } = {},
): BrowserModule {
  const { browser, policy } = core.config.startup;
  // A waiting task's saved page keeps nothing that holds a known secret (the runtime's redactor decides).
  const holdsSecret = (text: string) => core.redactor.text(text) !== text;
  const host = new BrowserHost({
    networkAllow: policy.networkAllow,
    allowWrites: policy.allowWrites,
    ...(browser.profileDir !== undefined && { profileDir: path.resolve(core.home, browser.profileDir) }),
    pageStates: new PageStates(path.join(core.home, 'browser-pages'), holdsSecret),
    ...(options.processOwnsSignals && { processOwnsSignals: true }),
  });
  return {
    name: 'browser',
    host,
    tools: browserTools(host),
    start: () =>
      core.bus.on({ events: ['task.updated'] }, (frame) => {
        const task = frame.data as { state: TaskState; workspace: string };
        if (WAITING.has(task.state)) host.savePage(task.workspace);
        if (isTerminal(task.state)) {
          host.forgetPage(task.workspace);
          void host.closeSession(task.workspace);
        }
      }),
    // A server leaving with runs in flight still finishes saving its waiting tasks' pages.
    stop: () => host.savesDone(),
    close: () => host.close(),
  };
}
