import 'reflect-metadata';
import { PhantomServer } from '../../lib';
import { HelloTools } from '../01-hello-tool/main';
import { NoteResources } from '../02-resources/main';
import { TravelPrompts } from '../03-prompts/main';
import { ConnectPage } from '../04-elicitation/connect-page';
import { GreeterTools, runWithPage, UserInfo } from '../04-elicitation/main';
import { Inventory, ShopTools } from '../05-dependency-injection/main';
import { container as rootContainer } from 'tsyringe';
import { storeFromEnv } from '../store-from-env';

/** Every sample's providers on one server: what `npm start` runs (with 04's sign-in page beside it). */
export function createServer(page: ConnectPage = new ConnectPage()): PhantomServer {
  const container = rootContainer.createChildContainer();
  container.registerSingleton(Inventory);
  container.registerInstance(ConnectPage, page);
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

if (require.main === module) {
  const page = new ConnectPage();
  runWithPage(createServer(page), page).catch((error: unknown) => {
    process.stderr.write(`phantom-showcase: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
