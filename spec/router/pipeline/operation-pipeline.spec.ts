import 'reflect-metadata';
import { expect } from 'chai';
import { Context, ForbiddenError, HiddenError, ProtocolError, SILENT_DIAGNOSTICS, type CanActivate, type ExecutionContext, type Interceptor } from '../../../lib';
import type { TargetErrorPolicy } from '../../../lib/router/pipeline/error-policy';
import { MethodPipeline, TargetPipeline, type TargetSteps } from '../../../lib/router/pipeline/operation-pipeline';

/** What a pipeline's run came to, as a promise (a run that throws at once, as a rejection). */
function attempt<T>(run: () => T | Promise<T>): Promise<T> {
  return new Promise<T>((resolve) => resolve(run()));
}

class Owner {
  serve(): void {}
}

/** Steps that record what ran, in order, and a policy that says which row it took. */
function recordingSteps(log: string[], overrides: Partial<TargetSteps> = {}): TargetSteps {
  const policy: TargetErrorPolicy = {
    unknown: (target) => new ProtocolError(-1, `unknown ${target}`),
    invalidArguments: (target, issues) => ({ invalid: target, issues: [...issues] }),
    failed: (error) => ({ failed: (error as Error).message }),
  };
  return {
    kind: 'tool', method: 'tools/call', label: 'Owner#serve', owner: Owner, member: 'serve', policy,
    pipe: async (args) => { log.push('pipe'); return args.bad ? { ok: false, issues: ['bad: no'] } : { ok: true, value: { piped: args } }; },
    invoke: async (input) => { log.push('handler'); return input; },
    map: (value) => { log.push('map'); return { mapped: value as never }; },
    ...overrides,
  };
}

function guard(log: string[], name: string, ...verdict: unknown[]): CanActivate {
  return { canActivate: () => { log.push(name); return (verdict.length > 0 ? verdict[0] : true) as boolean; } };
}

function around(log: string[], name: string): Interceptor {
  return { intercept: async (_call, next) => { log.push(`${name} before`); const value = await next(); log.push(`${name} after`); return value; } };
}

