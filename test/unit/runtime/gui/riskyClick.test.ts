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
});
