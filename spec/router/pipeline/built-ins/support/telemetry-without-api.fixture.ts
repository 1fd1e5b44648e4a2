import 'reflect-metadata';
import { IsString } from 'class-validator';
import { Field, PhantomServer, Tool } from '../../../../../lib';
import { TelemetryInterceptor } from '../../../../../lib/entries/otel';

class HelloArgs {
  @Field({ description: 'Who' }) @IsString() name!: string;
}

class Greeter {
  @Tool({ description: 'Greets' })
  hello(args: HelloArgs) {
    return `hello ${args.name}`;
  }
}

/** Run in a process without @opentelemetry/api: a server with the interceptor answers one call. */
export async function callOnce(): Promise<string> {
  const server = new PhantomServer({ name: 'greeter', version: '1.0.0', providers: [Greeter] });
  server.use(new TelemetryInterceptor());
  const outcome = await server.handle('tools/call', { name: 'hello', arguments: { name: 'Ada' } });
  if (!('result' in outcome)) throw new Error(`the call failed: ${JSON.stringify(outcome.error)}`);
  return (outcome.result.content as { text: string }[])[0].text;
}
