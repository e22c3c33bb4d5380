import type { ComputerAction } from '../../contract/index.js';
import type { Size } from '../../runtime/gui/coordinates.js';
import { TargetError } from './targetResolver.js';

const sizeText = (s: Size): string => `${s.width}×${s.height}`;

/**
 * A recorded click as this screen can take it. Its coordinate is in the model space it was
 * recorded in, so it never stands in for its element: with a target, the element alone is looked
 * for (none is `target_missed`, which a replay heals); a bare coordinate is clicked only in the
 * space it was recorded in — at another size it would land somewhere else.
 */
export function onThisScreen(a: ComputerAction, model: Size): ComputerAction {
  if (a.action !== 'click' || a.recordedSpace === undefined) return a;
  const { x: _x, y: _y, ...rest } = a;
  if (a.target) return rest;
  const same = a.recordedSpace.width === model.width && a.recordedSpace.height === model.height;
  if (same) return a;
  throw new TargetError(
    `this click was recorded as a coordinate on a ${sizeText(a.recordedSpace)} screenshot with no element under it; ` +
      `the screenshot is ${sizeText(model)} now, where that coordinate is somewhere else. Take a screenshot and click what the step was for.`,
    'target_missed',
    [],
  );
}
