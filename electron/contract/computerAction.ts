import { z } from 'zod';
import { KeyNameSchema } from './sandboxProtocol.js';

// One computer action space for every model family: Anthropic's computer-use tool, OpenAI's
// computer-use tool and UI-TARS-style action strings all normalize into it. Coordinates are in
// the MODEL space (the screenshot size the model saw); the runtime converts them to the screen.

const Coord = z.number().int().min(0).max(16_384);
/** A region `[x1, y1, x2, y2]` in model space, top-left inclusive, x2 > x1 and y2 > y1. */
export const ZoomRegionSchema = z
  .tuple([Coord, Coord, Coord, Coord])
  .refine(([x1, y1, x2, y2]) => x2 > x1 && y2 > y1, 'a region is [x1, y1, x2, y2] with x2 > x1 and y2 > y1');

/** A point in model space. */
export const ModelPointSchema = z.object({ x: Coord, y: Coord }).strict();

/** A computer action's name. */
export type ComputerActionName = ComputerAction['action'];

/** One computer action. */
export const ComputerActionSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('screenshot') }).strict(),
  z.object({ action: z.literal('cursor_position') }).strict(),
  z.object({ action: z.literal('move'), x: Coord, y: Coord }).strict(),
  z
    .object({
      action: z.literal('click'),
      x: Coord,
      y: Coord,
      button: z.enum(['left', 'right', 'middle']).default('left'),
      count: z.number().int().min(1).max(3).default(1),
    })
    .strict(),
  z.object({ action: z.literal('drag'), path: z.array(ModelPointSchema).min(2).max(100) }).strict(),
  z
    .object({
      action: z.literal('scroll'),
      x: Coord,
      y: Coord,
      /** Wheel steps; positive = down / right. */
      dx: z.number().int().min(-100).max(100).default(0),
      dy: z.number().int().min(-100).max(100).default(0),
    })
    .strict(),
  z.object({ action: z.literal('type'), text: z.string().min(1).max(20_000) }).strict(),
  z.object({ action: z.literal('key'), keys: z.array(KeyNameSchema).min(1).max(6) }).strict(),
  /** Waits for the screen to settle (never a fixed sleep), at most `timeoutMs`. */
  z.object({ action: z.literal('wait'), timeoutMs: z.number().int().min(50).max(60_000).default(2_000) }).strict(),
  /** A screenshot of one region `[x1, y1, x2, y2]` (model space) at the screen's own resolution. */
  z.object({ action: z.literal('zoom'), region: ZoomRegionSchema }).strict(),
]);
/** One computer action. */
export type ComputerAction = z.infer<typeof ComputerActionSchema>;

/** The action names, in the order of `ComputerActionSchema`. */
export const COMPUTER_ACTION_NAMES = ComputerActionSchema.options.map((o) => o.shape.action.value);

/**
 * The `computer` tool's input as a model sees it: ONE object with `action` and every field
 * optional, because the real APIs reject a top-level `oneOf` (Anthropic: "input_schema does not
 * support oneOf, allOf, or anyOf at the top level"; OpenAI: "schema must be a JSON Schema of
 * 'type: \"object\"'"). It parses into `ComputerActionSchema`, so each action still gets only
 * its own fields.
 */
export const ComputerToolInputSchema = z
  .object({
    action: z.enum(COMPUTER_ACTION_NAMES as [ComputerActionName, ...ComputerActionName[]]),
    x: Coord.optional().describe('click, move, scroll: x in screenshot pixels'),
    y: Coord.optional().describe('click, move, scroll: y in screenshot pixels'),
    button: z.enum(['left', 'right', 'middle']).optional().describe('click: mouse button (left)'),
    count: z.number().int().min(1).max(3).optional().describe('click: 2 = double click (1)'),
    path: z.array(ModelPointSchema).min(2).max(100).optional().describe('drag: the points to drag through'),
    dx: z.number().int().min(-100).max(100).optional().describe('scroll: wheel steps right (+) / left (-)'),
    dy: z.number().int().min(-100).max(100).optional().describe('scroll: wheel steps down (+) / up (-)'),
    text: z.string().min(1).max(20_000).optional().describe('type: the text (any language)'),
    keys: z.array(KeyNameSchema).min(1).max(6).optional().describe('key: keys pressed together, e.g. ["ctrl","a"]'),
    timeoutMs: z.number().int().min(50).max(60_000).optional().describe('wait: at most this long for the screen to settle'),
    region: ZoomRegionSchema.optional().describe('zoom: [x1, y1, x2, y2] to see at full resolution'),
  })
  .strict()
  .pipe(ComputerActionSchema);

/** What a computer action returns to the planner. */
export const ComputerActionResultSchema = z.object({
  action: z.string(),
  /** Where the pointer ended, in model space. */
  cursor: ModelPointSchema.optional(),
  /** The screen point the action hit (for the trace). */
  screenPoint: z.object({ x: z.number().int(), y: z.number().int() }).optional(),
  settled: z.boolean().optional(),
  /** The screen as the model sees it (model-space size), sent back to the model as an image. */
  screenshot: z
    .object({
      format: z.enum(['png', 'jpeg']),
      mediaType: z.enum(['image/png', 'image/jpeg']),
      width: z.number().int(),
      height: z.number().int(),
      data: z.string(),
    })
    .optional(),
});
/** A computer action's result. */
export type ComputerActionResult = z.infer<typeof ComputerActionResultSchema>;
