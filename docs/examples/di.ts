// Dependency injection with tsyringe: constructor injection by class and by token, lifetimes,
// your own container, the server itself as a dependency, another container through `resolve`,
// and fakes in tests. Included in docs/guide/dependency-injection.md; the exported checks are run
// by spec/docs/examples/di.spec.ts.
import 'reflect-metadata';
// #region services
import { inject, injectable } from 'tsyringe';

/** A class is its own token: `@injectable()` records its constructor's parameter types. */
@injectable()
export class Inventory {
  private readonly stock = new Map<string, number>([['apple', 3], ['pear', 0]]);

  count(item: string): number | undefined {
    return this.stock.get(item);
  }

  take(item: string): number {
    const left = (this.stock.get(item) ?? 0) - 1;
    this.stock.set(item, left);
    return left;
  }
}

/** An interface has no runtime type, so it needs a token of its own. */
export interface PriceList {
  priceOf(item: string): number;
}
export const PRICE_LIST = Symbol('PriceList');

@injectable()
export class Checkout {
  constructor(
    private readonly inventory: Inventory, // by its class
    @inject(PRICE_LIST) private readonly prices: PriceList, // by the token
  ) {}

  buy(item: string): { item: string; paid: number; left: number } {
    return { item, paid: this.prices.priceOf(item), left: this.inventory.take(item) };
  }
}
// #endregion services

// #region providers
import { IsString } from 'class-validator';
import { Field, Tool, ToolError } from 'phantom-mcp';

export class ItemArgs {
  @Field({ description: 'An item, e.g. apple' }) @IsString() item!: string;
}

@injectable()
export class StockTools {
  constructor(private readonly inventory: Inventory) {}

  @Tool({ description: 'How many of an item are in stock', readOnly: true })
  stock(args: ItemArgs) {
    const count = this.inventory.count(args.item);
    if (count === undefined) throw new ToolError(`We do not sell ${args.item}`);
    return { item: args.item, count };
  }
}

@injectable()
export class ShopTools {
  constructor(private readonly inventory: Inventory, private readonly checkout: Checkout) {}

  @Tool({ description: 'Buy one of an item' })
  buy(args: ItemArgs) {
    if (!this.inventory.count(args.item)) throw new ToolError(`${args.item} is out of stock`);
    return this.checkout.buy(args.item);
  }
}
// #endregion providers

// #region server-dependency
import { Context, PhantomServer } from 'phantom-mcp';

@injectable()
export class Catalogue {
  constructor(private readonly server: PhantomServer) {} // the server that serves this class

  @Tool({ description: 'Stop selling through the buy tool' })
  closeShop(ctx: Context): string {
    ctx.log.info('closing the shop');
    this.server.removeTool('buy'); // clients are told: notifications/tools/list_changed
    return 'Closed';
  }
}
// #endregion server-dependency

// #region container
import { container as rootContainer, type DependencyContainer } from 'tsyringe';

const PRICES: PriceList = { priceOf: (item) => (item === 'apple' ? 2 : 3) };

/** Services go in a container of yours; the server makes its own child of it for the providers. */
export function createServer(container: DependencyContainer = rootContainer.createChildContainer()): PhantomServer {
  container.registerSingleton(Inventory); // one stock, shared by every class that asks
  // The price list, unless a test registered one:
  if (!container.isRegistered(PRICE_LIST, true)) container.register(PRICE_LIST, { useValue: PRICES });
  return new PhantomServer({
    name: 'shop',
    version: '1.0.0',
    providers: [StockTools, ShopTools, Catalogue],
    container,
  });
}
// #endregion container

// #region resolve
/** Instances made elsewhere: another DI container, or by hand. */
export function serverFromInstances(): PhantomServer {
  const inventory = new Inventory();
  const instances = new Map<Function, object>([
    [StockTools, new StockTools(inventory)],
    [ShopTools, new ShopTools(inventory, new Checkout(inventory, PRICES))],
  ]);
  return new PhantomServer({ name: 'shop', version: '1.0.0', providers: [StockTools, ShopTools], resolve: (cls) => instances.get(cls) });
}
// #endregion resolve

// #region testing
import { strict as assert } from 'node:assert';
import { connect, structuredOf } from 'phantom-mcp/testing';

export async function chargesTheFakePrice(): Promise<void> {
  const client = await connect(createServer(), { overrides: [[PRICE_LIST, { priceOf: () => 100 }]] });
  assert.deepEqual(structuredOf(await client.callTool({ name: 'buy', arguments: { item: 'apple' } })), { item: 'apple', paid: 100, left: 2 });
  await client.close();
}

export async function sellsFromAContainerOfYours(): Promise<void> {
  const container = rootContainer.createChildContainer(); // a fresh one per test
  container.register(PRICE_LIST, { useValue: { priceOf: () => 1 } });
  const client = await connect(createServer(container));
  await client.callTool({ name: 'buy', arguments: { item: 'apple' } });
  assert.deepEqual(structuredOf(await client.callTool({ name: 'stock', arguments: { item: 'apple' } })), { item: 'apple', count: 2 });
  await client.close();
}
// #endregion testing
