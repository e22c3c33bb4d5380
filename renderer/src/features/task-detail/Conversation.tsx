import type { Approval, Step, Task, TaskEvent } from '../../../../electron/contract/index.js';
import { StatusBadge } from '../../components/StatusBadge.js';
import { StepCard, type StepCardLabels } from '../../components/StepCard.js';
import { formatCost, stepErrorParts, translateServerText } from '../../i18n/index.js';
import { useApp, useServerText, useT } from '../useApp.js';
import { conversation } from './conversation.js';
import { stepImage } from './stepImage.js';

/** The goal (or the playbook's name) the conversation starts from. */
function Goal({ task }: { task: Task }) {
  const t = useT();
  return (
    <div className="bubble bubble-user" data-testid="goal-bubble">
      <span className="who">{t('conv.you')}</span>
      <p>{task.plan.kind === 'goal' ? task.plan.goal : t('conv.playbook', { title: task.title })}</p>
    </div>
  );
}

const EVENT_WHO = {
  'user.message': 'conv.you',
  'model.text': 'conv.model',
  'model.reasoning': 'conv.reasoning',
  answer: 'conv.model',
  'hook.context': 'conv.hook',
} as const;

function EventBubble({ event }: { event: TaskEvent }) {
  const t = useT();
  const mine = event.kind === 'user.message';
  return (
    <div className={`bubble ${mine ? 'bubble-user' : 'bubble-model'}`} data-testid="task-event" data-kind={event.kind}>
      <span className="who">{t(EVENT_WHO[event.kind])}</span>
      <p>{event.text}</p>
    </div>
  );
}

function ApprovalItem({ approval }: { approval: Approval }) {
  const t = useT();
  const openApproval = useApp((s) => s.openApproval);
  const serverText = useServerText();
  const status = {
    pending: 'approvalStatus.pending',
    approved: 'approvalStatus.approved',
    denied: 'approvalStatus.denied',
    cancelled: 'approvalStatus.cancelled',
  } as const;
  return (
    <div className="conv-approval" data-testid="conv-approval" data-status={approval.status}>
      <strong>{t('approval.title', { tool: approval.tool })}</strong>{' '}
      <StatusBadge status={approval.status} label={t(status[approval.status])} />
      <p className="summary">{serverText(approval.preview.summaryText, approval.preview.summary)}</p>
      {approval.status === 'pending' && (
        <button type="button" className="approve" onClick={() => openApproval(approval.id)} data-testid="approval-banner">
          {t('approvals.review')}
        </button>
      )}
    </div>
  );
}

function useStepLabels(): StepCardLabels {
  const t = useT();
  return {
    tool: t('step.col.tool'),
    tier: t('step.col.tier'),
    policy: t('step.col.policy'),
    duration: t('step.col.duration'),
    tokens: t('step.col.tokens'),
    cost: t('step.col.cost'),
    args: t('approval.args'),
    result: t('step.result'),
    error: t('step.error'),
    detailSeparator: t('text.detailSeparator'),
    screenshot: t('step.screenshot'),
    attempt: t('step.retried'),
    element: {
      accessibility: t('step.element.accessibility'),
      ocr: t('step.element.ocr'),
      coordinate: t('step.element.coordinate'),
    },
  };
}

function StepItem({ step, labels }: { step: Step; labels: StepCardLabels }) {
  const t = useT();
  const locale = useApp((s) => s.locale);
  const policy = step.policy;
  const source = {
    rule: 'policySource.rule',
    remembered: 'policySource.remembered',
    default: 'policySource.default',
    agent: 'policySource.agent',
    profile: 'policySource.profile',
    skill: 'policySource.skill',
    hook: 'policySource.hook',
  } as const;
  const image = stepImage(step);
  return (
    <StepCard
      step={step}
      labels={labels}
      statusLabel={t(`stepStatus.${step.status}`)}
      // A person's actions during a takeover are numbered apart from the plan; they show who acted.
      indexLabel={step.tool === 'gui.user_action' ? t('conv.you') : String(step.index + 1)}
      tierLabel={step.route ? t(`tier.${step.route.tier}`) : undefined}
      routeReason={step.route && translateServerText(locale, step.route.reasonText, step.route.reason)}
      policyLabel={
        policy ? `${t(`policy.${policy.effect}`)} · ${t(source[policy.source])}${policy.rule ? ` ${policy.rule}` : ''}` : undefined
      }
      formatCost={formatCost}
      error={stepErrorParts(locale, step)}
      {...(image && { image })}
    />
  );
}

/** Everything that happened in the task, in order: the goal, the model's words, step cards, approvals. */
export function Conversation({
  task,
  events,
  steps,
  approvals,
}: {
  task: Task;
  events: readonly TaskEvent[];
  steps: readonly Step[];
  approvals: readonly Approval[];
}) {
  const labels = useStepLabels();
  const t = useT();
  return (
    <section className="conversation" data-testid="conversation" aria-label={t('conv.heading')}>
      <Goal task={task} />
      {conversation(events, steps, approvals).map((item) =>
        item.kind === 'event' ? (
          <EventBubble key={`e${item.event.seq}`} event={item.event} />
        ) : item.kind === 'step' ? (
          <StepItem key={item.step.id} step={item.step} labels={labels} />
        ) : (
          <ApprovalItem key={item.approval.id} approval={item.approval} />
        ),
      )}
    </section>
  );
}
