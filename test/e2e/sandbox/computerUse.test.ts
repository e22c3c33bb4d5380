import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayClient } from '../../../electron/capabilities/transports/wsClient.js';
import type { Approval } from '../../../electron/contract/index.js';
import { CliSandbox, explain } from '../../support/cliSandbox.js';
import { ModelServer, type ModelRoute } from '../../support/modelServer.js';
import { pollUntil } from '../../support/poll.js';
import { missing } from '../../support/requirements.js';
import { desktopContainers, desktopImage } from '../../support/sandboxImage.js';
import { screenModel, type Rgb, type ScreenStep, type SeenPoint } from '../../support/screenModel.js';
import { startServe, waitForTaskState, type ServeProcess } from '../../support/serveProcess.js';
import { useHeavySlot } from '../../support/heavySlot.js';

useHeavySlot();

// The main path with a desktop: a goal task with `sandbox: "desktop"` on each wire protocol,
// the model working the task's container through its provider's own computer-use protocol. The
// scripted model finds the fields and the button by colour in the screenshots it is sent.

const skip = missing('docker');
/** A test that runs CLI processes with 180 s limits of their own (under a loaded CI they take minutes, not the default 60 s). */
const LONG_RUN_MS = 300_000;
const RED: Rgb = [230, 30, 30];
const BLUE: Rgb = [30, 60, 230];
const GREEN: Rgb = [20, 170, 60];
const NAME = 'Alice Smith';
const CITY = '上海 你好';
const PAGE = `<!doctype html><meta charset="utf-8"><title>Order</title>
<style>
  body { margin: 0; font: 30px "Noto Sans CJK SC", sans-serif; background: #fff; }
  input { position: fixed; border: 0; font-size: 30px; color: #fff; }
  #name { left: 8vw; top: 10vh; width: 40vw; height: 18vh; background: rgb(${RED}); }
  #city { left: 52vw; top: 40vh; width: 40vw; height: 18vh; background: rgb(${BLUE}); }
  #order { position: fixed; left: 30vw; top: 72vh; width: 40vw; height: 18vh; font-size: 36px; border: 0; color: #fff; background: rgb(${GREEN}); }
</style>
<input id="name" aria-label="Name"><input id="city" aria-label="City">
<button id="order" onclick="order()">Place order</button>
<script>
  function order() {
    const a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob([document.getElementById('name').value + '|' + document.getElementById('city').value], { type: 'text/plain' }));
    a.download = 'order.txt';
    a.click();
    document.title = 'Ordered';
  }
</script>`;
const URL_IN_SANDBOX = 'file:///home/agent/site/order.html';
const STEPS: ScreenStep[] = [
  { do: 'functions', calls: [{ name: 'sandbox_write_file', arguments: { path: 'site/order.html', content: PAGE } }] },
  { do: 'functions', calls: [{ name: 'sandbox_browser_open', arguments: { url: URL_IN_SANDBOX } }] },
  { do: 'screenshot' },
  { do: 'click', colour: RED },
  { do: 'type', text: NAME },
  { do: 'click', colour: BLUE },
  { do: 'type', text: CITY },
  { do: 'click', colour: GREEN },
  { do: 'answer', text: 'Order placed.' },
];
const CHECK = { type: 'file_contains' as const, name: 'order saved', path: 'Downloads/order.txt', text: `${NAME}|${CITY}`, sandbox: true };
const PROVIDERS: Record<ModelRoute, { kind: string; model: string }> = {
  chat: { kind: 'openai-chat', model: 'ui-tars-1.5-7b' },
  messages: { kind: 'anthropic', model: 'claude-test' },
  responses: { kind: 'openai-responses', model: 'computer-use-preview' },
};
const SCREENS = [
  { width: 1280, height: 800, model: { width: 1280, height: 800 } },
  { width: 1920, height: 1080, model: { width: 1366, height: 768 } },
];

let server: ModelServer;
let image: string;
let cli: CliSandbox | undefined;
let serve: ServeProcess | undefined;
let client: GatewayClient | undefined;

