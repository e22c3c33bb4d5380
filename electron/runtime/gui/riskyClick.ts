import type { RiskClass } from '../../contract/index.js';

/** What a click would hit, as far as the page tells (text, role, URL). */
export interface ClickTarget {
  text: string;
  /** ARIA role or tag (`link`, `a`, `button`…); the URL only counts for links. */
  role?: string;
  /** Where a link leads. */
  url?: string;
}

/** The risk class of a click, the words (or URL) that decided it, and a sentence for previews. */
export interface ClickRisk {
  risk: RiskClass;
  /** The word that made it risky, e.g. "Place order" or "支付", or the URL. */
  matched?: string;
  because?: string;
}

/** A click that commits money or an order: it waits for a human approval, never remembered. */
export interface RiskyClick {
  risk: 'payment';
  matched: string;
  because?: string;
}

interface Rule {
  risk: RiskClass;
  /** Latin words match whole words, case-insensitively. */
  words: RegExp;
  /** CJK phrases match anywhere in the label. */
  cjk: RegExp;
  url: RegExp;
}

// Order matters: the first class whose words match decides (a "Pay and send" button is a payment).
const RULES: readonly Rule[] = [
  {
    risk: 'payment',
    words:
      /\b(pay(\s+now)?|buy(\s+now)?|purchase|place\s+(your\s+)?order|complete\s+(order|purchase)|confirm\s+(order|purchase|payment)|check\s*out|subscribe)\b/i,
    cjk: /支付|付款|购买|提交订单|下单|结算|确认订单|立即购买/,
    url: /\/(checkout|pay|payment|purchase|order\/confirm)(\/|\?|$)/i,
  },
  { risk: 'delete', words: /\b(delete|remove|erase|destroy)\b/i, cjk: /删除|移除/, url: /\/(delete|remove)(\/|\?|$)/i },
  { risk: 'send', words: /\b(send|publish|post\s+now)\b/i, cjk: /发送|发布/, url: /\/(send|publish)(\/|\?|$)/i },
];

const LINK_ROLES = new Set(['a', 'link']);

/**
 * Classifies a click by the target's text, role and link URL: Pay / Buy / Place order / 支付 /
 * 付款 / 购买 / 提交订单 and friends are a `payment`, delete words a `delete`, send words a
 * `send`; any other click is an ordinary `write`. The one classifier for browser and desktop clicks.
 */
export function classifyClick(target: ClickTarget): ClickRisk {
  const text = target.text.normalize('NFKC').replace(/\s+/g, ' ').trim();
  const who = target.role || 'element';
  for (const rule of RULES) {
    const word = rule.words.exec(text)?.[0] ?? rule.cjk.exec(text)?.[0];
    if (word) return { risk: rule.risk, matched: word, because: `${who} "${text.slice(0, 80)}" says "${word}"` };
    if (target.url && LINK_ROLES.has(target.role ?? '') && rule.url.test(pathOf(target.url))) {
      return { risk: rule.risk, matched: target.url, because: `${who} leads to ${target.url}` };
    }
  }
  return { risk: 'write' };
}

/** A payment click (the desktop tier's question), or undefined for any other click. */
export function classifyClickTarget(target: ClickTarget): RiskyClick | undefined {
  const found = classifyClick(target);
  return found.risk === 'payment' && found.matched !== undefined
    ? { risk: 'payment', matched: found.matched, ...(found.because !== undefined && { because: found.because }) }
    : undefined;
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}
