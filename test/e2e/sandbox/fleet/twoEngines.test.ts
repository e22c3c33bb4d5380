import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desktopModule, sandboxOwnerOf } from '../../../../electron/capabilities/gui/desktopModule.js';
import { LABELS } from '../../../../electron/capabilities/sandbox/hardening.js';
import type { Step, Task } from '../../../../electron/contract/index.js';
import { pollUntil } from '../../../support/poll.js';
import { missing } from '../../../support/requirements.js';
import { createPlaybookTask, openTestRuntime } from '../../../support/runtime.js';
import { desktopImage } from '../../../support/sandboxImage.js';
import { startSecondEngine, type SecondEngine } from '../../../support/secondEngine.js';

// Root, dockerd and a running engine; AGENT_DESK_REQUIRE=dockerd turns the skip into a failure.
const skip = missing('dockerd');
/** 8 by default (seen: 78 s on 2 cores); AGENT_DESK_FLEET_TASKS=40 runs the count. */
const TASKS = Number(process.env.AGENT_DESK_FLEET_TASKS ?? 8);

/** A desktop task: an idempotent write, a click (a side effect: held uncertain if its desktop is lost under it), a screenshot. */
const playbook = (i: number) => `name: fleet-${i}
steps:
  - tool: sandbox.write_file
    args: { path: note.txt, content: "task ${i}" }
    retries: 3
  - tool: computer
    args: { action: click, x: 20, y: 20 }
  - tool: computer
    args: { action: screenshot }
    retries: 3
`;

const ownContainers = (docker: Docker, owner: string) =>
  docker.listContainers({ all: true, filters: { label: [`${LABELS.owner}=${owner}`] } });

describe.skipIf(skip)('a fleet of two Docker engines', () => {
  let b: SecondEngine;
  let image: string;

  beforeAll(async () => {
    image = await desktopImage();
    b = await startSecondEngine({ image });
  }, 600_000);

  afterAll(async () => {
    await b?.remove();
  }, 120_000);

  it(`${TASKS} desktop tasks over two engines of capacity 2, one stopped halfway: every task finishes, no effect twice, no container left`, async () => {
    const hosts = [
      { name: 'a', docker: 'unix:///var/run/docker.sock', capacity: 2 },
      { name: 'b', docker: b.address, capacity: 2 },
    ];
    const h = openTestRuntime({
      config: { sandbox: { image, poolSize: 1, hosts, liveFps: 0 } },
      modules: (core) => [desktopModule(core, { image })],
    });
    const { rt } = h;
    const owner = sandboxOwnerOf(rt.storeName);
    const a = new Docker({ socketPath: '/var/run/docker.sock' });
    const hostsSeen = new Set<string>();
    try {
      const tasks: Task[] = [];
      for (let i = 0; i < TASKS; i++) tasks.push(await createPlaybookTask(rt, playbook(i)));
      for (const t of tasks) void rt.engine.start(t.id);
      const states = async () => Promise.all(tasks.map((t) => rt.engine.get(t.id)));
      let seen: string[] = [];
      const done = (all: Task[]) => {
        seen = all.map((t) => `${t.state}:${t.stateReason ?? ''}`.slice(0, 160));
        return all.filter((t) => t.state === 'succeeded').length;
      };
      // Halfway: both engines hold desktops, then b goes away with desktops in use.
      await pollUntil('half the tasks done with desktops on both engines', async () => {
        for (const s of await rt.dispatcher.dispatch({ id: 1, method: 'sandboxes.list', params: {} }, { scopes: ['operator.admin'], clientId: 't' }).then((r) => ('result' in r ? (r.result as { sandboxes: { host?: string }[] }).sandboxes : [])))
          if (s.host) hostsSeen.add(s.host);
        return done(await states()) >= TASKS / 2 && hostsSeen.has('a') && hostsSeen.has('b') ? true : undefined;
      }, { timeoutMs: Number(process.env.AGENT_DESK_FLEET_HALF_MS ?? 300_000), intervalMs: 100, lastSeen: () => [...hostsSeen, ...seen] });
      await b.stop();
      // A step held uncertain (its desktop was lost under it) waits for a person: the desktop is gone with its effect, so rerun.
      const resolved = new Set<string>();
      await pollUntil('every task succeeded', async () => {
        const all = await states();
        for (const t of all) {
          if (t.state !== 'waiting_user' || resolved.has(t.id)) continue;
          const steps: Step[] = await rt.store.steps.forTask(t.id);
          if (!steps.some((s) => s.status === 'uncertain')) continue;
          resolved.add(t.id);
          await rt.engine.resume(t.id, 'rerun');
        }
        const failed = all.find((t) => t.state === 'failed' || t.state === 'cancelled');
        if (failed) throw new Error(`task ${failed.id} ${failed.state}: ${failed.stateReason ?? ''}`);
        return done(all) === TASKS ? true : undefined;
      }, { timeoutMs: 600_000, intervalMs: 200, lastSeen: () => [...resolved] });

      // No effect twice: each click ran to completion once; one that was sent again was held uncertain first, by a person's decision.
      for (const t of tasks) {
        const steps = await rt.store.steps.forTask(t.id);
        const clicks = steps.filter((s) => s.tool === 'computer' && s.index === 1);
        expect(clicks.filter((s) => s.status === 'completed')).toHaveLength(1);
        const trace = await rt.store.trace.page(t.id, 0, 10_000);
        const started = trace.filter((e) => e.type === 'step.started' && (e.data as { index?: number }).index === 1).length;
        const uncertain = trace.filter((e) => e.type === 'step.uncertain').length;
        expect(started).toBe(1 + uncertain);
      }
      // b answers again: what was lost on it is removed by the fleet.
      await b.start();
      await pollUntil('the lost desktops removed from b', async () => ((await ownContainers(b.docker, owner)).length === 0 ? true : undefined), {
        timeoutMs: 60_000,
      });
    } finally {
      await h.cleanup();
    }
    expect(await ownContainers(a, owner)).toEqual([]);
    expect(await ownContainers(b.docker, owner)).toEqual([]);
  }, 900_000);
});
