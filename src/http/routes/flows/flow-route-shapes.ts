/**
 * What the flow routes share (operations 9–12 and docs/contract.md §4). Every failure is the envelope with a
 * message starting `Request failed.` (the error handler adds it for these paths); another account's flow
 * is a 404.
 */
import { Type } from 'typebox';
import type { FlowDeps } from '../../../domain/flows/flow-service.ts';

export const BASE = '/api/v1/msg/manage/flow';
export const tags = ['flows'];
export const IdParams = Type.Object({
  id: Type.String({ pattern: '^[1-9][0-9]{0,14}$', 'x-rule': 'must be a flow id (a positive whole number)' }),
});
export const multipartDoc =
  'multipart/form-data: `phoneNumber` (sandbox or own number), `name`, `categories` (one or comma-separated: ' +
  'SIGN_UP, SIGN_IN, APPOINTMENT_BOOKING, LEAD_GENERATION, CONTACT_US, CUSTOMER_SUPPORT, SURVEY, OTHER), `file` (Flow JSON, .json)';

/** The flow routes' dependencies: the flow service's, and the key that signs preview links. */
export type FlowRouteDeps = FlowDeps & { secretKey: Buffer };
