/**
 * Process entry of the server (`npm start`). The compile cache is turned on before anything else is
 * loaded (src/lib/compile-cache.ts); then the server starts (src/app/serve.ts).
 */
import { useCompileCache } from './lib/compile-cache.ts';

useCompileCache();
const { runServer } = await import('./app/serve.ts');
runServer();
