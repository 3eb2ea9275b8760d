/** A template management failure of the network as the error the client sees (management-network-error.ts). */

import type { GatewayError } from '../errors.ts';
import { managementNetworkError } from '../management-network-error.ts';
import type { NetworkFailure } from '../ports/network.ts';

const TEMPLATES = { noun: 'template', checkFirst: 'list the templates' };

export function templateNetworkError(action: string, failure: NetworkFailure): GatewayError {
  return managementNetworkError(TEMPLATES, action, failure);
}
