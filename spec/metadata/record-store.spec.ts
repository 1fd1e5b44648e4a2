import 'reflect-metadata';
import { expect } from 'chai';
import { RequireScopes, Tool, UseGuards, type CanActivate } from '../../lib';
import * as store from '../../lib/metadata/metadata-store';

class Allow implements CanActivate { canActivate(): boolean { return true; } }

/** The metadata modules as a second copy of phantom-mcp in the process has them: loaded anew. */
function secondCopy(): typeof store {
  const reloaded = ['../../lib/metadata/metadata-store', '../../lib/metadata/record-store'].map((path) => require.resolve(path));
  const kept = reloaded.map((path) => require.cache[path]);
  for (const path of reloaded) delete require.cache[path];
  try {
    return require('../../lib/metadata/metadata-store') as typeof store;
  } finally {
    reloaded.forEach((path, i) => { require.cache[path] = kept[i]; });
  }
}

describe('the decorators\' record store', () => {
  context('when another copy of phantom-mcp reads classes this one decorated', () => {
    @UseGuards(Allow)
    @RequireScopes('read')
    class Served {
      @RequireScopes('write')
      @Tool({ description: 'T' }) tool() { return 'ok'; }
    }

    it('sees the same records (the CLI reads a served module\'s classes with its own copy)', () => {
      const other = secondCopy();
      expect(other.isProviderClass(Served)).to.equal(true);
      expect(other.readMembers('phantom:tools', Served).map((record) => record.propertyKey)).to.deep.equal(['tool']);
      expect(other.readClassPipelineMembers('phantom:guards', Served)).to.deep.equal([Allow]);
      expect(other.readClassScopes(Served)).to.deep.equal(['read']);
      expect(other.readMethodScopes(Served, 'tool')).to.deep.equal(['write']);
    });
  });

  context('when a subclass inherits decorated members', () => {
    @RequireScopes('base')
    class Base {
      @UseGuards(Allow)
      @Tool({ description: 'T' }) tool() { return 'ok'; }
    }
    class Derived extends Base {}
    @RequireScopes('own')
    class Redeclared extends Base {}

    it('reads the nearest class\'s and method\'s declarations, as reflect-metadata\'s getMetadata did', () => {
      expect(store.readClassScopes(Derived)).to.deep.equal(['base']);
      expect(store.readClassScopes(Redeclared)).to.deep.equal(['own']);
      expect(store.readMethodPipelineMembers('phantom:guards', Derived, 'tool')).to.deep.equal([Allow]);
      expect(store.readMethodPipelineMembers('phantom:guards', Derived, 'other')).to.deep.equal([]);
    });
  });
});
