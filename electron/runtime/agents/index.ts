import type { AgentRuntime } from '../agentRuntime.js';
import { AgentService } from './agentService.js';
import { delegateTool } from './delegateTool.js';

const services = new WeakMap<AgentRuntime, AgentService>();

/** The runtime's agent definitions; the first call also registers `agents.delegate` in its tool registry. */
export function agentsFor(rt: AgentRuntime): AgentService {
  let agents = services.get(rt);
  if (!agents) {
    agents = new AgentService(rt);
    services.set(rt, agents);
    const tool = delegateTool(rt, agents);
    if (!rt.registry.get(tool.name)) rt.registry.register(tool);
  }
  return agents;
}

export { AgentService } from './agentService.js';
export { MAX_DELEGATION_DEPTH } from './delegation.js';
