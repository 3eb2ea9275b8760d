/**
 * The `page` and `per_page` query parameters of the paged lists (contacts, campaigns, recipients), with
 * the rule each breaks in the refusal's words.
 */
import { Type } from 'typebox';

/** 1 to `max` written as a pattern; `max` is a whole hundred up to 900 (what the lists allow). */
function upTo(max: number): string {
  const hundreds = max / 100;
  if (!Number.isInteger(hundreds) || hundreds < 1 || hundreds > 9) throw new Error(`per_page max ${max}`);
  const first = hundreds === 2 ? '1' : `[1-${hundreds - 1}]`;
  const below = hundreds === 1 ? '' : `|${first}[0-9]{2}`;
  return `^(${max}${below}|[1-9][0-9]?)$`;
}

export function pageQuery(maxPerPage: number, defaultPerPage: number) {
  return {
    page: Type.Optional(
      Type.String({
        pattern: '^[1-9][0-9]{0,6}$',
        'x-rule': 'must be a whole number from 1',
        description: 'from 1',
      }),
    ),
    per_page: Type.Optional(
      Type.String({
        pattern: upTo(maxPerPage),
        'x-rule': `must be a whole number from 1 to ${maxPerPage}`,
        description: `1 to ${maxPerPage}, default ${defaultPerPage}`,
      }),
    ),
  };
}

/** The page asked for and its size, as numbers. */
export function pageOf(query: { page?: string; per_page?: string }, defaultPerPage: number) {
  const page = Number(query.page ?? 1);
  const perPage = Number(query.per_page ?? defaultPerPage);
  return { page, perPage, offset: (page - 1) * perPage };
}
