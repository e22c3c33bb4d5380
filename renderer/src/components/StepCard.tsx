import type { Step } from '../../../electron/contract/index.js';
import { JsonBlock } from './JsonBlock.js';
import { ServerSentence } from './ServerSentence.js';
import { StatusBadge } from './StatusBadge.js';

/** Texts of a step card, already translated. */
export interface StepCardLabels {
  tool: string;
  tier: string;
  policy: string;
  duration: string;
  tokens: string;
  cost: string;
  args: string;
  result: string;
  error: string;
  /** Between a translated error sentence and the machine words after it (": " / "："). */
  detailSeparator: string;
  screenshot: string;
  attempt: string;
  /** What found the element a desktop step acted on, by resolver: "Found in the accessibility tree:" … */
  element: Record<'accessibility' | 'ocr' | 'coordinate', string>;
}

/** A step's screenshot: where it clicked and the box of the element it acted on, in percent of the image. */
export interface StepCardImage {
  src: string;
  mark?: { xPct: number; yPct: number };
  element?: {
    box: { xPct: number; yPct: number; wPct: number; hPct: number };
    resolver: 'accessibility' | 'ocr' | 'coordinate';
    what: string;
  };
}

/** Props of StepCard: the step plus what the feature resolved for it (translations, image). */
export interface StepCardProps {
  step: Step;
  labels: StepCardLabels;
  statusLabel: string;
  /** The step's number as shown (plan position), or who acted for steps outside the plan. */
  indexLabel: string;
  tierLabel: string | undefined;
  /** Why the router chose the tool, in the reader's language where the catalogs know it. */
  routeReason?: string | undefined;
  policyLabel: string | undefined;
  formatCost: (usd: number) => string;
  /** The error in the reader's language where it is the runtime's own words; else the tool's words, verbatim. */
  error?: { sentence: string; detail?: string } | undefined;
  image?: StepCardImage;
}

/** Long strings (screenshots as base64) shortened so a result stays readable. */
function elided(value: unknown): unknown {
  if (typeof value === 'string') return value.length > 400 ? `${value.slice(0, 60)}… (${value.length})` : value;
  if (Array.isArray(value)) return value.map(elided);
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, elided(v)]));
  return value;
}

/**
 * One step as a card: what it did (title, tool), how it was routed and gated, what it cost, and —
 * collapsed — its arguments and result as the server sent them (secrets already masked there).
 */
export function StepCard({
  step,
  labels,
  statusLabel,
  indexLabel,
  tierLabel,
  routeReason,
  policyLabel,
  formatCost,
  error,
  image,
}: StepCardProps) {
  const title = step.planStepId ?? step.tool;
  return (
    <article className="step-card" data-testid="step-card" data-step-status={step.status} data-tool={step.tool} aria-label={title}>
      <header>
        <span className="step-index">{indexLabel}</span>
        <h3>{title}</h3>
        <StatusBadge status={step.status} label={statusLabel} />
      </header>
      <dl className="step-facts">
        <div>
          <dt>{labels.tool}</dt>
          <dd>
            <code>{step.tool}</code>
            {step.attempt > 1 && <span className="muted"> · {labels.attempt}</span>}
          </dd>
        </div>
        {tierLabel && (
          <div>
            <dt>{labels.tier}</dt>
            <dd data-testid="step-route" title={routeReason}>
              {tierLabel}
              {routeReason ? <span className="muted"> — {routeReason}</span> : null}
            </dd>
          </div>
        )}
        {policyLabel && (
          <div>
            <dt>{labels.policy}</dt>
            <dd data-testid="step-policy">{policyLabel}</dd>
          </div>
        )}
        <div>
          <dt>{labels.duration}</dt>
          <dd>{step.durationMs === undefined ? '—' : `${Math.round(step.durationMs)} ms`}</dd>
        </div>
        <div>
          <dt>{labels.tokens}</dt>
          <dd data-testid="step-tokens">{step.tokens}</dd>
        </div>
        <div>
          <dt>{labels.cost}</dt>
          <dd data-testid="step-cost">{formatCost(step.costUsd)}</dd>
        </div>
      </dl>
      {step.error && (
        <p className="error-text" role="note">
          {labels.error}
          {labels.detailSeparator}
          <ServerSentence {...(error ?? { sentence: '', detail: step.error })} separator={labels.detailSeparator} />
        </p>
      )}
      {image && (
        <figure className="step-shot">
          <div className="shot-frame">
            <img src={image.src} alt={labels.screenshot} />
            {image.element && (
              <span
                className="element-box"
                data-testid="element-box"
                aria-hidden="true"
                style={{
                  left: `${image.element.box.xPct}%`,
                  top: `${image.element.box.yPct}%`,
                  width: `${image.element.box.wPct}%`,
                  height: `${image.element.box.hPct}%`,
                }}
              />
            )}
            {image.mark && (
              <span className="click-mark" data-testid="click-mark" style={{ left: `${image.mark.xPct}%`, top: `${image.mark.yPct}%` }} />
            )}
          </div>
          {image.element && (
            <figcaption data-testid="element-caption">
              {labels.element[image.element.resolver]} <code>{image.element.what}</code>
            </figcaption>
          )}
        </figure>
      )}
      <details>
        <summary>{labels.args}</summary>
        <JsonBlock value={step.args} />
      </details>
      {step.output !== undefined && (
        <details>
          <summary>{labels.result}</summary>
          <JsonBlock value={elided(step.output)} />
        </details>
      )}
    </article>
  );
}
