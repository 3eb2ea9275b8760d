/**
 * Fault injection, a test-and-evaluation control like `POST /templates/{id}/status` (no Graph auth; the
 * simulator's token when it is private, access-gate.ts):
 * `POST /faults` sets the faults of the Graph send route (replacing any set before), `GET /faults`
 * shows them (with `held`, the sends a timeout fault holds now), `DELETE /faults` clears them. Bodies are checked field by field; errors are
 * `{"error": {"message"}}` naming the field and the rule.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Faults, Traffic } from './traffic.ts';

/** Ten minutes: longer than any network timeout a gateway would use. */
const MAX_LATENCY_MS = 600_000;
const MAX_FOR_MS = 24 * 3_600_000;
const FIELDS = ['latencyMs', 'status5xx', 'timeout', 'throughput', 'forMs'];

class FaultError extends Error {}

function refuse(reply: FastifyReply, message: string) {
  return reply.code(400).send({ error: { message } });
}

function faultErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if ((error.statusCode ?? 500) < 500) return refuse(reply, `the body could not be read: ${error.message}`);
  request.log.error({ err: error }, 'simulated fault control failed');
  return reply.code(500).send({ error: { message: 'the fault control failed' } });
}

function wholeMs(body: Record<string, unknown>, field: string, min: number, max: number): number | undefined {
  const value = body[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new FaultError(`\`${field}\` must be a whole number of milliseconds from ${min} to ${max}`);
  }
  return value;
}

function flag(body: Record<string, unknown>, field: string): boolean | undefined {
  const value = body[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') throw new FaultError(`\`${field}\` must be true or false`);
  return value;
}

export function parseFaults(body: unknown): { faults: Faults; forMs?: number } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new FaultError('the body must be a JSON object such as {"status5xx": 0.5, "forMs": 2000}');
  }
  const fields = body as Record<string, unknown>;
  const unknown = Object.keys(fields).find((k) => !FIELDS.includes(k));
  if (unknown) throw new FaultError(`\`${unknown}\` is not a fault; use ${FIELDS.join(', ')}`);
  const faults: Faults = {};
  const latencyMs = wholeMs(fields, 'latencyMs', 0, MAX_LATENCY_MS);
  if (latencyMs) faults.latencyMs = latencyMs;
  const share = fields.status5xx;
  if (share !== undefined) {
    const valid =
      share === true || share === false || (typeof share === 'number' && share >= 0 && share <= 1);
    if (!valid) throw new FaultError('`status5xx` must be a fraction from 0 to 1, or true for every send');
    const fraction = share === true ? 1 : share === false ? 0 : (share as number);
    if (fraction > 0) faults.status5xx = fraction;
  }
  if (flag(fields, 'timeout')) faults.timeout = true;
  if (flag(fields, 'throughput')) faults.throughput = true;
  const forMs = wholeMs(fields, 'forMs', 1, MAX_FOR_MS);
  if (Object.keys(faults).length === 0) {
    throw new FaultError(
      'no fault given: set at least one of latencyMs (> 0), status5xx (> 0), timeout, throughput; DELETE /simulator/faults clears them',
    );
  }
  return forMs === undefined ? { faults } : { faults, forMs };
}

export function registerFaultRoutes(app: FastifyInstance, traffic: Traffic): void {
  app.get('/faults', async () => traffic.current());

  app.post('/faults', { errorHandler: faultErrorHandler }, async (request, reply) => {
    try {
      const { faults, forMs } = parseFaults(request.body);
      traffic.set(faults, forMs);
    } catch (error) {
      if (error instanceof FaultError) return refuse(reply, error.message);
      throw error;
    }
    return traffic.current();
  });

  app.delete('/faults', async () => {
    traffic.clear();
    return traffic.current();
  });
}
