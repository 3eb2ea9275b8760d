/**
 * Meta's flow categories: the gateway parses a client's list against them
 * (src/domain/flows/flow-categories.ts) and the simulator refuses any other value, as Meta does.
 */
export const FLOW_CATEGORIES = [
  'SIGN_UP',
  'SIGN_IN',
  'APPOINTMENT_BOOKING',
  'LEAD_GENERATION',
  'CONTACT_US',
  'CUSTOMER_SUPPORT',
  'SURVEY',
  'OTHER',
] as const;

export type FlowCategory = (typeof FLOW_CATEGORIES)[number];
