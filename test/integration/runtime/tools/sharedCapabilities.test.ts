import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BrowserHost } from '../../../../electron/capabilities/browser/browserHost.js';
import { browserTools } from '../../../../electron/capabilities/browser/browserTools.js';
import { desktopModule } from '../../../../electron/capabilities/gui/desktopModule.js';
import { McpManager } from '../../../../electron/capabilities/mcp/mcpManager.js';
import type { Task } from '../../../../electron/contract/index.js';
import { CAPABILITIES } from '../../../../electron/runtime/tools/capabilities.js';
import { ToolRouter } from '../../../../electron/runtime/tools/router.js';
import type { AnyTool } from '../../../../electron/runtime/tools/types.js';
import { stdioServer } from '../../capabilities/mcp/referenceServers.js';
import { missing } from '../../../support/requirements.js';
import { createPlaybookTask, openTestRuntime, tempDir, type TestRuntime } from '../../../support/runtime.js';

const noChromium = missing('chromium');
const noDocker = missing('docker');
const SHARED = [CAPABILITIES.webRead, CAPABILITIES.webInteract, CAPABILITIES.fileRead, CAPABILITIES.fileWrite, CAPABILITIES.fileList];

/** The shipped tools: builtins (from the runtime), the browser tier, the desktop's computer and sandbox tools. */
function shippedRuntime(host: BrowserHost, config: Record<string, unknown> = {}): { h: TestRuntime } {
  const home = tempDir('agent-desk-tiers-');
  const h = openTestRuntime({
    home,
    tools: browserTools(host),
    config,
    modules: (core) => [desktopModule(core, { poolSize: 0, reap: false })],
  });
  return { h };
}

const names = (tools: readonly AnyTool[]): string[] => tools.map((t) => t.name);

const TIERS = ['api', 'mcp', 'browser', 'gui'];

/**
 * The tier offered for each shared capability: its best one. A tool of a lower tier is there only
 * for another capability it is the best for (navigate reads pages too, but is offered to interact).
 */
function tiersPerCapability(offered: readonly AnyTool[]): Record<string, string[]> {
  const best = (capability: string) =>
    offered.filter((t) => t.capabilities.includes(capability)).reduce((m, t) => Math.min(m, TIERS.indexOf(t.tier)), Infinity);
  for (const tool of offered) {
    if (tool.capabilities.length === 0) continue;
    expect(
      tool.capabilities.some((c) => best(c) === TIERS.indexOf(tool.tier)),
      `${tool.name} is offered for nothing it is best at`,
    ).toBe(true);
  }
  const out: Record<string, string[]> = {};
  for (const capability of SHARED) out[capability] = Number.isFinite(best(capability)) ? [TIERS[best(capability)]!] : [];
  return out;
}

