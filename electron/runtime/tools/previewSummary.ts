import type { ApprovalPreview, ServerTextParam } from '../../contract/index.js';

/** A preview's summary in English and as a catalog code (`preview.*`), so an approval reads in the UI's language. */
export function previewSummary(
  summary: string,
  code: string,
  params: Record<string, ServerTextParam> = {},
): Pick<ApprovalPreview, 'summary' | 'summaryText'> {
  return { summary, summaryText: { code, params } };
}
