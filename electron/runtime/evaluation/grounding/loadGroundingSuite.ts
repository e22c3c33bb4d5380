import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { AgentDeskError } from '../../errors.js';
import { parseSuiteFile, suiteFileIn, suiteKind } from '../suiteFile.js';
import { GroundingSceneSchema, GroundingSuiteSchema, type GroundingScene, type GroundingSuite } from './groundingCase.js';

/** A file the scenes' pages use (HTML, scripts), copied into the desktop's home folder. */
export interface GroundingPageFile {
  name: string;
  data: string;
}

/** A grounding suite read from a folder: suite.yaml (`kind: grounding`), one `*.yaml` per scene, `pages/`. */
export interface LoadedGroundingSuite {
  dir: string;
  suite: GroundingSuite;
  scenes: GroundingScene[];
  pages: GroundingPageFile[];
}

/** Whether a suite folder is a grounding suite (its suite.yaml says `kind: grounding`). */
export const isGroundingSuite = (dir: string): boolean => suiteKind(dir) === 'grounding';

/** Reads and validates the suite; a bad file, a missing page or a repeated name is an `invalid_params` error naming it. */
export function loadGroundingSuite(dir: string): LoadedGroundingSuite {
  const suiteFile = suiteFileIn(dir);
  if (!suiteFile) throw new AgentDeskError('invalid_params', `${dir} has no suite.yaml with kind: grounding`);
  const suite = parseSuiteFile(suiteFile, GroundingSuiteSchema);
  const scenes = readdirSync(dir)
    .filter((n) => /\.ya?ml$/.test(n) && path.join(dir, n) !== suiteFile)
    .sort()
    .map((n) => parseSuiteFile(path.join(dir, n), GroundingSceneSchema));
  if (scenes.length === 0) throw new AgentDeskError('invalid_params', `grounding suite ${dir} has no scene files (*.yaml)`);
  const pages = readPages(path.join(dir, 'pages'));
  const seen = new Set<string>();
  for (const scene of scenes) {
    if (seen.has(scene.name)) throw new AgentDeskError('invalid_params', `grounding suite ${dir}: two scenes are named "${scene.name}"`);
    seen.add(scene.name);
    if (scene.page && !pages.some((p) => p.name === scene.page))
      throw new AgentDeskError('invalid_params', `grounding scene "${scene.name}": ${path.join(dir, 'pages', scene.page)} does not exist`);
    const names = scene.targets.map((t) => t.name);
    const twice = names.find((n, i) => names.indexOf(n) !== i);
    if (twice) throw new AgentDeskError('invalid_params', `grounding scene "${scene.name}": two targets are named "${twice}"`);
  }
  return { dir, suite, scenes, pages };
}

function readPages(dir: string): GroundingPageFile[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => /\.(html|js|css)$/.test(n))
    .sort()
    .map((name) => ({ name, data: readFileSync(path.join(dir, name), 'utf8') }));
}
