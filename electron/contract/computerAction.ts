import { z } from 'zod';
import { KeyNameSchema, ScreenBoxSchema } from './sandboxProtocol.js';

// One computer action space for every model family: Anthropic's computer-use tool, OpenAI's
// computer-use tool and UI-TARS-style action strings all normalize into it. Coordinates are in
// the MODEL space (the screenshot size the model saw); the runtime converts them to the screen.

const Coord = z.number().int().min(0).max(16_384);
/** A region `[x1, y1, x2, y2]` in model space, top-left inclusive, x2 > x1 and y2 > y1. */
export const ZoomRegionSchema = z
  .tuple([Coord, Coord, Coord, Coord])
  .refine(([x1, y1, x2, y2]) => x2 > x1 && y2 > y1, 'a region is [x1, y1, x2, y2] with x2 > x1 and y2 > y1');

/** A model space's size: the screenshot a coordinate was given on. */
export const ModelSizeSchema = z
  .object({ width: z.number().int().min(1).max(16_384), height: z.number().int().min(1).max(16_384) })
  .strict();

/** A point in model space. */
export const ModelPointSchema = z.object({ x: Coord, y: Coord }).strict();

/**
 * An element to act on instead of (or beside) a coordinate: `{role, name}` as the accessibility
 * tree names it, or `{text}` as the screen shows it. Resolved by the accessibility tree first,
 * OCR second, the coordinate last; none or several matches is an error naming the candidates.
 */
export const ElementTargetSchema = z
  .object({
    role: z.string().trim().min(1).max(64).optional().describe('accessibility role: button, link, entry, check box, menu item…'),
    name: z.string().trim().min(1).max(200).optional().describe('the element\'s accessible name, e.g. "Save note"'),
    text: z.string().trim().min(1).max(200).optional().describe('text shown on screen, e.g. "保存" (read by OCR where no tree has it)'),
  })
  .strict()
  .refine(
    (t) => t.name !== undefined || t.text !== undefined,
    'a target names its element: {"role": "button", "name": "Save note"} or {"text": "保存"}',
  );
/** An element to act on. */
export type ElementTarget = z.infer<typeof ElementTargetSchema>;

/**
 * A number from the last marked screenshot of the task's desktop (`{"action": "screenshot",
 * "marks": true}`). A handle for one screenshot, never recorded as the element: the click finds the
 * mark's element again by its role and name (or text).
 */
export const MarkNumberSchema = z.number().int().min(1).max(999);

/** Which part of the desktop found an element. */
export const TargetResolverSchema = z.enum(['accessibility', 'ocr', 'coordinate']);
/** Which part found an element. */
export type TargetResolver = z.infer<typeof TargetResolverSchema>;

/** An element as resolved on the screen: who found it, its box and the point acted on (screen pixels). */
export const ResolvedTargetSchema = z.object({
  resolver: TargetResolverSchema,
  box: ScreenBoxSchema,
  point: z.object({ x: z.number().int(), y: z.number().int() }),
  role: z.string().optional(),
  name: z.string().optional(),
  /** The text OCR read there. */
  text: z.string().optional(),
  /** The application that showed it (accessibility tree). */
  app: z.string().optional(),
  /** States the tree gave it ("enabled", "focused", …). */
  states: z.array(z.string()).optional(),
});
/** An element as resolved. */
export type ResolvedTarget = z.infer<typeof ResolvedTargetSchema>;

/** What changed on the desktop after an action. */
export const ActionChangeSchema = z.enum(['focus', 'window', 'element', 'pixels', 'screen']);
/** What changed after an action. */
export type ActionChange = z.infer<typeof ActionChangeSchema>;

/** A computer action's name. */
export type ComputerActionName = ComputerAction['action'];

/** One computer action. */
export const ComputerActionSchema = z.discriminatedUnion('action', [
  z
    .object({
      action: z.literal('screenshot'),
      /** Numbered boxes over the screen's elements and a legend of them (`result.legend`). */
      marks: z.boolean().optional(),
    })
    .strict(),
  z.object({ action: z.literal('cursor_position') }).strict(),
  z.object({ action: z.literal('move'), x: Coord, y: Coord }).strict(),
  z
    .object({
      action: z.literal('click'),
      /** The coordinate: alone, or the last resort when a target is named. */
      x: Coord.optional(),
      y: Coord.optional(),
      target: ElementTargetSchema.optional(),
      /** A recorded click: the model space its x/y were in; they never stand in for its target (see `onThisScreen`). */
      recordedSpace: ModelSizeSchema.optional(),
      /** A number of the last marked screenshot: its element, found again on the screen as it is now. */
      mark: MarkNumberSchema.optional(),
      button: z.enum(['left', 'right', 'middle']).default('left'),
      count: z.number().int().min(1).max(3).default(1),
    })
    .strict()
    .refine((a) => (a.x === undefined) === (a.y === undefined), 'a click gives both x and y, or neither')
    .refine(
      (a) => a.mark === undefined || (a.x === undefined && a.target === undefined),
      'a click names a mark alone, without x/y or a target',
    )
    .refine((a) => a.x !== undefined || a.target !== undefined || a.mark !== undefined, 'a click needs x and y, a target, or a mark'),
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
    target: ElementTargetSchema.optional().describe(
      'click: the element to click, {"role": "button", "name": "Save note"} or {"text": "保存"}, instead of or beside x/y',
    ),
    mark: MarkNumberSchema.optional().describe("click: a number from the last marked screenshot's legend, instead of x/y or a target"),
    marks: z.boolean().optional().describe('screenshot: true = numbered boxes over the elements, with a legend of them'),
    recordedSpace: ModelSizeSchema.optional().describe('click, in recorded playbooks: the screenshot size x/y were recorded on'),
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
  /** The screen's size in pixels, which `screenPoint` and `target` are in (the screenshot may be smaller). */
  screen: z.object({ width: z.number().int(), height: z.number().int() }).optional(),
  /** The screen point the action hit (for the trace). */
  screenPoint: z.object({ x: z.number().int(), y: z.number().int() }).optional(),
  settled: z.boolean().optional(),
  /** A marked screenshot's legend: one line per number (`7: button 'Save note'`) and what the cap left out. */
  legend: z.string().optional(),
  /** The element the action acted on: which resolver found it and its box. */
  target: ResolvedTargetSchema.optional(),
  /** What the action changed (a click or keystroke that changed nothing is a `no_effect` error instead). */
  changed: z.array(ActionChangeSchema).optional(),
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
