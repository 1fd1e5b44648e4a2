import 'reflect-metadata';
import { expect } from 'chai';
import { Prompt, Resource, Tool, userText } from '../../../lib';
import { ResultDecorator, type CacheDefaults } from '../../../lib/protocol/stateless-era/result-decoration';
import { registryOf } from '../../support/registry-of';

class Cached {
  @Tool({ description: 'Cacheable by anyone for 5 s', cache: { ttlMs: 5_000, scope: 'public' } })
  shared() { return 'shared'; }

  @Tool({ description: 'Says nothing about caching' })
  plain() { return 'plain'; }

  @Prompt({ description: 'Greets' })
  greeting() { return userText('hi'); }

  @Resource('c://about', { description: 'About', cache: { ttlMs: 2_500.7, scope: 'public' } })
  about() { return 'about'; }

  @Resource('c://negative', { description: 'A negative TTL', cache: { ttlMs: -5 } })
  negative() { return 'negative'; }

  @Resource('c://items/{id}', { description: 'Items' })
  item({ id }: { id: string }) { return id; }
}

class Listed {
  @Resource('l://items/{id}', { description: 'Items it can list', list: 'items' })
  item({ id }: { id: string }) { return id; }

  items() { return [{ uri: 'l://items/1' }]; }

  @Tool({ description: 'A tool' })
  tool() { return 'tool'; }
}

const DEFAULTS: CacheDefaults = {
  lists: { ttlMs: 60_000, scope: 'public' },
  reads: { ttlMs: 0, scope: 'private' },
  discover: { ttlMs: 60_000, scope: 'public' },
  listsArePrivate: false,
};

const INFO = { name: 'decorated', version: '2.0.0' };
const SERVER_META = { 'io.modelcontextprotocol/serverInfo': INFO };

function decoratorFor(providers: Array<new () => object>, defaults: Partial<CacheDefaults> = {}): ResultDecorator {
  return new ResultDecorator(registryOf(...providers), INFO, { ...DEFAULTS, ...defaults });
}

const LISTS = ['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list'];

describe('ResultDecorator', () => {
  describe('#decorate', () => {
    context('when a visibility rule is set (lists are private)', () => {
      it('marks every list private, even one whose members all ask for public', () => {
        const decorator = decoratorFor([Cached], { listsArePrivate: true });
        for (const method of LISTS) expect(decorator.decorate(method, {}, undefined).cacheScope, method).to.equal('private');
      });

      it('keeps the TTL the list would have had', () => {
        const decorator = decoratorFor([Cached], { listsArePrivate: true });
        expect(decorator.decorate('tools/list', {}, undefined).ttlMs).to.equal(5_000);
      });
    });

    context('when no visibility rule is set', () => {
      it('gives a list the server defaults, with the shortest TTL its members ask for', () => {
        const decorator = decoratorFor([Cached]);
        expect(decorator.decorate('tools/list', { tools: [] }, undefined)).to.deep.include({ ttlMs: 5_000, cacheScope: 'public' });
        expect(decorator.decorate('prompts/list', { prompts: [] }, undefined)).to.deep.include({ ttlMs: 60_000, cacheScope: 'public' });
      });
    });

    context('when a template lists its resources for the caller', () => {
      it('marks resources/list private, and leaves the other lists public', () => {
        const decorator = decoratorFor([Listed]);
        expect(decorator.decorate('resources/list', {}, undefined).cacheScope).to.equal('private');
        expect(decorator.decorate('tools/list', {}, undefined).cacheScope).to.equal('public');
        expect(decorator.decorate('resources/templates/list', {}, undefined).cacheScope).to.equal('public');
      });
    });

    context('when the result is a resources/read', () => {
      it('gives the read defaults, overridden by what the resource asks (its TTL in whole, non-negative ms)', () => {
        const decorator = decoratorFor([Cached]);
        expect(decorator.decorate('resources/read', {}, { uri: 'c://items/1' })).to.deep.include({ ttlMs: 0, cacheScope: 'private' });
        expect(decorator.decorate('resources/read', {}, { uri: 'c://about' })).to.deep.include({ ttlMs: 2_500, cacheScope: 'public' });
        expect(decorator.decorate('resources/read', {}, { uri: 'c://negative' })).to.deep.include({ ttlMs: 0, cacheScope: 'private' });
      });

      it('gives the read defaults for a URI nothing serves', () => {
        expect(decoratorFor([Cached]).decorate('resources/read', {}, { uri: 'c://nothing' })).to.deep.include({ ttlMs: 0, cacheScope: 'private' });
      });
    });

    context('when the method is not a list or a read', () => {
      it('adds no caching hint', () => {
        const decorated = decoratorFor([Cached]).decorate('tools/call', { content: [] }, { name: 'plain' });
        expect(decorated).to.deep.equal({ content: [], resultType: 'complete', _meta: SERVER_META });
      });
    });

    context('when the result already says its resultType', () => {
      it('keeps it', () => {
        expect(decoratorFor([Cached]).decorate('tools/call', { resultType: 'input_required' }, undefined).resultType).to.equal('input_required');
      });
    });

    context('when the result has a _meta of its own', () => {
      it('keeps its keys and adds the server\'s identity', () => {
        const decorated = decoratorFor([Cached]).decorate('tools/call', { _meta: { trace: 't-1' } }, undefined);
        expect(decorated._meta).to.deep.equal({ trace: 't-1', ...SERVER_META });
      });
    });
  });

  describe('#meta', () => {
    context('when given no _meta, or one that is not an object', () => {
      it('gives the server\'s identity alone', () => {
        const decorator = decoratorFor([Cached]);
        expect(decorator.meta()).to.deep.equal(SERVER_META);
        expect(decorator.meta('text')).to.deep.equal(SERVER_META);
      });
    });

    context('when the own _meta names the server identity key', () => {
      it('lets the server\'s identity win', () => {
        expect(decoratorFor([Cached]).meta({ 'io.modelcontextprotocol/serverInfo': 'forged' })).to.deep.equal(SERVER_META);
      });
    });
  });

  describe('#discoverHint', () => {
    it('is the server default for server/discover', () => {
      expect(decoratorFor([Cached], { discover: { ttlMs: 1, scope: 'private' } }).discoverHint).to.deep.equal({ ttlMs: 1, scope: 'private' });
    });
  });
});
