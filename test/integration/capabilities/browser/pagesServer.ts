import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Task } from '../../../../electron/contract/index.js';
import type { TestRuntime } from '../../../support/runtime.js';

/** What the fixture pages server recorded: every state-changing request and WebSocket message, and every request under another host name. */
export interface ServerRecords {
  count: number;
  effects: { method: string; path: string; body: string }[];
  foreign: string[];
}

const PAGES_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../fixtures/pages');
const SERVER = path.join(PAGES_DIR, 'server.mjs');

/** A playbook task from inline steps (YAML list items), with no services of its own. */
export function stepsTask(h: TestRuntime, steps: string): Promise<Task> {
  const source = `name: inline\nsteps:\n${steps}`;
  return h.rt.engine.create({ title: 'inline', plan: { kind: 'playbook', source, baseDir: PAGES_DIR }, inputs: {} });
}

/**
 * The fixture pages server, run by the test itself so its records outlive the tasks (a playbook
 * service stops with its task): `records()` reads them, `reset()` clears them between tests.
 */
export class PagesServer {
  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
  ) {}

  static async start(): Promise<PagesServer> {
    const child = spawn(process.execPath, [SERVER], { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, PORT: '0' } });
    const line = await new Promise<string>((resolve) => child.stdout!.once('data', (d: Buffer) => resolve(String(d))));
    return new PagesServer(child, /http:\/\/[\d.:]+/.exec(line)![0]);
  }

  async records(): Promise<ServerRecords> {
    return (await (await fetch(`${this.url}/effects`)).json()) as ServerRecords;
  }

  async reset(): Promise<void> {
    await fetch(`${this.url}/effects?reset=1`);
  }

  stop(): void {
    this.child.stdin?.end();
    this.child.kill();
  }
}
