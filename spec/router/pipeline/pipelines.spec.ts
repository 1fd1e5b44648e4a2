import 'reflect-metadata';
import { expect } from 'chai';
import { Context, SILENT_DIAGNOSTICS, type CanActivate } from '../../../lib';
import type { Constructor } from '../../../lib/metadata/metadata-store';
import { TARGET_ERROR_POLICY } from '../../../lib/router/pipeline/error-policy';
import type { TargetSteps } from '../../../lib/router/pipeline/operation-pipeline';
import { PipelineMembers } from '../../../lib/router/pipeline/pipeline-members';
import { Pipelines } from '../../../lib/router/pipeline/pipelines';

/** What a pipeline's run came to, as a promise (a run that throws at once, as a rejection). */
function attempt<T>(run: () => T | Promise<T>): Promise<T> {
  return new Promise<T>((resolve) => resolve(run()));
}

class Owner {
  serve(): string { return 'served'; }
}

const definition = { pipeline: { guards: [], interceptors: [] } };

describe('Pipelines', () => {
  let compiled: number;
  const compile = (): TargetSteps => {
    compiled += 1;
    return {
      kind: 'tool', method: 'tools/call', label: 'Owner#serve', owner: Owner, member: 'serve', policy: TARGET_ERROR_POLICY.tool,
      invoke: async () => 'served', map: (value) => ({ value: value as string }),
    };
  };

  beforeEach(() => { compiled = 0; });

  describe('#target', () => {
    it('compiles a target once and reuses its pipeline', () => {
      const pipelines = new Pipelines(new PipelineMembers((cls: Constructor) => new cls() as object), SILENT_DIAGNOSTICS);
      expect(pipelines.target(definition, compile)).to.equal(pipelines.target(definition, compile));
      expect(compiled).to.equal(1);
    });

    context('when server-wide members are added', () => {
      it('compiles the target again, with them', async () => {
        const members = new PipelineMembers((cls: Constructor) => new cls() as object);
        const pipelines = new Pipelines(members, SILENT_DIAGNOSTICS);
        const before = pipelines.target(definition, compile);
        const refuse: CanActivate = { canActivate: () => false };
        members.use([refuse]);
        const after = pipelines.target(definition, compile);
        expect(after).not.to.equal(before);
        expect(compiled).to.equal(2);
        expect(await before.run('serve', {}, new Context())).to.deep.equal({ value: 'served' });
        expect(await attempt(() => after.run('serve', {}, new Context())).catch((e: unknown) => e)).to.have.property('code', -32003);
      });
    });
  });

  describe('#method', () => {
    it('makes one pipeline per method, dropped when members are added', () => {
      const members = new PipelineMembers((cls: Constructor) => new cls() as object);
      const pipelines = new Pipelines(members, SILENT_DIAGNOSTICS);
      const ping = pipelines.method('protocol', 'ping');
      expect(pipelines.method('protocol', 'ping')).to.equal(ping);
      expect(pipelines.method('list', 'tools/list')).not.to.equal(ping);
      members.use([{ canActivate: () => true }]);
      expect(pipelines.method('protocol', 'ping')).not.to.equal(ping);
    });
  });
});