beforeAll(async () => {
  if (skip) return;
  server = await new ModelServer().start();
  image = await desktopImage();
}, 600_000);
afterAll(async () => server?.close());
afterEach(async () => {
  await client?.close();
  await serve?.child.kill('SIGTERM');
  await cli?.cleanup();
  [client, serve, cli] = [undefined, undefined, undefined];
});

async function openServe(route: ModelRoute, screen: { width: number; height: number }): Promise<GatewayClient> {
  cli = new CliSandbox();
  const { kind, model } = PROVIDERS[route];
  const baseUrl = route === 'messages' ? server.origin : server.url;
  const config = {
    models: { providers: { local: { kind, baseUrl, apiKeySecret: 'local-key' } }, defaultModel: `local:${model}` },
    sandbox: { image, screen },
  };
  writeFileSync(path.join(cli.home, 'config.json'), JSON.stringify(config));
  const setting = cli.spawn(['secrets', 'set', 'local-key']);
  setting.write('sk-computer-use-test');
  setting.child.stdin?.end();
  const set = await setting.finished(45_000);
  if (set.code !== 0) throw new Error(explain(set));
  serve = await startServe(cli);
  client = await serve.connect();
  return client;
}

describe.skipIf(skip)(`computer use on every protocol, in a real desktop${skip ? ` (skipped: ${skip})` : ''}`, () => {
  for (const route of ['responses', 'messages', 'chat'] as const)
    for (const screen of SCREENS)
      it(`${PROVIDERS[route].kind} at ${screen.width}×${screen.height}: fills the form in English and Chinese, the order waits for approval, a sandbox check proves it`, async () => {
        const rpc = await openServe(route, { width: screen.width, height: screen.height });
        server.requests.length = 0;
        server.rejections.length = 0;
        server.scriptErrors.length = 0;
        const seen: SeenPoint[] = [];
        const model = screenModel(route, STEPS, seen);
        server.script(route, ...STEPS.map(() => model));

        const task = await rpc.call('tasks.create', {
          goal: `Open ${URL_IN_SANDBOX} in the desktop, enter the name "${NAME}" and the city "${CITY}", then place the order.`,
          sandbox: 'desktop',
          checks: [CHECK],
        });
        const found = await pollUntil(
          'the order click to wait for approval',
          async () => {
            if (server.scriptErrors.length || server.rejections.length)
              return { fatal: JSON.stringify([server.scriptErrors, server.rejections]) };
            const state = (await rpc.call('tasks.get', { taskId: task.id })).task;
            if (['failed', 'succeeded', 'cancelled'].includes(state.state))
              return { fatal: `task ended: ${state.state} ${state.stateReason}` };
            const pending = (await rpc.call('approvals.list', { status: 'pending' })).approvals.find((a: Approval) => a.taskId === task.id);
            return pending && { approval: pending };
          },
          { timeoutMs: 120_000 },
        );
        if ('fatal' in found) throw new Error(found.fatal);
        const { approval } = found;
        expect(approval.preview.summary).toMatch(/Place order/);
        expect(approval.preview.screenshot, 'the approval shows the marked target').toBeTruthy();
        await rpc.call('approvals.decide', { approvalId: approval.id, decision: 'approve', remember: 'once' });
        const done = await waitForTaskState(rpc, task.id, ['succeeded', 'failed'], 120_000);
        expect(server.scriptErrors).toEqual([]);
        expect(server.rejections).toEqual([]);
        expect(done.state, done.stateReason).toBe('succeeded');

        // The model was shown screenshots of the model space, and declared the provider's own computer tool.
        expect(seen).toHaveLength(3);
        for (const p of seen) expect({ width: p.width, height: p.height }).toEqual(screen.model);
        const first = server.received(route).at(-1)!.body;
        const tools = JSON.stringify(first.tools ?? []);
        if (route === 'responses') expect(tools).toContain(`"display_width":${screen.model.width}`);
        if (route === 'messages') expect(tools).toContain(`"display_width_px":${screen.model.width}`);
        if (route === 'chat') expect(JSON.stringify(first.messages)).toContain('start_box');
        expect(tools).not.toContain('"name":"computer","description"');

        await pollUntil('the desktop to be destroyed', async () => ((await desktopContainers(cli!.home)).length === 0 ? true : undefined), {
          timeoutMs: 30_000,
        });
        // The first of these also starts the desktop (about 50 s on a loaded 2-core machine).
      }, 120_000);
});

