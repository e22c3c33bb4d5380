import type { ReactNode } from 'react';
import { StateView } from '../components/StateView.js';
import type { Remote } from './useRemote.js';
import { useT } from './useApp.js';

/**
 * The loading / error / empty placeholder for one remote collection, else its content.
 * `isEmpty` decides emptiness; the error view offers a retry.
 */
export function RemoteGate<T>(props: {
  remote: Remote<T>;
  isEmpty: (data: T) => boolean;
  empty: string;
  testId: string;
  children: (data: T) => ReactNode;
}) {
  const t = useT();
  const { remote } = props;
  if (remote.status === 'error')
    return (
      <div data-testid={props.testId}>
        <StateView
          kind="error"
          message={t('state.error', { message: remote.error ?? '' })}
          action={{ label: t('state.retry'), onClick: () => void remote.reload() }}
        />
      </div>
    );
  if (remote.data === undefined) return <StateView kind="loading" message={t('state.loading')} />;
  if (props.isEmpty(remote.data))
    return (
      <div data-testid={props.testId}>
        <StateView kind="empty" message={props.empty} />
      </div>
    );
  return <div data-testid={props.testId}>{props.children(remote.data)}</div>;
}
