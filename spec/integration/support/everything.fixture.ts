import 'reflect-metadata';
import { IsString } from 'class-validator';
import {
  Context, Elicit, Field, PhantomServer, Prompt, Resource, Tool, ToolResult, UrlElicitationRequiredError, userText,
  type PhantomServerOptions,
} from '../../../lib';
import { UserInfo } from '../../../samples/04-elicitation/main';

@Elicit({ message: 'Where are you going?' })
export class Destination {
  @Field({ title: 'City' }) @IsString() city!: string;
}

export class EchoArgs {
  @Field({ description: 'Text to echo' }) @IsString() text!: string;
}

/** What the integration specs observe from the server side. */
export const observed = { cancelled: 0 };

/** One of everything a session-era client can exercise. */
export class Everything {
  @Tool({ description: 'Echoes its text' })
  echo(args: EchoArgs) { return args.text; }

  @Tool({ description: 'Reports progress three times' })
  async steps(_args: object, ctx: Context) {
    for (let i = 1; i <= 3; i += 1) await ctx.progress(i, 3, `step ${i}`);
    return 'done';
  }

  @Tool({ description: 'Logs at four levels' })
  async chatty(_args: object, ctx: Context) {
    await ctx.log.debug('debug line');
    await ctx.log.info('info line');
    await ctx.log.warning({ detail: 'warning line' }, 'fixture');
    await ctx.log.error('error line');
    return 'logged';
  }

  @Tool({ description: 'Asks for user info' })
  async greet(_args: object, ctx: Context) {
    const answer = await ctx.elicit(UserInfo);
    if (answer.action === 'accept') return `Hello ${answer.content.name} (${answer.content.role})`;
    if (answer.action === 'unsupported') return 'Hello stranger';
    return ToolResult.error(`Elicitation ${answer.action}`);
  }

  @Tool({ description: 'Asks who you are, then where you go: two elicitations' })
  async trip(_args: object, ctx: Context) {
    const who = await ctx.elicit(UserInfo);
    if (who.action !== 'accept') return ToolResult.error(`No traveller: ${who.action}`);
    const where = await ctx.elicit(Destination);
    if (where.action !== 'accept') return ToolResult.error(`No destination: ${where.action}`);
    return `${who.content.name} goes to ${where.content.city}`;
  }

  @Tool({ description: 'Sends the user to a URL' })
  async signIn(_args: object, ctx: Context) {
    const answer = await ctx.elicit(Elicit.url({ message: 'Sign in', url: 'https://example.com/sign-in?e=fixture-1', elicitationId: 'fixture-1' }));
    return answer.action === 'accept' ? 'signed in' : `sign-in ${answer.action}`;
  }

  @Tool({ description: 'Needs a URL elicitation first' })
  guarded() {
    throw new UrlElicitationRequiredError([Elicit.url({ message: 'Authorise', url: 'https://example.com/authorise', elicitationId: 'auth-1' })]);
  }

  @Tool({ description: 'Asks the client model' })
  async ask(_args: object, ctx: Context) {
    const reply = await ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }], maxTokens: 10 });
    return `model said: ${(reply.content as { text: string }).text}`;
  }

  @Tool({ description: 'Lists the client roots' })
  async roots(_args: object, ctx: Context) {
    return { roots: await ctx.listRoots() };
  }

  @Tool({ description: 'Waits until cancelled' })
  async wait(_args: object, ctx: Context) {
    await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
    observed.cancelled += 1;
    return 'too late';
  }

  @Tool({ description: 'Marks the watched resource as changed' })
  async touch(_args: object, ctx: Context) {
    await ctx.resourceUpdated('test://watched');
    return 'touched';
  }

  @Resource('test://watched', { description: 'A resource clients subscribe to', mimeType: 'text/plain' })
  watched() { return 'watched'; }

  @Resource('test://items/{id}', { description: 'Items', complete: { id: ['1', '2', '3'] } })
  item({ id }: { id: string }) { return `item ${id}`; }

  @Prompt({ description: 'Greets', complete: { text: ['hello', 'help'] } })
  hello(args: EchoArgs) { return userText(args.text); }
}

export class Extra {
  @Tool({ description: 'Added at runtime' })
  extra() { return 'extra'; }
}

export function everythingServer(options: Partial<PhantomServerOptions> = {}): PhantomServer {
  return new PhantomServer({ name: 'everything', version: '1.2.3', instructions: 'Use every tool', providers: [Everything], forms: [UserInfo, Destination], ...options });
}
