import { ComputerActionSchema, type ComputerAction } from '../../contract/index.js';
import { AgentDeskError, issuesFromZod } from '../errors.js';

// Provider shapes → the one computer action space. Coordinates stay in model space.

type Loose = Record<string, unknown>;

const KEY_ALIASES: Record<string, string> = {
  control: 'ctrl',
  ctl: 'ctrl',
  cmd: 'meta',
  command: 'meta',
  super: 'meta',
  win: 'meta',
  option: 'alt',
  return: 'enter',
  esc: 'escape',
  arrowup: 'up',
  arrowdown: 'down',
  arrowleft: 'left',
  arrowright: 'right',
  page_up: 'pageup',
  page_down: 'pagedown',
  prior: 'pageup',
  next: 'pagedown',
  back_space: 'backspace',
  del: 'delete',
  spacebar: 'space',
  ' ': 'space',
  minus: '-',
  plus: '+',
  equal: '=',
};

/** A provider key name (xdotool, DOM or UI-TARS style) → the canonical key name. */
export function canonicalKey(name: string): string {
  const lower = name.trim().toLowerCase();
  return KEY_ALIASES[lower] ?? (lower.length === 1 ? name.trim().toLowerCase() : lower);
}

/** Validates a canonical action; a bad one is an `invalid_params` error naming the field. */
export function parseComputerAction(raw: unknown): ComputerAction {
  const parsed = ComputerActionSchema.safeParse(raw);
  if (!parsed.success)
    throw new AgentDeskError('invalid_params', `not a computer action: ${parsed.error.issues[0]?.message ?? ''}`, {
      issues: issuesFromZod(parsed.error.issues),
    });
  return parsed.data;
}

const xy = (c: unknown): { x: unknown; y: unknown } => (Array.isArray(c) ? { x: c[0], y: c[1] } : { x: undefined, y: undefined });

/** Anthropic computer-use tool input (`computer_20250124` and later) → a computer action. */
export function fromAnthropic(input: Loose): ComputerAction {
  const at = xy(input.coordinate);
  const clicks: Record<string, { button: string; count: number }> = {
    left_click: { button: 'left', count: 1 },
    right_click: { button: 'right', count: 1 },
    middle_click: { button: 'middle', count: 1 },
    double_click: { button: 'left', count: 2 },
    triple_click: { button: 'left', count: 3 },
  };
  const kind = String(input.action);
  if (clicks[kind]) return parseComputerAction({ action: 'click', ...at, ...clicks[kind] });
  const amount = Number(input.scroll_amount ?? 3);
  const dir = String(input.scroll_direction ?? 'down');
  switch (kind) {
    case 'screenshot':
    case 'cursor_position':
      return parseComputerAction({ action: kind });
    case 'mouse_move':
      return parseComputerAction({ action: 'move', ...at });
    case 'left_click_drag':
      return parseComputerAction({ action: 'drag', path: [xy(input.start_coordinate), at] });
    case 'type':
      return parseComputerAction({ action: 'type', text: input.text });
    case 'key':
      return parseComputerAction({
        action: 'key',
        keys: String(input.text ?? '')
          .split('+')
          .map(canonicalKey),
      });
    case 'scroll':
      return parseComputerAction({
        action: 'scroll',
        ...at,
        dx: dir === 'right' ? amount : dir === 'left' ? -amount : 0,
        dy: dir === 'down' ? amount : dir === 'up' ? -amount : 0,
      });
    case 'wait':
      return parseComputerAction({ action: 'wait', timeoutMs: Math.round(Number(input.duration ?? 2) * 1000) });
    case 'zoom':
      return parseComputerAction({ action: 'zoom', region: input.region });
    default:
      throw new AgentDeskError('invalid_params', `unknown Anthropic computer action ${kind}`);
  }
}

/** Pixels of an OpenAI scroll per wheel step. */
const PIXELS_PER_WHEEL_STEP = 100;

