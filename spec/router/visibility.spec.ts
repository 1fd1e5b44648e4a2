import 'reflect-metadata';
import { expect } from 'chai';
import { Prompt, RequireScopes, Resource, Tool } from '../../lib';
import { registryOf } from '../support/registry-of';
import { VisibilityResolver, type Visibility, type VisibleItem } from '../../lib/router/visibility';

class Files {
  @Resource('f://readme', { description: 'A fixed resource' })
  readme() { return 'readme'; }

  @Resource('f://private/{name}', { description: 'Private files' })
  secret({ name }: { name: string }) { return name; }

  @Tool({ description: 'Removes a file' })
  @RequireScopes('files:write')
  remove() { return 'removed'; }

  @Prompt({ description: 'Summarises a file' })
  summarise() { return 'summary'; }
}

/** A rule that hides what `hidden` says from everyone but `admin`, and records what it was asked. */
function rule(hidden: (item: VisibleItem) => boolean): { visible: Visibility; asked: VisibleItem[] } {
  const asked: VisibleItem[] = [];
  return { asked, visible: (item, principal) => { asked.push(item); return principal === 'admin' || !hidden(item); } };
}

const resolver = (visible?: Visibility) => new VisibilityResolver(registryOf(Files), visible);

describe('VisibilityResolver', () => {
  describe('#differsByCaller', () => {
    context('when the server sets no rule', () => {
      it('is false', () => {
        expect(resolver().differsByCaller).to.equal(false);
      });
    });

    context('when the server sets a rule', () => {
      it('is true', () => {
        expect(resolver(() => true).differsByCaller).to.equal(true);
      });
    });
  });

  describe('#tool', () => {
    context('when the rule allows the tool to the caller', () => {
      it('gives its definition, after asking the rule about it with its declared scopes', () => {
        const { visible, asked } = rule(() => true);
        expect(resolver(visible).tool('remove', 'admin')?.label).to.equal('Files#remove');
        expect(asked).to.deep.equal([{ kind: 'tool', name: 'remove', scopes: ['files:write'] }]);
      });
    });

    context('when the rule hides the tool from the caller', () => {
      it('gives undefined, as for a tool that does not exist', () => {
        const { visible } = rule((item) => item.kind === 'tool');
        expect(resolver(visible).tool('remove', 'user')).to.equal(undefined);
      });
    });

    context('when no tool has the name', () => {
      it('gives undefined without asking the rule', () => {
        const { visible, asked } = rule(() => false);
        expect(resolver(visible).tool('nothing', 'user')).to.equal(undefined);
        expect(asked).to.deep.equal([]);
      });
    });

    context('when the server sets no rule', () => {
      it('gives the registry\'s definition', () => {
        expect(resolver().tool('remove', undefined)?.label).to.equal('Files#remove');
      });
    });
  });

  describe('#prompt', () => {
    context('when the rule hides the prompt from the caller', () => {
      it('gives undefined, and the definition to a caller it allows', () => {
        const { visible, asked } = rule((item) => item.kind === 'prompt');
        expect(resolver(visible).prompt('summarise', 'user')).to.equal(undefined);
        expect(resolver(visible).prompt('summarise', 'admin')?.label).to.equal('Files#summarise');
        expect(asked[0]).to.deep.equal({ kind: 'prompt', name: 'summarise' });
      });
    });
  });

  describe('#template', () => {
    context('when the rule hides the template from the caller', () => {
      it('gives undefined, and the definition to a caller it allows', () => {
        const { visible, asked } = rule((item) => item.kind === 'template');
        expect(resolver(visible).template('f://private/{name}', 'user')).to.equal(undefined);
        expect(resolver(visible).template('f://private/{name}', 'admin')?.label).to.equal('Files#secret');
        expect(asked[0]).to.deep.equal({ kind: 'template', uriTemplate: 'f://private/{name}' });
      });
    });
  });

  describe('#resource', () => {
    context('when the caller may see the URI, and the template that serves it', () => {
      it('resolves it with its variables', () => {
        expect(resolver().resource('f://private/a', undefined)?.params).to.deep.equal({ name: 'a' });
      });
    });

    context('when the URI itself is hidden from the caller', () => {
      it('gives undefined, as for a URI nothing serves', () => {
        const { visible } = rule((item) => item.kind === 'resource' && item.uri === 'f://readme');
        expect(resolver(visible).resource('f://readme', 'user')).to.equal(undefined);
        expect(resolver(visible).resource('f://readme', 'admin')?.definition.label).to.equal('Files#readme');
      });
    });

    context('when the URI is visible but the template that serves it is not', () => {
      it('gives undefined: a hidden template hides every URI it serves', () => {
        const { visible, asked } = rule((item) => item.kind === 'template');
        expect(resolver(visible).resource('f://private/a', 'user')).to.equal(undefined);
        expect(asked).to.deep.equal([{ kind: 'resource', uri: 'f://private/a' }, { kind: 'template', uriTemplate: 'f://private/{name}' }]);
      });
    });

    context('when the resource is fixed', () => {
      it('asks about the URI only', () => {
        const { visible, asked } = rule(() => false);
        expect(resolver(visible).resource('f://readme', 'user')).not.to.equal(undefined);
        expect(asked).to.deep.equal([{ kind: 'resource', uri: 'f://readme' }]);
      });
    });

    context('when nothing serves the URI', () => {
      it('gives undefined without asking the rule', () => {
        const { visible, asked } = rule(() => false);
        expect(resolver(visible).resource('g://x', 'user')).to.equal(undefined);
        expect(asked).to.deep.equal([]);
      });
    });
  });

  describe('#filter', () => {
    const uris = ['f://readme', 'f://private/a', 'g://nothing'];

    context('when the server sets a rule', () => {
      it('keeps the items the lookup knows for the caller', () => {
        const visibility = resolver(rule((item) => item.kind === 'template').visible);
        const known = (uri: string, principal: unknown) => visibility.resource(uri, principal);
        expect(visibility.filter(uris, 'user', known)).to.deep.equal(['f://readme']);
        expect(visibility.filter(uris, 'admin', known)).to.deep.equal(['f://readme', 'f://private/a']);
      });
    });

    context('when the server sets no rule', () => {
      it('gives the list itself, without looking anything up', () => {
        const visibility = resolver();
        expect(visibility.filter(uris, 'user', () => expect.fail('looked up'))).to.equal(uris);
      });
    });
  });
});
