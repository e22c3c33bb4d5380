import type Docker from 'dockerode';
import { AgentDeskError } from '../../runtime/errors.js';

/** The internal network sandboxes with egress join: no route out but the runtime's proxy. */
export const EGRESS_NETWORK = 'agent-desk-egress';

/**
 * Creates (once) an `--internal` bridge network and returns its gateway address: the host side of
 * the bridge, where the egress proxy listens. Needs a local engine (the proxy must be on its host).
 */
export async function ensureEgressNetwork(docker: Docker, name = EGRESS_NETWORK): Promise<string> {
  const existing = await docker
    .getNetwork(name)
    .inspect()
    .catch(() => undefined);
  const info =
    existing ??
    (await docker
      .createNetwork({ Name: name, Driver: 'bridge', Internal: true, Labels: { 'agent-desk.network': 'egress' } })
      .then((n) => n.inspect()));
  const gateway = (info as { IPAM?: { Config?: { Gateway?: string }[] } }).IPAM?.Config?.[0]?.Gateway;
  if (!gateway) throw new AgentDeskError('unavailable', `network ${name} has no gateway address for the egress proxy`);
  return gateway;
}

/** A container's address on the egress network: what the proxy sees as the source of its requests. */
export async function containerAddress(docker: Docker, containerId: string, network = EGRESS_NETWORK): Promise<string> {
  const info = await docker.getContainer(containerId).inspect();
  const address = info.NetworkSettings?.Networks?.[network]?.IPAddress;
  if (!address) throw new AgentDeskError('unavailable', `sandbox ${info.Name.replace(/^\//, '')} has no address on network ${network}`);
  return address;
}
