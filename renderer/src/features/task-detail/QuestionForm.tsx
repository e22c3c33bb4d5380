import { useMemo, useState, type FormEvent } from 'react';
import type { Task, UserQuestion } from '../../../../electron/contract/index.js';
import { StateView } from '../../components/StateView.js';
import { ActionError } from '../ActionError.js';
import { useT } from '../useApp.js';
import { useClientAction, useRemote } from '../useRemote.js';
import { AnswerError, answerContent, answerFields, emptyValues, type FieldValue } from './answerFields.js';

/** A tool's question to the person (e.g. an MCP elicitation): answer, decline or cancel. */
export function QuestionForm({ task }: { task: Task }) {
  const t = useT();
  const asked = useRemote((c) => c.call('tasks.question', { taskId: task.id }), [task.id, task.updatedAt]);
  const question = asked.data?.question;
  if (asked.status === 'error') return <StateView kind="error" message={t('state.error', { message: asked.error ?? '' })} />;
  if (!question) return null; // waiting for something else (e.g. a check review)
  return <QuestionFields key={question.id} question={question} />;
}

function QuestionFields({ question }: { question: UserQuestion }) {
  const t = useT();
  const fields = useMemo(() => answerFields(question.requestedSchema), [question]);
  const [values, setValues] = useState<Record<string, FieldValue>>(() => emptyValues(fields));
  const action = useClientAction();

  const respond = (answer: 'accept' | 'decline' | 'cancel') =>
    action.withClient(async (client) => {
      let content;
      try {
        content = answer === 'accept' ? answerContent(fields, values) : undefined;
      } catch (e) {
        if (e instanceof AnswerError)
          throw new Error(
            t('question.invalid', {
              field: e.field,
              reason: e.reason === 'required' ? t('new.fieldError.required') : t('question.notNumber'),
            }),
          );
        throw e;
      }
      await client.call('tasks.respond', { taskId: question.taskId, action: answer, ...(content ? { content } : {}) });
    });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void respond('accept');
  };
  const set = (key: string, value: FieldValue) => setValues((v) => ({ ...v, [key]: value }));

  return (
    <form className="question new-task" onSubmit={submit} data-testid="question">
      <h2>{t('question.heading', { source: question.source })}</h2>
      <p className="goal">{question.message}</p>
      {fields.map((field) => (
        <label key={field.key} className={field.kind === 'boolean' ? 'inline' : undefined} data-answer-field={field.key}>
          {field.kind === 'boolean' ? (
            <input type="checkbox" checked={values[field.key] === true} onChange={(e) => set(field.key, e.target.checked)} />
          ) : null}
          <span>
            {field.title}
            {field.required ? ' *' : ''}
            {field.description && <span className="hint"> — {field.description}</span>}
          </span>
          {field.kind === 'choice' && (
            <select value={String(values[field.key] ?? '')} onChange={(e) => set(field.key, e.target.value)}>
              <option value="">—</option>
              {field.options?.map((o) => (
                <option key={o} value={o}>
                  {o}
                </option>
              ))}
            </select>
          )}
          {field.kind === 'choices' && (
            <select
              multiple
              value={values[field.key] as string[]}
              onChange={(e) =>
                set(
                  field.key,
                  [...e.target.selectedOptions].map((o) => o.value),
                )
              }
            >
              {field.options?.map((o) => (
                <option key={o} value={o}>
                  {o}
                </option>
              ))}
            </select>
          )}
          {(field.kind === 'text' || field.kind === 'number' || field.kind === 'integer') && (
            <input
              value={String(values[field.key] ?? '')}
              inputMode={field.kind === 'text' ? undefined : 'decimal'}
              onChange={(e) => set(field.key, e.target.value)}
            />
          )}
        </label>
      ))}
      <ActionError error={action.error} />
      <div className="row">
        <button type="submit" disabled={action.busy} data-testid="answer-accept">
          {t('question.accept')}
        </button>
        <button type="button" disabled={action.busy} onClick={() => void respond('decline')} data-testid="answer-decline">
          {t('question.decline')}
        </button>
        <button type="button" disabled={action.busy} onClick={() => void respond('cancel')}>
          {t('question.cancel')}
        </button>
      </div>
    </form>
  );
}
