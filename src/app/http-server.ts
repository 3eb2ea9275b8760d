/**
 * The Fastify server before any route: logging with secrets redacted, body and time limits, request ids,
 * the error handler, metrics and the API document.
 */
import { AjvCompiler } from '@fastify/ajv-compiler';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import type { Config } from '../config/config.ts';
import { installOpenApi } from '../http/api-docs.ts';
import { clientErrorHandler, frameworkErrorHandler, installErrorHandler } from '../http/error-handler.ts';
import { redactingLoggerOptions } from '../http/log-redaction.ts';
import { installMetrics } from '../http/metrics.ts';
import { requestIdOf } from '../http/request-id.ts';
import { applyServerTimeouts, fastifyTimeouts } from '../http/server-timeouts.ts';
import { validatorsOnFirstUse } from '../http/validators-on-first-use.ts';
import { ajvOptions } from '../lib/request-validation.ts';

/**
 * One pool of request validators for every server of the process, each compiled at its route's first
 * request (src/http/validators-on-first-use.ts). The schemas are module constants, and Ajv keeps what it
 * compiled per schema object, so a second server built in the same process (the test suites build
 * hundreds) reuses the first one's validators instead of compiling them again.
 */
const sharedValidators = validatorsOnFirstUse(AjvCompiler());

/** Compiles every route schema no request has used yet (for the suites); returns how many. */
export const compileWaitingValidators = (): number => sharedValidators.compileWaiting();

export interface HttpServer {
  app: FastifyInstance;
  registry: Registry;
}

export async function createHttpServer(
  config: Readonly<Config>,
  logStream: { write(line: string): void } | undefined,
): Promise<HttpServer> {
  const app = Fastify({
    // Keys, tokens and signed links never reach the log, at any level, whoever logs them.
    logger: redactingLoggerOptions(config.logLevel, logStream),
    bodyLimit: config.bodyLimitBytes,
    ...fastifyTimeouts(config.http),
    // The client's x-request-id is taken only when it is a plain token (src/http/request-id.ts).
    genReqId: requestIdOf,
    ajv: { customOptions: ajvOptions },
    schemaController: { compilersFactory: { buildValidator: sharedValidators.buildValidator } },
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
    return503OnClosing: true,
  });
  applyServerTimeouts(app.server, config.http);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  installErrorHandler(app);
  const registry = installMetrics(app);
  await installOpenApi(app, config.publicUrl);
  return { app, registry };
}

/** Said at start when the data directory is not private to this user. */
export function warnSharedDataDir(app: FastifyInstance, dataDir: string, mode: string | undefined): void {
  if (!mode) return;
  app.log.warn(
    { dataDir, mode },
    'DATA_DIR can be entered by other users of this machine; its files are owner-only, but `chmod 700` the folder unless it is shared on purpose',
  );
}
