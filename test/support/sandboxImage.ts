import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { desktopModule, sandboxOwnerOf, type DesktopModule } from '../../electron/capabilities/gui/desktopModule.js';
import { buildDesktopImage, sandboxSourceRoot } from '../../electron/capabilities/sandbox/imageBuilder.js';
import { SandboxDriver } from '../../electron/capabilities/sandbox/sandboxDriver.js';
import type { SandboxInfo } from '../../electron/contract/index.js';
import type { CliSandbox } from './cliSandbox.js';
import { openTestRuntime, type TestRuntime } from './runtime.js';

let image: Promise<string> | undefined;

/**
 * The desktop image for tests, through the same code path as `agent-desk sandbox build`: the
 * content-hash tag is reused when present (CI builds it once before the tests), built otherwise.
 */
export function desktopImage(): Promise<string> {
  image ??= buildDesktopImage({ root: sandboxSourceRoot(import.meta.dirname) }).then((o) => o.image);
  return image;
}

/** Points a CLI sandbox's runtime (its config.json) at the test desktop image, plus other sandbox settings. */
export async function configureDesktop(cli: CliSandbox, sandbox: Record<string, unknown> = {}): Promise<string> {
  const tag = await desktopImage();
  writeFileSync(path.join(cli.home, 'config.json'), JSON.stringify({ sandbox: { image: tag, ...sandbox } }));
  return tag;
}

/** The desktop containers of the runtime whose data folder is `home`, found by their owner label (any process). */
export const desktopContainers = (home: string): Promise<SandboxInfo[]> =>
  new SandboxDriver({ image: '', owner: sandboxOwnerOf(home) }).list();

/**
 * A real in-process runtime with the desktop module wired in as `openRuntime('full')` does, the
 * sandbox egress allowlist and `policy.allowWrites` taken from `config` as it takes them.
 */
export function openDesktopRuntime(
  tag: string,
  options: {
    liveFps?: number;
    config?: { policy?: { networkAllow?: string[]; allowWrites?: string[] }; sandbox?: { egressAllow?: string[] } };
  } = {},
): { h: TestRuntime; parts: DesktopModule } {
  const { config, liveFps } = options;
  const sandbox = { ...config?.sandbox, ...(liveFps !== undefined && { liveFps }) };
  let parts: DesktopModule | undefined;
  const h = openTestRuntime({
    config: { ...config, sandbox },
    modules: (core) => [(parts = desktopModule(core, { image: tag }))],
  });
  return { h, parts: parts! };
}

/**
 * A GUI playbook on a page with a note field over a "Place order" button that saves the note to
 * Downloads/note.txt: it focuses the note, optionally types into it, then clicks the button
 * (a payment target, so the click waits for approval). The check passes only if `saved` was saved.
 */
export function notePagePlaybook(o: { name: string; button?: string; typed?: string; check: string; saved: string }): string {
  const typeStep = o.typed === undefined ? '' : `\n  - tool: computer\n    args: { action: type, text: "${o.typed}" }`;
  return `name: ${o.name}
steps:
  - tool: sandbox.write_file
    args:
      path: order.html
      content: |
        <!doctype html><meta charset="utf-8"><title>Order</title>
        <style>
          #note { position: fixed; left: 0; top: 0; width: 100vw; height: 45vh; font-size: 28px; box-sizing: border-box; }
          #save { position: fixed; left: 0; top: 55vh; width: 100vw; height: 45vh; font-size: 40px; }
        </style>
        <textarea id="note"></textarea>
        <button id="save" onclick="save()">${o.button ?? 'Place order'}</button>
        <script>
          function save() {
            const a = document.createElement('a');
            a.href = URL.createObjectURL(new Blob([document.getElementById('note').value], { type: 'text/plain' }));
            a.download = 'note.txt';
            a.click();
          }
        </script>
  - tool: sandbox.browser_open
    args: { url: "file:///home/agent/order.html" }
  - tool: computer
    args: { action: click, x: 640, y: 150 }${typeStep}
  - tool: computer
    args: { action: click, x: 640, y: 650 }
acceptance:
  - { name: ${o.check}, type: file_contains, path: Downloads/note.txt, text: "${o.saved}", sandbox: true }
`;
}
