import type { RiskClass } from '../../../contract/index.js';

/** The words and URL paths of one risk class, in English and Chinese. */
export interface RiskWords {
  risk: RiskClass;
  /** Latin phrases: whole words, case-insensitive. */
  words: RegExp;
  /** CJK phrases: anywhere in the label. */
  cjk: RegExp;
  /** URL paths that carry this effect (links, form actions, requests). */
  path: RegExp;
}

const VERB = String.raw`(?:submit|complete|confirm|authori[sz]e|finali[sz]e|place|make|process|send)`;
const OBJECT = String.raw`(?:order|payment|purchase|transaction|checkout)`;

/**
 * THE word list: every label classifier (browser clicks, key presses, desktop clicks) reads it.
 * Payment phrases match with or without the space, since an invisible character can stand in
 * for it ("Place\u200Border" shows as "Placeorder"). Order matters: the first class whose words
 * match decides (a "Pay and send" button is a payment).
 */
export const RISK_WORDS: readonly RiskWords[] = [
  {
    risk: 'payment',
    words: new RegExp(
      String.raw`\b(?:${VERB}\s*(?:(?:your|my|the|this)\s*)?${OBJECT}s?|(?:order|pay|buy|purchase|checkout|subscribe)\s*now|` +
        String.raw`pay|buy|purchase|check\s*out|subscribe|proceed\s*to\s*(?:checkout|payment)|` +
        String.raw`authori[sz]e\s*(?:charge|card)|transfer\s*(?:money|funds)|donate)\b`,
      'i',
    ),
    cjk: /支付|付款|购买|订购|下单|结算|结账|买单|提交订单|确认订单|确认支付|确认付款|立即支付|立即付款|立即购买|立即订购|去结算|马上购买|充值|打赏|转账|汇款/,
    path: /\/(?:checkout|pay|payment|payments|purchase|billing|charge|charges|order\/confirm|orders\/confirm|place-?order|cart\/checkout)(?:\/|\?|$|\.)/i,
  },
  {
    risk: 'delete',
    words: /\b(?:delete|remove|erase|destroy|wipe)\b/i,
    cjk: /删除|移除|清空|销毁/,
    path: /\/(?:delete|remove|destroy)(?:\/|\?|$)/i,
  },
  {
    risk: 'send',
    words: /\b(?:send|publish|post\s+now)\b/i,
    cjk: /发送|发布/,
    path: /\/(?:send|publish)(?:\/|\?|$)/i,
  },
];

/**
 * Form field names and autocomplete tokens that carry payment data: card number, security code,
 * expiry, amount, currency, bank account (matched against `name`, `id` and `autocomplete`).
 */
export const PAYMENT_FIELD =
  /^(?:cc-(?:number|csc|exp(?:-month|-year)?|name|type)|transaction-(?:amount|currency)|card[-_ ]?(?:number|no|num)|cardnumber|pan|cvc|cvv|cvv2|csc|security[-_ ]?code|exp(?:iry|iration)?(?:[-_ ]?(?:date|month|year))?|amount|total|price|currency|iban|bic|swift|account[-_ ]?number|routing[-_ ]?number)$/i;

/** Hosts that take payments: a request to one is a payment whatever its path. */
export const PAYMENT_HOSTS: readonly string[] = [
  'stripe.com',
  'stripe.network',
  'paypal.com',
  'paypalobjects.com',
  'braintreegateway.com',
  'adyen.com',
  'checkout.com',
  'squareup.com',
  'klarna.com',
  'authorize.net',
  'worldpay.com',
  'mollie.com',
  'razorpay.com',
  'alipay.com',
  'alipayobjects.com',
  'pay.weixin.qq.com',
  'tenpay.com',
  'unionpay.com',
  '95516.com',
];

/** The first risk class whose words appear in a (normalized) label, with the words. */
export function riskOfWords(label: string): { risk: RiskClass; matched: string } | undefined {
  for (const rule of RISK_WORDS) {
    const matched = rule.words.exec(label)?.[0] ?? rule.cjk.exec(label)?.[0];
    if (matched) return { risk: rule.risk, matched };
  }
  return undefined;
}

/** The first risk class whose paths match a URL path. */
export function riskOfPath(pathname: string): RiskClass | undefined {
  return RISK_WORDS.find((rule) => rule.path.test(pathname))?.risk;
}

/** True for a payment provider's host or any subdomain of one. */
export function isPaymentHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return PAYMENT_HOSTS.some((h) => host === h || host.endsWith(`.${h}`));
}
