import { z } from 'zod';

// The wire protocol between the host and sandboxd (the daemon inside the desktop container):
// newline-delimited JSON-RPC over `docker exec` stdio. sandboxd compiles this same file.

const Coord = z.number().int().min(0).max(16_384);
/** A point in screen pixels. */
export const ScreenPointSchema = z.object({ x: Coord, y: Coord }).strict();
/** A point in screen pixels. */
export type ScreenPoint = z.infer<typeof ScreenPointSchema>;

/** Key names sandboxd understands: modifiers, named keys, F-keys and single characters. */
export const KeyNameSchema = z
  .string()
  .regex(
    /^(ctrl|shift|alt|meta|enter|tab|escape|backspace|delete|space|up|down|left|right|home|end|pageup|pagedown|insert|f([1-9]|1[0-2])|[\x21-\x7e])$/,
    'a key: ctrl, shift, alt, meta, enter, tab, escape, backspace, delete, space, arrows, home/end, pageup/pagedown, f1–f12 or one printable ASCII character',
  );

const path = z.string().min(1).max(4_096);

/** A rectangle in screen pixels. */
export const ScreenBoxSchema = z
  .object({ x: z.number().int(), y: z.number().int(), width: z.number().int().min(0), height: z.number().int().min(0) })
  .strict();
/** A rectangle in screen pixels. */
export type ScreenBox = z.infer<typeof ScreenBoxSchema>;

/** A region of the screen to read (inside the screen, non-empty). */
export const ScreenRegionSchema = z
  .object({ x: Coord, y: Coord, width: z.number().int().min(1).max(16_384), height: z.number().int().min(1).max(16_384) })
  .strict();

/** One accessible object on screen (AT-SPI): what assistive technology knows of a control. */
export const A11yNodeSchema = z.object({
  /** Stable while the object lives: its bus name and object path. */
  id: z.string(),
  parent: z.string().optional(),
  /** The application's name (e.g. "Chromium", "yad"). */
  app: z.string(),
  /** AT-SPI role name: "button", "entry", "link", "check box", "frame", … */
  role: z.string(),
  name: z.string(),
  description: z.string().optional(),
  /** AT-SPI state nicks: "enabled", "sensitive", "focused", "checked", "active", … */
  states: z.array(z.string()),
  bounds: ScreenBoxSchema,
  /** The text of an editable field. */
  value: z.string().optional(),
});
/** One accessible object on screen. */
export type A11yNode = z.infer<typeof A11yNodeSchema>;

/** The accessibility tree of the showing objects, or why there is none. */
export const A11yTreeSchema = z.object({
  available: z.boolean(),
  reason: z.string().optional(),
  /** Applications registered on the accessibility bus. */
  applications: z.number().int(),
  nodes: z.array(A11yNodeSchema),
});
/** The accessibility tree. */
export type A11yTree = z.infer<typeof A11yTreeSchema>;

/** One word Tesseract read, its box in screen pixels and confidence (0–100). */
export const OcrWordSchema = z.object({ text: z.string(), confidence: z.number(), box: ScreenBoxSchema });
/** One word read. */
export type OcrWord = z.infer<typeof OcrWordSchema>;
/** One line of words (Tesseract's layout), its text joined as written (no spaces between CJK). */
export const OcrLineSchema = z.object({ text: z.string(), box: ScreenBoxSchema, words: z.array(OcrWordSchema) });
/** One line read. */
export type OcrLine = z.infer<typeof OcrLineSchema>;

/** The languages OCR reads. */
export const OcrLanguageSchema = z.enum(['eng', 'chi_sim']);

