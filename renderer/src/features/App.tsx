import { useState, type FormEvent } from 'react';
import { StateView } from '../components/StateView.js';
import { Shell } from './Shell.js';
import { useApp, useT } from './useApp.js';

/** Connection gate: asks for a token when none is known, else shows the app. */
export function App({ onToken }: { onToken: (token: string) => void }) {
  const t = useT();
  const connection = useApp((s) => s.connection);
  const connectionError = useApp((s) => s.connectionError);
  const [token, setToken] = useState('');

  if (connection === 'connected' || connection === 'reconnecting') return <Shell />;
  if (connection === 'connecting') return <StateView kind="loading" message={t('conn.connecting')} />;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (token.trim()) onToken(token.trim());
  };
  return (
    <form className="token-form" onSubmit={submit}>
      {connection === 'error' && <StateView kind="error" message={t('conn.error', { message: connectionError ?? '' })} />}
      <p>{t('conn.needsToken')}</p>
      <label>
        {t('conn.token')}
        <input type="password" value={token} onChange={(e) => setToken(e.target.value)} autoComplete="off" />
      </label>
      <button type="submit">{t('conn.connect')}</button>
    </form>
  );
}
