import { describe, expect, it } from 'vitest';
import { AgentDeskError } from '../../../../electron/runtime/errors.js';
import { fromAnthropic, fromOpenAI, fromUiTars, parseComputerAction } from '../../../../electron/runtime/gui/actionSpace.js';

describe('one computer action space', () => {
  it.each([
    [
      { action: 'left_click', coordinate: [10, 20] },
      { action: 'click', x: 10, y: 20, button: 'left', count: 1 },
    ],
    [
      { action: 'double_click', coordinate: [1, 2] },
      { action: 'click', x: 1, y: 2, button: 'left', count: 2 },
    ],
    [
      { action: 'right_click', coordinate: [3, 4] },
      { action: 'click', x: 3, y: 4, button: 'right', count: 1 },
    ],
    [
      { action: 'triple_click', coordinate: [3, 4] },
      { action: 'click', x: 3, y: 4, button: 'left', count: 3 },
    ],
    [
      { action: 'mouse_move', coordinate: [5, 6] },
      { action: 'move', x: 5, y: 6 },
    ],
    [
      { action: 'left_click_drag', start_coordinate: [1, 1], coordinate: [9, 9] },
      {
        action: 'drag',
        path: [
          { x: 1, y: 1 },
          { x: 9, y: 9 },
        ],
      },
    ],
    [
      { action: 'key', text: 'ctrl+Return' },
      { action: 'key', keys: ['ctrl', 'enter'] },
    ],
    [
      { action: 'type', text: '你好' },
      { action: 'type', text: '你好' },
    ],
    [
      { action: 'scroll', coordinate: [7, 8], scroll_direction: 'up', scroll_amount: 2 },
      { action: 'scroll', x: 7, y: 8, dx: 0, dy: -2 },
    ],
    [{ action: 'screenshot' }, { action: 'screenshot' }],
    [{ action: 'cursor_position' }, { action: 'cursor_position' }],
    [
      { action: 'wait', duration: 1.5 },
      { action: 'wait', timeoutMs: 1500 },
    ],
  ])('Anthropic %j', (input, expected) => expect(fromAnthropic(input)).toEqual(expected));

  it.each([
    [
      { type: 'click', x: 10, y: 20, button: 'right' },
      { action: 'click', x: 10, y: 20, button: 'right', count: 1 },
    ],
    [
      { type: 'double_click', x: 1, y: 2 },
      { action: 'click', x: 1, y: 2, button: 'left', count: 2 },
    ],
    [
      { type: 'scroll', x: 5, y: 5, scroll_x: 0, scroll_y: 300 },
      { action: 'scroll', x: 5, y: 5, dx: 0, dy: 3 },
    ],
    [
      { type: 'keypress', keys: ['CTRL', 'A'] },
      { action: 'key', keys: ['ctrl', 'a'] },
    ],
    [
      {
        type: 'drag',
        path: [
          { x: 0, y: 0 },
          { x: 5, y: 5 },
          { x: 9, y: 1 },
        ],
      },
      {
        action: 'drag',
        path: [
          { x: 0, y: 0 },
          { x: 5, y: 5 },
          { x: 9, y: 1 },
        ],
      },
    ],
    [
      { type: 'type', text: 'hi' },
      { action: 'type', text: 'hi' },
    ],
    [
      { type: 'move', x: 3, y: 3 },
      { action: 'move', x: 3, y: 3 },
    ],
    [{ type: 'screenshot' }, { action: 'screenshot' }],
    [{ type: 'wait' }, { action: 'wait', timeoutMs: 2000 }],
  ])('OpenAI %j', (input, expected) => expect(fromOpenAI(input)).toEqual(expected));

  it.each([
    ["click(start_box='(120,340)')", { action: 'click', x: 120, y: 340, button: 'left', count: 1 }],
    ["left_double(start_box='(1,2)')", { action: 'click', x: 1, y: 2, button: 'left', count: 2 }],
    ["right_single(start_box='[5, 6]')", { action: 'click', x: 5, y: 6, button: 'right', count: 1 }],
    [
      "drag(start_box='(1,1)', end_box='(50,60)')",
      {
        action: 'drag',
        path: [
          { x: 1, y: 1 },
          { x: 50, y: 60 },
        ],
      },
    ],
    ["hotkey(key='ctrl c')", { action: 'key', keys: ['ctrl', 'c'] }],
    ["type(content='提交 \\'ok\\'\\n')", { action: 'type', text: "提交 'ok'\n" }],
    ["scroll(start_box='(10,10)', direction='down')", { action: 'scroll', x: 10, y: 10, dx: 0, dy: 5 }],
    ['wait()', { action: 'wait', timeoutMs: 2000 }],
  ])('UI-TARS %s', (input, expected) => expect(fromUiTars(input)).toEqual(expected));

  it('bad actions are typed errors that say what is wrong', () => {
    expect(() => fromAnthropic({ action: 'left_click' })).toThrow(AgentDeskError);
    expect(() => fromOpenAI({ type: 'teleport' })).toThrow(/unknown OpenAI computer action teleport/);
    expect(() => fromUiTars('fly(away)')).toThrow(/unknown UI-TARS action fly/);
    expect(() => parseComputerAction({ action: 'key', keys: ['hyper'] })).toThrow(/not a computer action/);
    expect(() => parseComputerAction({ action: 'click', x: -1, y: 0 })).toThrow(AgentDeskError);
  });
});