describe.skipIf(skip)(
  `the approved desktop click lands on the page the approval showed, in another process${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    const route = 'responses' as const;
    const screen = { width: 1280, height: 800 };
    const goal = `Open ${URL_IN_SANDBOX} in the desktop, enter the name "${NAME}" and the city "${CITY}", then place the order.`;
    const scriptModel = () => {
      server.requests.length = 0;
      server.rejections.length = 0;
      server.scriptErrors.length = 0;
      const model = screenModel(route, STEPS);
      server.script(route, ...STEPS.map(() => model));
    };

    it(
      'run --goal --sandbox desktop exits 3 at the order, approvals approve, run --resume finishes it on the same desktop',
      async () => {
        cli = new CliSandbox();
        await openServe(route, screen); // writes the config and the key; this test drives the CLI only
        await client!.close();
        await serve!.child.kill('SIGTERM');
        [client, serve] = [undefined, undefined];
        scriptModel();
        writeFileSync(path.join(cli.home, 'checks.json'), JSON.stringify([CHECK]));
        const first = await cli.run(
          ['run', '--goal', goal, '--sandbox', 'desktop', '--checks', path.join(cli.home, 'checks.json'), '--json'],
          {
            timeoutMs: 180_000,
          },
        );
        expect(first.code, explain(first)).toBe(3);
        const taskId = first.json<{ task: { id: string } }>().task.id;
        expect(
          (await desktopContainers(cli.home)).map((c) => c.task),
          'the desktop outlives the process',
        ).toEqual([taskId]);

        const listed = await cli.run(['approvals', 'list', '--json']);
        const [approval] = listed.json<{ approvals: Approval[] }>().approvals;
        expect(approval?.preview.summary).toMatch(/Place order/);
        const approved = await cli.run(['approvals', 'approve', approval!.id]);
        expect(approved.code, explain(approved)).toBe(0);

        const resumed = await cli.run(['run', '--resume', taskId, '--json'], { timeoutMs: 180_000 });
        expect(server.scriptErrors).toEqual([]);
        expect(server.rejections).toEqual([]);
        expect(resumed.code, explain(resumed)).toBe(0);
        expect(resumed.json<{ checks: { passed: boolean }[] }>().checks.every((c) => c.passed)).toBe(true);
        expect(await desktopContainers(cli.home)).toEqual([]);
      },
      LONG_RUN_MS,
    );

    it(
      'serve stopped while the order waits: the next serve resumes it on the same desktop once approved',
      async () => {
        const rpc = await openServe(route, screen);
        scriptModel();
        const task = await rpc.call('tasks.create', { goal, sandbox: 'desktop', checks: [CHECK] });
        await waitForTaskState(rpc, task.id, ['waiting_approval'], 180_000);
        await rpc.close();
        await serve!.child.kill('SIGTERM');
        expect((await desktopContainers(cli!.home)).map((c) => c.task)).toEqual([task.id]);

        serve = await startServe(cli!);
        client = await serve.connect();
        const [approval] = (await client.call('approvals.list', { taskId: task.id, status: 'pending' })).approvals;
        await client.call('approvals.decide', { approvalId: approval!.id, decision: 'approve', remember: 'once' });
        const done = await waitForTaskState(client, task.id, ['succeeded', 'failed'], 120_000);
        expect(server.scriptErrors).toEqual([]);
        expect(done.state, done.stateReason).toBe('succeeded');
      },
      LONG_RUN_MS,
    );
  },
);
