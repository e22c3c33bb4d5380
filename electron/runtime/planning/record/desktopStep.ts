import { z } from 'zod';
import { ModelPointSchema, ResolvedTargetSchema, type ElementTarget, type ResolvedTarget } from '../../../contract/index.js';

/** What a recording reads of a `computer` click's output: the element, where the pointer went, the screenshot's size. */
const ClickOutputSchema = z.object({
  target: ResolvedTargetSchema.optional(),
  cursor: ModelPointSchema.optional(),
  screenshot: z.object({ width: z.number().int().min(1), height: z.number().int().min(1) }).optional(),
});

/** The element a click acted on, as a target that finds it again: by role and name, else by the text OCR read. */
export function targetOf(resolved: ResolvedTarget | undefined): ElementTarget | undefined {
  if (resolved?.role && resolved.name?.trim()) return { role: resolved.role, name: resolved.name.trim().slice(0, 200) };
  if (resolved?.resolver === 'ocr' && resolved.text?.trim()) return { text: resolved.text.trim().slice(0, 200) };
  return undefined;
}

/**
 * A `computer` click as recorded: the element it acted on (from its output, whatever the model
 * named: the tree's own role and name, or OCR's text) beside the coordinate, and the screenshot
 * size that coordinate was on (`recordedSpace`), so replay finds the element on the screen it
 * meets and never clicks the coordinate at another size. A `mark` names one screenshot's number
 * and is never recorded. Other actions are kept as they ran.
 */
export function recordedComputerArgs(args: Record<string, unknown>, output: unknown): Record<string, unknown> {
  if (args.action !== 'click') return args;
  const parsed = ClickOutputSchema.safeParse(output);
  const seen = parsed.success ? parsed.data : {};
  const { mark: _mark, target: named, ...rest } = args;
  // The model's own words stay only where nothing resolved and there is no coordinate to keep.
  const target = targetOf(seen.target) ?? (rest.x === undefined && seen.cursor === undefined ? named : undefined);
  const point = rest.x === undefined && seen.cursor ? { x: seen.cursor.x, y: seen.cursor.y } : {};
  const shot = seen.screenshot ? { width: seen.screenshot.width, height: seen.screenshot.height } : undefined;
  return {
    ...rest,
    ...point,
    ...(target !== undefined && { target }),
    ...(shot && { recordedSpace: { width: shot.width, height: shot.height } }),
  };
}
