import { StateView } from '../components/StateView.js';
import { useT } from './useApp.js';

/** The failure of a view's last action (see `useAction`), or nothing while there is none. */
export function ActionError({ error }: { error: string | undefined }) {
  const t = useT();
  return error ? <StateView kind="error" message={t('state.error', { message: error })} /> : null;
}
