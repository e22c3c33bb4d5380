import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isGroundingSuite, loadGroundingSuite } from '../../../../../electron/runtime/evaluation/grounding/loadGroundingSuite.js';
import { stagePage, stageTitleEnd, stageUrl } from '../../../../../electron/runtime/evaluation/grounding/stagePage.js';

const REPO = path.resolve(import.meta.dirname, '../../../../..');

describe('grounding suites', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
  const suite = (files: Record<string, string>): string => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'grounding-suite-'));
    dirs.push(dir);
    mkdirSync(path.join(dir, 'pages'));
    for (const [name, data] of Object.entries(files)) writeFileSync(path.join(dir, name), data);
    return dir;
  };
  const SUITE = 'name: g\nkind: grounding\nscreens: [{ width: 1280, height: 800 }]\n';

  it('the project suite has at least 30 targets over pages and a GTK app, both languages, both sizes, both themes', () => {
    const dir = path.join(REPO, 'evals/grounding');
    expect(isGroundingSuite(dir)).toBe(true);
    const loaded = loadGroundingSuite(dir);
    expect(loaded.scenes.flatMap((s) => s.targets).length).toBeGreaterThanOrEqual(30);
    expect(new Set(loaded.scenes.map((s) => s.language))).toEqual(new Set(['en', 'zh']));
    expect(loaded.scenes.some((s) => s.app?.command[0] === 'yad')).toBe(true);
    expect(loaded.suite.screens).toEqual([
      { width: 1280, height: 800 },
      { width: 1920, height: 1080 },
    ]);
    expect(loaded.suite.themes).toEqual(['light', 'dark']);
    const outcomes = new Set(loaded.scenes.flatMap((s) => s.targets.map((t) => t.expect.outcome)));
    expect(outcomes).toEqual(new Set(['found', 'ambiguous', 'missed']));
    expect(isGroundingSuite(path.join(REPO, 'evals/security'))).toBe(false);
  });

  it('a found target on a page without its element is an error naming the file and the rule', () => {
    const dir = suite({
      'suite.yaml': SUITE,
      'a.yaml':
        'name: a\nlanguage: en\npage: a.html\ntargets:\n  - { name: save, target: { name: Save }, expect: { outcome: found, resolver: accessibility } }\n',
    });
    writeFileSync(path.join(dir, 'pages', 'a.html'), '<section data-title="A"></section>');
    expect(() => loadGroundingSuite(dir)).toThrow(/a\.yaml:[\s\S]*every found target names its element/);
  });

  it('a scene whose page is not in pages/ is an error naming the missing file', () => {
    const dir = suite({
      'suite.yaml': SUITE,
      'a.yaml': 'name: a\nlanguage: en\npage: gone.html\ntargets:\n  - { name: x, target: { name: X }, expect: { outcome: missed } }\n',
    });
    expect(() => loadGroundingSuite(dir)).toThrow(/pages\/gone\.html does not exist/);
  });

  it('the stage holds every page as a template, with the styles and scripts inline, and is addressed by its hash', () => {
    const html = stagePage([
      { name: 'a.html', data: '<section data-title="A">a</section>' },
      { name: 'stage.css', data: 'body{}' },
      { name: 'stage.js', data: 'show()' },
    ]);
    expect(html).toContain('<template data-page="a.html">');
    expect(html).toContain('<style>\nbody{}</style>');
    expect(html.indexOf('<main id="stage">')).toBeLessThan(html.indexOf('<template'));
    expect(stageUrl('/home/agent/grounding', 'notes-zh.html', 'dark')).toBe(
      'file:///home/agent/grounding/stage.html#page=notes-zh.html&theme=dark',
    );
    expect(stageTitleEnd(undefined, 'light')).toBe('· empty · light');
  });
});
