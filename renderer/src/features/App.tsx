import { useEffect, useState, type FormEvent } from 'react';
import { StateView } from '../components/StateView.js';
import { Shell } from './Shell.js';
import { useApp, useT } from './useApp.js';

/** Connection gate: asks for a token when none is known, else shows the app. */
export function App({ onToken }: { onToken: (token: string) => void }) {
  const t = useT();
  const connection = useApp((s) => s.connection);
  const connectionError = useApp((s) => s.connectionError);
  const [token, setToken] = useState('');
  const signIn = useSignIn();

  if (connection === 'connected' || connection === 'reconnecting') return <Shell />;
  if (connection === 'connecting') return <StateView kind="loading" message={t('conn.connecting')} />;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (token.trim()) onToken(token.trim());
  };
  return (
    <form className="token-form" onSubmit={submit}>
      {connection === 'error' && <StateView kind="error" message={t('conn.error', { message: connectionError ?? '' })} />}
      {signIn && (
        <p>
          <a className="sign-in" href="/auth/login" data-testid="sign-in">
            {t('conn.signIn')}
          </a>
        </p>
      )}
      <p>{signIn ? t('conn.orToken') : t('conn.needsToken')}</p>
      <label>
        {t('conn.token')}
        <input type="password" value={token} onChange={(e) => setToken(e.target.value)} autoComplete="off" />
      </label>
      <button type="submit">{t('conn.connect')}</button>
    </form>
  );
}

/** True when the gateway signs people in (`auth.oidc`): it answers `/auth/config` (a browser only; Electron has no such server). */
function useSignIn(): boolean {
  const [on, setOn] = useState(false);
  useEffect(() => {
    if (!window.location.protocol.startsWith('http')) return;
    fetch('/auth/config')
      .then((r) => (r.ok ? (r.json() as Promise<{ signIn?: boolean }>) : undefined))
      .then((c) => setOn(c?.signIn === true))
      .catch(() => undefined);
  }, []);
  return on;
}
