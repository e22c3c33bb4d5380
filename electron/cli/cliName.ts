import path from 'node:path';

/**
 * The CLI as this user typed it, for hints that must work as printed: `agent-desk` when it
 * runs as an installed bin (npm link, a global or a dependency's .bin), else `node <path to
 * bin/agent-desk.js>` relative to the current folder — the form the README uses.
 */
export function cliName(argv1: string | undefined = process.argv[1], cwd: string = process.cwd()): string {
  if (!argv1 || path.basename(argv1) === 'agent-desk') return 'agent-desk';
  const relative = path.relative(cwd, argv1);
  const shown = relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : argv1;
  return `node ${/\s/.test(shown) ? JSON.stringify(shown) : shown}`;
}
