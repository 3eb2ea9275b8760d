/**
 * Process entry of the operator commands (`npm run cli -- <command>`). The compile cache is turned on
 * before anything else is loaded (src/lib/compile-cache.ts); then the command runs (src/cli/commands.ts).
 */
import { useCompileCache } from '../lib/compile-cache.ts';

useCompileCache();
const { runCli } = await import('./commands.ts');
runCli(process.argv.slice(2));
