import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * Visible English phrases (two or more English words in a row, "a" included) outside code, tool and file names,
 * the product's name and what the user wrote (the task title and goal); for the 简体中文 pass.
 * Text is read per block (a paragraph, a cell, a button…), so a sentence split over inline
 * elements is still one sentence; input placeholders are visible text too.
 */
export const ENGLISH_SENTENCES = `(() => {
  const skip = 'code, pre, kbd, script, style, option, .brand, .task-title, .bubble, a[href^="#/task/"], [data-testid="approval-task"], [data-testid="trace-view"] > h1';
  const block = 'p, li, td, th, dd, dt, label, button, h1, h2, h3, h4, h5, h6, legend, figcaption, summary, div, section, nav, header, main, form, fieldset, body';
  // Two or more words in a row ("a" and "I" are words too), at least one of two letters or more.
  const english = (text) =>
    text
      .replace(/[\\w-]+(\\.[\\w-]+)+/g, ' ')
      .match(/\\b[A-Za-z]+(\\s+[A-Za-z]+)+\\b/g)
      ?.find((hit) => /[A-Za-z]{2}/.test(hit));
  const blocks = new Map();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || el.closest(skip) || !el.checkVisibility()) continue;
    const owner = el.closest(block);
    blocks.set(owner, (blocks.get(owner) ?? '') + node.textContent);
  }
  const found = [...blocks.values()].map(english);
  for (const input of document.querySelectorAll('[placeholder]')) {
    if (input.checkVisibility()) found.push(english(input.getAttribute('placeholder')));
  }
  return found.filter((hit) => hit !== undefined);
})()`;

/** Fails with every English phrase visible in a 简体中文 page. */
export async function expectNoEnglish(page: Page, view: string): Promise<void> {
  const english = await englishIn(page);
  expect(english, `${view}: English in the 简体中文 page`).toEqual([]);
}

/** The English phrases visible in the page now. */
export function englishIn(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(ENGLISH_SENTENCES);
}
