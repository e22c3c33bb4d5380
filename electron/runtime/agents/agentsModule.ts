import type { RuntimeCore } from '../core/runtimeCore.js';
import type { RuntimeModule } from '../core/runtimeModule.js';
import { agentHandlers } from '../gateway/agentHandlers.js';
import { AgentService } from './agentService.js';
import { delegateTool } from './delegateTool.js';

/** Agent definitions (`agents.*` over RPC) and sub-agent delegation (the `agents.delegate` tool). */
export function agentsModule(core: RuntimeCore): RuntimeModule & { service: AgentService } {
  const service = new AgentService(core);
  return { name: 'agents', service, tools: [delegateTool(core, service)], handlers: agentHandlers(service) };
}
