/**
 * Template management errors (docs/cloud-api.md §2.1, §2.3): Meta answers them as code 100 "Invalid parameter"
 * with a template creation `error_subcode` where one applies, and explain them to a person in
 * `error_user_title` / `error_user_msg` only, without `error_data`. Thrown as GraphProblem so deep checks need no result plumbing.
 */
import { GraphProblem, graphError } from '../graph-errors.ts';

/** The 2388xxx subcodes of docs/cloud-api.md §2.3, plus 2388024 for a name already used in that language. */
export const SUBCODE = {
  templateLimit: 2388019,
  nameBeingDeleted: 2388023,
  duplicateContent: 2388024,
  charLimit: 2388040,
  headerOrBodyFormat: 2388047,
  footerFormat: 2388073,
  leadingOrTrailingParams: 2388299,
} as const;

export function templateError(details: string, title: string, subcode?: number): GraphProblem {
  const error = graphError(100, details);
  if (subcode !== undefined) error.body.error.error_subcode = subcode;
  error.body.error.error_user_title = title;
  error.body.error.error_user_msg = details;
  // As Meta's refusals of a template are recorded: the reason for people only, no `error_data`.
  delete error.body.error.error_data;
  return new GraphProblem(error);
}

/** A field of the create or edit body that breaks a rule; `details` names the field. */
export const invalidField = (field: string, why: string, subcode?: number) =>
  templateError(`Parameter '${field}' ${why}.`, 'Invalid template', subcode);
