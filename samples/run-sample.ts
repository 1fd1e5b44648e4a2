import type { PhantomServer } from '../lib';

/**
 * How every sample starts when run directly. Until the transports land, a sample prints what it
 * serves (to stderr, keeping stdout free for the stdio wire) and exits.
 */
export async function runSample(server: PhantomServer): Promise<void> {
  const { tools, prompts, resources } = server.registry.counts;
  process.stderr.write(`${server.info.name} ${server.info.version}: ${tools} tools, ${resources} resources, ${prompts} prompts\n`);
}
