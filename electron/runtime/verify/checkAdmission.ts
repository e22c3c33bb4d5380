import type { AcceptanceCheck, Scope } from '../../contract/index.js';
import { AgentDeskError } from '../errors.js';
import { hasScope } from '../policy/scopes.js';
import { defaultCheckName } from './checkName.js';

/**
 * Refuses acceptance checks a client may not hand the runtime: `command_exit` runs a host
 * command (risk `exec`), so only an `operator.admin` caller may carry one — in a goal's checks,
 * a playbook's acceptance, a cron job or an MCP `create_task`. Throws `forbidden` naming the check.
 */
export function assertChecksPermitted(checks: readonly AcceptanceCheck[], scopes: readonly Scope[], where: string): void {
  if (hasScope(scopes, 'operator.admin')) return;
  const names = checks.filter((c) => c.type === 'command_exit').map((c) => defaultCheckName(c));
  if (names.length === 0) return;
  throw new AgentDeskError(
    'forbidden',
    `${where}: acceptance check "${names.join('", "')}" is command_exit, which runs a command on the host (risk exec) ` +
      'and needs operator.admin; ask an admin to create the task, or use a file or URL check',
    { checks: names, required: 'operator.admin', granted: scopes },
  );
}
