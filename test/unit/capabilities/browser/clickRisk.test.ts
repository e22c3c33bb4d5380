import { describe, expect, it } from 'vitest';
import { clickRisk } from '../../../../electron/capabilities/browser/clickRisk.js';

describe('click target classification', () => {
  it.each(['Pay', 'Pay now', 'Buy', 'Place order', 'Place your order', 'Checkout', '支付', '付款', '购买', '提交订单', '立即购买'])(
    '"%s" is a payment',
    (name) => expect(clickRisk({ role: 'button', name }).risk).toBe('payment'),
  );

  it.each(['Payroll report', 'Update basket', 'Buyer guide', 'Calculate', 'Next'])('"%s" is an ordinary click', (name) =>
    expect(clickRisk({ role: 'button', name }).risk).toBe('write'),
  );

  it('a link to a checkout URL is a payment even with harmless words', () => {
    expect(clickRisk({ role: 'link', name: 'Continue', href: 'https://shop.example/checkout?step=2' })).toMatchObject({
      risk: 'payment',
      because: expect.stringContaining('/checkout'),
    });
  });

  it('delete and send words are classified as such', () => {
    expect(clickRisk({ role: 'button', name: 'Delete account' }).risk).toBe('delete');
    expect(clickRisk({ role: 'button', name: '删除' }).risk).toBe('delete');
    expect(clickRisk({ role: 'button', name: 'Send message' }).risk).toBe('send');
  });
});
