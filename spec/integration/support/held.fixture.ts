import { Context, Tool } from '../../../lib';
import { Gate } from '../../support/gate';

/**
 * Tools a spec holds open: each runs until `Held.gate` opens or its request is cancelled (the
 * gate's `aborted` then has the reason). Give each spec a new gate: `Held.gate = new Gate()`.
 */
export class Held {
  static gate = new Gate();

  @Tool({ description: 'Runs until the spec opens its gate or the request is cancelled' })
  async held(_args: object, ctx: Context) {
    await Promise.race([Held.gate.pass(ctx.signal), Held.gate.aborted]);
    return 'done';
  }

  @Tool({ description: 'Reports progress once, then runs until the spec opens its gate or the request is cancelled' })
  async heldAfterProgress(args: object, ctx: Context) {
    await ctx.progress(1, 2, 'started');
    return this.held(args, ctx);
  }
}
