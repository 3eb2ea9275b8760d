/**
 * Runs the gateway and the CLI as real child processes, exactly as `npm start` / `npm run cli` do.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { runCommand } from '../../src/cli/commands.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * How `npm start` runs Node (package.json's `start` script): the environment defaults it sets before
 * `node` (`NAME=${NAME:-value}`; docs/adr/0038-two-malloc-arenas.md) and the options it gives Node
 * (docs/adr/0032-heap-growth.md), so that the suites and the benchmark run the gateway as a user starts it.
 */
const START_SCRIPT: { env: Record<string, string>; options: string[] } = (() => {
  const { env, words } = npmScript('start');
  if (words[0] !== 'node' || words.at(-1) !== 'src/main.ts')
    throw new Error(
      `package.json's start script is not "[NAME=\${NAME:-value} ...] node [options] src/main.ts": ${words.join(' ')}`,
    );
  return { env, options: words.slice(1, -1) };
})();

/**
 * A script of package.json: the environment defaults it sets before its command (`NAME=${NAME:-value}`,
 * the value relative to the install's folder, where npm runs scripts), and the command's words.
 */
export function npmScript(name: string): { env: Record<string, string>; words: string[] } {
  const { scripts } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const words = (scripts[name] ?? '').split(/\s+/);
  const env: Record<string, string> = {};
  const defaulted = /^(\w+)=\$\{\1:-([^}]*)\}$/;
  while (words[0] && defaulted.test(words[0])) {
    const [, variable, value] = defaulted.exec(words.shift()!)!;
    env[variable!] = value!;
  }
  return { env, words };
}

export interface GatewayProcess {
  url: string;
  child: ChildProcess;
  /** Lines the process wrote to stdout so far. */
  output: string[];
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** `timeoutMs` only catches a gateway that never starts: on a loaded machine a start can take seconds. */
export async function spawnGateway(env: Record<string, string>, timeoutMs = 60_000): Promise<GatewayProcess> {
  const child = spawn(process.execPath, [...START_SCRIPT.options, path.join(ROOT, 'src/main.ts')], {
    cwd: ROOT,
    env: { ...START_SCRIPT.env, ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  let stderr = '';
  child.stderr!.on('data', (d) => {
    stderr += d;
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`gateway did not start: ${stderr}`)), timeoutMs);
    child.once('exit', (code) => reject(new Error(`gateway exited with ${code}: ${stderr}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      output.push(line);
      const match = /Switchboard is listening at (http:\/\/(?:127\.0\.0\.1|\[::1\]):\d+)/.exec(line);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
  });
  return {
    url,
    child,
    output,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      // A process that ended by a signal has no exit code: it has ended all the same.
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill(signal);
      const [code] = await once(child, 'exit');
      return code as number | null;
    },
  };
}

/** Gateways started side by side; when one fails to start, those that did are stopped, not left running. */
export async function spawnGateways(envs: Record<string, string>[]): Promise<GatewayProcess[]> {
  const started = await Promise.allSettled(envs.map((env) => spawnGateway(env)));
  const running = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = started.find((s) => s.status === 'rejected');
  if (failed === undefined) return running;
  await Promise.all(running.map((g) => g.stop('SIGKILL')));
  throw failed.reason;
}

export function runCli(
  args: string[],
  env: Record<string, string>,
): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'src/cli/main.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A port free on this machine now: for a process that must know another's port before it starts. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/**
 * An operator command run in this process, as `runCli` runs it in a process of its own: `env` over this
 * process's environment, the exit code and what it wrote. Starting a process costs more than most commands;
 * the suites start one only where the process itself is under test (test/e2e/cli.test.ts).
 */
export async function cliInProcess(
  args: string[],
  env: Record<string, string>,
): Promise<{ status: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const status = await runCommand(args, {
    env: { ...process.env, ...env },
    out: { write: (text: string) => (stdout += text) },
    err: { write: (text: string) => (stderr += text) },
  });
  return { status, stdout, stderr };
}
