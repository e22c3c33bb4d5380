export { AgentService } from './agentService.js';
export { agentsModule } from './agentsModule.js';
export { MAX_DELEGATION_DEPTH } from './delegation.js';
