import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desktopModule, sandboxOwnerOf } from '../../../../electron/capabilities/gui/desktopModule.js';
import { fleetEngines } from '../../../../electron/capabilities/sandbox/fleet/engineClient.js';
import { fleetDesktopImage } from '../../../../electron/capabilities/sandbox/fleet/fleetImage.js';
import { LABELS } from '../../../../electron/capabilities/sandbox/hardening.js';
import { sandboxSourceRoot } from '../../../../electron/capabilities/sandbox/imageBuilder.js';
import type { SandboxRuntime, Step, Task } from '../../../../electron/contract/index.js';
import { pollUntil } from '../../../support/poll.js';
import { missing } from '../../../support/requirements.js';
import { createPlaybookTask, openTestRuntime } from '../../../support/runtime.js';
import { desktopImage } from '../../../support/sandboxImage.js';
import { SOAK_SIZES, soakSize } from '../../../support/sizes.js';
import { startSecondEngine, type SecondEngine } from '../../../support/secondEngine.js';
import { useHeavySlot } from '../../../support/heavySlot.js';

useHeavySlot();

/**
 * Desktop tasks per run (test/support/sizes.ts): under runc CI's default, the 40 with
 * AGENT_DESK_SOAK=full (seen: 87 s of tasks on 2 shared cores); 8 under runsc (40 took 292 s
 * there, docs/benchmarks.md). AGENT_DESK_FLEET_TASKS sets both.
 */
const tasksUnder = (runtime: SandboxRuntime) =>
  runtime === 'runc' || process.env[SOAK_SIZES.fleetTasks.variable] ? soakSize(SOAK_SIZES.fleetTasks) : 8;
/**
 * runc: the default engine and a second one. runsc: two second engines that register gVisor (the
 * default engine may not). Root and dockerd (and runsc) needed; AGENT_DESK_REQUIRE turns a skip into a failure.
 */
const RUNTIMES: { runtime: SandboxRuntime; skip: string | undefined }[] = [
  { runtime: 'runc', skip: missing('dockerd') },
  // Opt-in for CI's time (two gVisor engines and 40 tasks: ≈ 3 min more); run by hand as docs/benchmarks.md records.
  {
    runtime: 'runsc',
    skip: missing('runsc') ?? (process.env.AGENT_DESK_FLEET_RUNSC ? undefined : 'the runsc fleet runs with AGENT_DESK_FLEET_RUNSC=1'),
  },
];

/**
 * A desktop task: an idempotent write, a click (a side effect: held uncertain if its desktop is
 * lost under it), a screenshot. The click is a right click on the bare desktop, which opens the
 * window manager's menu: a click that changes nothing is `no_effect`, not a success.
 */
const playbook = (i: number) => `name: fleet-${i}
steps:
  - tool: sandbox.write_file
    args: { path: note.txt, content: "task ${i}" }
    retries: 3
  - tool: computer
    args: { action: click, x: 20, y: 20, button: right }
  - tool: computer
    args: { action: screenshot }
    retries: 3
`;

const ownContainers = (docker: Docker, owner: string) =>
  docker.listContainers({ all: true, filters: { label: [`${LABELS.owner}=${owner}`] } });

