import { useMemo } from 'react';
import type { Step, Task } from '../../../../electron/contract/index.js';
import { StateView } from '../../components/StateView.js';
import { StatusBadge } from '../../components/StatusBadge.js';
import { ServerSentence } from '../../components/ServerSentence.js';
import { formatCost, serverTextParts, translate } from '../../i18n/index.js';
import { ENDED_STATES } from '../../stores/contractValues.js';
import { taskCounters } from '../../stores/taskCounters.js';
import { useApp, useServerText, useT } from '../useApp.js';
import { BudgetQuestion, waitsForBudget } from './BudgetQuestion.js';
import { Conversation } from './Conversation.js';
import { finalAnswer } from './conversation.js';
import { LiveScreen } from './LiveScreen.js';
import { MessageBox } from './MessageBox.js';
import { QuestionForm } from './QuestionForm.js';
import { ReviewChecks, waitsForCheckReview } from './ReviewChecks.js';
import { SkillsInUse } from './SkillsInUse.js';
import { TaskControls } from './TaskControls.js';
import { TaskPlan } from './TaskPlan.js';
import { taskPageTitle } from './taskTitle.js';
import { useLiveTask } from './useLiveTask.js';

const NONE: never[] = [];

/** Only a task with a desktop has a live screen: asked for one, or it already acted on one. */
function hasDesktop(task: Task, steps: readonly Step[]): boolean {
  return task.sandbox === 'desktop' || (task.sandbox !== 'none' && steps.some((s) => s.route?.tier === 'gui'));
}

/** One task as a conversation: goal, the model's words, step cards, approvals, the answer; controls and a message box. */
export function TaskDetailView({ taskId }: { taskId: string }) {
  const t = useT();
  const locale = useApp((s) => s.locale);
  const serverText = useServerText();
  const task = useApp((s) => s.tasks[taskId]);
  const steps = useApp((s) => s.steps[taskId] ?? NONE);
  const events = useApp((s) => s.events[taskId] ?? NONE);
  const allApprovals = useApp((s) => s.approvals);
  const approvals = useMemo(() => Object.values(allApprovals).filter((a) => a.taskId === taskId), [allApprovals, taskId]);
  const error = useLiveTask(taskId);

  if (error && !task) return <StateView kind="error" message={t('state.error', { message: error })} />;
  if (!task) return <StateView kind="loading" message={t('state.loading')} />;
  const counters = taskCounters(task, steps);
  const answer = finalAnswer(task.answer, events);
  const ended = ENDED_STATES.includes(task.state);
  return (
    <section className="task-detail" data-testid="task-detail" data-task-state={task.state}>
      <a href="#/tasks">{t('detail.back')}</a>
      <h1 className="task-title">
        {taskPageTitle(task)} <StatusBadge status={task.state} label={t(`taskState.${task.state}`)} />
      </h1>
      <TaskControls task={task} />
      {task.stateReason && (
        <p className="reason">
          {t('detail.reason')}
          {t('text.detailSeparator')}
          <ServerSentence
            {...serverTextParts(locale, task.stateReasonText, task.stateReason)}
            separator={translate(locale, 'text.detailSeparator')}
          />
        </p>
      )}
      <p className="usage" data-testid="usage">
        {t(counters.steps === 1 ? 'detail.usageOneStep' : 'detail.usage', {
          steps: counters.steps,
          tokens: counters.tokens,
          cost: formatCost(counters.costUsd),
        })}
      </p>
      <SkillsInUse taskId={task.id} skillReads={steps.filter((s) => s.tool === 'skills.read' && s.status === 'completed').length} />
      <Conversation task={task} events={events} steps={steps} approvals={approvals} />
      {waitsForCheckReview(task) && <ReviewChecks task={task} />}
      {waitsForBudget(task) && <BudgetQuestion task={task} />}
      {task.state === 'waiting_user' && !waitsForCheckReview(task) && !waitsForBudget(task) && <QuestionForm task={task} />}
      {answer && (
        <div className="bubble bubble-model final-answer">
          <h2>{t('detail.answer')}</h2>
          <p className="answer" data-testid="answer">
            {answer}
          </p>
        </div>
      )}
      {!ended && task.plan.kind === 'goal' && <MessageBox taskId={task.id} />}
      {hasDesktop(task, steps) && <LiveScreen taskId={task.id} taskState={task.state} />}
      {task.checks.length > 0 && (
        <>
          <h2>{t('detail.checks')}</h2>
          <ul className="checks" data-testid="checks">
            {task.checks.map((c) => (
              <li key={c.name} className={c.passed ? 'pass' : 'fail'}>
                {c.passed ? '✓' : '✗'} {serverText(c.nameText, c.name)}
              </li>
            ))}
          </ul>
        </>
      )}
      <TaskPlan task={task} />
      <a className="button" href={`#/trace/${task.id}`} data-testid="open-trace">
        {t('detail.trace')}
      </a>
    </section>
  );
}
