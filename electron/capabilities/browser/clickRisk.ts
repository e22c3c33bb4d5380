import type { RiskClass } from '../../contract/index.js';

/** What the policy gate learns about a click target: what it says, what it is, where it leads. */
export interface ClickTarget {
  role: string;
  name: string;
  href?: string;
}

/** The risk of clicking a target, and the words that decided it. */
export interface ClickRisk {
  risk: RiskClass;
  because?: string;
}

// Order matters: the first class whose words match decides. Latin words match whole words only.
const RULES: readonly { risk: RiskClass; words: RegExp; cjk: RegExp; url: RegExp }[] = [
  {
    risk: 'payment',
    words:
      /\b(pay(\s+now)?|buy(\s+now)?|purchase|place\s+(your\s+)?order|complete\s+(order|purchase)|confirm\s+(order|purchase|payment)|check\s*out|subscribe)\b/i,
    cjk: /支付|付款|购买|提交订单|下单|结算|确认订单|立即购买/,
    url: /\/(checkout|pay|payment|purchase)(\/|\?|$)/i,
  },
  { risk: 'delete', words: /\b(delete|remove|erase|destroy)\b/i, cjk: /删除|移除/, url: /\/(delete|remove)(\/|\?|$)/i },
  { risk: 'send', words: /\b(send|publish|post\s+now)\b/i, cjk: /发送|发布/, url: /\/(send|publish)(\/|\?|$)/i },
];

/**
 * Classifies a click by the target's text, role and link URL: pay/buy/place-order words (also
 * 支付, 付款, 购买, 提交订单 …) are a payment, delete words a delete, send words a send; any
 * other click only changes the task's own isolated page, a write inside its sandbox.
 */
export function clickRisk(target: ClickTarget): ClickRisk {
  const text = target.name.replace(/\s+/g, ' ').trim();
  for (const rule of RULES) {
    const word = text.match(rule.words)?.[0] ?? text.match(rule.cjk)?.[0];
    if (word) return { risk: rule.risk, because: `${target.role || 'element'} "${text.slice(0, 80)}" says "${word}"` };
    if (target.href && rule.url.test(safePath(target.href))) {
      return { risk: rule.risk, because: `${target.role || 'link'} leads to ${target.href}` };
    }
  }
  return { risk: 'write' };
}

function safePath(href: string): string {
  try {
    return new URL(href).pathname;
  } catch {
    return href;
  }
}
