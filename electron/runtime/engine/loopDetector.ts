/**
 * Stops a task that repeats the same action on the same state: the same call (tool + args)
 * producing the same result `threshold` times in a row.
 */
export class LoopDetector {
  private last = '';
  private count = 0;

  constructor(private readonly threshold = 3) {}

  /** Records one completed call; returns true when the loop threshold is reached. */
  record(callDigest: string, outputDigest: string): boolean {
    const key = `${callDigest}:${outputDigest}`;
    this.count = key === this.last ? this.count + 1 : 1;
    this.last = key;
    return this.count >= this.threshold;
  }

  get repeats(): number {
    return this.count;
  }
}
