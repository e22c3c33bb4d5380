import type { Step } from '../../../electron/contract/index.js';
import { StatusBadge } from './StatusBadge.js';

/** Column headings of the timeline, already translated. */
export interface StepTimelineLabels {
  index: string;
  tool: string;
  tier: string;
  policy: string;
  status: string;
  duration: string;
  tokens: string;
  cost: string;
}

/** A task's steps in plan order: tier, policy decision, duration, tokens and cost of each. */
export function StepTimeline(props: {
  steps: readonly Step[];
  labels: StepTimelineLabels;
  statusLabel: (status: Step['status']) => string;
  formatCost: (usd: number) => string;
}) {
  const { steps, labels, statusLabel, formatCost } = props;
  return (
    <table className="table timeline" data-testid="step-timeline">
      <thead>
        <tr>
          <th>{labels.index}</th>
          <th>{labels.tool}</th>
          <th>{labels.tier}</th>
          <th>{labels.policy}</th>
          <th>{labels.status}</th>
          <th>{labels.duration}</th>
          <th>{labels.tokens}</th>
          <th>{labels.cost}</th>
        </tr>
      </thead>
      <tbody>
        {steps.map((step) => (
          <tr key={step.id} data-step-status={step.status} data-tool={step.tool}>
            <td>
              {step.index + 1}
              {step.attempt > 1 ? `·${step.attempt}` : ''}
            </td>
            <td>
              <code>{step.tool}</code>
              {step.error && <div className="error-text">{step.error}</div>}
            </td>
            <td>{step.route?.tier ?? '—'}</td>
            <td title={step.policy?.reason}>{step.policy ? `${step.policy.effect} (${step.policy.source})` : '—'}</td>
            <td>
              <StatusBadge status={step.status} label={statusLabel(step.status)} />
            </td>
            <td>{step.durationMs === undefined ? '—' : `${Math.round(step.durationMs)} ms`}</td>
            <td>{step.tokens}</td>
            <td>{formatCost(step.costUsd)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
