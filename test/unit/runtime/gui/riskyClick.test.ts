import { describe, expect, it } from 'vitest';
import { classifyClickTarget } from '../../../../electron/runtime/gui/riskyClick.js';

describe('risky click classification', () => {
  it.each([
    'Pay',
    'Pay now',
    'BUY NOW',
    'Place order',
    'Place  Order',
    'Purchase',
    'Checkout',
    '支付',
    '立即付款',
    '购买',
    '提交订单',
    'ｐａｙ',
  ])('"%s" is a payment click', (text) => expect(classifyClickTarget({ text })?.risk).toBe('payment'));
  it.each(['Save', 'Payload', 'Buyer guide', 'Display settings', '保存', '搜索', ''])('"%s" is not', (text) =>
    expect(classifyClickTarget({ text })).toBeUndefined(),
  );
  it('names the word that matched', () => {
    expect(classifyClickTarget({ text: 'Review and place order' })).toEqual({ risk: 'payment', matched: 'place order' });
  });
  it('a link to a checkout URL is a payment click', () => {
    expect(classifyClickTarget({ text: 'Continue', role: 'a', url: 'https://shop.test/checkout?cart=1' })?.risk).toBe('payment');
  });
});
