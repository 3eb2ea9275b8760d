/**
 * Flow categories (docs/contract.md §4, docs/cloud-api.md §6.1): one value or a comma-separated list, case-insensitive,
 * `OTHERS` read as `OTHER` (the API document's example spells it so), at least one, Meta's values only.
 */
import { FLOW_CATEGORIES, type FlowCategory } from '../../lib/flow-categories.ts';
import { GatewayError } from '../errors.ts';

export function parseFlowCategories(raw: string): FlowCategory[] {
  const values = raw
    .split(',')
    .map((v) => v.trim().toUpperCase())
    .filter((v) => v !== '')
    .map((v) => (v === 'OTHERS' ? 'OTHER' : v));
  if (values.length === 0) {
    throw new GatewayError(
      'invalid_request',
      `\`categories\` must name at least one of ${FLOW_CATEGORIES.join(', ')}`,
      {
        field: 'categories',
      },
    );
  }
  const unknown = values.find((v) => !(FLOW_CATEGORIES as readonly string[]).includes(v));
  if (unknown !== undefined) {
    throw new GatewayError(
      'invalid_request',
      `\`categories\` holds "${unknown}", which is not a flow category; allowed: ${FLOW_CATEGORIES.join(', ')} (comma-separated for several)`,
      { field: 'categories' },
    );
  }
  return [...new Set(values)] as FlowCategory[];
}
