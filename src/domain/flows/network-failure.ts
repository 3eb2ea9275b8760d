/** A Flows API failure (docs/cloud-api.md §6.6) as the error the client sees (management-network-error.ts). */

import type { GatewayError } from '../errors.ts';
import { managementNetworkError } from '../management-network-error.ts';
import type { NetworkFailure } from '../ports/network.ts';

const FLOWS = {
  noun: 'flow',
  checkFirst: 'check the flow',
  // Flow state errors of the network (139001 update, 139002 publish, 139003 deprecate, 139004 delete).
  stateCodes: new Set([139001, 139002, 139003, 139004]),
};

export function flowNetworkError(action: string, failure: NetworkFailure): GatewayError {
  return managementNetworkError(FLOWS, action, failure);
}