for (const { runtime, skip } of RUNTIMES)
  describe.skipIf(skip)(`a fleet of two Docker engines (${runtime})`, () => {
    const TASKS = tasksUnder(runtime);
    let a2: SecondEngine | undefined;
    let b: SecondEngine;
    let image: string;

    beforeAll(async () => {
      image = await desktopImage();
      const gvisor = runtime === 'runsc';
      [a2, b] = await Promise.all([
        gvisor ? startSecondEngine({ image, runsc: true }) : undefined,
        startSecondEngine({ image, runsc: gvisor }),
      ]);
    }, 600_000);

    afterAll(async () => {
      await Promise.all([a2?.remove(), b?.remove()]);
    }, 120_000);

    it('a fleet of engines that have the image works out its tag without the default engine', async () => {
      const engines = fleetEngines({ runtime, hosts: [{ name: 'b', docker: b.address, capacity: 2 }] });
      const noDefault = () => Promise.reject(new Error('the default engine was asked'));
      expect(await fleetDesktopImage(engines, sandboxSourceRoot(import.meta.dirname), noDefault)).toBe(image);
    });

    it(`${TASKS} desktop tasks over two engines of capacity 2, one stopped halfway: every task finishes, no effect twice, no container left`, async () => {
      const hosts = [
        { name: 'a', docker: a2?.address ?? 'unix:///var/run/docker.sock', capacity: 2 },
        { name: 'b', docker: b.address, capacity: 2 },
      ];
      // No sandbox.image: the fleet works out the tag (runsc: on engines the default one is not among).
      const h = openTestRuntime({
        config: { sandbox: { poolSize: 1, hosts, liveFps: 0, runtime } },
        modules: (core) => [desktopModule(core)],
      });
      const { rt } = h;
      const owner = sandboxOwnerOf(rt.storeName);
      const a = a2?.docker ?? new Docker({ socketPath: '/var/run/docker.sock' });
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
        await pollUntil(
          'half the tasks done with desktops on both engines',
          async () => {
            for (const s of await rt.dispatcher
              .dispatch({ id: 1, method: 'sandboxes.list', params: {} }, { scopes: ['operator.admin'], clientId: 't' })
              .then((r) => ('result' in r ? (r.result as { sandboxes: { host?: string }[] }).sandboxes : [])))
              if (s.host) hostsSeen.add(s.host);
            return done(await states()) >= TASKS / 2 && hostsSeen.has('a') && hostsSeen.has('b') ? true : undefined;
          },
          { timeoutMs: Number(process.env.AGENT_DESK_FLEET_HALF_MS ?? 300_000), intervalMs: 100, lastSeen: () => [...hostsSeen, ...seen] },
        );
        const onB = (await ownContainers(b.docker, owner)).map((c) => c.Id);
        await b.stop();
        // A step held uncertain (its desktop was lost under it) waits for a person: the desktop is gone with its effect, so rerun.
        const resolved = new Set<string>();
        // A task that ended failed ends the wait at once (a poll would keep trying until its deadline).
        const ended = await pollUntil(
          'every task succeeded',
          async () => {
            const all = await states();
            done(all);
            for (const t of all) {
              if (t.state !== 'waiting_user' || resolved.has(t.id)) continue;
              const steps: Step[] = await rt.store.steps.forTask(t.id);
              if (!steps.some((s) => s.status === 'uncertain')) continue;
              resolved.add(t.id);
              await rt.engine.resume(t.id, 'rerun');
            }
            const failed = all.find((t) => t.state === 'failed' || t.state === 'cancelled');
            if (failed) return `task ${failed.id} ${failed.state}: ${failed.stateReason ?? ''}`;
            return done(all) === TASKS ? 'all succeeded' : undefined;
          },
          { timeoutMs: 600_000, intervalMs: 200, lastSeen: () => [...seen, ...[...resolved].map((id) => `rerun ${id}`)] },
        );
        expect(ended).toBe('all succeeded');

        // No effect twice: each click ran to completion once. Every other start of it ended either
        // uncertain (sent again only by a person's rerun) or failed for want of a desktop, before
        // anything was sent. A desktop seen lost before the click's input went out is not a failure:
        // the computer tool runs the click on the task's next desktop (test/e2e/sandbox/lostDesktop.test.ts).
        for (const t of tasks) {
          const steps = await rt.store.steps.forTask(t.id);
          const clicks = steps.filter((s) => s.tool === 'computer' && s.index === 1);
          expect(clicks.filter((s) => s.status === 'completed')).toHaveLength(1);
          const trace = (await rt.store.trace.page(t.id, 0, 10_000)).filter((e) => (e.data as { index?: number }).index === 1);
          const count = (type: string) => trace.filter((e) => e.type === type).length;
          const unsent = trace.filter((e) => e.type === 'step.failed').map((e) => String((e.data as { error?: unknown }).error));
          for (const error of unsent) expect(error).toMatch(/desktop|sandbox host/);
          // A person's rerun is announced as a start (`rerun: true`) before the call's own start.
          const sends = trace.filter((e) => e.type === 'step.started' && !(e.data as { rerun?: boolean }).rerun).length;
          expect(sends).toBe(1 + count('step.uncertain') + unsent.length);
        }
        // b answers again: what was lost on it is removed by the fleet (its warm pool fills b again).
        await b.start();
        let left: string[] = [];
        await pollUntil(
          'the lost desktops removed from b',
          async () => {
            const stale = (await ownContainers(b.docker, owner)).filter((c) => onB.includes(c.Id) || c.State !== 'running');
            left = stale.map((c) => `${c.Names[0] ?? c.Id} ${c.State}`);
            return left.length === 0 ? true : undefined;
          },
          { timeoutMs: 60_000, lastSeen: () => left },
        );
      } finally {
        await h.cleanup();
      }
      expect(await ownContainers(a, owner)).toEqual([]);
      expect(await ownContainers(b.docker, owner)).toEqual([]);
    }, 900_000);
  });
