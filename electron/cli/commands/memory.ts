import type { Command } from 'commander';
import { MemoryScopeSchema, type MemoryScope } from '../../contract/index.js';
import { AgentDeskError } from '../../runtime/errors.js';
import { withControlRuntime } from '../openRuntime.js';
import { printJson } from '../output.js';

/** `--agent <name>` or `--workspace <dir>`: exactly one scope. */
function scopeOf(opts: { agent?: string; workspace?: string }): MemoryScope {
  if ((opts.agent === undefined) === (opts.workspace === undefined)) {
    throw new AgentDeskError('invalid_params', 'name the memory scope: exactly one of --agent <name> or --workspace <dir>');
  }
  return MemoryScopeSchema.parse(opts.agent !== undefined ? { kind: 'agent', id: opts.agent } : { kind: 'workspace', id: opts.workspace });
}

const scoped = (cmd: Command) =>
  cmd.option('--agent <name>', 'an agent’s memory').option('--workspace <dir>', 'a workspace’s memory').option('--json', 'print JSON');

/** `agent-desk memory search|add|forget`. */
export function registerMemory(program: Command): void {
  const memory = program.command('memory').description('cross-session memory notes, per agent or workspace');
  scoped(memory.command('search [query]')).action(
    (query: string | undefined, opts: { agent?: string; workspace?: string; json?: boolean }) =>
      withControlRuntime(opts.json, async (rt) => {
        const notes = await rt.memory.search(scopeOf(opts), query ?? '', 50);
        if (opts.json) return printJson({ notes });
        for (const n of notes) console.log(`${n.id}  ${n.text}`);
      }),
  );
  scoped(memory.command('add <text>')).action((text: string, opts: { agent?: string; workspace?: string; json?: boolean }) =>
    withControlRuntime(opts.json, async (rt) => {
      const note = await rt.memory.add(scopeOf(opts), text);
      if (opts.json) return printJson(note);
      console.log(note.id);
    }),
  );
  scoped(memory.command('forget <noteId>')).action((noteId: string, opts: { agent?: string; workspace?: string; json?: boolean }) =>
    withControlRuntime(opts.json, async (rt) => {
      const forgotten = await rt.memory.forget(scopeOf(opts), noteId);
      if (opts.json) return printJson({ forgotten });
      console.log(forgotten ? `forgot ${noteId}` : `no note ${noteId} in that scope`);
    }),
  );
}
