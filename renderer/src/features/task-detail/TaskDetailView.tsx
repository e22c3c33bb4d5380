import { useEffect, useState } from 'react';
import { StateView } from '../../components/StateView.js';
import { StatusBadge } from '../../components/StatusBadge.js';
import { StepTimeline } from '../../components/StepTimeline.js';
import { formatCost } from '../../i18n/index.js';
import { pendingApprovals } from '../../stores/approvalsSlice.js';
import { useApp, useT } from '../useApp.js';
import { LiveScreen } from './LiveScreen.js';
import { QuestionForm } from './QuestionForm.js';
import { ReviewChecks, waitsForCheckReview } from './ReviewChecks.js';
import { TaskPlan } from './TaskPlan.js';

const NO_STEPS: never[] = [];

/** One task: state, usage, checks and the live step timeline (fed by task.step events). */
export function TaskDetailView({ taskId }: { taskId: string }) {
  const t = useT();
  const task = useApp((s) => s.tasks[taskId]);
  const steps = useApp((s) => s.steps[taskId] ?? NO_STEPS);
  const approvals = useApp((s) => s.approvals);
  const loadTask = useApp((s) => s.loadTask);
  const openApproval = useApp((s) => s.openApproval);
  const [error, setError] = useState<string>();

  useEffect(() => {
    loadTask(taskId).catch((e: Error) => setError(e.message));
  }, [taskId, loadTask]);

  if (error && !task) return <StateView kind="error" message={t('state.error', { message: error })} />;
  if (!task) return <StateView kind="loading" message={t('state.loading')} />;
  const pending = pendingApprovals(approvals).filter((a) => a.taskId === taskId);
  const labels = {
    index: t('step.col.index'),
    tool: t('step.col.tool'),
    tier: t('step.col.tier'),
    policy: t('step.col.policy'),
    status: t('step.col.status'),
    duration: t('step.col.duration'),
    tokens: t('step.col.tokens'),
    cost: t('step.col.cost'),
  };
  return (
    <section className="task-detail" data-testid="task-detail" data-task-state={task.state}>
      <a href="#/tasks">{t('detail.back')}</a>
      <h1>
        {task.title} <StatusBadge status={task.state} label={t(`taskState.${task.state}`)} />
      </h1>
      {task.stateReason && (
        <p className="reason">
          {t('detail.reason')}: {task.stateReason}
        </p>
      )}
      <p className="usage">
        {t('detail.usage', {
          steps: task.usage.steps,
          tokens: task.usage.tokensIn + task.usage.tokensOut,
          cost: formatCost(task.usage.costUsd),
        })}
      </p>
      {task.answer && (
        <>
          <h2>{t('detail.answer')}</h2>
          <p className="answer" data-testid="answer">
            {task.answer}
          </p>
        </>
      )}
      <TaskPlan task={task} />
      {waitsForCheckReview(task) && <ReviewChecks task={task} />}
      {task.state === 'waiting_user' && !waitsForCheckReview(task) && <QuestionForm task={task} />}
      {pending.map((a) => (
        <button key={a.id} type="button" className="approval-banner" onClick={() => openApproval(a.id)} data-testid="approval-banner">
          {t('approval.title', { tool: a.tool })} — {t('approvals.review')}
        </button>
      ))}
      <h2>{t('detail.timeline')}</h2>
      {steps.length === 0 ? (
        <StateView kind="empty" message={t('detail.noSteps')} />
      ) : (
        <StepTimeline steps={steps} labels={labels} statusLabel={(status) => t(`stepStatus.${status}`)} formatCost={formatCost} />
      )}
      {task.sandbox !== 'none' && <LiveScreen taskId={task.id} taskState={task.state} />}
      {task.checks.length > 0 && (
        <>
          <h2>{t('detail.checks')}</h2>
          <ul className="checks" data-testid="checks">
            {task.checks.map((c) => (
              <li key={c.name} className={c.passed ? 'pass' : 'fail'}>
                {c.passed ? '✓' : '✗'} {c.name}
              </li>
            ))}
          </ul>
        </>
      )}
      <a className="button" href={`#/trace/${task.id}`} data-testid="open-trace">
        {t('detail.trace')}
      </a>
    </section>
  );
}
