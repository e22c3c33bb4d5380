import type { Approval, RiskClass } from '../../../electron/contract/index.js';
import { JsonBlock } from './JsonBlock.js';

/** Section headings of the preview, already translated. */
export interface ApprovalPreviewLabels {
  risks: string;
  args: string;
  preview: string;
  screenshot: string;
}

/** What will happen if approved: risks, arguments, the diff or message body, and the marked screenshot. */
export function ApprovalPreview({
  approval,
  labels,
  riskLabel = (r) => r,
  reason = approval.reason,
  summary = approval.preview.summary,
}: {
  approval: Approval;
  /** What it will do, in the reader's language where the catalogs know it. */
  summary?: string;
  /** Why it asks, in the reader's language where the catalogs know it. */
  reason?: string;
  labels: ApprovalPreviewLabels;
  /** The risk class as a reader's word (the class name stays in the title). */
  riskLabel?: (risk: RiskClass) => string;
}) {
  return (
    <div className="approval-preview" data-testid="approval-preview">
      <p className="summary">{summary}</p>
      <p className="reason">{reason}</p>
      <p>
        {labels.risks}{' '}
        {approval.risks.map((r) => (
          <span key={r} className={`risk risk-${r}`} title={r}>
            {riskLabel(r)}
          </span>
        ))}
      </p>
      {/* What a click will hit comes before its arguments: on a phone it is the first thing seen. */}
      {approval.preview.screenshot && (
        <figure>
          <img src={`data:image/png;base64,${approval.preview.screenshot}`} alt={labels.screenshot} />
          <figcaption>{labels.screenshot}</figcaption>
        </figure>
      )}
      <h3>{labels.args}</h3>
      <JsonBlock value={approval.args} />
      {approval.preview.body && (
        <>
          <h3>{labels.preview}</h3>
          <pre className="preview-body">{approval.preview.body}</pre>
        </>
      )}
    </div>
  );
}
