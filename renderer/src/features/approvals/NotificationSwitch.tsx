import { useState } from 'react';
import { useT } from '../useApp.js';
import { notificationPermission } from './useApprovalNotifications.js';

/** Asks for the browser's notification permission on a click (browsers ignore asks without one) and says what it is. */
export function NotificationSwitch() {
  const t = useT();
  const [permission, setPermission] = useState(notificationPermission);
  if (permission === 'unsupported') return null;
  if (permission === 'granted') return <p className="muted">{t('notify.on')}</p>;
  if (permission === 'denied') return <p className="muted">{t('notify.blocked')}</p>;
  return (
    <p>
      <button type="button" onClick={() => void Notification.requestPermission().then(setPermission)} data-testid="enable-notifications">
        {t('notify.enable')}
      </button>
    </p>
  );
}
