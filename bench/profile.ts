import path from 'node:path';

/**
 * BENCH_PROFILE_DIR: the environment that makes a benchmarked gateway write a V8 CPU profile there when
 * it exits; nothing when unset.
 */
export function profileOptions(): Record<string, string> {
  const dir = process.env.BENCH_PROFILE_DIR;
  return dir ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${path.resolve(dir)}` } : {};
}
