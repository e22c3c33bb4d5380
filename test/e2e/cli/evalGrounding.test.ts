import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GroundingReport } from '../../../electron/runtime/evaluation/grounding/groundingReport.js';
import { CliSandbox } from '../../support/cliSandbox.js';
import { missing } from '../../support/requirements.js';
import { configureDesktop, desktopContainers } from '../../support/sandboxImage.js';
import { useHeavySlot } from '../../support/heavySlot.js';

useHeavySlot();

// The grounding suite as a user runs it: `agent-desk eval evals/grounding --json` starts one real
// desktop per screen size and resolves every target with the product's resolver.

const skip = missing('docker');

describe.skipIf(skip)('agent-desk eval evals/grounding', () => {
  const cli = new CliSandbox();
  let code: number | null;
  let report: GroundingReport;

  beforeAll(async () => {
    await configureDesktop(cli);
    const result = await cli.run(['eval', 'evals/grounding', '--json'], { timeoutMs: 900_000 });
    code = result.code;
    report = result.json<GroundingReport>();
  }, 1_200_000);

  afterAll(async () => {
    await cli.cleanup();
  });

  it('every case comes out as expected and the command exits 0', () => {
    const failed = report.perCase
      .filter((c) => !c.pass && c.knownGap === undefined)
      .map((c) => `${c.scene}/${c.target} ${c.screen} ${c.theme}: ${c.why}`);
    expect(failed).toEqual([]);
    expect(report.failed).toBe(0);
    expect(code).toBe(0);
  });

  it('covers both screens, both themes and both languages, with at least 30 targets each way', () => {
    expect(Object.keys(report.totals.byScreen).sort()).toEqual(['1280x800', '1920x1080']);
    expect(Object.keys(report.totals.byTheme).sort()).toEqual(['dark', 'light']);
    expect(Object.keys(report.totals.byLanguage).sort()).toEqual(['en', 'zh']);
    for (const tally of Object.values(report.totals.byScreen)) expect(tally.cases / 2).toBeGreaterThanOrEqual(30);
  });

  it('finds by the tree and by OCR, names ambiguities and misses, in pages and the GTK application', () => {
    expect(report.totals.byResolver.accessibility!.cases).toBeGreaterThan(0);
    expect(report.totals.byResolver.ocr!.cases).toBeGreaterThan(0);
    expect(report.totals.actual['found by accessibility']).toBeGreaterThan(0);
    expect(report.totals.actual['found by ocr']).toBeGreaterThan(0);
    const ambiguous = report.perCase.find((c) => c.scene === 'notes-page-en' && c.target === 'two-delete-buttons')!;
    expect(ambiguous.actual).toMatchObject({
      outcome: 'ambiguous',
      candidates: [expect.stringMatching(/button "Delete"/), expect.stringMatching(/button "Delete"/)],
    });
    const canvas = report.perCase.find((c) => c.scene === 'notes-page-zh' && c.target === 'canvas-text' && c.theme === 'light')!;
    expect(canvas).toMatchObject({ pass: true, actual: { outcome: 'found', resolver: 'ocr' } });
    const gtk = report.perCase.filter((c) => c.scene.startsWith('yad-') && c.expected.outcome === 'found');
    expect(gtk.length).toBeGreaterThan(0);
    for (const c of gtk) expect(c.actual).toMatchObject({ outcome: 'found', resolver: 'accessibility' });
    expect(report.perCase.some((c) => c.actual.outcome === 'missed' && c.scene.startsWith('yad-'))).toBe(true);
  });

  it('leaves no desktop behind', async () => {
    expect(await desktopContainers(cli.home)).toEqual([]);
  });
});
