/**
 * A handler's run as a spec steers it: `pass(ctx.signal)` inside the handler resolves `entered`,
 * waits until the spec calls `open()`, and records the signal's abort reason in `aborted`.
 * A gate never opened holds its handler for good, whatever the signal says.
 */
export class Gate {
  readonly entered: Promise<void>;
  readonly aborted: Promise<unknown>;
  readonly open: () => void;
  private readonly opened: Promise<void>;
  private enter!: () => void;
  private abort!: (reason: unknown) => void;

  constructor() {
    let open!: () => void;
    this.opened = new Promise<void>((resolve) => { open = resolve; });
    this.open = open;
    this.entered = new Promise<void>((resolve) => { this.enter = resolve; });
    this.aborted = new Promise<unknown>((resolve) => { this.abort = resolve; });
  }

  pass(signal: AbortSignal): Promise<void> {
    this.enter();
    signal.addEventListener('abort', () => this.abort(signal.reason), { once: true });
    return this.opened;
  }
}