describe('TargetPipeline', () => {
  describe('#run', () => {
    context('when no step has to wait (no guard, a synchronous pipe, handler and mapper)', () => {
      it('answers at once, with no promise', () => {
        const log: string[] = [];
        const pipeline = new TargetPipeline(recordingSteps(log, {
          pipe: (args) => { log.push('pipe'); return { ok: true, value: { piped: args } }; },
          invoke: (input) => { log.push('handler'); return input; },
        }), [], [], SILENT_DIAGNOSTICS);
        expect(pipeline.run('echo', { a: 1 }, new Context())).to.deep.equal({ mapped: { piped: { a: 1 } } });
        expect(log).to.deep.equal(['pipe', 'handler', 'map']);
      });

      it('answers a synchronous throw of the handler at once, as the target\'s policy says', () => {
        const pipeline = new TargetPipeline(recordingSteps([], {
          pipe: (args) => ({ ok: true, value: args }),
          invoke: () => { throw new Error('down now'); },
        }), [], [], SILENT_DIAGNOSTICS);
        expect(pipeline.run('echo', {}, new Context())).to.deep.equal({ failed: 'down now' });
      });
    });

    context('when the target has guards and interceptors', () => {
      it('runs guards, then the pipe, then the interceptors around the handler, then the mapper', async () => {
        const log: string[] = [];
        const pipeline = new TargetPipeline(recordingSteps(log), [guard(log, 'guard 1'), guard(log, 'guard 2')], [around(log, 'outer'), around(log, 'inner')], SILENT_DIAGNOSTICS);
        const result = await pipeline.run('echo', { a: 1 }, new Context());
        expect(log).to.deep.equal(['guard 1', 'guard 2', 'pipe', 'outer before', 'inner before', 'handler', 'inner after', 'outer after', 'map']);
        expect(result).to.deep.equal({ mapped: { piped: { a: 1 } } });
      });

      it('gives guards and interceptors one execution context naming the call', async () => {
        const seen: ExecutionContext[] = [];
        const ctx = new Context({ sessionId: 's1' });
        const pipeline = new TargetPipeline(recordingSteps([]), [{ canActivate: (call) => { seen.push(call); return true; } }],
          [{ intercept: (call, next) => { seen.push(call); return next(); } }], SILENT_DIAGNOSTICS);
        await pipeline.run('echo', { a: 1 }, ctx);
        expect(seen[0]).to.equal(seen[1]);
        expect(seen[0]).to.include({ kind: 'tool', method: 'tools/call', target: 'echo', context: ctx });
        expect(seen[0].arguments).to.deep.equal({ a: 1 });
        expect(seen[0].getClass()).to.equal(Owner);
        expect(seen[0].getHandler()).to.equal(Owner.prototype.serve);
      });
    });

    context('when a guard does not answer true', () => {
      for (const verdict of [false, undefined, 'yes', 1]) {
        it(`refuses the call with -32003 for ${JSON.stringify(verdict)}, before the pipe and the handler run`, async () => {
          const log: string[] = [];
          const pipeline = new TargetPipeline(recordingSteps(log), [guard(log, 'no', verdict), guard(log, 'never')], [], SILENT_DIAGNOSTICS);
          const error = await attempt(() => pipeline.run('echo', {}, new Context())).catch((e: unknown) => e);
          expect(error).to.be.instanceOf(ForbiddenError).and.include({ code: -32003 });
          expect((error as Error).message).to.equal('Forbidden: tools/call of echo was refused by a guard');
          expect(log).to.deep.equal(['no']);
        });
      }

      it('refuses when an async guard resolves to false', async () => {
        const pipeline = new TargetPipeline(recordingSteps([]), [{ canActivate: async () => false }], [], SILENT_DIAGNOSTICS);
        expect(await attempt(() => pipeline.run('echo', {}, new Context())).catch((e: unknown) => e)).to.be.instanceOf(ForbiddenError);
      });
    });

    context('when a guard throws', () => {
      it('answers a HiddenError as the target\'s unknown error', async () => {
        const pipeline = new TargetPipeline(recordingSteps([]), [{ canActivate: () => { throw new HiddenError(); } }], [], SILENT_DIAGNOSTICS);
        const error = await attempt(() => pipeline.run('echo', {}, new Context())).catch((e: unknown) => e);
        expect(error).to.be.instanceOf(ProtocolError).and.include({ code: -1, message: 'unknown echo' });
      });

      it('lets any other error pass as it is (not as a failure of the handler)', async () => {
        const refusal = new ForbiddenError('needs the admin scope');
        const pipeline = new TargetPipeline(recordingSteps([]), [{ canActivate: () => { throw refusal; } }], [], SILENT_DIAGNOSTICS);
        expect(await attempt(() => pipeline.run('echo', {}, new Context())).catch((e: unknown) => e)).to.equal(refusal);
      });
    });

    context('when the pipe refuses the arguments', () => {
      it('answers with the policy\'s invalid arguments, and neither interceptors nor the handler run', async () => {
        const log: string[] = [];
        const pipeline = new TargetPipeline(recordingSteps(log), [], [around(log, 'outer')], SILENT_DIAGNOSTICS);
        expect(await pipeline.run('echo', { bad: true }, new Context())).to.deep.equal({ invalid: 'echo', issues: ['bad: no'] });
        expect(log).to.deep.equal(['pipe']);
      });
    });

    context('when the target has no pipe', () => {
      it('hands the arguments to the handler as sent', async () => {
        const pipeline = new TargetPipeline(recordingSteps([], { pipe: undefined }), [], [], SILENT_DIAGNOSTICS);
        expect(await pipeline.run('echo', { a: 1 }, new Context())).to.deep.equal({ mapped: { a: 1 } });
      });
    });

    context('when an interceptor replaces the result', () => {
      it('maps what the interceptor returned, and the handler never runs', async () => {
        const log: string[] = [];
        const pipeline = new TargetPipeline(recordingSteps(log), [], [{ intercept: () => 'cached' }], SILENT_DIAGNOSTICS);
        expect(await pipeline.run('echo', {}, new Context())).to.deep.equal({ mapped: 'cached' });
        expect(log).to.deep.equal(['pipe', 'map']);
      });
    });

    context('when an interceptor calls next twice', () => {
      it('runs the rest of the chain again (a retry)', async () => {
        const log: string[] = [];
        const retry: Interceptor = { intercept: async (_call, next) => { await next(); return next(); } };
        const pipeline = new TargetPipeline(recordingSteps(log), [], [retry, around(log, 'inner')], SILENT_DIAGNOSTICS);
        await pipeline.run('echo', {}, new Context());
        expect(log).to.deep.equal(['pipe', 'inner before', 'handler', 'inner after', 'inner before', 'handler', 'inner after', 'map']);
      });
    });

    context('when the handler or an interceptor fails', () => {
      it('answers with the policy\'s failure row, for a rejection and for a synchronous throw alike', async () => {
        const rejecting = new TargetPipeline(recordingSteps([], { invoke: async () => { throw new Error('down'); } }), [], [], SILENT_DIAGNOSTICS);
        expect(await rejecting.run('echo', {}, new Context())).to.deep.equal({ failed: 'down' });
        const throwing = new TargetPipeline(recordingSteps([]), [], [{ intercept: () => { throw new Error('interceptor down'); } }], SILENT_DIAGNOSTICS);
        expect(await throwing.run('echo', {}, new Context())).to.deep.equal({ failed: 'interceptor down' });
      });

      it('answers a HiddenError from an interceptor as unknown, not as a failure', async () => {
        const pipeline = new TargetPipeline(recordingSteps([]), [], [{ intercept: () => { throw new HiddenError(); } }], SILENT_DIAGNOSTICS);
        expect(await attempt(() => pipeline.run('echo', {}, new Context())).catch((e: unknown) => e)).to.include({ message: 'unknown echo' });
      });

      it('answers a failure of the mapper with the policy\'s failure row too', async () => {
        const pipeline = new TargetPipeline(recordingSteps([], { map: () => { throw new Error('cannot map'); } }), [], [], SILENT_DIAGNOSTICS);
        expect(await pipeline.run('echo', {}, new Context())).to.deep.equal({ failed: 'cannot map' });
      });
    });
  });
});

