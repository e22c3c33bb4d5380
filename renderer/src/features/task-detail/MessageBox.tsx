import { useState, type FormEvent } from 'react';
import { ActionError } from '../ActionError.js';
import { useApp, useT } from '../useApp.js';
import { useAction } from '../useRemote.js';

/** Sends the task a message; a model planner reads it in its next request. Enter sends, Shift+Enter breaks the line. */
export function MessageBox({ taskId }: { taskId: string }) {
  const t = useT();
  const messageTask = useApp((s) => s.messageTask);
  const [text, setText] = useState('');
  const action = useAction();

  const send = async (event?: FormEvent) => {
    event?.preventDefault();
    const message = text.trim();
    if (!message) return;
    if (await action.run(() => messageTask(taskId, message))) setText('');
  };
  return (
    <form className="message-box" onSubmit={(e) => void send(e)}>
      <label>
        {t('detail.message')}
        <textarea
          value={text}
          rows={2}
          maxLength={20_000}
          placeholder={t('detail.messageHint')}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            // An input method's Enter picks a candidate (e.g. Chinese), it does not send.
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              void send();
            }
          }}
        />
      </label>
      <button type="submit" disabled={action.busy || !text.trim()}>
        {t('detail.send')}
      </button>
      <ActionError error={action.error} />
    </form>
  );
}
