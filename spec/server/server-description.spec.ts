import 'reflect-metadata';
import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { DefinitionError, InMemoryTransport, PhantomServer, Tool } from '../../lib';

describe('PhantomServer: what it says about itself (description, environment)', () => {
  class Echo {
    @Tool({ description: 'Echo' }) echo() { return 'echo'; }
  }

  it('sends its description in serverInfo', async () => {
    const server = new PhantomServer({ name: 'notes', version: '1.0.0', description: 'Takes notes', providers: [Echo] });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'c', version: '1' });
    await client.connect(clientSide);
    expect(client.getServerVersion()).to.include({ name: 'notes', version: '1.0.0', description: 'Takes notes' });
    await client.close();
    await server.close();
  });

  it('keeps a frozen copy of the environment variables it declares', async () => {
    const declared = [{ name: 'API_KEY', description: 'The weather API key', required: true, secret: true }];
    const server = new PhantomServer({ name: 'weather', version: '1', providers: [Echo], environment: declared });
    (declared[0] as { name: string }).name = 'CHANGED';
    expect(server.environment).to.deep.equal([{ name: 'API_KEY', description: 'The weather API key', required: true, secret: true }]);
    expect(Object.isFrozen(server.environment) && Object.isFrozen(server.environment[0])).to.equal(true);
    await server.close();
  });

  it('refuses, all at once, declarations an installer could not use', () => {
    const make = () => new PhantomServer({
      name: 's', version: '1', providers: [Echo],
      environment: [
        { name: '1BAD', description: 'starts with a digit' },
        { name: 'TOKEN', description: '' },
        { name: 'MODE', description: 'mode', choices: ['a', 'b'], default: 'c' },
        { name: 'MODE', description: 'again' },
      ],
    });
    expect(make).to.throw(DefinitionError).that.satisfies((error: DefinitionError) => {
      expect(error.problems.join('\n')).to.match(/"1BAD": a name is/).and.match(/"TOKEN" needs a description/)
        .and.match(/"MODE": its default "c" is not one of its choices/).and.match(/"MODE" is declared twice/);
      return true;
    });
  });
});
