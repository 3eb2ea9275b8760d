/**
 * A node:test reporter that says how long each test file took in its shard: the wall time and the shard
 * process's CPU (its thread pool's included) from the file's first test event to the next file's. The
 * shard's first file also carries the loading of the application. `SWITCHBOARD_TEST_TIMES=FILE npm test`
 * writes these lines, the longest first, to FILE (test/run.ts): the figures COST_SECONDS is kept from.
 */
import path from 'node:path';

interface ReporterEvent {
  data?: { file?: string };
}

export default async function* fileTimes(source: AsyncIterable<ReporterEvent>): AsyncGenerator<string> {
  const wall = new Map<string, number>();
  const cpu = new Map<string, number>();
  let current = '';
  let since = { at: performance.now(), cpu: process.cpuUsage() };
  const close = () => {
    const used = process.cpuUsage(since.cpu);
    const now = performance.now();
    if (current) {
      wall.set(current, (wall.get(current) ?? 0) + (now - since.at));
      cpu.set(current, (cpu.get(current) ?? 0) + (used.user + used.system) / 1000);
    }
    since = { at: now, cpu: process.cpuUsage() };
  };
  for await (const event of source) {
    const file = event.data?.file;
    if (file === undefined || file === current) continue;
    close();
    current = file;
  }
  close();
  for (const [file, ms] of wall) {
    // Named as COST_SECONDS names it: from the repository's root, where test/run.ts starts each shard.
    const name = path.relative(process.cwd(), file);
    yield `${(ms / 1000).toFixed(1)} s wall, ${((cpu.get(file) ?? 0) / 1000).toFixed(1)} s CPU  ${name}\n`;
  }
}
