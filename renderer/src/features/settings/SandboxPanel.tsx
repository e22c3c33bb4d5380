import { useState } from 'react';
import type { Config } from '../../../../electron/contract/index.js';
import { ActionError } from '../ActionError.js';
import { RemoteGate } from '../RemoteGate.js';
import { useApp, useT } from '../useApp.js';
import { useClientAction, useRemote } from '../useRemote.js';
import { linesOf } from './lines.js';

/** Desktop sandbox settings (warm pool, image, egress, live-view rate) and the running containers. */
export function SandboxPanel({ config, save }: { config: Config; save: (patch: Partial<Config>) => Promise<void> }) {
  const t = useT();
  const locale = useApp((s) => s.locale);
  const sandbox = config.sandbox;
  const [poolSize, setPoolSize] = useState(String(sandbox.poolSize));
  const [image, setImage] = useState(sandbox.image ?? '');
  const [egress, setEgress] = useState(sandbox.egressAllow.join('\n'));
  const running = useRemote((c) => c.call('sandboxes.list', {}));
  const action = useClientAction();

  const submit = () =>
    action.run(() => {
      const { image: _old, ...rest } = sandbox;
      return save({
        sandbox: { ...rest, poolSize: Number(poolSize), egressAllow: linesOf(egress), ...(image.trim() ? { image: image.trim() } : {}) },
      });
    });
  const destroy = async (id: string) => {
    if (await action.withClient((client) => client.call('sandboxes.destroy', { id }))) await running.reload();
  };

  return (
    <section className="panel" data-testid="settings-sandbox">
      <h2>{t('sandbox.heading')}</h2>
      <div className="row">
        <label>
          {t('sandbox.poolSize')}
          <input type="number" min={0} max={16} value={poolSize} onChange={(e) => setPoolSize(e.target.value)} />
        </label>
        <label>
          {t('sandbox.image')}
          <input value={image} onChange={(e) => setImage(e.target.value)} placeholder={t('new.default')} />
        </label>
        <label>
          {t('sandbox.egressAllow')}
          <textarea rows={3} value={egress} onChange={(e) => setEgress(e.target.value)} spellCheck={false} />
        </label>
      </div>
      <p className="hint">{t('settings.appliesAtRestart')}</p>
      <ActionError error={action.error} />
      <button type="button" disabled={action.busy} onClick={() => void submit()} data-testid="sandbox-save">
        {t('settings.save')}
      </button>
      <h3>{t('sandbox.running')}</h3>
      <RemoteGate remote={running} isEmpty={(d) => d.sandboxes.length === 0} empty={t('sandbox.none')} testId="sandboxes">
        {(d) => (
          <ul>
            {d.sandboxes.map((s) => (
              <li key={s.id}>
                <code>{s.name}</code> {s.state} {s.task && <a href={`#/task/${s.task}`}>{s.task}</a>} ·{' '}
                {new Date(s.createdAt).toLocaleString(locale)}{' '}
                <button type="button" disabled={action.busy} onClick={() => void destroy(s.id)}>
                  {t('sandbox.destroy')}
                </button>
              </li>
            ))}
          </ul>
        )}
      </RemoteGate>
    </section>
  );
}
