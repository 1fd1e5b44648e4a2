import { argValue, runContender } from './bench-channel';
import { serveHttp } from './http-host';
import { RoundRobinProxy } from './round-robin-proxy';

/**
 * The cluster suite's load balancer, in a process of its own (neither the load generator's event
 * loop nor a node's): the cluster spec's round-robin proxy in front of `--upstreams PORT,PORT`,
 * with connections to the nodes kept alive and nothing recorded. Mounted on `serveHttp`, so the
 * bench can wait for what it still holds between runs, as for any contender.
 */
runContender(async () => {
  const upstreams = argValue('upstreams').split(',').map(Number);
  const proxy = new RoundRobinProxy(upstreams, { record: false, keepAlive: true });
  await serveHttp(proxy.handle, () => proxy.stop());
});
