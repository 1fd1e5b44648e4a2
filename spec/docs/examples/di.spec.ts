import 'reflect-metadata';
import { expect } from 'chai';
import { container as rootContainer, injectable } from 'tsyringe';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { DefinitionError, PhantomServer, Tool } from 'phantom-mcp';
import { connect, expectToolError, structuredOf, textOf } from 'phantom-mcp/testing';
import {
  chargesTheFakePrice, createServer, Inventory, PRICE_LIST, serverFromInstances, sellsFromAContainerOfYours, ShopTools, StockTools,
} from '../../../docs/examples/di';

/** What a provider would ask for by an interface: nothing tsyringe can build. */
interface Mailer {
  send(to: string): void;
}

@injectable()
class Notifier {
  constructor(readonly mailer: Mailer) {}

  @Tool({ description: 'Notify someone' })
  notify(): string {
    return 'sent';
  }
}

describe('docs/examples/di.ts (the dependency injection guide)', () => {
  it('shares one Inventory between the two providers: what buy takes, stock no longer counts', async () => {
    const client = await connect(createServer());
    expect(structuredOf(await client.callTool({ name: 'buy', arguments: { item: 'apple' } }))).to.deep.equal({ item: 'apple', paid: 2, left: 2 });
    expect(structuredOf(await client.callTool({ name: 'stock', arguments: { item: 'apple' } }))).to.deep.equal({ item: 'apple', count: 2 });
    expectToolError(await client.callTool({ name: 'buy', arguments: { item: 'pear' } }), /pear is out of stock/);
    await client.close();
  });

  it('gives each server its own providers and its own stock, made from a container of its own', async () => {
    const first = await connect(createServer());
    const second = await connect(createServer());
    await first.callTool({ name: 'buy', arguments: { item: 'apple' } });
    expect(structuredOf(await second.callTool({ name: 'stock', arguments: { item: 'apple' } }))).to.deep.equal({ item: 'apple', count: 3 });
    await first.close();
    await second.close();
  });

  it('builds an unregistered service once for each class that asks for it (no sharing without a registration)', async () => {
    const container = rootContainer.createChildContainer();
    container.register(PRICE_LIST, { useValue: { priceOf: () => 1 } });
    const client = await connect(new PhantomServer({ name: 'shop', version: '1.0.0', providers: [StockTools, ShopTools], container }));
    await client.callTool({ name: 'buy', arguments: { item: 'apple' } });
    expect(structuredOf(await client.callTool({ name: 'stock', arguments: { item: 'apple' } }))).to.deep.equal({ item: 'apple', count: 3 });
    await client.close();
  });

  it('hands a provider the server itself: closeShop removes buy and the client is told', async () => {
    const client = await connect(createServer());
    const changed = new Promise<void>((resolve) => client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()));
    expect(textOf(await client.callTool({ name: 'closeShop', arguments: {} }))).to.equal('Closed');
    await changed;
    expect((await client.listTools()).tools.map((tool) => tool.name)).to.deep.equal(['stock', 'closeShop']);
    await client.close();
  });

  it('serves instances another container made, through resolve', async () => {
    const client = await connect(serverFromInstances());
    await client.callTool({ name: 'buy', arguments: { item: 'apple' } });
    expect(structuredOf(await client.callTool({ name: 'stock', arguments: { item: 'apple' } }))).to.deep.equal({ item: 'apple', count: 2 });
    await client.close();
  });

  it('refuses, when the server is made, a constructor parameter typed as an interface, naming the class and the parameter', () => {
    const make = () => new PhantomServer({ name: 'x', version: '1.0.0', providers: [Notifier] });
    expect(make).to.throw(DefinitionError, 'Notifier: constructor parameter 0 (mailer) is typed as an interface, a union or any (its runtime type is Object, which tells tsyringe nothing); name the dependency with @inject(token) and register the token');
  });

  it('refuses an override once the server has built its providers (override_too_late)', async () => {
    const server = createServer();
    const client = await connect(server);
    await client.callTool({ name: 'stock', arguments: { item: 'apple' } });
    expect(() => server.override(Inventory, new Inventory())).to.throw().with.property('code', 'override_too_late');
    await client.close();
  });

  describe('the testing region, run as written', () => {
    it('chargesTheFakePrice passes', async () => {
      await chargesTheFakePrice();
    });

    it('sellsFromAContainerOfYours passes', async () => {
      await sellsFromAContainerOfYours();
    });
  });
});
