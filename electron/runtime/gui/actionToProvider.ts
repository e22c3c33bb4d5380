import type { ComputerAction } from '../../contract/index.js';

// The one computer action → each provider's own shape, for the conversation history: a model is
// shown its past actions as it would have written them (the runtime keeps only the canonical form).

type Native = Record<string, unknown>;

const ANTHROPIC_CLICKS: Record<string, string> = { left: 'left_click', right: 'right_click', middle: 'middle_click' };

/** A computer action as Anthropic's computer tool input. */
export function toAnthropicAction(a: ComputerAction): Native {
  switch (a.action) {
    case 'screenshot':
    case 'cursor_position':
      return { action: a.action };
    case 'move':
      return { action: 'mouse_move', coordinate: [a.x, a.y] };
    case 'click': {
      const kind = a.count === 3 ? 'triple_click' : a.count === 2 ? 'double_click' : ANTHROPIC_CLICKS[a.button]!;
      // A click on a named element: no coordinate, Anthropic's "click where the pointer is" (where it clicked).
      return a.x === undefined || a.y === undefined ? { action: kind } : { action: kind, coordinate: [a.x, a.y] };
    }
    case 'drag': {
      const [start, end] = [a.path[0]!, a.path.at(-1)!];
      return { action: 'left_click_drag', start_coordinate: [start.x, start.y], coordinate: [end.x, end.y] };
    }
    case 'scroll': {
      const vertical = a.dy !== 0 || a.dx === 0;
      const amount = Math.abs(vertical ? a.dy : a.dx);
      const direction = vertical ? (a.dy < 0 ? 'up' : 'down') : a.dx < 0 ? 'left' : 'right';
      return { action: 'scroll', coordinate: [a.x, a.y], scroll_direction: direction, scroll_amount: amount };
    }
    case 'type':
      return { action: 'type', text: a.text };
    case 'key':
      return { action: 'key', text: a.keys.join('+') };
    case 'wait':
      return { action: 'wait', duration: a.timeoutMs / 1000 };
    case 'zoom':
      return { action: 'zoom', region: [...a.region] };
  }
}

/** Pixels of an OpenAI scroll per wheel step (the inverse of `fromOpenAI`). */
const PIXELS_PER_WHEEL_STEP = 100;

/** A computer action as an OpenAI `computer_call.action`. */
export function toOpenAIAction(a: ComputerAction): Native {
  switch (a.action) {
    case 'screenshot':
    case 'wait':
      return { type: a.action };
    case 'zoom':
      return { type: 'screenshot' };
    case 'cursor_position':
      return { type: 'screenshot' };
    case 'move':
      return { type: 'move', x: a.x, y: a.y };
    case 'click': {
      const [x, y] = [a.x ?? 0, a.y ?? 0]; // a click on a named element: OpenAI's history only holds points
      return a.count >= 2 ? { type: 'double_click', x, y } : { type: 'click', x, y, button: a.button };
    }
    case 'drag':
      return { type: 'drag', path: a.path.map(({ x, y }) => ({ x, y })) };
    case 'scroll':
      return { type: 'scroll', x: a.x, y: a.y, scroll_x: a.dx * PIXELS_PER_WHEEL_STEP, scroll_y: a.dy * PIXELS_PER_WHEEL_STEP };
    case 'type':
      return { type: 'type', text: a.text };
    case 'key':
      return { type: 'keypress', keys: a.keys.map((k) => k.toUpperCase()) };
  }
}