/** OpenAI computer-use `computer_call.action` → a computer action. */
export function fromOpenAI(input: Loose): ComputerAction {
  const kind = String(input.type);
  switch (kind) {
    case 'screenshot':
      return parseComputerAction({ action: 'screenshot' });
    case 'click':
      return parseComputerAction({
        action: 'click',
        x: input.x,
        y: input.y,
        button: input.button === 'wheel' ? 'middle' : (input.button ?? 'left'),
      });
    case 'double_click':
      return parseComputerAction({ action: 'click', x: input.x, y: input.y, count: 2 });
    case 'move':
      return parseComputerAction({ action: 'move', x: input.x, y: input.y });
    case 'drag':
      return parseComputerAction({ action: 'drag', path: input.path });
    case 'scroll':
      return parseComputerAction({
        action: 'scroll',
        x: input.x,
        y: input.y,
        dx: Math.round(Number(input.scroll_x ?? 0) / PIXELS_PER_WHEEL_STEP),
        dy: Math.round(Number(input.scroll_y ?? 0) / PIXELS_PER_WHEEL_STEP),
      });
    case 'type':
      return parseComputerAction({ action: 'type', text: input.text });
    case 'keypress':
      return parseComputerAction({
        action: 'key',
        keys: ((input.keys as unknown[] | undefined) ?? []).map((k) => canonicalKey(String(k))),
      });
    case 'wait':
      return parseComputerAction({ action: 'wait' });
    default:
      throw new AgentDeskError('invalid_params', `unknown OpenAI computer action ${kind}`);
  }
}

function box(args: string, name: string): { x: number; y: number } | undefined {
  const m = new RegExp(`${name}\\s*=\\s*['"]?[(\\[]?\\s*(\\d+)\\s*,\\s*(\\d+)`).exec(args);
  return m ? { x: Number(m[1]), y: Number(m[2]) } : undefined;
}

function stringArg(args: string, name: string): string | undefined {
  const m =
    new RegExp(`${name}\\s*=\\s*'((?:[^'\\\\]|\\\\.)*)'`).exec(args) ?? new RegExp(`${name}\\s*=\\s*"((?:[^"\\\\]|\\\\.)*)"`).exec(args);
  return m?.[1]?.replace(/\\n/g, '\n').replace(/\\(['"\\])/g, '$1');
}

/** A UI-TARS action string (`click(start_box='(120,340)')`, 0–999 space) → a computer action. */
export function fromUiTars(text: string): ComputerAction {
  const m = /^\s*(\w+)\s*\(([\s\S]*)\)\s*$/.exec(text);
  if (!m) throw new AgentDeskError('invalid_params', `not a UI-TARS action: ${text.slice(0, 80)}`);
  const [, kind = '', args = ''] = m;
  const start = box(args, 'start_box') ?? box(args, 'point');
  const clicks: Record<string, { button: string; count: number }> = {
    click: { button: 'left', count: 1 },
    left_single: { button: 'left', count: 1 },
    left_double: { button: 'left', count: 2 },
    right_single: { button: 'right', count: 1 },
  };
  if (clicks[kind]) return parseComputerAction({ action: 'click', ...start, ...clicks[kind] });
  switch (kind) {
    case 'drag':
    case 'select':
      return parseComputerAction({ action: 'drag', path: [start, box(args, 'end_box') ?? box(args, 'end_point')] });
    case 'hotkey':
      return parseComputerAction({
        action: 'key',
        keys: (stringArg(args, 'key') ?? '')
          .split(/[\s+]+/)
          .filter(Boolean)
          .map(canonicalKey),
      });
    case 'type':
      return parseComputerAction({ action: 'type', text: stringArg(args, 'content') ?? '' });
    case 'scroll': {
      const dir = stringArg(args, 'direction') ?? 'down';
      const step = 5;
      return parseComputerAction({
        action: 'scroll',
        ...start,
        dx: dir === 'right' ? step : dir === 'left' ? -step : 0,
        dy: dir === 'down' ? step : dir === 'up' ? -step : 0,
      });
    }
    case 'wait':
      return parseComputerAction({ action: 'wait' });
    default:
      throw new AgentDeskError('invalid_params', `unknown UI-TARS action ${kind}`);
  }
}
