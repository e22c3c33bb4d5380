import type { ElementTarget, ScreenBox } from '../../../contract/index.js';
import type { GroundingExpect, GroundingTheme } from './groundingCase.js';
import type { GroundingOutcome } from './groundingScore.js';

/** One target resolved on one screen in one theme, and whether it came out as expected. */
export interface GroundingCaseResult {
  scene: string;
  target: string;
  language: 'en' | 'zh';
  /** `1280x800`. */
  screen: string;
  theme: GroundingTheme;
  wanted: ElementTarget;
  expected: GroundingExpect;
  /** The box the scene's layout gives (a page element's, or the application window's). */
  expectedBox?: ScreenBox;
  actual: GroundingOutcome;
  pass: boolean;
  why?: string;
  /** A failure the product has today (the scene names it): listed, not counted in `failed`. */
  knownGap?: string;
  ms: number;
}

/** Cases and passes of one group. */
export interface Tally {
  cases: number;
  passed: number;
}

/** The suite's report: every case, tallies by resolver, outcome, language, screen and theme, wall time. */
export interface GroundingReport {
  suite: string;
  kind: 'grounding';
  image: string;
  cases: number;
  passed: number;
  /** Cases not as expected, known gaps left out: the suite fails when this is not 0. */
  failed: number;
  /** Cases marked as known gaps: failing still, or closed (passing: remove the mark). */
  knownGaps: { failing: string[]; closed: string[] };
  totals: {
    /** Found targets, by the resolver expected to find them. */
    byResolver: Record<string, Tally>;
    /** By expected outcome: found, ambiguous, missed. */
    byOutcome: Record<string, Tally>;
    /** What the resolver actually gave: found by accessibility / ocr / coordinate, ambiguous, missed, error. */
    actual: Record<string, number>;
    byLanguage: Record<string, Tally>;
    byScreen: Record<string, Tally>;
    byTheme: Record<string, Tally>;
  };
  /** Seconds each screen's desktop took to start. */
  desktopStartSeconds: Record<string, number>;
  wallSeconds: number;
  perCase: GroundingCaseResult[];
}

function tally(cases: readonly GroundingCaseResult[], key: (c: GroundingCaseResult) => string | undefined): Record<string, Tally> {
  const out: Record<string, Tally> = {};
  for (const c of cases) {
    const k = key(c);
    if (k === undefined) continue;
    const t = (out[k] ??= { cases: 0, passed: 0 });
    t.cases++;
    if (c.pass) t.passed++;
  }
  return out;
}

const actualKey = (o: GroundingOutcome): string => (o.outcome === 'found' ? `found by ${o.resolver}` : o.outcome);

/** The report from the cases run. */
export function groundingReport(
  o: { suite: string; image: string; wallSeconds: number; desktopStartSeconds: Record<string, number> },
  perCase: GroundingCaseResult[],
): GroundingReport {
  const passed = perCase.filter((c) => c.pass).length;
  const id = (c: GroundingCaseResult) => `${c.scene}/${c.target} ${c.screen} ${c.theme}`;
  const gaps = perCase.filter((c) => c.knownGap !== undefined);
  const actual: Record<string, number> = {};
  for (const c of perCase) actual[actualKey(c.actual)] = (actual[actualKey(c.actual)] ?? 0) + 1;
  return {
    suite: o.suite,
    kind: 'grounding',
    image: o.image,
    cases: perCase.length,
    passed,
    failed: perCase.filter((c) => !c.pass && c.knownGap === undefined).length,
    knownGaps: { failing: gaps.filter((c) => !c.pass).map(id), closed: gaps.filter((c) => c.pass).map(id) },
    totals: {
      byResolver: tally(perCase, (c) => (c.expected.outcome === 'found' ? c.expected.resolver : undefined)),
      byOutcome: tally(perCase, (c) => c.expected.outcome),
      actual,
      byLanguage: tally(perCase, (c) => c.language),
      byScreen: tally(perCase, (c) => c.screen),
      byTheme: tally(perCase, (c) => c.theme),
    },
    desktopStartSeconds: o.desktopStartSeconds,
    wallSeconds: o.wallSeconds,
    perCase,
  };
}
