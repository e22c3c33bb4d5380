import { buildDesktopImage, sandboxSourceRoot } from '../../electron/capabilities/sandbox/imageBuilder.js';

let image: Promise<string> | undefined;

/**
 * The desktop image for tests, through the same code path as `agent-desk sandbox build`: the
 * content-hash tag is reused when present (CI builds it once before the tests), built otherwise.
 */
export function desktopImage(): Promise<string> {
  image ??= buildDesktopImage({ root: sandboxSourceRoot(import.meta.dirname) }).then((o) => o.image);
  return image;
}
