/**
 * Bulk sends (a campaign's) take their paced slot before they claim their messageId (docs/adr/0027):
 * the wait then holds no claim, so a node stopped while waiting leaves nothing half-sent, and the time
 * between a claim and the network call is as short as a send makes it. A bulk slot is only ever booked
 * close to now (docs/adr/0020), so this waits as long as interactive sends keep the number busy.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { GatewayError } from './errors.ts';
import type { NetworkConnector, NumberCredentials } from './ports/network.ts';

export interface BulkSendOptions {
  priority?: 'bulk';
  /** A bulk send not claimed by then is given back (its worker's lease would run out). */
  deadline?: number;
  /** Asked once the slot is taken: false gives the send back unsent (its campaign was paused meanwhile). */
  stillWanted?: () => Promise<boolean>;
}

/** Waits for the slot, then asks whether the send is still wanted; throws a conflict when not. */
export async function takeBulkSlot(
  connector: Pick<NetworkConnector, 'admit'>,
  credentials: NumberCredentials,
  options: BulkSendOptions,
  now: () => number,
): Promise<void> {
  await waitForBulkSlot(connector, credentials, options.deadline ?? Number.POSITIVE_INFINITY, now);
  if (options.stillWanted && !(await options.stillWanted())) {
    throw new GatewayError('conflict', 'this bulk send is given back: its work was stopped meanwhile');
  }
}

async function waitForBulkSlot(
  connector: Pick<NetworkConnector, 'admit'>,
  credentials: NumberCredentials,
  deadline: number,
  now: () => number,
): Promise<void> {
  if (!connector.admit) return;
  for (;;) {
    const refused = await connector.admit(credentials, 'bulk');
    if (!refused) return;
    const wait = refused.retryAfterMs ?? 100;
    if (now() + wait > deadline) {
      throw new GatewayError('conflict', 'the number is busy; this bulk send is given back to be sent later');
    }
    await sleep(wait);
  }
}
