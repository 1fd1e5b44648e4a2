import 'reflect-metadata';
import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport, PhantomServer, Tool } from '../../../lib';

describe('InMemoryTransport', () => {
  describe('.createLinkedPair', () => {
    class Hello {
      @Tool({ description: 'Says hello' }) hello() { return 'hello'; }
    }

    // The type check is the point: this file does not compile if the SDK's Client needs a cast.
    it('hands an end to the official SDK Client as it is, without a cast', async () => {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await new PhantomServer({ name: 'pair', version: '1', providers: [Hello] }).connect(serverSide);
      const client = new Client({ name: 'spec', version: '1' });
      await client.connect(clientSide);
      expect(await client.callTool({ name: 'hello' })).to.deep.equal({ content: [{ type: 'text', text: 'hello' }] });
      await client.close();
    });
  });
});
