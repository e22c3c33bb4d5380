import { BrowserHost } from '../../../../electron/capabilities/browser/browserHost.js';
import { browserTools } from '../../../../electron/capabilities/browser/browserTools.js';
import { ProcessServiceHost } from '../../../../electron/capabilities/services/processServices.js';
import { fixturePlaybook } from '../../../support/cliSandbox.js';
import { openTestRuntime, type TestRuntime } from '../../../support/runtime.js';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Task } from '../../../../electron/contract/index.js';
import { afterAll, afterEach, beforeAll } from 'vitest';

/** A real runtime with the host browser tier and playbook services. */
export function runtimeWithBrowser(host: BrowserHost, config: Record<string, unknown> = {}): TestRuntime {
  return openTestRuntime({ services: new ProcessServiceHost(), tools: browserTools(host), config });
}

/**
 * One host browser (no network allowed) per test file and a fresh runtime on it per test, cleaned up
 * after the test. Call once at the top of a file.
 */
export function useBrowserRuntime(): { open(config?: Record<string, unknown>): TestRuntime } {
  let host: BrowserHost;
  let h: TestRuntime | undefined;
  beforeAll(() => {
    host = new BrowserHost({ networkAllow: [] });
  });
  afterEach(async () => {
    await h?.cleanup();
    h = undefined;
  });
  afterAll(async () => {
    await host.close();
  });
  return {
    open(config = {}) {
      h = runtimeWithBrowser(host, config);
      return h;
    },
  };
}

/** Creates a task from a fixture playbook (services resolve relative to its folder). */
export function fixtureTask(h: TestRuntime, name: string, inputs: Record<string, unknown> = {}): Promise<Task> {
  const file = fixturePlaybook(name);
  return h.rt.engine.create({
    title: name,
    plan: { kind: 'playbook', source: readFileSync(file, 'utf8'), baseDir: path.dirname(file) },
    inputs,
  });
}

/** A task from inline steps, with the local pages service declared (relative to the fixture playbooks). */
export function inlineTask(h: TestRuntime, steps: string): Promise<Task> {
  const source = `name: inline\nservices:\n  - name: pages\n    command: [node, ../pages/server.mjs]\n    readyPath: /health\nsteps:\n${steps}`;
  return h.rt.engine.create({
    title: 'inline',
    plan: { kind: 'playbook', source, baseDir: path.dirname(fixturePlaybook('x')) },
    inputs: {},
  });
}
