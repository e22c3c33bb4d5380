import { useState, type FormEvent } from 'react';
import { ActionError } from '../ActionError.js';
import { useT } from '../useApp.js';
import { useClientAction } from '../useRemote.js';
import { linesOf } from './lines.js';

/** Adds an MCP server (stdio command or Streamable HTTP URL); the runtime connects to discover its tools. */
export function AddMcpServerForm({ onAdded }: { onAdded: () => void }) {
  const t = useT();
  const [name, setName] = useState('');
  const [transport, setTransport] = useState<'stdio' | 'http'>('stdio');
  const [command, setCommand] = useState('');
  const [args, setArgs] = useState('');
  const [url, setUrl] = useState('');
  const add = useClientAction();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const server = transport === 'stdio' ? { transport, command: command.trim(), args: linesOf(args) } : { transport, url: url.trim() };
    if (await add.withClient((client) => client.call('mcp.servers.add', { name: name.trim(), server }))) {
      setName('');
      onAdded();
    }
  };
  const ready = name.trim() !== '' && (transport === 'stdio' ? command.trim() !== '' : url.trim() !== '');

  return (
    <form className="new-task" onSubmit={(e) => void submit(e)} data-testid="mcp-add">
      <h3>{t('mcp.add')}</h3>
      <div className="row">
        <label>
          {t('mcp.name')}
          <input value={name} onChange={(e) => setName(e.target.value)} maxLength={40} data-testid="mcp-name" />
        </label>
        <label>
          {t('mcp.transport')}
          <select value={transport} onChange={(e) => setTransport(e.target.value as 'stdio' | 'http')} data-testid="mcp-transport">
            <option value="stdio">stdio</option>
            <option value="http">HTTP</option>
          </select>
        </label>
        {transport === 'stdio' ? (
          <label>
            {t('mcp.command')}
            <input value={command} onChange={(e) => setCommand(e.target.value)} data-testid="mcp-command" />
          </label>
        ) : (
          <label>
            {t('mcp.url')}
            <input value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://…/mcp" data-testid="mcp-url" />
          </label>
        )}
      </div>
      {transport === 'stdio' && (
        <label>
          {t('mcp.args')}
          <textarea value={args} onChange={(e) => setArgs(e.target.value)} rows={3} spellCheck={false} data-testid="mcp-args" />
        </label>
      )}
      <ActionError error={add.error} />
      <button type="submit" disabled={add.busy || !ready} data-testid="mcp-submit">
        {add.busy ? t('mcp.connecting') : t('mcp.addButton')}
      </button>
    </form>
  );
}
