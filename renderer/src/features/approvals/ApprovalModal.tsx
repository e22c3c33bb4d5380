import { useEffect, useRef, useState } from 'react';
import { ApprovalPreview } from '../../components/ApprovalPreview.js';
import { Modal } from '../../components/Modal.js';
import { StateView } from '../../components/StateView.js';
import { useApp, useT } from '../useApp.js';

/** True when a key press is typing into a field rather than a shortcut. */
function isTyping(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT');
}

/** The open approval: A approves, D asks for a reason then denies, Esc closes. */
export function ApprovalModal() {
  const t = useT();
  const approval = useApp((s) => (s.openApprovalId ? s.approvals[s.openApprovalId] : undefined));
  const decide = useApp((s) => s.decide);
  const close = useApp((s) => s.openApproval);
  const [denying, setDenying] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string>();
  const reasonRef = useRef<HTMLTextAreaElement>(null);
  const id = approval?.id;

  useEffect(() => {
    setDenying(false);
    setReason('');
    setError(undefined);
  }, [id]);
  useEffect(() => {
    if (denying) reasonRef.current?.focus();
  }, [denying]);

  const send = (decision: 'approve' | 'deny') => {
    if (!id) return;
    decide(id, decision, decision === 'deny' ? reason.trim() || undefined : undefined).catch((e: Error) => setError(e.message));
  };

  useEffect(() => {
    if (!id) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        if (denying) setDenying(false);
        else close(undefined);
        return;
      }
      if (event.defaultPrevented || isTyping(event.target) || event.ctrlKey || event.metaKey || event.altKey) return;
      const key = event.key.toLowerCase();
      if (key === 'a') {
        event.preventDefault();
        send('approve');
      } else if (key === 'd') {
        event.preventDefault();
        setDenying(true);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  if (!approval) return null;
  return (
    <Modal title={t('approval.title', { tool: approval.tool })} labelledBy="approval-title">
      <ApprovalPreview
        approval={approval}
        labels={{
          risks: t('approval.risks'),
          args: t('approval.args'),
          preview: t('approval.preview'),
          screenshot: t('approval.screenshot'),
        }}
      />
      {error && <StateView kind="error" message={t('state.error', { message: error })} />}
      {denying ? (
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
                if (e.key === 'Enter' && !e.shiftKey) {
                  e.preventDefault();
                  send('deny');
                }
              }}
            />
          </label>
          <button type="submit">{t('approval.sendDeny')}</button>
        </form>
      ) : (
        <div className="actions">
          <button type="button" className="approve" onClick={() => send('approve')} data-testid="approve">
            {t('approval.approve')}
          </button>
          <button type="button" className="deny" onClick={() => setDenying(true)} data-testid="deny">
            {t('approval.deny')}
          </button>
          <button type="button" onClick={() => close(undefined)}>
            {t('approval.close')}
          </button>
        </div>
      )}
    </Modal>
  );
}
