import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AcceptanceCheckSchema, type AcceptanceCheck } from '../../../../electron/contract/index.js';
import type { CheckContext } from '../../../../electron/runtime/verify/types.js';

/** A real temp folder as the task workspace; `dispose` removes it. */
export async function tempWorkspace(): Promise<{ dir: string; ctx: CheckContext; dispose: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'agent-desk-verify-'));
  return {
    dir,
    ctx: { workspace: dir, signal: new AbortController().signal },
    dispose: () => rm(dir, { recursive: true, force: true }),
  };
}

/** A real HTTP server on 127.0.0.1 with a free port. */
export async function startServer(handler: RequestListener): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A check as a playbook would give it: parsed, defaults applied. */
export function check<T extends AcceptanceCheck['type']>(
  raw: { type: T } & Record<string, unknown>,
): Extract<AcceptanceCheck, { type: T }> {
  return AcceptanceCheckSchema.parse(raw) as Extract<AcceptanceCheck, { type: T }>;
}
