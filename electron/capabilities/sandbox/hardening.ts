import type { ContainerCreateOptions } from 'dockerode';
import { devicePixels } from '../../runtime/gui/coordinates.js';

/** Labels every sandbox carries: how the driver finds its own containers (and orphans). */
export const LABELS = {
  sandbox: 'agent-desk.sandbox',
  owner: 'agent-desk.owner',
  pid: 'agent-desk.pid',
  host: 'agent-desk.hostname',
  task: 'agent-desk.task',
  /** The worker (runner lease) that created it: the next owner of its task may adopt it once that worker is gone. */
  worker: 'agent-desk.worker',
} as const;

/** Resource limits and network of one sandbox. */
export interface SandboxLimits {
  memoryBytes: number;
  cpus: number;
  pids: number;
  /** `none` (default) or the name of an internal network the egress proxy serves. */
  network: string;
  /** In points; `scale` device pixels per point (a HiDPI desktop: X runs at width × scale). */
  screen: { width: number; height: number; scale?: number };
  /** Host folder mounted at ~/workspace (the only host mount), if declared. */
  workspace?: string;
  /** The allowlisting egress proxy (`http://gateway:port`) when `network` is the egress network. */
  proxy?: string;
  /** `runsc` runs the desktop under gVisor (registered on the engine under that name); default the engine's runc. */
  runtime?: 'runc' | 'runsc';
}

/** The defaults: 2 GiB, 2 CPUs, 512 processes, no network, a 1280×800 screen. */
export const DEFAULT_LIMITS: SandboxLimits = {
  memoryBytes: 2 * 1024 ** 3,
  cpus: 2,
  pids: 512,
  network: 'none',
  screen: { width: 1280, height: 800 },
};

/** The sandbox user: the image's non-root `agent`. */
export const SANDBOX_USER = '1000:1000';
/** The home folder inside the sandbox (a tmpfs). */
export const SANDBOX_HOME = '/home/agent';

/**
 * Container options with the desktop hardening (docs/architecture.md, "Security at the edges"): no capabilities, no privilege gain,
 * read-only root with tmpfs for /tmp and home, resource limits, non-root, no host mounts but the
 * declared workspace, no network unless the egress proxy's network is named.
 */
export function hardenedCreateOptions(
  image: string,
  limits: SandboxLimits,
  labels: Record<string, string>,
  name: string,
): ContainerCreateOptions {
  const pixels = devicePixels(limits.screen, limits.screen.scale);
  const binds = limits.workspace ? [`${limits.workspace}:${SANDBOX_HOME}/workspace:rw`] : [];
  return {
    name,
    Image: image,
    User: SANDBOX_USER,
    Env: [
      `SCREEN=${pixels.width}x${pixels.height}`,
      ...scaleEnv(limits.screen.scale ?? 1),
      ...(limits.proxy ? ['http_proxy', 'https_proxy', 'HTTP_PROXY', 'HTTPS_PROXY'].map((k) => `${k}=${limits.proxy}`) : []),
    ],
    Labels: { ...labels, [LABELS.sandbox]: '1' },
    NetworkDisabled: limits.network === 'none',
    StopTimeout: 1,
    HostConfig: {
      Init: true,
      CapDrop: ['ALL'],
      SecurityOpt: ['no-new-privileges'],
      ReadonlyRootfs: true,
      Privileged: false,
      Tmpfs: {
        '/tmp': 'rw,nosuid,nodev,size=512m',
        [SANDBOX_HOME]: 'rw,nosuid,nodev,size=1g,uid=1000,gid=1000,mode=0700',
      },
      ShmSize: 256 * 1024 ** 2,
      Memory: limits.memoryBytes,
      MemorySwap: limits.memoryBytes,
      NanoCpus: Math.round(limits.cpus * 1e9),
      PidsLimit: limits.pids,
      NetworkMode: limits.network,
      IpcMode: 'private',
      Binds: binds,
      AutoRemove: false,
      ...(limits.runtime === 'runsc' && { Runtime: 'runsc' }),
    },
  };
}

/** A HiDPI desktop's applications draw at its scale: GTK by whole factors, the rest of it through the font DPI. */
function scaleEnv(scale: number): string[] {
  if (scale === 1) return [];
  const whole = Math.max(1, Math.floor(scale));
  return [`GDK_SCALE=${whole}`, `GDK_DPI_SCALE=${scale / whole}`, `QT_SCALE_FACTOR=${scale}`];
}
