import 'reflect-metadata';
import { expect } from 'chai';
import { DefinitionError, Prompt, Resource, Tool, userText } from '../../lib';
import { Registry, type ListKind } from '../../lib/router/registry';
import { definitionsOf, registryOf } from '../support/registry-of';

class Served {
  @Tool({ description: 'Kept 10 s, public', cache: { ttlMs: 10_000, scope: 'public' } })
  slow() { return 'slow'; }

  @Tool({ description: 'Kept 2 s', cache: { ttlMs: 2_000 } })
  quick() { return 'quick'; }

  @Prompt({ description: 'Greets' })
  greeting() { return userText('hi'); }

  @Resource('s://items/special', { description: 'A fixed URI a template also matches' })
  special() { return 'special'; }

  @Resource('s://items/{id}', { description: 'Items' })
  item({ id }: { id: string }) { return id; }

  @Resource('s://{+path}', { description: 'Anything under s://' })
  any({ path }: { path: string }) { return path; }
}

class Private {
  @Tool({ description: 'Private to its caller', cache: { scope: 'private' } })
  mine() { return 'mine'; }
}

class Clashing {
  @Tool({ description: 'Has the name of a tool already served', name: 'slow' })
  other() { return 'other'; }

  @Tool({ description: 'New' })
  fresh() { return 'fresh'; }
}

class Tasking {
  @Tool({ description: 'May run as a task', task: 'optional' })
  long() { return 'long'; }
}

class Listing {
  @Resource('l://items/{id}', { description: 'Lists its items', list: 'items' })
  item({ id }: { id: string }) { return id; }

  items() { return [{ uri: 'l://items/1' }]; }
}

describe('Registry', () => {
  describe('#add', () => {
    context('when a name is already served', () => {
      it('throws a DefinitionError naming the clash and adds nothing', () => {
        const registry = registryOf(Served);
        const attempt = () => registry.add(definitionsOf(Clashing));
        expect(attempt).to.throw(DefinitionError, 'Clashing#other: tool "slow" is already registered');
        expect(registry.tool('fresh')).to.equal(undefined);
        expect(registry.toolList().map((tool) => tool.name)).to.have.members(['slow', 'quick']);
      });
    });

    context('when the definitions are new', () => {
      it('announces each kind of list that changed, once', () => {
        const registry = new Registry();
        const changes: ListKind[] = [];
        registry.onChange((kind) => changes.push(kind));
        registry.add(definitionsOf(Served));
        registry.add(definitionsOf(Private));
        expect(changes).to.deep.equal(['tools', 'prompts', 'resources', 'tools']);
      });
    });
  });

  describe('#resolveResource', () => {
    context('when a fixed URI is also matched by templates', () => {
      it('serves the fixed resource', () => {
        expect(registryOf(Served).resolveResource('s://items/special')?.definition.label).to.equal('Served#special');
      });
    });

    context('when two templates match', () => {
      it('picks the more specific one, with its variables', () => {
        const resolved = registryOf(Served).resolveResource('s://items/7');
        expect(resolved?.definition.label).to.equal('Served#item');
        expect(resolved?.params).to.deep.equal({ id: '7' });
        expect(registryOf(Served).resolveResource('s://docs/a/b')?.params).to.deep.equal({ path: 'docs/a/b' });
      });
    });

    context('when nothing matches', () => {
      it('gives undefined', () => {
        expect(registryOf(Served).resolveResource('other://x')).to.equal(undefined);
      });
    });
  });

  describe('#removeTool, #removePrompt, #removeResource', () => {
    context('when the item is served', () => {
      it('removes it, rebuilds its list and announces the change', () => {
        const registry = registryOf(Served);
        const before = registry.toolList();
        const changes: ListKind[] = [];
        registry.onChange((kind) => changes.push(kind));
        expect(registry.removeTool('quick')).to.equal(true);
        expect(registry.removePrompt('greeting')).to.equal(true);
        expect(registry.removeResource('s://items/{id}')).to.equal(true);
        expect(registry.removeResource('s://items/special')).to.equal(true);
        expect(registry.toolList()).not.to.equal(before);
        expect(registry.toolList().map((tool) => tool.name)).to.deep.equal(['slow']);
        expect(registry.promptList()).to.deep.equal([]);
        expect(registry.resolveResource('s://items/7')?.definition.label).to.equal('Served#any');
        expect(registry.resourceList()).to.deep.equal([]);
        expect(changes).to.deep.equal(['tools', 'prompts', 'resources', 'resources']);
      });
    });

    context('when the item is not served', () => {
      it('says false and announces nothing', () => {
        const registry = registryOf(Served);
        let changed = false;
        registry.onChange(() => { changed = true; });
        expect([registry.removeTool('none'), registry.removePrompt('none'), registry.removeResource('s://none/{x}')]).to.deep.equal([false, false, false]);
        expect(changed).to.equal(false);
      });
    });
  });

  describe('#toolList', () => {
    context('when nothing changed', () => {
      it('gives the same array, not a new one per request', () => {
        const registry = registryOf(Served);
        expect(registry.toolList()).to.equal(registry.toolList());
      });
    });
  });

  describe('#listCacheHint', () => {
    context('when members ask for different TTLs', () => {
      it('gives the shortest, and public unless a member is private', () => {
        const registry = registryOf(Served);
        expect(registry.listCacheHint('tools')).to.deep.equal({ ttlMs: 2_000, scope: 'public' });
        registry.add(definitionsOf(Private));
        expect(registry.listCacheHint('tools')).to.deep.equal({ ttlMs: 2_000, scope: 'private' });
      });

      it('gives private when any member is private, whichever comes first', () => {
        expect(registryOf(Private, Served).listCacheHint('tools')).to.deep.equal({ ttlMs: 2_000, scope: 'private' });
      });
    });

    context('when no member says anything', () => {
      it('gives undefined', () => {
        expect(registryOf(Served).listCacheHint('prompts')).to.equal(undefined);
      });
    });
  });

  describe('#hasListers', () => {
    it('is true once a template lists its resources, and false again when it is removed', () => {
      const registry = registryOf(Served);
      expect(registry.hasListers).to.equal(false);
      registry.add(definitionsOf(Listing));
      expect(registry.hasListers).to.equal(true);
      registry.removeResource('l://items/{id}');
      expect(registry.hasListers).to.equal(false);
    });
  });

  describe('#counts', () => {
    it('counts tools, prompts, and fixed and templated resources', () => {
      expect(registryOf(Served).counts).to.deep.equal({ tools: 2, prompts: 1, resources: 3, taskTools: 0 });
    });

    it('counts the tools that may run as tasks, as they come and go', () => {
      const registry = registryOf(Served);
      registry.add(definitionsOf(Tasking));
      expect(registry.counts).to.include({ tools: 3, taskTools: 1 });
      registry.removeTool('long');
      expect(registry.counts).to.include({ tools: 2, taskTools: 0 });
    });
  });

  describe('#onChange', () => {
    context('when the listener stopped listening', () => {
      it('hears no more changes', () => {
        const registry = registryOf(Served);
        let heard = 0;
        const stop = registry.onChange(() => { heard += 1; });
        stop();
        registry.removeTool('slow');
        expect(heard).to.equal(0);
      });
    });
  });
});
