import 'reflect-metadata';
import { expect } from 'chai';
import { Resource } from '../../lib';
import { registryOf } from '../support/registry-of';
import { EVERYTHING_VISIBLE, visibleResource, type Visibility, type VisibleItem } from '../../lib/router/visibility';

class Files {
  @Resource('f://readme', { description: 'A fixed resource' })
  readme() { return 'readme'; }

  @Resource('f://private/{name}', { description: 'Private files' })
  secret({ name }: { name: string }) { return name; }
}

const registry = () => registryOf(Files);

/** A rule that hides `hidden` from everyone but `admin`, and records what it was asked. */
function rule(hidden: (item: VisibleItem) => boolean): { visible: Visibility; asked: VisibleItem[] } {
  const asked: VisibleItem[] = [];
  return { asked, visible: (item, principal) => { asked.push(item); return principal === 'admin' || !hidden(item); } };
}

describe('visibility', () => {
  describe('visibleResource', () => {
    context('when the caller may see the URI, and the template that serves it', () => {
      it('resolves it with its variables', () => {
        expect(visibleResource(registry(), EVERYTHING_VISIBLE, 'f://private/a', undefined)?.params).to.deep.equal({ name: 'a' });
      });
    });

    context('when the URI itself is hidden from the caller', () => {
      it('gives undefined, as for a URI nothing serves', () => {
        const { visible } = rule((item) => item.kind === 'resource' && item.uri === 'f://readme');
        expect(visibleResource(registry(), visible, 'f://readme', 'user')).to.equal(undefined);
        expect(visibleResource(registry(), visible, 'f://readme', 'admin')?.definition.label).to.equal('Files#readme');
      });
    });

    context('when the URI is visible but the template that serves it is not', () => {
      it('gives undefined: a hidden template hides every URI it serves', () => {
        const { visible, asked } = rule((item) => item.kind === 'template');
        expect(visibleResource(registry(), visible, 'f://private/a', 'user')).to.equal(undefined);
        expect(asked).to.deep.equal([{ kind: 'resource', uri: 'f://private/a' }, { kind: 'template', uriTemplate: 'f://private/{name}' }]);
      });
    });

    context('when the resource is fixed', () => {
      it('asks about the URI only', () => {
        const { visible, asked } = rule(() => false);
        expect(visibleResource(registry(), visible, 'f://readme', 'user')).not.to.equal(undefined);
        expect(asked).to.deep.equal([{ kind: 'resource', uri: 'f://readme' }]);
      });
    });

    context('when nothing serves the URI', () => {
      it('gives undefined without asking the rule', () => {
        const { visible, asked } = rule(() => false);
        expect(visibleResource(registry(), visible, 'g://x', 'user')).to.equal(undefined);
        expect(asked).to.deep.equal([]);
      });
    });
  });
});
