import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import type { SandboxdParams, SandboxdResult } from '../../../../electron/contract/sandboxProtocol.js';
import { readTree } from './a11y.js';
import { grab } from './capture.js';
import { clipRegion, regionImage } from './region.js';

/** desktop.observe: what an action could change — focus, the window, one object, the pixels. */
export async function observe(p: SandboxdParams<'desktop.observe'>): Promise<SandboxdResult<'desktop.observe'>> {
  const [frame, tree, window] = await Promise.all([grab(), readTree({ values: true }), activeWindow()]);
  const screenDigest = createHash('sha1').update(frame.data).digest('hex');
  const regionDigest = p.region
    ? createHash('sha1')
        .update(await regionImage(frame, clipRegion(frame, p.region)).raw().toBuffer())
        .digest('hex')
    : undefined;
  const focus = tree.nodes.filter((n) => n.states.includes('focused'));
  return {
    window,
    focus,
    ...(p.node !== undefined && { node: tree.nodes.find((n) => n.id === p.node) ?? null }),
    ...(regionDigest && { regionDigest }),
    screenDigest,
  };
}

function xdotool(args: string[]): Promise<string | undefined> {
  return new Promise((resolve) =>
    execFile('xdotool', args, { timeout: 5_000 }, (error, stdout) => resolve(error ? undefined : stdout.trim())),
  );
}

/** The X window with the focus and its title (none: the root has it). */
async function activeWindow(): Promise<{ id: string; title: string } | null> {
  const id = (await xdotool(['getactivewindow'])) ?? (await xdotool(['getwindowfocus']));
  if (!id) return null;
  return { id, title: (await xdotool(['getwindowname', id])) ?? '' };
}
