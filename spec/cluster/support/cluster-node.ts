import 'reflect-metadata';
import { IsString } from 'class-validator';
import { inject, injectable } from 'tsyringe';
import { Elicit, Field, PhantomServer, Resource, Tool, type Context } from '../../../lib';
import { redis } from '../../../lib/entries/redis';

/**
 * One replica of the cluster specs, run as its own process: `node cluster-node.js PORT NAME`,
 * with REDIS_URL and CLUSTER_PREFIX in the environment. Prints `ready URL` once it serves.
 */
const [port, name] = process.argv.slice(2);

@Elicit({ message: 'Who is asking?' })
export class Asker {
  @Field({ title: 'Name' })
  @IsString()
  name!: string;
}

/** What `grow` adds to the node it runs on, at runtime. */
export class Grown {
  @Tool({ description: 'Added at runtime' })
  grown() {
    return `grown on ${name}`;
  }
}

/** A tool that comes and goes at runtime, for list changes. */
export class Spare {
  @Tool({ description: 'Is here until toggled away' })
  spare() {
    return name;
  }
}

@injectable()
export class ClusterTools {
  constructor(@inject(PhantomServer) private readonly server: PhantomServer) {}

  @Tool({ description: 'Names the node that ran the call' })
  whoami() {
    return name;
  }

  @Tool({ description: 'Says it back' })
  echo({ text }: { text: string }) {
    return text;
  }

  @Tool({ description: 'Asks the client a question, then names the node that asked and the answer' })
  async ask(_args: object, ctx: Context) {
    const answer = await ctx.elicit(Asker);
    return answer.action === 'accept' ? `${name} heard ${answer.content.name}` : `${name}: ${answer.action}`;
  }

  @Tool({ description: 'Sends the client to a page, then names the node that waited' })
  async visit({ id }: { id: string }, ctx: Context) {
    const answer = await ctx.elicit(Elicit.url({ message: 'Visit the page', url: `https://example.com/visit/${id}`, elicitationId: id }));
    return `${name}: ${answer.action}`;
  }

  @Tool({ description: 'Completes a URL elicitation, on whichever node this runs' })
  async complete({ id }: { id: string }) {
    await this.server.notifyElicitationComplete(id);
    return `${name} completed ${id}`;
  }

  @Tool({ description: 'Adds a tool to this node at runtime (its list_changed reaches every node\'s clients)' })
  grow() {
    this.server.add(Grown);
    return `${name} grew`;
  }

  @Tool({ description: 'Tells the subscribers that the board changed' })
  async touch() {
    await this.server.resourceUpdated('cluster://board');
    return `${name} touched the board`;
  }

  @Tool({ description: 'Adds the spare tool on this node, or removes it: a list change made on one node' })
  toggle() {
    if (this.server.removeTool('spare')) return `${name} removed spare`;
    this.server.add(Spare);
    return `${name} added spare`;
  }

  @Tool({ description: 'Works for `ms` milliseconds (or until cancelled), as a task when the client can take one', task: 'optional' })
  async crunch({ ms }: { ms: number }, ctx: Context) {
    const finished = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(true), ms);
      ctx.signal.addEventListener('abort', () => { clearTimeout(timer); resolve(false); }, { once: true });
    });
    return finished ? `${name} crunched` : `${name} stopped`;
  }

  @Tool({ description: 'Asks the client who is asking, on its task', task: 'optional' })
  async confirm(_args: object, ctx: Context) {
    const answer = await ctx.elicit(Asker);
    return answer.action === 'accept' ? `${name} heard ${answer.content.name}` : `${name}: ${answer.action}`;
  }

  @Resource('cluster://board', { description: 'A board every node can change' })
  board() {
    return `board, read on ${name}`;
  }
}

const server = new PhantomServer({
  name: 'cluster-node',
  version: '1.0.0',
  providers: [ClusterTools],
  forms: [Asker],
  // Small pages, so that a list's next page can be asked of another node than the first.
  pageSize: 3,
  // A short lease, so that a task whose node was killed fails within seconds.
  tasks: { leaseMs: 1000 },
  store: redis(process.env.REDIS_URL, { keyPrefix: process.env.CLUSTER_PREFIX ?? 'cluster:' }),
});

server.listen({ port: Number(port), host: '127.0.0.1' }).then(
  (listener) => process.stdout.write(`ready ${listener.url}\n`),
  (error: unknown) => {
    process.stderr.write(`${String(error)}\n`);
    process.exit(1);
  },
);
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
