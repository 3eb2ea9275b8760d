/** The simulator's fault controls (`/simulator/faults`) as a gateway test drives them, over real HTTP. */
import assert from 'node:assert/strict';
import { call, type TestGateway } from './gateway.ts';

export async function setFaults(t: TestGateway, faults: Record<string, unknown>): Promise<void> {
  const r = await call(t.url, 'POST', '/simulator/faults', { body: faults });
  assert.equal(r.status, 200, JSON.stringify(r.body));
}

/** Clears every fault; sends held by a `timeout` fault are handled by the network now. */
export async function clearFaults(t: TestGateway): Promise<void> {
  assert.equal((await call(t.url, 'DELETE', '/simulator/faults')).status, 200);
}