describe('capabilities shared across tiers (the shipped tools)', () => {
  let host: BrowserHost;
  let opened: { h: TestRuntime } | undefined;
  const savedChromium = process.env.AGENT_DESK_CHROMIUM;
  beforeAll(() => {
    host = new BrowserHost({ networkAllow: [] });
  });
  afterEach(async () => {
    if (savedChromium === undefined) delete process.env.AGENT_DESK_CHROMIUM;
    else process.env.AGENT_DESK_CHROMIUM = savedChromium;
    await opened?.h.cleanup();
    opened = undefined;
  });
  afterAll(async () => {
    await host.close();
  });

  it.skipIf(noChromium)('a model is offered one tier per capability: the api and browser tools, not the desktop behind them', async () => {
    opened = shippedRuntime(host);
    const { rt } = opened.h;
    const router = new ToolRouter(rt.registry);
    const offered = await router.offer({ task: { sandbox: 'auto' } });
    expect(tiersPerCapability(offered)).toEqual({
      'web.read': ['api'],
      'web.interact': ['browser'],
      'file.read': ['api'],
      'file.write': ['api'],
      'file.list': ['api'],
    });
    expect(names(offered)).toEqual(expect.arrayContaining(['http.request', 'fs.read', 'fs.write', 'browser.navigate', 'browser.click']));
    expect(names(offered)).not.toContain('computer');
    expect(names(offered)).not.toContain('sandbox.browser_open');
    expect(offered.length).toBeLessThan(rt.registry.list().length);
    // A named browser call runs in the browser: its route says so and names no fallback down to the desktop.
    const plan = await router.plan({ tool: 'browser.click', args: { text: 'Go' }, task: { sandbox: 'auto' } });
    expect(plan.candidates.map((c) => [c.tool.name, c.reason])).toEqual([['browser.click', 'named in plan']]);
  });

  it.skipIf(noDocker)(
    'with Chromium missing, a page task falls to the desktop: computer is offered for web.interact and its route says why',
    async () => {
      process.env.AGENT_DESK_CHROMIUM = '/nonexistent/chromium';
      opened = shippedRuntime(host);
      const router = new ToolRouter(opened.h.rt.registry);
      const offered = await router.offer({ task: { sandbox: 'auto' } });
      expect(tiersPerCapability(offered)['web.interact']).toEqual(['gui']);
      expect(tiersPerCapability(offered)['web.read']).toEqual(['api']);
      expect(names(offered)).toEqual(expect.arrayContaining(['computer', 'sandbox.browser_open']));
      expect(names(offered).filter((n) => n.startsWith('browser.'))).toEqual([]);
      const plan = await router.plan({ tool: 'computer', args: { action: 'screenshot' }, task: { sandbox: 'auto' } });
      expect(plan.candidates[0]!.reason).toMatch(
        /^named in plan; web\.interact falls to the gui tier: browser\.\w+ is unavailable \(AGENT_DESK_CHROMIUM is \/nonexistent\/chromium/,
      );
    },
  );

  it.skipIf(noDocker || noChromium)(
    'a task with a desktop is offered the gui tier too; a task with sandbox "none" none of it',
    async () => {
      opened = shippedRuntime(host);
      const router = new ToolRouter(opened.h.rt.registry);
      expect(names(await router.offer({ task: { sandbox: 'desktop' } }))).toEqual(
        expect.arrayContaining(['computer', 'browser.click', 'sandbox.exec']),
      );
      expect((await router.offer({ task: { sandbox: 'none' } })).filter((t) => t.tier === 'gui')).toEqual([]);
    },
  );

  it.skipIf(noChromium)(
    'a plain GET that fails with a retryable error falls down to the browser, which reads the page; the route records both',
    async () => {
      // A server that drops clients that are not a browser: http.request's GET is reset, Chromium gets the page.
      const server: Server = createServer((req, res) => {
        if (!String(req.headers['user-agent']).includes('Chrome')) return void req.socket.destroy();
        res.setHeader('content-type', 'text/html');
        res.end('<html><body><h1>Opening hours</h1><p>Mon-Fri 9-17</p></body></html>');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hours`;
      try {
        opened = shippedRuntime(new BrowserHost({ networkAllow: ['127.0.0.1:*'] }), { policy: { networkAllow: ['127.0.0.1:*'] } });
        const { rt } = opened.h;
        // Reading in the browser is navigate then extract_text: the fallback enters with navigate, the next step extracts.
        const task = await createPlaybookTask(
          rt,
          `name: read-hours\nsteps:\n  - tool: http.request\n    args: { method: GET, url: "${url}" }\n  - tool: browser.extract_text\n    args: {}\n`,
        );
        const done = await rt.engine.run(task.id);
        expect(done.state, done.stateReason).toBe('succeeded');
        const [step, extract] = (await rt.engine.steps(task.id)).filter((s) => s.status === 'completed');
        expect(step!.tool).toBe('browser.navigate');
        expect(step!.args).toMatchObject({ url }); // the capability's own argument, not http.request's method
        expect(step!.args).not.toHaveProperty('method');
        expect(step!.route).toMatchObject({ tool: 'browser.navigate', tier: 'browser' });
        expect(step!.route!.reason).toMatch(
          /^fallback: http\.request failed with a retryable error .*browser\.navigate provides web\.read \(browser tier\)/,
        );
        expect(step!.route!.attempts).toEqual([expect.objectContaining({ tool: 'http.request', tier: 'api', outcome: 'retryable_error' })]);
        expect(JSON.stringify(extract!.output)).toContain('Mon-Fri 9-17');
      } finally {
        server.close();
      }
    },
  );

  it('a POST never falls back: it is no web.read, and its failure may have had its effect', async () => {
    opened = shippedRuntime(host);
    const router = new ToolRouter(opened.h.rt.registry);
    const post = await router.plan({ tool: 'http.request', args: { method: 'POST', url: 'http://127.0.0.1:9/orders', body: { qty: 1 } } });
    expect(names(post.candidates.map((c) => c.tool))).toEqual(['http.request']);
    const get = await router.plan({ tool: 'http.request', args: { method: 'GET', url: 'http://127.0.0.1:9/orders' } });
    expect(names(get.candidates.map((c) => c.tool)).slice(1)).toEqual(
      noChromium ? (noDocker ? [] : ['sandbox.browser_open']) : ['browser.navigate', ...(noDocker ? [] : ['sandbox.browser_open'])],
    );
  });
});

describe('an MCP filesystem server below the fs.* tools (real server-filesystem)', () => {
  let h: TestRuntime;
  let manager: McpManager;
  let task: Task;
  beforeAll(async () => {
    h = openTestRuntime();
    manager = new McpManager({ home: h.home, clientVersion: 'test', reconnectDelaysMs: [], registry: h.rt.registry });
    task = await createPlaybookTask(h.rt, 'name: files\nsteps:\n  - tool: echo\n    args: { value: 1 }\n');
    writeFileSync(path.join(task.workspace, 'note.txt'), 'from the workspace');
    const status = await manager.add('fs', stdioServer('filesystem', [task.workspace]));
    expect(status.state).toBe('connected');
  });
  afterAll(async () => {
    await manager.close();
    await h.cleanup();
  });

  it('hides the server tools the fs.* tools already provide, and keeps those only it provides', async () => {
    const offered = names(await new ToolRouter(h.rt.registry).offer({ task }));
    for (const hidden of [
      'mcp__fs__read_text_file',
      'mcp__fs__read_file',
      'mcp__fs__write_file',
      'mcp__fs__edit_file',
      'mcp__fs__list_directory',
    ])
      expect(offered).not.toContain(hidden);
    expect(offered).toEqual(expect.arrayContaining(['fs.read', 'fs.write', 'fs.list', 'mcp__fs__move_file', 'mcp__fs__create_directory']));
    expect(h.rt.registry.get('mcp__fs__read_text_file')?.capabilities).toEqual(['file.read']);
    expect(h.rt.registry.get('mcp__fs__create_directory')?.capabilities).toEqual(['mcp.fs.create_directory']);
  });

  it('file.read falls back to the server with the path made absolute, and the server reads the same file', async () => {
    const plan = await new ToolRouter(h.rt.registry).plan({ capability: 'file.read', args: { path: 'note.txt' }, task });
    expect(names(plan.candidates.map((c) => c.tool))).toEqual(['fs.read', 'mcp__fs__read_file', 'mcp__fs__read_text_file']);
    const fallback = plan.candidates.find((c) => c.tool.name === 'mcp__fs__read_text_file')!;
    expect(fallback.args).toEqual({ path: path.join(task.workspace, 'note.txt') });
    const output = (await fallback.tool.execute(fallback.args, {
      taskId: task.id,
      stepId: 'step_test',
      idempotencyKey: 'k',
      workspace: task.workspace,
      signal: new AbortController().signal,
    })) as { text: string };
    expect(output.text).toContain('from the workspace');
  });
});
