import type { RuntimeCore } from '../core/runtimeCore.js';
import type { RuntimeModule } from '../core/runtimeModule.js';
import { coreHandlers } from './coreHandlers.js';
import { grantHandlers } from './grantHandlers.js';
import type { Handlers } from './handlers.js';
import { intentHandlers } from './intentHandlers.js';
import { peopleHandlers } from './peopleHandlers.js';
import { questionHandlers } from './questionHandlers.js';
import { recordHandlers } from './recordHandlers.js';
import { secretHandlers, settingsHandlers } from './settingsHandlers.js';
import { skillHandlers } from './skillHandlers.js';
import { tokenHandlers } from './tokenHandlers.js';

/**
 * The core's own methods: tasks, approvals, traces, tools, questions, recordings, skills,
 * grants, tokens, settings and (with a secret store) secrets.
 */
export function gatewayModule(core: RuntimeCore): RuntimeModule {
  const handlers: Handlers = Object.assign(
    coreHandlers(core),
    recordHandlers(core),
    questionHandlers(core),
    intentHandlers(core),
    skillHandlers(core),
    tokenHandlers(core.tokens, () => core.clock.now(), core.storeName),
    peopleHandlers({ people: core.store.people, tokens: core.tokens, approvals: core.approvals, clock: core.clock }),
    grantHandlers(core.store.grants),
    settingsHandlers(core),
    core.secrets ? secretHandlers(core, core.secrets) : {},
  );
  return { name: 'gateway', handlers };
}
