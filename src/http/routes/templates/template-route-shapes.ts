/**
 * What the template routes share (operations 13–16, docs/contract.md §5): their tag, path
 * parameters, and the contract's template envelope (`timestamp: null`, `message: "success"`).
 */
import { Type } from 'typebox';

export const tags = ['templates'];
export const PhoneParams = Type.Object({ phone: Type.String({ minLength: 1, maxLength: 32 }) });
export const TemplateParams = Type.Object({
  phone: Type.String({ minLength: 1, maxLength: 32 }),
  templateId: Type.String({ minLength: 1, maxLength: 64 }),
});

/** The document's envelope for template list, create and update: no timestamp, `message: "success"`. */
export function templateEnvelope<T>(data: T) {
  return { timestamp: null, data, status: 'success' as const, message: 'success', errors: null };
}
