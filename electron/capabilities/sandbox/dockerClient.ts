import { createRequire } from 'node:module';
import type Docker from 'dockerode';

/**
 * A dockerode client, the library loaded on first use: every CLI start and every gateway without
 * desktops would otherwise pay for it (~0.2 s).
 */
export function newDocker(options?: Docker.DockerOptions): Docker {
  const Client = createRequire(import.meta.url)('dockerode') as typeof Docker;
  return new Client(options);
}
