import { describe, expect, it } from 'vitest';
import { classifyClick, classifyClickTarget } from '../../../../electron/runtime/gui/riskyClick.js';

describe('click risk classification (browser and desktop clicks)', () => {
  it.each([
    'Pay',
    'Pay now',
    'BUY NOW',
    'Buy',
    'Place order',
    'Place  Order',
    'Place your order',
    'Purchase',
    'Checkout',
    '支付',
    '付款',
    '立即付款',
    '购买',
    '立即购买',
    '提交订单',
    'ｐａｙ',
  ])('"%s" is a payment click', (text) => {
    expect(classifyClick({ text, role: 'button' }).risk).toBe('payment');
    expect(classifyClickTarget({ text })?.risk).toBe('payment');
  });

  it.each(['Save', 'Payload', 'Payroll report', 'Buyer guide', 'Update basket', 'Display settings', 'Calculate', '保存', '搜索', ''])(
    '"%s" is an ordinary click',
    (text) => {
      expect(classifyClick({ text, role: 'button' })).toEqual({ risk: 'write' });
      expect(classifyClickTarget({ text })).toBeUndefined();
    },
  );

  it('names the word that matched', () => {
    expect(classifyClickTarget({ text: 'Review and place order' })).toMatchObject({ risk: 'payment', matched: 'place order' });
    expect(classifyClick({ text: 'Review and place order', role: 'button' }).because).toBe(
      'button "Review and place order" says "place order"',
    );
  });

  it('a link to a checkout URL is a payment even with harmless words; the URL of a non-link does not count', () => {
    expect(classifyClick({ text: 'Continue', role: 'link', url: 'https://shop.example/checkout?step=2' })).toMatchObject({
      risk: 'payment',
      because: expect.stringContaining('/checkout'),
    });
    expect(classifyClickTarget({ text: 'Continue', role: 'a', url: 'https://shop.test/checkout?cart=1' })?.risk).toBe('payment');
    expect(classifyClick({ text: 'Continue', role: 'button', url: 'https://shop.test/checkout' }).risk).toBe('write');
  });

  it('delete and send words are classified as such, and are not payments for the desktop tier', () => {
    expect(classifyClick({ text: 'Delete account', role: 'button' }).risk).toBe('delete');
    expect(classifyClick({ text: '删除', role: 'button' }).risk).toBe('delete');
    expect(classifyClick({ text: 'Send message', role: 'button' }).risk).toBe('send');
    expect(classifyClick({ text: '发送', role: 'button' }).risk).toBe('send');
    expect(classifyClickTarget({ text: 'Delete account' })).toBeUndefined();
  });

  it.each([
    ['zero-width space', 'Place\u200Border'],
    ['zero-width joiner and word joiner', 'Pl\u200Dace \u2060order'],
    ['BOM inside a word', 'Place or\uFEFFder'],
    ['soft hyphen', 'Place or\u00ADder'],
    ['Cyrillic letters', 'Plасе оrdеr'],
    ['Greek letters', 'Ρlace οrder'],
    ['full-width letters', 'Ｐｌａｃｅ　ｏｒｄｅｒ'],
    ['accents', 'Plàce ördér'],
    ['Submit order', 'Submit order'],
    ['Authorize payment', 'Authorize payment'],
    ['Authorise the payment', 'Authorise the payment'],
    ['Complete purchase', 'Complete purchase'],
    ['Finalize order', 'Finalize order'],
    ['Confirm payment', 'Confirm payment'],
    ['Order now', 'Order now'],
    ['Pay now', 'Pay now'],
    ['立即订购', '立即订购'],
    ['确认支付', '确认支付'],
    ['立即支付', '立即支付'],
    ['去结算', '去结算'],
    ['full-width Chinese punctuation', '【立即订购】'],
    ['Chinese with a zero-width space', '提\u200B交订单'],
  ])('an obfuscated or extended label (%s) is a payment click', (_, text) => {
    expect(classifyClick({ text, role: 'button' }).risk).toBe('payment');
    expect(classifyClickTarget({ text })?.risk).toBe('payment');
  });

  it('a harmless accessible name does not hide risky visible text, nor the other way round', () => {
    expect(classifyClick({ text: 'Continue', visibleText: 'Pay now', role: 'button' }).risk).toBe('payment');
    expect(classifyClick({ text: 'Pay now', visibleText: 'Continue', role: 'button' }).risk).toBe('payment');
  });

  it('a name that differs from the visible text asks even when neither says anything risky', () => {
    expect(classifyClick({ text: 'Next step', visibleText: 'Continue', role: 'button' })).toMatchObject({
      risk: 'send',
      because: expect.stringContaining('shows "Continue" but is announced as "Next step"'),
    });
    // An icon, or a name that extends the text, is no mismatch.
    expect(classifyClick({ text: 'Close dialog', visibleText: 'Close', role: 'button' }).risk).toBe('write');
    expect(classifyClick({ text: 'Close', visibleText: '×', role: 'button' }).risk).toBe('write');
  });

  it('a "Continue" button whose form posts to /pay or asks for card fields is a payment', () => {
    const pay = { action: 'https://shop.test/pay', method: 'post', fields: ['name'] };
    expect(classifyClick({ text: 'Continue', role: 'button', form: pay })).toMatchObject({
      risk: 'payment',
      because: expect.stringContaining('posts to https://shop.test/pay'),
    });
    const card = { action: 'https://shop.test/step2', method: 'post', fields: ['cc-number', 'cvc', 'name'] };
    expect(classifyClick({ text: 'Continue', role: 'button', form: card }).risk).toBe('payment');
    const plain = { action: 'https://shop.test/search', method: 'get', fields: ['q'] };
    expect(classifyClick({ text: 'Continue', role: 'button', form: plain }).risk).toBe('write');
  });
});
