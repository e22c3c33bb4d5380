import type { GroundingPageFile } from './loadGroundingSuite.js';

/** The file name of the composed stage in the desktop's home folder (under the suite's folder). */
export const STAGE_FILE = 'stage.html';

const escapeAttr = (s: string): string => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

/**
 * One document holding every page of the suite: each `*.html` fragment a `<template>`, the
 * `*.css` and `*.js` files inline. Its script shows the page the URL's hash names
 * (`#page=notes-en.html&theme=dark`), so scenes and themes change without loading a new
 * document: a scene is shown as fast as the page can redraw. (It began as a way around Chromium
 * caching only its first document's tree, which the tree reader now walks past.)
 */
export function stagePage(pages: readonly GroundingPageFile[]): string {
  const of = (ext: string) => pages.filter((p) => p.name.endsWith(ext));
  const templates = of('.html').map((p) => `<template data-page="${escapeAttr(p.name)}">\n${p.data}</template>`);
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<meta charset="utf-8" />',
    '<title>Grounding</title>',
    ...of('.css').map((p) => `<style>\n${p.data}</style>`),
    '<body>',
    '<main id="stage"></main>',
    ...templates,
    ...of('.js').map((p) => `<script>\n${p.data}</script>`),
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** The stage's URL showing one page (none: an empty stage) in a theme. */
export function stageUrl(folder: string, page: string | undefined, theme: string): string {
  return `file://${folder}/${STAGE_FILE}#page=${encodeURIComponent(page ?? '')}&theme=${theme}`;
}

/** The end of the stage's title while it shows that page in that theme (its script sets it). */
export const stageTitleEnd = (page: string | undefined, theme: string): string => `· ${page || 'empty'} · ${theme}`;
