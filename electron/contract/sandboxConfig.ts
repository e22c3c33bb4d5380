import { z } from 'zod';

/** The OCI runtime a desktop runs under: `runc` (the engine's default) or `runsc` (gVisor, registered on the engine). */
export const SandboxRuntimeSchema = z.enum(['runc', 'runsc']).describe('The OCI runtime desktops run under: runc (default) or runsc (gVisor).');
/** A desktop runtime name. */
export type SandboxRuntime = z.infer<typeof SandboxRuntimeSchema>;

/** A remote engine's TLS material, by secret name (`agent-desk secrets set NAME`): no value is ever written in config. */
export const SandboxHostTlsSchema = z
  .object({
    caSecret: z.string().min(1).max(200).describe('Secret holding the CA certificate (PEM) the engine’s certificate is checked against.'),
    certSecret: z.string().min(1).max(200).describe('Secret holding this client’s certificate (PEM).'),
    keySecret: z.string().min(1).max(200).describe('Secret holding this client’s private key (PEM).'),
  })
  .strict()
  .describe('Mutual TLS toward a tcp:// engine, by secret names.');

/** One Docker engine desktops may be placed on. */
export const SandboxHostSchema = z
  .object({
    name: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$/, 'letters, digits, - and _ (at most 63), starting with a letter or digit')
      .describe('How listings, `sandbox build --host` and errors name this engine.'),
    docker: z
      .string()
      .regex(/^(unix:\/\/\/\S+|tcp:\/\/[^/\s:]+:\d{1,5})$/, 'unix:///path/to/docker.sock or tcp://host:port')
      .describe('Where the engine listens, as DOCKER_HOST names it.'),
    tls: SandboxHostTlsSchema.optional(),
    capacity: z.number().int().min(1).max(256).describe('At most this many desktops (a task’s and warm ones) on this engine at once.'),
    runtime: SandboxRuntimeSchema.optional().describe('This engine’s runtime; default: `sandbox.runtime`.'),
  })
  .strict()
  .superRefine((host, ctx) => {
    if (host.tls && !host.docker.startsWith('tcp://'))
      ctx.addIssue({ code: 'custom', path: ['tls'], message: 'tls applies to a tcp:// engine only (a unix socket has no TLS)' });
  })
  .describe('A Docker engine of the desktop fleet.');
/** A configured desktop engine. */
export type SandboxHost = z.infer<typeof SandboxHostSchema>;

/** The desktop fleet: engines with unique names. */
export const SandboxHostsSchema = z
  .array(SandboxHostSchema)
  .min(1)
  .max(64)
  .superRefine((hosts, ctx) => {
    const seen = new Set<string>();
    hosts.forEach((h, i) => {
      if (seen.has(h.name)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `host name "${h.name}" is used twice` });
      seen.add(h.name);
    });
  })
  .describe('Docker engines desktops are placed on (free capacity, image present); absent = the one default engine (DOCKER_HOST, else the local socket).');

/** The `sandbox` section of config.json: disposable desktops, where they run and how. */
export const SandboxConfigSchema = z
  .object({
    poolSize: z.number().int().min(0).max(16).default(0).describe('Ready desktop containers kept warm (on each host, within its capacity).'),
    hosts: SandboxHostsSchema.optional(),
    runtime: SandboxRuntimeSchema.default('runc'),
    image: z.string().optional().describe('An image to use instead of the built agent-desk/desktop.'),
    egressAllow: z
      .array(z.string())
      .default([])
      .describe('Hosts (`host[:port]` globs) sandboxes may reach through the runtime’s proxy; empty = network none.'),
    liveFps: z
      .number()
      .min(0)
      .max(30)
      .default(5)
      .describe('Live-view frames per second while a task holds a desktop (0 = only frames taken after actions).'),
    screen: z
      .object({
        width: z.number().int().min(320).max(7680),
        height: z.number().int().min(240).max(4320),
        scale: z
          .number()
          .min(1)
          .max(3)
          .multipleOf(0.25)
          .optional()
          .describe('Device pixels per point (HiDPI, e.g. 2): width and height are points; the desktop has scale× the pixels.'),
      })
      .strict()
      .refine((s) => Number.isInteger(s.width * (s.scale ?? 1)) && Number.isInteger(s.height * (s.scale ?? 1)), {
        message: 'width × scale and height × scale must be whole pixels',
        path: ['scale'],
      })
      .default({ width: 1280, height: 800 })
      .describe('The desktop’s screen; screenshots shown to a model may be smaller (the runtime scales).'),
    marks: z
      .boolean()
      .optional()
      .describe('Every screenshot a model asks for is marked: numbered elements and a legend (for weaker or local vision models).'),
  })
  .strict()
  .superRefine((sandbox, ctx) => {
    const gvisor = sandbox.runtime === 'runsc' || (sandbox.hosts ?? []).some((h) => h.runtime === 'runsc');
    if (gvisor && sandbox.egressAllow.length > 0)
      ctx.addIssue({
        code: 'custom',
        path: ['egressAllow'],
        message: 'desktops under runsc (gVisor) have no network yet: leave egressAllow empty, or run them under runc',
      });
  })
  .default({ poolSize: 0, runtime: 'runc', egressAllow: [], liveFps: 5, screen: { width: 1280, height: 800 } })
  .describe('Disposable desktop sandboxes (Docker).');
/** The sandbox section, defaults applied. */
export type SandboxConfig = z.infer<typeof SandboxConfigSchema>;
