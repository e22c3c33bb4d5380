import sharp from 'sharp';
import type { SandboxdResult } from '../../contract/index.js';
import { CoordinateSpace, type Point } from '../../runtime/gui/coordinates.js';
import { classifyClickTarget, type RiskyClick } from '../../runtime/gui/riskyClick.js';
import type { ScreenMark } from '../../runtime/gui/screenMarks.js';
import { labelKey } from '../../runtime/gui/targetMatch.js';
import type { DesktopSandbox } from '../sandbox/desktopSandbox.js';
import type { SandboxEffects } from '../sandbox/egressSources.js';

type Target = SandboxdResult<'browser.targets'>['targets'][number];

/** A click target found under a screen point, with its risk and (when risky) a marked screenshot. */
export interface TargetHit {
  target: Target;
  url?: string;
  risky?: RiskyClick;
  /** PNG (base64) of the screen with the target outlined: what the approval shows. */
  markedScreenshot?: string;
}

/**
 * A task's desktop: its sandbox, the model↔screen coordinate space, and what the page showed
 * after the last action (so the synchronous policy classification can see click targets).
 */
export class DesktopSession {
  readonly space: CoordinateSpace;
  private targets: TargetHit[] = [];
  /** True while a human has taken over: the agent's actions are refused. */
  takenOver = false;
  /** The page the desktop's browser showed at the last refresh (an approved click's own origin). */
  pageUrl: string | undefined;
  /** The marks of the last marked screenshot (screen pixels): what `{"action": "click", "mark": N}` means. */
  marks: ScreenMark[] | undefined;
  /** The egress proxy's effect gate for this desktop (absent on network `none`: nothing can leave). */
  egress: SandboxEffects | undefined;

  constructor(
    readonly taskId: string,
    readonly sandbox: DesktopSandbox,
  ) {
    // The model space is picked for the screen in points: a HiDPI desktop shows the model the same picture, sharper.
    this.space = new CoordinateSpace(sandbox.screen, 'auto', sandbox.scale);
  }

  /** The target under a screen point, from the last refresh (smallest rectangle wins). */
  targetAt(p: Point): TargetHit | undefined {
    const hits = this.targets.filter(({ target: { rect: r } }) => p.x >= r.x && p.x < r.x + r.width && p.y >= r.y && p.y < r.y + r.height);
    return hits.sort((a, b) => a.target.rect.width * a.target.rect.height - b.target.rect.width * b.target.rect.height)[0];
  }

  /** The page's target whose text is `label` (normalized), when exactly one is. */
  targetNamed(label: string): TargetHit | undefined {
    const hits = this.targets.filter((h) => labelKey(h.target.text) === labelKey(label));
    return hits.length === 1 ? hits[0] : undefined;
  }

  /** Re-reads the page's click targets; risky ones get a marked screenshot for the approval. */
  async refresh(): Promise<void> {
    const { url, targets } = await this.sandbox.call('browser.targets', {}).catch(() => ({ url: undefined, targets: [] as Target[] }));
    const hits: TargetHit[] = targets.map((target) => {
      const risky = classifyClickTarget({ text: target.text, role: target.tag, ...(url ? { url } : {}) });
      return { target, ...(url ? { url } : {}), ...(risky ? { risky } : {}) };
    });
    this.pageUrl = url;
    const risky = hits.filter((h) => h.risky);
    if (risky.length > 0) {
      const shot = await this.sandbox.call('screen.capture', { format: 'png' });
      for (const hit of risky) hit.markedScreenshot = await markTarget(shot.data, shot.screenWidth, shot.screenHeight, hit.target.rect);
    }
    this.targets = hits;
  }
}

/** Outlines a rectangle (and a crosshair at its centre) on a PNG. */
export async function markTarget(png: string, width: number, height: number, r: Target['rect']): Promise<string> {
  const cx = r.x + r.width / 2;
  const cy = r.y + r.height / 2;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect x="${r.x - 3}" y="${r.y - 3}" width="${r.width + 6}" height="${r.height + 6}" fill="none" stroke="#ff0033" stroke-width="4"/>
    <line x1="${cx - 12}" y1="${cy}" x2="${cx + 12}" y2="${cy}" stroke="#ff0033" stroke-width="2"/>
    <line x1="${cx}" y1="${cy - 12}" x2="${cx}" y2="${cy + 12}" stroke="#ff0033" stroke-width="2"/></svg>`;
  const out = await sharp(Buffer.from(png, 'base64'))
    .composite([{ input: Buffer.from(svg), top: 0, left: 0 }])
    .png()
    .toBuffer();
  return out.toString('base64');
}
