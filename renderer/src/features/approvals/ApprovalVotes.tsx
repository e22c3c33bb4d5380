import type { Approval } from '../../../../electron/contract/index.js';
import { usePersonName, useT } from '../useApp.js';

/** Who must agree and who has so far, for an approval that needs more than one person. */
export function ApprovalVotes({ approval }: { approval: Approval }) {
  const t = useT();
  const personName = usePersonName();
  const needed = approval.rule?.approvers ?? 1;
  const votes = approval.votes ?? [];
  if (needed < 2 && votes.length === 0) return null;
  const names = votes
    .filter((v) => v.decision === 'approve')
    .map((v) => (v.counted ? personName(v.by) : t('approval.voteVoid', { name: personName(v.by) })))
    .join(', ');
  return (
    <div className="approval-votes" data-testid="approval-votes">
      <p>{t('approval.quorum', { count: String(needed) })}</p>
      {names && <p>{t('approval.agreedSoFar', { names })}</p>}
    </div>
  );
}
