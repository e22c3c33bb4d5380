/**
 * A function that modules wrap, outermost last: the plan factory and the acceptance-check
 * runner are built this way, so each feature module adds its layer without knowing the others.
 */
export class Chain<F> {
  private top: F;

  constructor(base: F) {
    this.top = base;
  }

  /** Puts a layer over the current function; it receives the one below. */
  wrap(layer: (next: F) => F): void {
    this.top = layer(this.top);
  }

  /** The outermost function. */
  get current(): F {
    return this.top;
  }
}
