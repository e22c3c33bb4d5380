import { describe, expect, it } from 'vitest';
import { activatingKey, activationOf } from '../../../../electron/capabilities/browser/keyPress.js';
import type { PageElement } from '../../../../electron/capabilities/browser/pageModel.js';

const field: PageElement = {
  ref: 'e2',
  role: 'textbox',
  name: 'Address',
  tag: 'input',
  submit: { ref: 'e3', name: '提交订单', action: 'http://shop.test/orders' },
};
const button: PageElement = { ref: 'e3', role: 'button', name: 'Pay', tag: 'button' };

describe('what a key press activates', () => {
  it.each([
    ['Enter', 'enter'],
    ['NumpadEnter', 'enter'],
    ['Shift+Enter', 'enter'],
    [' ', 'space'],
    ['Space', 'space'],
    ['Tab', undefined],
    ['a', undefined],
  ])('%j is %s', (key, kind) => expect(activatingKey(key)).toBe(kind));

  it("Enter in a form field submits with the form's default button", () => {
    expect(activationOf('Enter', field)).toMatchObject({
      ref: 'e3',
      role: 'button',
      name: '提交订单',
      how: 'submits the form with button "提交订单"',
    });
  });

  it('Enter or Space on a button activates it; Space in a field or Tab activates nothing', () => {
    expect(activationOf('Enter', button)).toMatchObject({ ref: 'e3', name: 'Pay' });
    expect(activationOf('Space', button)).toMatchObject({ ref: 'e3', name: 'Pay' });
    expect(activationOf('Space', field)).toBeUndefined();
    expect(activationOf('Tab', button)).toBeUndefined();
    expect(activationOf('Enter', undefined)).toBeUndefined();
  });

  it('a form without a button is submitted to its action', () => {
    const bare = { ...field, submit: { name: '', action: 'http://shop.test/checkout' } };
    expect(activationOf('Enter', bare)).toMatchObject({
      action: 'http://shop.test/checkout',
      how: 'submits the form to http://shop.test/checkout',
    });
  });
});
