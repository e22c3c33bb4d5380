import { describe, expect, it } from 'vitest';
import { contentText, inputMessages, reasonText } from '../../../../../electron/runtime/trace/telemetry/spanContent.js';
import { Redactor } from '../../../../../electron/runtime/trace/redactor.js';

const redactor = new Redactor();
redactor.add('gh', 'tok_unit_9Zx4Wq2Lm8');

describe('span content', () => {
  it('a known secret is a placeholder in content, however it is nested', () => {
    expect(contentText({ headers: { authorization: 'token tok_unit_9Zx4Wq2Lm8' } }, redactor)).toBe(
      '{"headers":{"authorization":"token [secret:gh]"}}',
    );
  });

  it('images and other base64 runs are named by size, never exported', () => {
    const png = 'iVBORw0KGgo'.padEnd(4000, 'A');
    expect(contentText({ screenshot: png, note: 'ok' }, redactor)).toBe('{"screenshot":"[binary, 4000 characters]","note":"ok"}');
    const messages = inputMessages({
      system: '',
      tools: [],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', mediaType: 'image/png', data: png },
            { type: 'text', text: 'look' },
          ],
        },
      ],
    });
    expect(JSON.stringify(messages)).not.toContain('iVBORw0KGgo');
    expect(messages[0]!.parts).toEqual([
      { type: 'blob', modality: 'image', mime_type: 'image/png', content: '[image]' },
      { type: 'text', content: 'look' },
    ]);
  });

  it('long content is cut with its length named', () => {
    const text = contentText('x'.repeat(20_000), redactor);
    expect(text.length).toBeLessThan(16_500);
    expect(text.endsWith('… [20000 characters]')).toBe(true);
  });

  it('without capture a reason keeps only its head: what failed, not the words it quotes', () => {
    expect(reasonText('planner gave up: the model gave up: the goal was …', redactor, false)).toBe('planner gave up');
    expect(reasonText('acceptance check failed: greeting (hello tok_unit_9Zx4Wq2Lm8)', redactor, false)).toBe('acceptance check failed');
    expect(reasonText('all 2 acceptance checks passed', redactor, false)).toBe('all 2 acceptance checks passed');
    expect(reasonText('tok_unit_9Zx4Wq2Lm8 rejected', redactor, false)).toBe('[secret:gh] rejected');
    expect(reasonText('acceptance check failed: greeting (hello tok_unit_9Zx4Wq2Lm8)', redactor, true)).toBe(
      'acceptance check failed: greeting (hello [secret:gh])',
    );
  });
});
