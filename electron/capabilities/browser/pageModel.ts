/** One element of a page snapshot: what assistive technology would announce, with a stable ref. */
export interface PageElement {
  /** Stable for the element's life on the page (`e1`, `e2`, …); target it as `{ ref }`. */
  ref: string;
  role: string;
  name: string;
  tag: string;
  href?: string;
  value?: string;
  disabled?: boolean;
  /** Heading level for headings. */
  level?: number;
}

/** A page as planners see it: untrusted content by definition. */
export interface PageModel {
  url: string;
  title: string;
  elements: PageElement[];
}

/** The attribute that carries an element's ref in the page. */
export const REF_ATTRIBUTE = 'data-agent-desk-ref';

/**
 * In-page script (plain JS: it runs in the browser): lists visible interactive elements and
 * headings with role and accessible name, giving each a ref kept on the element, so refs stay
 * stable across snapshots of the same page. Evaluate as `(script)(REF_ATTRIBUTE)`.
 */
export const PAGE_MODEL_SCRIPT = String.raw`function collectPageModel(refAttribute) {
  const selector =
    'a[href],button,input,select,textarea,summary,[role],[onclick],[contenteditable="true"],h1,h2,h3,h4,h5,h6';
  const root = document.documentElement;
  let seq = Number(root.getAttribute(refAttribute + '-seq') ?? '0');
  const implicitRole = (el) => {
    const tag = el.tagName.toLowerCase();
    if (tag === 'a') return 'link';
    if (tag === 'button' || tag === 'summary') return 'button';
    if (tag === 'select') return 'combobox';
    if (tag === 'textarea') return 'textbox';
    if (/^h[1-6]$/.test(tag)) return 'heading';
    if (tag === 'input') {
      const type = el.type;
      if (['button', 'submit', 'reset', 'image'].includes(type)) return 'button';
      if (type === 'checkbox') return 'checkbox';
      if (type === 'radio') return 'radio';
      return 'textbox';
    }
    return 'generic';
  };
  const nameOf = (el) => {
    const label = el.getAttribute('aria-label');
    if (label) return label;
    const labelledBy = el.getAttribute('aria-labelledby');
    if (labelledBy) return labelledBy.split(/\s+/).map((id) => (document.getElementById(id)?.textContent ?? '')).join(' ');
    if (el.tagName === 'INPUT' && ['button', 'submit', 'reset'].includes(el.type)) return el.value;
    if (['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName)) {
      const labels = el.labels ? [...el.labels].map((l) => l.textContent ?? '').join(' ') : '';
      return labels || el.getAttribute('placeholder') || el.getAttribute('name') || '';
    }
    return el.innerText ?? el.textContent ?? '';
  };
  const elements = [];
  for (const el of document.querySelectorAll(selector)) {
    const style = getComputedStyle(el);
    if (el.getClientRects().length === 0 || style.visibility === 'hidden') continue;
    let ref = el.getAttribute(refAttribute);
    if (!ref) {
      ref = 'e' + ++seq;
      el.setAttribute(refAttribute, ref);
    }
    const tag = el.tagName.toLowerCase();
    const item = {
      ref,
      role: el.getAttribute('role') ?? implicitRole(el),
      name: nameOf(el).replace(/\s+/g, ' ').trim().slice(0, 200),
      tag,
    };
    if (el.tagName === 'A' && el.href) item.href = el.href;
    const isSecret = el.tagName === 'INPUT' && el.type === 'password';
    if (('value' in el) && el.tagName !== 'BUTTON' && !isSecret) {
      item.value = el.value.slice(0, 200);
    }
    if (el.disabled) item.disabled = true;
    if (/^h[1-6]$/.test(tag)) item.level = Number(tag[1]);
    elements.push(item);
  }
  root.setAttribute(refAttribute + '-seq', String(seq));
  return { url: location.href, title: document.title, elements };
}`;
