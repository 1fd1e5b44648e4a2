import 'reflect-metadata';
import { PhantomServer } from '../../lib';
import { HelloTools } from '../01-hello-tool/main';
import { NoteResources } from '../02-resources/main';
import { TravelPrompts } from '../03-prompts/main';
import { GreeterTools, UserInfo } from '../04-elicitation/main';
import { Inventory, ShopTools } from '../05-dependency-injection/main';
import { container as rootContainer } from 'tsyringe';
import { runSample } from '../run-sample';
import { storeFromEnv } from '../store-from-env';

/** Every sample's providers on one server: what `npm start` runs. */
export function createServer(): PhantomServer {
  const container = rootContainer.createChildContainer();
  container.registerSingleton(Inventory);
  return new PhantomServer({
    name: 'phantom-showcase',
    version: '1.0.0',
    title: 'phantom-mcp showcase',
    instructions: 'Tools greet, sell fruit and elicit; resources serve notes; prompts plan trips.',
    providers: [HelloTools, NoteResources, TravelPrompts, GreeterTools, ShopTools],
    forms: [UserInfo],
    container,
    store: storeFromEnv(),
  });
}

if (require.main === module) void runSample(createServer());
