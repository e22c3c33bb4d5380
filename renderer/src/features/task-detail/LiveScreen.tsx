import { useCallback, useEffect, useRef, useState } from 'react';
import type { TaskState } from '../../../../electron/contract/index.js';
import { StateView } from '../../components/StateView.js';
import { ActionError } from '../ActionError.js';
import { ENDED_STATES } from '../../stores/contractValues.js';
import { useAction } from '../useRemote.js';
import { useApp, useT } from '../useApp.js';
import { keyToAction, pointOnImage } from './screenInput.js';
import { useTypingBuffer } from './useTypingBuffer.js';

/**
 * A task's desktop: a fresh `screen.latest`, then every `screen.frame` for this task, with
 * Take over (the runtime pauses the agent) and Release (it resumes).
 */
export function LiveScreen({ taskId, taskState }: { taskId: string; taskState: TaskState }) {
  const t = useT();
  const image = useApp((s) => s.screens[taskId]);
  const takenOver = useApp((s) => s.takenOver[taskId] === true);
  const loadScreen = useApp((s) => s.loadScreen);
  const takeover = useApp((s) => s.takeover);
  const release = useApp((s) => s.release);
  const sendInput = useApp((s) => s.sendInput);
  const [loadError, setLoadError] = useState<string>();
  const [loading, setLoading] = useState(true);
  const action = useAction();
  const [secret, setSecret] = useState(false);
  const typing = useTypingBuffer((text) => void action.run(() => sendInput(taskId, { action: 'type', text }, secret)));
  // Keys land in a hidden text field: an input method composes only in an editable element,
  // and a paste event carries the person's clipboard.
  const keys = useRef<HTMLTextAreaElement>(null);

  const refresh = useCallback(() => {
    setLoading(true);
    loadScreen(taskId)
      .then(() => setLoadError(undefined))
      .catch((e: Error) => setLoadError(e.message))
      .finally(() => setLoading(false));
  }, [taskId, loadScreen]);
  useEffect(refresh, [refresh]);

  const ended = ENDED_STATES.includes(taskState);
  return (
    <section className="live-screen" data-testid="live-screen" data-taken-over={takenOver}>
      <h2>{t('screen.heading')}</h2>
      {image ? (
        <div
          className={takenOver ? 'screen-frame taken-over' : 'screen-frame'}
          tabIndex={takenOver ? 0 : -1}
          onKeyDown={(event) => {
            const input = takenOver
              ? keyToAction({
                  key: event.key,
                  ctrlKey: event.ctrlKey,
                  altKey: event.altKey,
                  metaKey: event.metaKey,
                  shiftKey: event.shiftKey,
                  isComposing: event.nativeEvent.isComposing,
                })
              : undefined;
            if (!input) return;
            event.preventDefault(); // the key belongs to the desktop, not to the page's shortcuts
            if (input.action === 'type') return typing.add(input.text);
            typing.flush();
            void action.run(() => sendInput(taskId, input));
          }}
          onCompositionEnd={(event) => {
            if (takenOver && event.data) typing.add(event.data);
            if (keys.current) keys.current.value = '';
          }}
          onPaste={(event) => {
            const text = event.clipboardData.getData('text/plain');
            event.preventDefault();
            if (takenOver && text) typing.add(text);
          }}
        >
          {takenOver && (
            <textarea
              ref={keys}
              className="screen-keys"
              aria-label={t('screen.alt')}
              data-testid="screen-keys"
              onInput={(event) => {
                if (!(event.nativeEvent as InputEvent).isComposing) event.currentTarget.value = '';
              }}
            />
          )}
          <img
            className="screen"
            src={`data:image/${image.format};base64,${image.data}`}
            width={image.width}
            height={image.height}
            alt={t('screen.alt')}
            data-testid="screen-image"
            onClick={(event) => {
              if (!takenOver) return;
              const { x, y } = pointOnImage(event, event.currentTarget.getBoundingClientRect(), image);
              (keys.current ?? event.currentTarget.parentElement)?.focus();
              typing.flush();
              void action.run(() => sendInput(taskId, { action: 'click', x, y, button: 'left', count: 1 }));
            }}
          />
        </div>
      ) : loading ? (
        <StateView kind="loading" message={t('state.loading')} />
      ) : (
        <StateView
          kind="empty"
          message={t('screen.none', { message: loadError ?? '' })}
          action={{ label: t('state.retry'), onClick: refresh }}
        />
      )}
      <ActionError error={action.error} />
      {image && !ended && (
        <div className="row">
          {takenOver ? (
            <button
              type="button"
              onClick={() => {
                typing.flush();
                void action.run(() => release(taskId));
              }}
              data-testid="release"
            >
              {t('screen.release')}
            </button>
          ) : (
            <button type="button" disabled={action.busy} onClick={() => void action.run(() => takeover(taskId))} data-testid="takeover">
              {t('screen.takeover')}
            </button>
          )}
          {takenOver && (
            <>
              <label className="inline">
                <input type="checkbox" checked={secret} onChange={(e) => setSecret(e.target.checked)} data-testid="secret-typing" />
                {t('screen.secret')}
              </label>
              <span className="hint">{t('screen.takenOverHint')}</span>
            </>
          )}
        </div>
      )}
    </section>
  );
}
