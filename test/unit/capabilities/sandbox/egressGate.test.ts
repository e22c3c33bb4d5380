import { describe, expect, it } from 'vitest';
import { heldAnswer, proxiedRequestEffect, tunnelEffect } from '../../../../electron/capabilities/sandbox/egressRequests.js';
import { EgressSources } from '../../../../electron/capabilities/sandbox/egressSources.js';
import { compileWriteOrigins } from '../../../../electron/runtime/policy/effects/writeOrigins.js';

// The egress proxy's decisions for a task desktop, without sockets: which request is an effect,
// whose desktop sent it, and what an approval lets through.

const FORM = {
  'content-type': 'application/x-www-form-urlencoded',
  accept: 'text/html,application/xhtml+xml',
  'sec-fetch-dest': 'document',
};
const FETCH = { 'content-type': 'application/json', accept: '*/*', 'sec-fetch-dest': 'empty' };
const post = (url: string, body: string, headers: Record<string, string> = FORM) =>
  proxiedRequestEffect({ method: 'POST', url: new URL(url), headers, body })!;

function desktop(allowWrites: string[] = []) {
  const sources = new EgressSources(compileWriteOrigins(allowWrites));
  let human = false;
  const gate = sources.register('172.18.0.7', { taskId: 't1', humanAtControls: () => human });
  return { sources, gate, takeOver: () => (human = true) };
}

describe('which proxied requests are effects', () => {
  it('a form POST is one, with its fields and a card number masked', () => {
    const effect = post('http://shop.test/order', 'item=lamp&qty=2&card_number=4242424242424242');
    expect(effect).toMatchObject({ kind: 'form', method: 'POST', url: 'http://shop.test/order', risk: 'payment' });
    expect(effect.fields).toEqual({ item: 'lamp', qty: '2', card_number: '•••• 4242' });
  });

  it('a fetch PUT with a JSON body is a write; reads and plain navigations are not effects', () => {
    expect(
      proxiedRequestEffect({ method: 'PUT', url: new URL('http://shop.test/cart/1'), headers: FETCH, body: '{"qty":3}' }),
    ).toMatchObject({
      kind: 'request',
      risk: 'write',
      fields: { qty: '3' },
    });
    expect(proxiedRequestEffect({ method: 'GET', url: new URL('http://shop.test/list'), headers: FETCH })).toBeUndefined();
    expect(proxiedRequestEffect({ method: 'GET', url: new URL('http://other.test/'), headers: FORM })).toBeUndefined();
  });

  it('a navigation to a payment path is a payment even as a GET', () => {
    expect(proxiedRequestEffect({ method: 'GET', url: new URL('http://shop.test/checkout?total=9'), headers: FORM })).toMatchObject({
      kind: 'navigation',
      risk: 'payment',
    });
  });

  it('a tunnel to a payment provider is a payment; any other tunnel is opaque', () => {
    expect(tunnelEffect('checkout.stripe.com:443')).toMatchObject({
      method: 'CONNECT',
      url: 'https://checkout.stripe.com:443/',
      risk: 'payment',
    });
    expect(tunnelEffect('pay.weixin.qq.com:443')?.risk).toBe('payment');
    expect(tunnelEffect('docs.example.com:443')).toBeUndefined();
  });

  it('a held navigation is answered 204 (the page stays), a held fetch 403', () => {
    expect(heldAnswer(FORM).status).toBe(204);
    expect(heldAnswer(FETCH).status).toBe(403);
    expect(heldAnswer({ accept: 'text/html' }).status).toBe(204);
  });
});

