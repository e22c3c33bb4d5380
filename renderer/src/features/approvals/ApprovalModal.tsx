import { useEffect, useRef, useState } from 'react';
import type { Remember } from '../../../../electron/contract/index.js';
import { ApprovalPreview } from '../../components/ApprovalPreview.js';
import { Modal } from '../../components/Modal.js';
import { StateView } from '../../components/StateView.js';
import { translateServerTexts } from '../../i18n/index.js';
import { useApp, useServerText, useT } from '../useApp.js';
import { approvalRights } from '../../stores/approvalsSlice.js';
import { needsConfirmKey } from './approvalKeys.js';
import { ApprovalVotes } from './ApprovalVotes.js';

/** True when a key press is typing into a field rather than a shortcut (radio buttons and checkboxes are not typing). */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target instanceof HTMLInputElement) return target.type !== 'radio' && target.type !== 'checkbox';
  return target.tagName === 'TEXTAREA' || target.tagName === 'SELECT' || target.isContentEditable;
}

const REMEMBER_KEYS = { once: 'remember.once', task: 'remember.task', always: 'remember.always' } as const;

/**
 * The open approval, named by its task (and agent). A approves — or, for payments, deletes and
 * other risks asked every time, arms the approval and Enter confirms it; D asks for a reason then
 * denies; Esc closes. Remembering (this task / always) is offered only where the approval allows it.
 */
export function ApprovalModal() {
  const t = useT();
  const serverText = useServerText();
  const approval = useApp((s) => (s.openApprovalId ? s.approvals[s.openApprovalId] : undefined));
  const task = useApp((s) => (approval ? s.tasks[approval.taskId] : undefined));
  const locale = useApp((s) => s.locale);
  // The gated step's policy decision carries the reason as codes; the approval row keeps the English.
  const gated = useApp((s) => (approval ? s.steps[approval.taskId]?.find((step) => step.id === approval.stepId) : undefined));
  const decide = useApp((s) => s.decide);
  const close = useApp((s) => s.openApproval);
  const canReadTasks = useApp((s) => s.listErrorCode !== 'forbidden');
  const me = useApp((s) => s.me);
  const [denying, setDenying] = useState(false);
  const [armed, setArmed] = useState(false);
  const [remember, setRemember] = useState<Remember>('once');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string>();
  const reasonRef = useRef<HTMLTextAreaElement>(null);
  const id = approval?.id;

  useEffect(() => {
    setDenying(false);
    setArmed(false);
    setRemember('once');
    setReason('');
    setError(undefined);
  }, [id]);
  useEffect(() => {
    if (denying) reasonRef.current?.focus();
  }, [denying]);

  const send = (decision: 'approve' | 'deny') => {
    if (!id) return;
    setArmed(false);
    decide(id, decision, decision === 'deny' ? reason.trim() || undefined : undefined, remember).catch((e: Error) => setError(e.message));
  };

  // The server decides who may; the dialog only leaves out what would be refused, and says why.
  const rights = approval ? approvalRights(approval, me) : { decide: false, approve: 'yes' as const };
  const mayApprove = rights.decide && rights.approve === 'yes';

  useEffect(() => {
    if (!approval) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        if (armed) setArmed(false);
        else if (denying) setDenying(false);
        else close(undefined);
        return;
      }
      if (event.defaultPrevented || isTyping(event.target) || event.ctrlKey || event.metaKey || event.altKey) return;
      const key = event.key.toLowerCase();
      if (armed) {
        // Enter confirms; any other key disarms, so a second stray key cannot approve either.
        event.preventDefault();
        if (key === 'enter') send('approve');
        else setArmed(false);
      } else if (key === 'a') {
        event.preventDefault();
        if (!mayApprove) return;
        if (needsConfirmKey(approval)) setArmed(true);
        else send('approve');
      } else if (key === 'd') {
        event.preventDefault();
        if (rights.decide) setDenying(true);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  if (!approval) return null;
  const choices: Remember[] = approval.rememberable ? ['once', 'task', 'always'] : ['once'];
  return (
    <Modal key={approval.id} title={t('approval.title', { tool: approval.tool })} labelledBy="approval-title">
      <p className="approval-task" data-testid="approval-task">
        {t('approval.forTask', { title: task?.title ?? approval.taskId })}
        {task?.agent ? ` · ${t('approval.agent', { agent: task.agent })}` : ''}{' '}
        {canReadTasks && (
          <a href={`#/task/${approval.taskId}`} onClick={() => close(undefined)}>
            {t('approval.openTask')}
          </a>
        )}
      </p>
      <ApprovalVotes approval={approval} />
      <ApprovalPreview
        approval={approval}
        reason={translateServerTexts(locale, gated?.policy?.reasonTexts, approval.reason)}
        summary={serverText(approval.preview.summaryText, approval.preview.summary)}
        riskLabel={(r) => t(`risk.${r}`)}
        labels={{
          risks: t('approval.risks'),
          args: t('approval.args'),
          preview: t('approval.preview'),
          screenshot: t('approval.screenshot'),
        }}
      />
      {error && <StateView kind="error" message={t('state.error', { message: error })} />}
      {!rights.decide ? (
        <>
          <p className="muted" data-testid="cannot-decide">
            {t('approval.cannotDecide')}
          </p>
          <div className="actions">
            <button type="button" onClick={() => close(undefined)}>
              {t('approval.close')}
            </button>
          </div>
        </>
      ) : denying ? (
        <form
          className="deny-form"
          onSubmit={(e) => {
            e.preventDefault();
            send('deny');
          }}
        >
          <label>
            {t('approval.denyReason')}
            <textarea
              ref={reasonRef}
              data-testid="deny-reason"
              value={reason}
              maxLength={2000}
              onChange={(e) => setReason(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
                  e.preventDefault();
                  send('deny');
                }
              }}
            />
          </label>
          <button type="submit">{t('approval.sendDeny')}</button>
        </form>
      ) : (
        <>
          <fieldset className="remember" data-testid="remember">
            <legend>{t('approval.remember')}</legend>
            {choices.map((choice) => (
              <label key={choice} className="inline">
                <input type="radio" name="remember" checked={remember === choice} onChange={() => setRemember(choice)} />
                {t(REMEMBER_KEYS[choice])}
              </label>
            ))}
            {!approval.rememberable && <p className="muted">{t('approval.askedEveryTime')}</p>}
          </fieldset>
          {armed && (
            <p className="armed" role="alert" data-testid="approve-armed">
              {t('approval.confirmKey')}
            </p>
          )}
          {rights.approve === 'ownTask' && (
            <p className="muted" data-testid="own-task">
              {t('approval.ownTask')}
            </p>
          )}
          {rights.approve === 'agreed' && (
            <p className="muted" data-testid="you-agreed">
              {t('approval.youAgreed')}
            </p>
          )}
          <div className="actions">
            {mayApprove && (
              <button type="button" className="approve" onClick={() => send('approve')} data-testid="approve">
                {t('approval.approve')}
              </button>
            )}
            <button type="button" className="deny" onClick={() => setDenying(true)} data-testid="deny">
              {t('approval.deny')}
            </button>
            <button type="button" onClick={() => close(undefined)}>
              {t('approval.close')}
            </button>
          </div>
        </>
      )}
    </Modal>
  );
}
