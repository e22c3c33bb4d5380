import sharp from 'sharp';
import type { ComputerActionResult, ElementTarget } from '../../contract/index.js';
import type { Point } from '../../runtime/gui/coordinates.js';
import { collectMarks, legendLine, legendText, markElement, markShapes, marksSvg, type ScreenMark } from '../../runtime/gui/screenMarks.js';
import { ToolError } from '../../runtime/tools/types.js';
import type { DesktopSession } from './desktopSession.js';
import { resolveTarget, TargetError, type Resolution } from './targetResolver.js';

type Screenshot = NonNullable<ComputerActionResult['screenshot']>;

/** Whole-screen OCR at 1920×1080 in two languages takes seconds on a loaded machine. */
const OCR_TIMEOUT_MS = 90_000;

/**
 * Marks a model-space screenshot: the desktop's accessibility tree and OCR (read now), numbered
 * boxes drawn over the image in model pixels, and the legend. The marks are kept on the session:
 * they are what a later `{"action": "click", "mark": N}` means.
 */
export async function markScreenshot(session: DesktopSession, shot: Screenshot): Promise<{ screenshot: Screenshot; legend: string }> {
  const { sandbox, space } = session;
  const [tree, ocr] = await Promise.all([
    sandbox.call('a11y.tree', { values: false }),
    sandbox.call('ocr.read', { languages: ['eng', 'chi_sim'] }, OCR_TIMEOUT_MS),
  ]);
  const set = collectMarks(tree.available ? tree.nodes : [], ocr.lines, sandbox.screen);
  session.marks = set.marks;
  const svg = marksSvg(markShapes(set.marks, space), space.model);
  const png = await sharp(Buffer.from(shot.data, 'base64'))
    .composite([{ input: Buffer.from(svg), top: 0, left: 0 }])
    .png()
    .toBuffer();
  return { screenshot: { ...shot, format: 'png', mediaType: 'image/png', data: png.toString('base64') }, legend: legendText(set, space) };
}

/** Mark `n` of the task's last marked screenshot, or a tool error naming the valid numbers. */
export function markOf(session: Pick<DesktopSession, 'marks'>, n: number): ScreenMark {
  const marks = session.marks;
  if (!marks || marks.length === 0)
    throw new ToolError(
      `there is no mark ${n}: this desktop has no marked screenshot with marks yet. Take {"action": "screenshot", "marks": true} first, or give x/y or a target.`,
      false,
      'invalid_input',
    );
  const mark = marks.find((m) => m.n === n);
  if (!mark)
    throw new ToolError(
      `there is no mark ${n}: the last marked screenshot has marks 1–${marks.length}. Use one of those, or take a new marked screenshot.`,
      false,
      'invalid_input',
    );
  return mark;
}

/** What a mark means to the policy gate: the element's own words (role and name, or text). */
export const markTarget = (session: Pick<DesktopSession, 'marks'>, n: number): ElementTarget | undefined => {
  const mark = session.marks?.find((m) => m.n === n);
  return mark && markElement(mark);
};

const centre = (m: ScreenMark): Point => ({ x: Math.round(m.box.x + m.box.width / 2), y: Math.round(m.box.y + m.box.height / 2) });

/**
 * Finds a mark's element on the screen as it is now, by its role and name (or text): a moved
 * element is still hit; several alike are told apart by where the mark was; a vanished one is a
 * `target_missed` naming the mark — never a click where it used to be.
 */
export async function resolveMark(session: DesktopSession, mark: ScreenMark): Promise<Resolution> {
  const element = markElement(mark);
  try {
    return await resolveTarget(session.sandbox, element);
  } catch (error) {
    if (!(error instanceof TargetError)) throw error;
    if (error.code === 'target_ambiguous') {
      const chosen = await resolveTarget(session.sandbox, element, centre(mark));
      if (chosen.target.resolver !== 'coordinate') return chosen;
    }
    throw new TargetError(
      `mark ${legendLine(mark)} is not on the screen as it was marked: ${error.message}`,
      error.code === 'target_ambiguous' ? 'target_ambiguous' : 'target_missed',
      error.candidates,
    );
  }
}
