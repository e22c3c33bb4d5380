import type { ComputerAction } from '../../contract/index.js';
import type { Size } from './coordinates.js';
import { fromUiTars } from './actionSpace.js';

// UI-TARS models answer in text ("Thought: … Action: click(start_box='(x,y)')") with points in
// a 0–1000 space over the screenshot they were shown. This module is the one place that speaks it.

const NORMALIZED = 1000;

/** The computer-use instructions a UI-TARS model is trained on (its action space and output format). */
export const UI_TARS_PROMPT = [
  'You are a GUI agent. You are given a task and your action history, with screenshots. You need to perform the next action to complete the task.',
  '',
  '## Output Format',
  'Thought: ...',
  'Action: ...',
  '',
  '## Action Space',
  "click(start_box='<|box_start|>(x1,y1)<|box_end|>')",
  "left_double(start_box='<|box_start|>(x1,y1)<|box_end|>')",
  "right_single(start_box='<|box_start|>(x1,y1)<|box_end|>')",
  "drag(start_box='<|box_start|>(x1,y1)<|box_end|>', end_box='<|box_start|>(x3,y3)<|box_end|>')",
  "hotkey(key='')",
  "type(content='') # to submit your input, end `content` with \\n",
  "scroll(start_box='<|box_start|>(x1,y1)<|box_end|>', direction='down or up or right or left')",
  'wait() # sleep and take a screenshot to check for any changes',
  "finished(content='xxx') # the task is done; content is your answer",
  '',
  '## Note',
  '- Coordinates are 0–1000 across the width and height of the latest screenshot.',
  '- Write a small plan and summarize your next action (with its target element) in one sentence in the Thought part.',
].join('\n');

/** What one UI-TARS answer means: an action, the end of the task with an answer, or neither. */
export type UiTarsTurn =
  | { kind: 'action'; thought: string; action: ComputerAction; text: string }
  | { kind: 'finished'; thought: string; answer: string }
  | { kind: 'invalid'; thought: string; text: string; error: string }
  | { kind: 'none' };

const ACTION_LINE = /^\s*Action:\s*([\s\S]+?)\s*$/m;
const THOUGHT = /Thought:\s*([\s\S]*?)(?=\n\s*Action:|$)/;

/** Parses a UI-TARS answer; points are converted from 0–1000 to the model space `size`. */
export function parseUiTarsTurn(text: string, size: Size): UiTarsTurn {
  const line = ACTION_LINE.exec(text)?.[1];
  if (!line) return { kind: 'none' };
  const thought = (THOUGHT.exec(text)?.[1] ?? '').trim();
  const action = line.replace(/<\|box_start\|>|<\|box_end\|>/g, '');
  const finished = /^finished\s*\(\s*content\s*=\s*(['"])([\s\S]*)\1\s*\)\s*$/.exec(action);
  if (finished) return { kind: 'finished', thought, answer: unescape(finished[2] ?? '') };
  if (/^(finished|call_user)\s*\(/.test(action)) return { kind: 'finished', thought, answer: thought };
  try {
    return { kind: 'action', thought, action: scaleFromNormalized(fromUiTars(action), size), text: line };
  } catch (error) {
    return { kind: 'invalid', thought, text: line, error: (error as Error).message };
  }
}

function unescape(s: string): string {
  return s.replace(/\\n/g, '\n').replace(/\\(['"\\])/g, '$1');
}

const scale = (v: number, extent: number): number => Math.min(extent - 1, Math.max(0, Math.round((v / NORMALIZED) * extent)));

function scaleFromNormalized(a: ComputerAction, size: Size): ComputerAction {
  const point = <P extends { x: number; y: number }>(p: P): P => ({ ...p, x: scale(p.x, size.width), y: scale(p.y, size.height) });
  if (a.action === 'move' || a.action === 'scroll') return point(a);
  if (a.action === 'click')
    return a.x === undefined || a.y === undefined ? a : { ...a, x: scale(a.x, size.width), y: scale(a.y, size.height) };
  if (a.action === 'drag') return { ...a, path: a.path.map(point) };
  return a;
}

const norm = (v: number, extent: number): number => Math.round((v / extent) * NORMALIZED);
const box = (x: number, y: number, size: Size): string => `'<|box_start|>(${norm(x, size.width)},${norm(y, size.height)})<|box_end|>'`;
const quoted = (s: string): string => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;

/** A computer action as UI-TARS action text, for the history of a conversation rebuilt from records. */
export function toUiTarsAction(a: ComputerAction, size: Size): string {
  switch (a.action) {
    case 'click':
      // A click on a named element has no coordinate of its own: UI-TARS only ever writes points.
      return `${a.button === 'right' ? 'right_single' : a.count >= 2 ? 'left_double' : 'click'}(start_box=${box(a.x ?? 0, a.y ?? 0, size)})`;
    case 'move':
      return `click(start_box=${box(a.x, a.y, size)})`;
    case 'drag':
      return `drag(start_box=${box(a.path[0]!.x, a.path[0]!.y, size)}, end_box=${box(a.path.at(-1)!.x, a.path.at(-1)!.y, size)})`;
    case 'scroll': {
      const direction = a.dy < 0 ? 'up' : a.dy > 0 ? 'down' : a.dx < 0 ? 'left' : 'right';
      return `scroll(start_box=${box(a.x, a.y, size)}, direction='${direction}')`;
    }
    case 'type':
      return `type(content=${quoted(a.text)})`;
    case 'key':
      return `hotkey(key='${a.keys.join(' ')}')`;
    default:
      return 'wait()';
  }
}
