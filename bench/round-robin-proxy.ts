/**
 * The cluster benchmark's load balancer, in a process of its own (as a real one would be): the round-robin
 * proxy of test/support/round-robin-proxy.ts on PORT, in front of the comma-separated BACKENDS.
 */
import { startProxy } from '../test/support/round-robin-proxy.ts';

const proxy = await startProxy(Number(process.env.PORT ?? 0));
proxy.backends.push(...(process.env.BACKENDS ?? '').split(',').filter(Boolean));
process.stdout.write(`proxy listening at ${proxy.url}\n`);
