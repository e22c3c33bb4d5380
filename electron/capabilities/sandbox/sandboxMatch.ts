import { AgentDeskError } from '../../runtime/errors.js';

/** The one sandbox `idOrName` names (its name, or at least 6 characters of its id); refused when none or several match. */
export function oneSandboxMatch<S extends { id: string; name: string }>(sandboxes: readonly S[], idOrName: string): S {
  const matches = sandboxes.filter((c) => c.name === idOrName || (idOrName.length >= 6 && c.id.startsWith(idOrName)));
  if (matches.length === 1) return matches[0]!;
  throw new AgentDeskError(
    matches.length ? 'invalid_params' : 'not_found',
    matches.length
      ? `"${idOrName}" matches ${matches.length} sandboxes; give more of the id`
      : `no desktop sandbox "${idOrName}" of this data folder (sandbox list shows them)`,
  );
}
