import 'reflect-metadata';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { injectable } from 'tsyringe';
import { Field, PhantomServer, Resource, Tool } from 'phantom-mcp';

/** The arguments of `greet`, validated before the tool runs. */
export class GreetArgs {
  @Field({ description: 'Who to greet', examples: ['Ada'] })
  @IsString()
  @MaxLength(100)
  name!: string;

  @Field({ description: 'How to greet them' })
  @IsOptional()
  @IsString()
  greeting = 'Hello';
}

/** Where greetings come from: a service, injected, so a test can replace it. */
@injectable()
export class Greetings {
  count = 0;

  greet(greeting: string, name: string): string {
    this.count += 1;
    return `${greeting}, ${name}!`;
  }
}

/** What the server serves: one tool and one resource. */
@injectable()
export class GreeterTools {
  constructor(private readonly greetings: Greetings) {}

  @Tool({ description: 'Greets someone by name', readOnly: true })
  greet(args: GreetArgs): string {
    return this.greetings.greet(args.greeting, args.name);
  }

  @Resource('greeter://stats', { description: 'How many greetings this server gave', mimeType: 'application/json' })
  stats() {
    return { greetings: this.greetings.count };
  }
}

export function createServer(): PhantomServer {
  return new PhantomServer({ name: '__PACKAGE_NAME__', version: '0.1.0', providers: [GreeterTools] });
}
