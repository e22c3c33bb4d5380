import type { RuntimeCore } from '../core/runtimeCore.js';
import type { Handlers } from './handlers.js';

/** `system.info`: what this process is, and the methods its dispatcher runs. */
export function systemHandlers(core: Pick<RuntimeCore, 'version' | 'home' | 'startedAt'>, methods: () => string[]): Handlers {
  return {
    'system.info': () => ({
      name: 'agent-desk',
      version: core.version,
      node: process.version,
      home: core.home,
      pid: process.pid,
      startedAt: core.startedAt,
      methods: methods(),
    }),
  };
}
