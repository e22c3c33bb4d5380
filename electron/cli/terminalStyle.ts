/** Colours for a terminal that shows them (a TTY, NO_COLOR unset); plain text otherwise. */
export function terminalStyle(stream: NodeJS.WriteStream = process.stderr) {
  const on = Boolean(stream.isTTY) && process.env.NO_COLOR === undefined && process.env.TERM !== 'dumb';
  const paint = (code: number) => (text: string) => (on ? `\x1b[${code}m${text}\x1b[0m` : text);
  return { on, green: paint(32), red: paint(31), yellow: paint(33), cyan: paint(36), dim: paint(2), bold: paint(1) };
}

/** A task or step state in its colour: done green, failed red, waiting yellow, the rest as is. */
export function stateColour(style: ReturnType<typeof terminalStyle>, state: string): string {
  if (state === 'succeeded' || state === 'completed') return style.green(state);
  if (state === 'failed' || state === 'cancelled') return style.red(state);
  if (state.startsWith('waiting') || state === 'paused' || state === 'retrying') return style.yellow(state);
  return state;
}

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** One spinner line on a TTY (`start` again just keeps it going); `clear` leaves the line empty for real output. */
export class Spinner {
  private timer: NodeJS.Timeout | undefined;
  private frame = 0;

  constructor(
    private readonly label: string,
    private readonly stream: NodeJS.WriteStream = process.stderr,
  ) {}

  start(): void {
    if (this.timer || !this.stream.isTTY) return;
    const draw = () => this.stream.write(`\r\x1b[K\x1b[36m${FRAMES[this.frame++ % FRAMES.length]}\x1b[0m ${this.label}`);
    draw();
    this.timer = setInterval(draw, 80);
    this.timer.unref();
  }

  clear(): void {
    if (!this.timer) return;
    clearInterval(this.timer);
    this.timer = undefined;
    this.stream.write('\r\x1b[K');
  }
}
