import { describe, expect, it } from 'vitest';
import { scoreCase } from '../../../../../electron/runtime/evaluation/grounding/groundingScore.js';

const element = { kind: 'element' as const, box: { x: 100, y: 200, width: 120, height: 40 } };

describe('a grounding case is scored on outcome, resolver and box', () => {
  it('a tree box within 3 px of the element on every edge passes; 5 px off fails and says where', () => {
    const found = (x: number) => ({
      outcome: 'found' as const,
      resolver: 'accessibility' as const,
      box: { x, y: 201, width: 120, height: 39 },
    });
    const expect1 = { outcome: 'found' as const, resolver: 'accessibility' as const, element: 'save' };
    expect(scoreCase(expect1, found(102), element)).toEqual({ pass: true });
    const off = scoreCase(expect1, found(105), element);
    expect(off.pass).toBe(false);
    expect(off.why).toMatch(/box \(105, 201\) 120×39 is not the element's \(100, 200\) 120×40/);
  });

  it('an OCR box passes when its centre lands on the element and most of it overlaps; off the element it fails', () => {
    const want = { outcome: 'found' as const, resolver: 'ocr' as const, element: 'export' };
    const ocr = (x: number) => ({ outcome: 'found' as const, resolver: 'ocr' as const, box: { x, y: 205, width: 100, height: 30 } });
    expect(scoreCase(want, ocr(130), element).pass).toBe(true);
    expect(scoreCase(want, ocr(200), element).pass).toBe(false);
  });

  it('the right outcome by the wrong resolver fails', () => {
    const verdict = scoreCase(
      { outcome: 'found', resolver: 'ocr', element: 'save' },
      { outcome: 'found', resolver: 'accessibility', box: element.box },
      element,
    );
    expect(verdict).toEqual({ pass: false, why: 'expected the ocr resolver, found by accessibility' });
  });

  it('an ambiguity must name as many candidates as the scene has; a miss where a find was expected quotes the error', () => {
    const two = { outcome: 'ambiguous' as const, candidates: ['a', 'b'], message: '2 elements are button "Delete"' };
    expect(scoreCase({ outcome: 'ambiguous', candidates: 2 }, two, { kind: 'element' }).pass).toBe(true);
    expect(scoreCase({ outcome: 'ambiguous', candidates: 3 }, two, { kind: 'element' }).why).toMatch(
      /expected 3 candidates, the error named 2/,
    );
    const missed = { outcome: 'missed' as const, candidates: [], message: 'no element on the screen is button "Save"' };
    expect(scoreCase({ outcome: 'found', resolver: 'accessibility', element: 'save' }, missed, element).why).toBe(
      'expected found, got missed: no element on the screen is button "Save"',
    );
  });

  it("an application's control must lie inside its window and be smaller than it", () => {
    const window = { kind: 'window' as const, box: { x: 400, y: 300, width: 420, height: 80 } };
    const want = { outcome: 'found' as const, resolver: 'accessibility' as const };
    const button = (y: number) => ({
      outcome: 'found' as const,
      resolver: 'accessibility' as const,
      box: { x: 700, y, width: 100, height: 34 },
    });
    expect(scoreCase(want, button(340), window).pass).toBe(true);
    expect(scoreCase(want, button(600), window).why).toMatch(/is not a part of the window/);
    expect(scoreCase(want, button(340), { kind: 'window' }).why).toMatch(/window to check the box against was not found/);
  });
});
