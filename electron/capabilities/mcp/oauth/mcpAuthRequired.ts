import { AgentDeskError } from '../../../runtime/errors.js';

/** How a person is shown an authorization page: the browser on the desktop, a printed URL for `mcp login`. */
export interface McpConsent {
  /** Shows the page; the loopback listener is already waiting for the browser to come back. */
  openUrl(url: URL): void | Promise<void>;
  /** How long to wait for the person to finish (default 5 minutes). */
  timeoutMs?: number;
}

/**
 * A server answered 401 and no stored token (or refresh) satisfies it, where nobody can be shown
 * a consent page (a headless runtime): the message says the one command that fixes it.
 */
export class McpAuthRequiredError extends AgentDeskError {
  constructor(readonly server: string) {
    super('unauthorized', `MCP server ${server} needs authorization: run agent-desk mcp login ${server}`, { server });
    this.name = 'McpAuthRequiredError';
  }
}