describe('MethodPipeline', () => {
  describe('#run', () => {
    context('when it has no members', () => {
      it('performs the method directly', async () => {
        const pipeline = new MethodPipeline('list', 'tools/list', [], []);
        expect(await pipeline.run({ cursor: 'c' }, new Context(), async (params) => ({ listed: params.cursor }))).to.deep.equal({ listed: 'c' });
      });
    });

    context('when it has guards and interceptors', () => {
      it('runs the guards, then the interceptors around the method, with the params as arguments and no target', async () => {
        const log: string[] = [];
        const seen: ExecutionContext[] = [];
        const pipeline = new MethodPipeline('protocol', 'ping', [{ canActivate: (call) => { seen.push(call); log.push('guard'); return true; } }], [around(log, 'outer')]);
        await pipeline.run({ a: 1 }, new Context(), async () => { log.push('perform'); return {}; });
        expect(log).to.deep.equal(['guard', 'outer before', 'perform', 'outer after']);
        expect(seen[0]).to.include({ kind: 'protocol', method: 'ping', target: undefined });
        expect(seen[0].arguments).to.deep.equal({ a: 1 });
        expect(seen[0].getClass()).to.equal(undefined);
        expect(seen[0].getHandler()).to.equal(undefined);
      });
    });

    context('when a guard hides the method', () => {
      it('answers as for a method this server does not have (-32601)', async () => {
        const pipeline = new MethodPipeline('list', 'tools/list', [{ canActivate: () => { throw new HiddenError(); } }], []);
        const error = await attempt(() => pipeline.run({}, new Context(), async () => ({}))).catch((e: unknown) => e);
        expect(error).to.be.instanceOf(ProtocolError).and.include({ code: -32601, message: 'Method not found: tools/list' });
      });
    });

    context('when a guard refuses', () => {
      it('refuses with -32003 and does not perform the method', async () => {
        let performed = false;
        const pipeline = new MethodPipeline('list', 'tools/list', [{ canActivate: () => false }], []);
        const error = await attempt(() => pipeline.run({}, new Context(), async () => { performed = true; return {}; })).catch((e: unknown) => e);
        expect(error).to.be.instanceOf(ForbiddenError);
        expect((error as Error).message).to.equal('Forbidden: tools/list was refused by a guard');
        expect(performed).to.equal(false);
      });
    });
  });
});
