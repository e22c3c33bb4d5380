import { useMemo } from 'react';
import { pendingApprovals } from '../../stores/approvalsSlice.js';
import { useApp, useT } from '../useApp.js';

/**
 * How many approvals wait, with the oldest one a tap away: from any page (a phone's first screen
 * included) an approval is decided in two taps, Review then Approve or Deny.
 */
export function PendingBanner() {
  const t = useT();
  const approvals = useApp((s) => s.approvals);
  const open = useApp((s) => s.openApproval);
  const oldest = useMemo(() => pendingApprovals(approvals), [approvals]);
  if (oldest.length === 0) return null;
  return (
    <div className="pending-banner" data-testid="pending-banner">
      <p>{t('approvals.waiting', { count: oldest.length })}</p>
      <button type="button" className="approve" onClick={() => open(oldest[0]!.id)} data-testid="pending-review">
        {t('approvals.review')}
      </button>
    </div>
  );
}