/** What the desktop looks like at one moment, to tell whether an action changed anything. */
export const DesktopObservationSchema = z.object({
  /** The X window with the input focus. */
  window: z.object({ id: z.string(), title: z.string() }).nullable(),
  /** Accessible objects that have the focus (an application each). */
  focus: z.array(A11yNodeSchema),
  /** The accessible object asked about (`node`), as it is now; null when it is gone. */
  node: A11yNodeSchema.nullable().optional(),
  /** SHA-1 of the pixels of `region`. */
  regionDigest: z.string().optional(),
  /** SHA-1 of the whole screen's pixels. */
  screenDigest: z.string(),
});
/** One observation of the desktop. */
export type DesktopObservation = z.infer<typeof DesktopObservationSchema>;

/** Every sandboxd method: params and result schemas. */
export const SandboxdMethods = {
  health: {
    params: z.object({}).strict(),
    result: z.object({
      ok: z.boolean(),
      display: z.string(),
      screen: z.object({ width: z.number().int(), height: z.number().int() }),
      node: z.string(),
      uptimeMs: z.number(),
      browser: z.boolean(),
    }),
  },
  'screen.capture': {
    params: z
      .object({
        format: z.enum(['png', 'jpeg']).default('png'),
        quality: z.number().int().min(1).max(100).default(80),
        /** Downscale to this size (aspect is the caller's business: the runtime owns scaling). */
        width: z.number().int().positive().max(16_384).optional(),
        height: z.number().int().positive().max(16_384).optional(),
      })
      .strict(),
    result: z.object({
      format: z.enum(['png', 'jpeg']),
      width: z.number().int(),
      height: z.number().int(),
      screenWidth: z.number().int(),
      screenHeight: z.number().int(),
      /** Base64 image bytes. */
      data: z.string(),
    }),
  },
  'screen.waitStable': {
    params: z
      .object({
        /** Consecutive identical frames that count as settled. */
        frames: z.number().int().min(2).max(50).default(3),
        intervalMs: z.number().int().min(10).max(2_000).default(50),
        timeoutMs: z.number().int().min(50).max(60_000).default(5_000),
      })
      .strict(),
    result: z.object({ stable: z.boolean(), waitedMs: z.number(), grabs: z.number().int() }),
  },
  'mouse.move': { params: ScreenPointSchema, result: ScreenPointSchema },
  'mouse.click': {
    params: z
      .object({
        x: Coord,
        y: Coord,
        button: z.enum(['left', 'right', 'middle']).default('left'),
        count: z.number().int().min(1).max(3).default(1),
      })
      .strict(),
    result: ScreenPointSchema,
  },
  'mouse.drag': {
    params: z.object({ from: ScreenPointSchema, to: ScreenPointSchema }).strict(),
    result: ScreenPointSchema,
  },
  'mouse.scroll': {
    params: z
      .object({
        x: Coord,
        y: Coord,
        /** Wheel steps: positive = down / right. */
        dx: z.number().int().min(-100).max(100).default(0),
        dy: z.number().int().min(-100).max(100).default(0),
      })
      .strict(),
    result: ScreenPointSchema,
  },
  'mouse.position': { params: z.object({}).strict(), result: ScreenPointSchema },
  'keyboard.press': {
    /** Pressed together in order and released in reverse: ["ctrl","shift","t"]. */
    params: z.object({ keys: z.array(KeyNameSchema).min(1).max(6) }).strict(),
    result: z.object({ pressed: z.array(z.string()) }),
  },
  'keyboard.type': {
    /** Any text; non-ASCII runs (e.g. 中文) are pasted through the clipboard. */
    params: z.object({ text: z.string().max(20_000) }).strict(),
    /** `typed`: ASCII characters sent as key events; `pasted`: others, committed (browser) or pasted. */
    result: z.object({ typed: z.number().int(), pasted: z.number().int() }),
  },
  'browser.open': {
    params: z.object({ url: z.string().min(1).max(8_192) }).strict(),
    result: z.object({ url: z.string(), title: z.string() }),
  },
  'browser.state': {
    params: z.object({}).strict(),
    result: z.object({ open: z.boolean(), url: z.string().optional(), title: z.string().optional() }),
  },
  'browser.close': { params: z.object({}).strict(), result: z.object({ closed: z.boolean() }) },
  'browser.targets': {
    /** Visible interactive elements of the page with their text and rectangle in SCREEN pixels. */
    params: z.object({}).strict(),
    result: z.object({
      url: z.string().optional(),
      targets: z.array(
        z.object({
          text: z.string(),
          role: z.string(),
          tag: z.string(),
          id: z.string().optional(),
          rect: z.object({ x: z.number().int(), y: z.number().int(), width: z.number().int(), height: z.number().int() }),
        }),
      ),
    }),
  },
  'a11y.tree': {
    /** The showing accessible objects of every application, bounds in screen pixels. */
    params: z.object({ values: z.boolean().default(true) }).strict(),
    result: A11yTreeSchema,
  },
  'ocr.read': {
    /** Words and lines Tesseract reads on the whole screen or one region. */
    params: z
      .object({
        region: ScreenRegionSchema.optional(),
        languages: z.array(OcrLanguageSchema).min(1).max(2).default(['eng', 'chi_sim']),
      })
      .strict(),
    result: z.object({ region: ScreenBoxSchema, words: z.array(OcrWordSchema), lines: z.array(OcrLineSchema), ms: z.number() }),
  },
  'desktop.observe': {
    /** The focus, the active window, one accessible object and the pixels of a region, now. */
    params: z.object({ region: ScreenRegionSchema.optional(), node: z.string().max(512).optional() }).strict(),
    result: DesktopObservationSchema,
  },
  'exec.run': {
    params: z
      .object({
        command: z.array(z.string()).min(1),
        /** Relative to the home folder. */
        cwd: z.string().optional(),
        timeoutMs: z.number().int().positive().max(600_000).default(30_000),
      })
      .strict(),
    result: z.object({
      exitCode: z.number().int().nullable(),
      signal: z.string().nullable(),
      timedOut: z.boolean(),
      stdout: z.string(),
      stderr: z.string(),
    }),
  },
  'files.read': {
    params: z.object({ path, encoding: z.enum(['utf8', 'base64']).default('utf8') }).strict(),
    result: z.object({ data: z.string(), size: z.number().int() }),
  },
  'files.write': {
    params: z.object({ path, data: z.string(), encoding: z.enum(['utf8', 'base64']).default('utf8') }).strict(),
    result: z.object({ path: z.string(), size: z.number().int() }),
  },
  'files.stat': {
    params: z.object({ path }).strict(),
    result: z.object({ exists: z.boolean(), size: z.number().int().optional(), sha256: z.string().optional() }),
  },
} as const;

/** A sandboxd method name. */
export type SandboxdMethod = keyof typeof SandboxdMethods;
/** Params a caller passes (before defaults) for one method. */
export type SandboxdParams<M extends SandboxdMethod> = z.input<(typeof SandboxdMethods)[M]['params']>;
/** The result of one method. */
export type SandboxdResult<M extends SandboxdMethod> = z.infer<(typeof SandboxdMethods)[M]['result']>;

/** One request line from the host. */
export const SandboxdRequestSchema = z.object({
  id: z.number().int(),
  method: z.string(),
  params: z.unknown().optional(),
});
/** One request line. */
export type SandboxdRequest = z.infer<typeof SandboxdRequestSchema>;

/** Error codes sandboxd answers with. */
export const SandboxdErrorCodeSchema = z.enum(['method_not_found', 'invalid_params', 'outside_home', 'failed']);

/** One response line from sandboxd. */
export const SandboxdResponseSchema = z.union([
  z.object({ id: z.number().int(), result: z.unknown() }),
  z.object({
    id: z.number().int(),
    error: z.object({ code: SandboxdErrorCodeSchema, message: z.string() }),
  }),
]);
/** One response line. */
export type SandboxdResponse = z.infer<typeof SandboxdResponseSchema>;
