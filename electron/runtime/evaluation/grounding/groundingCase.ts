import { z } from 'zod';
import { ElementTargetSchema } from '../../../contract/index.js';

/** A screen size the suite runs at: one desktop each. */
export const GroundingScreenSchema = z
  .object({ width: z.number().int().min(640).max(7_680), height: z.number().int().min(480).max(4_320) })
  .strict();
/** A screen size. */
export type GroundingScreen = z.infer<typeof GroundingScreenSchema>;

/** Light or dark: pages get `?theme=`, GTK applications `GTK_THEME=Adwaita:dark`. */
export const GroundingThemeSchema = z.enum(['light', 'dark']);
/** A theme. */
export type GroundingTheme = z.infer<typeof GroundingThemeSchema>;

/** `suite.yaml` of a grounding suite: the screens and themes every scene is shown in. */
export const GroundingSuiteSchema = z
  .object({
    name: z.string().min(1),
    kind: z.literal('grounding'),
    screens: z.array(GroundingScreenSchema).min(1),
    themes: z.array(GroundingThemeSchema).min(1).default(['light']),
  })
  .strict();
/** A grounding suite's settings. */
export type GroundingSuite = z.infer<typeof GroundingSuiteSchema>;

/** What resolving a target should give: found by a resolver, ambiguous between `candidates`, or missed. */
export const GroundingExpectSchema = z.discriminatedUnion('outcome', [
  z
    .object({
      outcome: z.literal('found'),
      resolver: z.enum(['accessibility', 'ocr']),
      /** A page element's id: its own layout box (getBoundingClientRect on the screen) is the expected box. */
      element: z.string().min(1).optional(),
    })
    .strict(),
  z.object({ outcome: z.literal('ambiguous'), candidates: z.number().int().min(2) }).strict(),
  z.object({ outcome: z.literal('missed') }).strict(),
]);
/** An expected outcome. */
export type GroundingExpect = z.infer<typeof GroundingExpectSchema>;

/** One target of a scene and what resolving it should give. */
export const GroundingTargetSchema = z
  .object({
    name: z
      .string()
      .min(1)
      .regex(/^[a-z0-9-]+$/, 'lower-case letters, digits and dashes'),
    target: ElementTargetSchema,
    expect: GroundingExpectSchema,
    /** A failure the product has today, named and not counted as a failure of the suite (the report lists it). */
    knownGap: z
      .object({ why: z.string().min(1), theme: GroundingThemeSchema.optional() })
      .strict()
      .optional(),
  })
  .strict();
/** One target of a scene. */
export type GroundingTarget = z.infer<typeof GroundingTargetSchema>;

/** A GTK (or any X) application started in the desktop; its window's box bounds what it shows. */
export const GroundingAppSchema = z
  .object({
    /** argv, started detached in the desktop's session (DISPLAY and the accessibility bus set). */
    command: z.array(z.string().min(1)).min(1),
    /** The application's name on the accessibility bus, waited for before resolving. */
    busName: z.string().min(1),
    /** Its window's exact title (found with xdotool for the expected boxes). */
    windowTitle: z.string().min(1),
  })
  .strict();
/** An application scene's app. */
export type GroundingApp = z.infer<typeof GroundingAppSchema>;

/** One scene file: a local page (from the suite's `pages/`) or an application, and its targets. */
export const GroundingSceneSchema = z
  .object({
    name: z
      .string()
      .min(1)
      .regex(/^[a-z0-9-]+$/, 'lower-case letters, digits and dashes'),
    language: z.enum(['en', 'zh']),
    page: z
      .string()
      .regex(/^[\w.-]+\.html$/, 'a file name in pages/, e.g. notes-en.html')
      .optional(),
    app: GroundingAppSchema.optional(),
    targets: z.array(GroundingTargetSchema).min(1),
  })
  .strict()
  .refine((s) => (s.page === undefined) !== (s.app === undefined), 'a scene shows either a page or an app, not both')
  .refine(
    (s) => s.app !== undefined || s.targets.every((t) => t.expect.outcome !== 'found' || t.expect.element !== undefined),
    'on a page, every found target names its element (expect.element: the element id whose box is expected)',
  );
/** One scene. */
export type GroundingScene = z.infer<typeof GroundingSceneSchema>;
