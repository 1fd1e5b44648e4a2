// Running several replicas: sessions, streams and the bus in Redis; probes; shutting down on signals.
// Included in docs/guide/replicas.md; run by spec/docs/examples/replicas.spec.ts.
import 'reflect-metadata';
// #region server
import { IsString, MaxLength } from 'class-validator';
import { Field, PhantomServer, Tool } from 'phantom-mcp';
import { redis } from 'phantom-mcp/redis';

export class CityArgs {
  @Field({ description: 'City name' }) @IsString() @MaxLength(100) city!: string;
}

export class WeatherTools {
  @Tool({ description: 'Forecast for a city', readOnly: true })
  forecast(args: CityArgs) {
    return { city: args.city, sky: 'clear' };
  }
}

/** Every replica is made the same way: the same providers, the same Redis, the same key prefix. */
export function createReplica(redisUrl: string, keyPrefix = 'weather:'): PhantomServer {
  return new PhantomServer({
    name: 'weather',
    version: '1.0.0',
    providers: [WeatherTools],
    store: redis(redisUrl, { keyPrefix, busSecret: process.env.MCP_BUS_SECRET }),
  });
}
// #endregion server

// #region listen
import type { HealthOptions, HttpListener } from 'phantom-mcp/http';

/** `health` defaults to: /readyz answers 503 for 5 s before connections are refused. */
export function serveReplica(server: PhantomServer, port: number, health: HealthOptions = { drainDelayMs: 5_000 }): Promise<HttpListener> {
  return server.listen({
    port,
    host: '0.0.0.0', // behind the load balancer
    allowedHosts: ['weather.example.com', '127.0.0.1'], // the public name; loopback for this demo
    health, // /healthz and /readyz, for the orchestrator and the load balancer
  });
}
// #endregion listen

// #region signals
/** Closes the server on SIGTERM or SIGINT, then exits 0; returns what removes the handlers. */
export function closeOnSignals(server: PhantomServer, exit: (code: number) => void = (code) => process.exit(code)): () => void {
  const stop = () => void server.close().then(() => exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  return () => {
    process.off('SIGTERM', stop);
    process.off('SIGINT', stop);
  };
}
// #endregion signals
