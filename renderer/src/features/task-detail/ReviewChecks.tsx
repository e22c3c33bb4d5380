import { useEffect, useMemo, useState } from 'react';
import type { AcceptanceCheck, Task } from '../../../../electron/contract/index.js';
import { StateView } from '../../components/StateView.js';
import { ActionError } from '../ActionError.js';
import { ChecksEditor } from '../tasks/ChecksEditor.js';
import { DraftError, fromCheck, toCheck, type CheckDraft } from '../tasks/checkDrafts.js';
import { useApp, useT } from '../useApp.js';
import { useClientAction } from '../useRemote.js';

/** True when a goal task waits for its proposed acceptance checks to be reviewed. */
export function waitsForCheckReview(task: Task): boolean {
  return task.plan.kind === 'goal' && !task.plan.acceptance?.length && task.state === 'waiting_user';
}

/**
 * The planner's proposed acceptance checks (from the trace's last `intent.proposed`), editable,
 * sent back with `tasks.reviewChecks` so the task continues against what the user accepted.
 */
export function ReviewChecks({ task }: { task: Task }) {
  const t = useT();
  const trace = useApp((s) => s.traces[task.id]);
  const loadTrace = useApp((s) => s.loadTrace);
  const applyTask = useApp((s) => s.applyTask);
  const action = useClientAction();
  const proposal = useMemo(() => {
    const proposed = trace?.events.filter((e) => e.type === 'intent.proposed').at(-1);
    return (proposed?.data as { checks?: AcceptanceCheck[] } | undefined)?.checks;
  }, [trace]);
  // The user's edits once there are any; until then the proposal itself.
  const [edited, setDrafts] = useState<CheckDraft[]>();
  const drafts = useMemo(() => edited ?? proposal?.map(fromCheck), [edited, proposal]);

  // Mounted once the task waits for this review, so its trace already holds the proposal.
  useEffect(() => {
    void loadTrace(task.id);
  }, [task.id, loadTrace]);

  const accept = () =>
    action.withClient(async (client) => {
      if (!drafts) return;
      let checks: AcceptanceCheck[];
      try {
        checks = drafts.map(toCheck);
      } catch (e) {
        if (e instanceof DraftError)
          throw new Error(t('new.checkInvalid', { field: t(`checkField.${e.field}`), reason: t(`new.fieldError.${e.reason}`) }));
        throw e;
      }
      applyTask(await client.call('tasks.reviewChecks', { taskId: task.id, checks }));
    });

  return (
    <section className="review-checks" data-testid="review-checks">
      <h2>{t('review.heading')}</h2>
      <p className="hint">{t('review.hint')}</p>
      {drafts === undefined ? (
        trace?.status === 'error' ? (
          <StateView kind="error" message={t('state.error', { message: trace.error ?? '' })} />
        ) : trace?.status === 'ready' ? (
          <StateView kind="empty" message={t('review.none')} />
        ) : (
          <StateView kind="loading" message={t('state.loading')} />
        )
      ) : (
        <>
          <ChecksEditor drafts={drafts} onChange={setDrafts} />
          <ActionError error={action.error} />
          <button type="button" disabled={action.busy || drafts.length === 0} onClick={() => void accept()} data-testid="accept-checks">
            {t('review.accept')}
          </button>
        </>
      )}
    </section>
  );
}