describe('the desktop effect gate', () => {
  it('holds a write sent during an agent action, refuses one outside any action', async () => {
    const { sources, gate } = desktop();
    const order = post('http://shop.test/order', 'item=lamp');
    expect(sources.decide('172.18.0.7', order).action).toBe('refuse');
    gate.open(undefined, 'http://shop.test');
    expect(sources.decide('172.18.0.7', order)).toMatchObject({ action: 'hold', effect: { method: 'POST' } });
    expect(await gate.close()).toEqual([order]);
    expect(sources.decide('172.18.0.7', order).action).toBe('refuse');
  });

  it('an approval lets exactly the held request through once, not another path or a second copy', async () => {
    const { sources, gate } = desktop();
    const order = post('http://shop.test/order', 'item=lamp');
    gate.open({ risks: ['write'], effects: [order] }, 'http://shop.test');
    expect(sources.decide('172.18.0.7', post('http://shop.test/order/extra', 'item=lamp')).action).toBe('hold');
    expect(sources.decide('172.18.0.7', order).action).toBe('forward');
    expect(sources.decide('172.18.0.7', order).action).toBe('hold');
    expect((await gate.close()).map((e) => e.url)).toEqual(['http://shop.test/order/extra', 'http://shop.test/order']);
  });

  it("a request from an address no task registered is refused, even during another desktop's action", () => {
    const { sources, gate } = desktop();
    gate.open(undefined, 'http://shop.test');
    expect(sources.decide('172.18.0.9', post('http://shop.test/order', 'a=1')).action).toBe('refuse');
    expect(sources.decide(undefined, post('http://shop.test/order', 'a=1')).action).toBe('refuse');
    expect(sources.decide('::ffff:172.18.0.7', post('http://shop.test/order', 'a=1')).action).toBe('hold');
  });

  it("policy.allowWrites lets an origin's writes pass, but never a payment", () => {
    const { sources } = desktop(['http://shop.test:*']);
    expect(sources.decide('172.18.0.7', post('http://shop.test/cart', 'item=lamp')).action).toBe('forward');
    expect(sources.decide('172.18.0.7', post('http://shop.test/pay', 'amount=9')).action).toBe('refuse');
    expect(sources.decide('172.18.0.7', post('http://other.test/cart', 'item=lamp')).action).toBe('refuse');
  });

  it("a click approved for its payment label lets its own page's payment through, not a write to another origin", async () => {
    const { sources, gate } = desktop();
    gate.open({ risks: ['payment'] }, 'http://shop.test');
    expect(sources.decide('172.18.0.7', post('http://shop.test/pay', 'amount=9')).action).toBe('forward');
    expect(sources.decide('172.18.0.7', post('http://evil.test/collect', 'amount=9')).action).toBe('hold');
    await gate.close();
  });

  it('an approved payment tunnel passes for the rest of its action only', async () => {
    const { sources, gate } = desktop();
    const tunnel = tunnelEffect('checkout.stripe.com:443')!;
    gate.open(undefined, 'http://shop.test');
    expect(sources.decide('172.18.0.7', tunnel).action).toBe('hold');
    expect(await gate.close()).toEqual([tunnel]);
    gate.open({ risks: ['payment'], effects: [tunnel] }, 'http://shop.test');
    expect(sources.decide('172.18.0.7', tunnel).action).toBe('forward');
    expect(sources.decide('172.18.0.7', tunnel).action).toBe('forward');
    expect(await gate.close()).toEqual([]);
    expect(sources.decide('172.18.0.7', tunnel).action).toBe('refuse');
  });

  it("during a takeover the person's own requests pass; a forgotten desktop's are refused", () => {
    const { sources, takeOver } = desktop();
    takeOver();
    expect(sources.decide('172.18.0.7', post('http://shop.test/order', 'a=1')).action).toBe('forward');
    sources.unregister('172.18.0.7');
    expect(sources.decide('172.18.0.7', post('http://shop.test/order', 'a=1')).action).toBe('refuse');
  });

  it('the window stays open while a request is still being decided', async () => {
    const { sources, gate } = desktop();
    gate.open(undefined, 'http://shop.test');
    const settled = gate.arrived();
    const closing = gate.close();
    const order = post('http://shop.test/order', 'item=lamp');
    expect(sources.decide('172.18.0.7', order).action).toBe('hold');
    settled();
    expect(await closing).toEqual([order]);
  });
});
