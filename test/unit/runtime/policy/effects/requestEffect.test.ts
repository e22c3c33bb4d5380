import { describe, expect, it } from 'vitest';
import { requestEffect, webSocketEffect } from '../../../../../electron/runtime/policy/effects/requestEffect.js';

const page = 'https://shop.test';
const req = (over: Partial<Parameters<typeof requestEffect>[0]>) =>
  requestEffect({ method: 'GET', url: `${page}/`, mainFrameNavigation: false, pageOrigin: page, ...over });

describe('what a request would do if it left', () => {
  it('GET, HEAD and OPTIONS subresources and same-origin navigations are reads', () => {
    for (const method of ['GET', 'HEAD', 'OPTIONS']) expect(req({ method, url: `${page}/api/items` })).toBeUndefined();
    expect(req({ url: `${page}/next`, mainFrameNavigation: true })).toBeUndefined();
  });

  it('any other method is a write; a main-frame one is a form submission', () => {
    expect(req({ method: 'POST', url: `${page}/api/draft` })).toMatchObject({ kind: 'request', risk: 'write' });
    expect(req({ method: 'put', url: `${page}/api/x` })).toMatchObject({ method: 'PUT' });
    expect(req({ method: 'POST', url: `${page}/comments`, mainFrameNavigation: true })).toMatchObject({ kind: 'form' });
    expect(req({ method: 'DELETE', url: `${page}/items/delete` })).toMatchObject({ risk: 'delete' });
  });

  it('a main-frame navigation to another origin or a payment page is an effect', () => {
    expect(req({ url: 'https://elsewhere.test/?q=data', mainFrameNavigation: true })).toMatchObject({ kind: 'navigation' });
    expect(req({ url: `${page}/checkout`, mainFrameNavigation: true })).toMatchObject({ kind: 'navigation', risk: 'payment' });
  });

  it('payment paths, payment fields and payment hosts each make a payment, fields masked', () => {
    expect(req({ method: 'POST', url: `${page}/pay` })?.risk).toBe('payment');
    expect(req({ method: 'POST', url: 'https://api.stripe.com/v1/tokens' })?.risk).toBe('payment');
    const form = req({
      method: 'POST',
      url: `${page}/step2`,
      body: 'name=Ada&cardnumber=4111111111111111&cvc=123&amount=25',
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(form).toMatchObject({ risk: 'payment', fields: { name: 'Ada', cardnumber: '•••• 1111', cvc: '••••', amount: '25' } });
    const json = req({ method: 'POST', url: `${page}/api/s`, body: JSON.stringify({ order: { currency: 'EUR', token: 'tok_secret' } }) });
    expect(json).toMatchObject({ risk: 'payment', fields: { 'order.currency': 'EUR', 'order.token': '••••' } });
  });

  it('a body without fields is shown with card-like digits masked', () => {
    expect(req({ method: 'POST', url: `${page}/api/note`, body: 'card 4111 1111 1111 1111 thanks' })?.body).toBe('card •••• 1111 thanks');
  });

  it('a WebSocket message is a send, a payment when its fields say so', () => {
    expect(webSocketEffect('wss://chat.test/ws', 'hello')).toMatchObject({ kind: 'websocket', method: 'WS', risk: 'send', body: 'hello' });
    expect(webSocketEffect('wss://chat.test/ws', JSON.stringify({ amount: 5, currency: 'USD' })).risk).toBe('payment');
  });
});
