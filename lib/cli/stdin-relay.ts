import type { Readable, Writable } from 'node:stream';

/**
 * `dev` over stdio reads the client's pipe itself and hands each whole line (one JSON-RPC
 * message) to the server running now: it sees the pipe end, which a server child reading an
 * inherited stdin would keep to itself, and a restart never splits a message between two servers.
 * Lines that arrive while no server runs wait for the next one (the first build, a restart).
 */
export class StdinRelay {
  /** Settles when the client ends the pipe (or it fails): `dev` then stops. */
  readonly ended: Promise<void>;
  private target?: Writable;
  private partial = '';
  private readonly waiting: string[] = [];

  constructor(input: Readable) {
    this.ended = new Promise((resolve) => {
      input.once('end', resolve);
      input.once('error', () => resolve());
    });
    input.setEncoding('utf8');
    input.on('data', (chunk: string) => this.received(chunk));
  }

  /** Where the lines go from now on: the running server's stdin, or nowhere yet (they wait). */
  to(target: Writable | undefined): void {
    this.target = target;
    if (target) for (const line of this.waiting.splice(0)) target.write(line);
  }

  private received(chunk: string): void {
    const lines = `${this.partial}${chunk}`.split('\n');
    this.partial = lines.pop()!;
    for (const line of lines) {
      if (this.target) this.target.write(`${line}\n`);
      else this.waiting.push(`${line}\n`);
    }
  }
}
