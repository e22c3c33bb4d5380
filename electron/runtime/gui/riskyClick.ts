/** What a click would hit, as far as the page tells (text, role, URL). */
export interface ClickTarget {
  text: string;
  role?: string;
  url?: string;
}

/** A click that commits money or an order: it waits for a human approval, never remembered. */
export interface RiskyClick {
  risk: 'payment';
  /** The word that made it risky, e.g. "Place order" or "支付". */
  matched: string;
}

// English words match whole words, case-insensitively; CJK phrases match anywhere in the label.
const ENGLISH = [
  'pay',
  'pay now',
  'buy',
  'buy now',
  'place order',
  'purchase',
  'checkout',
  'check out',
  'complete order',
  'confirm payment',
  'subscribe',
];
const CJK = ['支付', '付款', '购买', '提交订单', '下单', '结算', '确认订单', '立即购买'];
const ENGLISH_RE = new RegExp(`\\b(${ENGLISH.map((w) => w.replace(/ /g, '\\s+')).join('|')})\\b`, 'i');
const URL_RE = /\/(checkout|payment|pay|purchase|order\/confirm)(\/|\?|$)/i;

/**
 * Classifies a click target: Pay / Buy / Place order / 支付 / 付款 / 购买 / 提交订单 and friends,
 * on the element's text or an obviously payment-bound link, make it a `payment` click.
 */
export function classifyClickTarget(target: ClickTarget): RiskyClick | undefined {
  const text = target.text.normalize('NFKC');
  const english = ENGLISH_RE.exec(text);
  if (english) return { risk: 'payment', matched: english[1]! };
  const cjk = CJK.find((w) => text.includes(w));
  if (cjk) return { risk: 'payment', matched: cjk };
  if (target.url && target.role === 'a' && URL_RE.test(target.url)) return { risk: 'payment', matched: target.url };
  return undefined;
}
