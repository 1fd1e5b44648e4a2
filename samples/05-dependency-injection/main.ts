import 'reflect-metadata';
import { IsString } from 'class-validator';
import { container as rootContainer, injectable, type DependencyContainer } from 'tsyringe';
import { Field, PhantomServer, Tool, ToolError } from '../../lib';
import { runSample } from '../run-sample';
import { storeFromEnv } from '../store-from-env';

/** An ordinary service; registered as a singleton below, so every provider shares one. */
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

export class ItemArgs {
  @Field({ description: 'An item name, e.g. apple' })
  @IsString()
  item!: string;
}

/** A provider whose constructor receives the service. */
@injectable()
export class ShopTools {
  constructor(private readonly inventory: Inventory) {}

  @Tool({ description: 'How many of an item are in stock', readOnly: true })
  stock(args: ItemArgs) {
    const count = this.inventory.count(args.item);
    if (count === undefined) throw new ToolError(`We do not sell ${args.item}`);
    return { item: args.item, count };
  }

  @Tool({ description: 'Buy one of an item', destructive: false })
  buy(args: ItemArgs) {
    if (!this.inventory.count(args.item)) throw new ToolError(`${args.item} is out of stock`);
    return { item: args.item, left: this.inventory.take(args.item) };
  }
}

/** Services go in a container of yours; the server makes its own child of it for the providers. */
export function createServer(container: DependencyContainer = rootContainer.createChildContainer()): PhantomServer {
  container.registerSingleton(Inventory);
  return new PhantomServer({ name: 'shop', version: '1.0.0', providers: [ShopTools], container, store: storeFromEnv() });
}

if (require.main === module) void runSample(createServer());
