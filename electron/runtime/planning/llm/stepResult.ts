import type { Step } from '../../../contract/index.js';
import type { ModelContentPart } from '../../models/types.js';

/** What the model reads back for a finished step: text (JSON) and any screenshot it carried. */
export interface StepResultView {
  status: 'ok' | 'error' | 'pending';
  text: string;
  images: ModelContentPart[];
}

/** Tool output is untrusted data: it is shown to the model as data, never as instructions. */
export function stepResultView(step: Step | undefined): StepResultView {
  if (!step || step.status === 'started' || step.status === 'waiting_approval')
    return { status: 'pending', text: '(not finished)', images: [] };
  if (step.status !== 'completed') return { status: 'error', text: step.error ?? `step ${step.status}`, images: [] };
  const images: ModelContentPart[] = [];
  const output = extractImages(step.output, images);
  return { status: 'ok', text: typeof output === 'string' ? output : (JSON.stringify(output) ?? 'null'), images };
}

/** Pulls `{image|screenshot: {mediaType, data}}` fields out of an output into image parts. */
function extractImages(output: unknown, images: ModelContentPart[]): unknown {
  if (!output || typeof output !== 'object' || Array.isArray(output)) return output;
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(output as Record<string, unknown>)) {
    const image = value as { mediaType?: unknown; data?: unknown } | undefined;
    if ((key === 'image' || key === 'screenshot') && typeof image?.data === 'string' && typeof image.mediaType === 'string') {
      images.push({ type: 'image', mediaType: image.mediaType, data: image.data });
      rest[key] = `[${key} attached]`;
    } else rest[key] = value;
  }
  return rest;
}
