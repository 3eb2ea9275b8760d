/**
 * What the campaign routes share (docs/campaigns.md): request schemas (bounds of size and type; the rules
 * are the domain's, src/domain/campaigns/campaign-input.ts) and the campaign's wire view.
 */
import { Type } from 'typebox';
import { iso } from '../../../domain/campaigns/campaign-events.ts';
import type { CampaignCounts } from '../../../domain/campaigns/counts.ts';
import type { Campaign } from '../../../domain/ports/campaigns.ts';

export const tags = ['campaigns'];
export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

const Text = (maxLength: number, description?: string) =>
  Type.String({ maxLength, ...(description ? { description } : {}) });

const Placeholder = Type.Object(
  {
    field: Type.Optional(Text(16, '`name` or `phone` of the contact')),
    attribute: Type.Optional(Text(64, "a contact attribute's name (for a CSV audience: a column)")),
    column: Type.Optional(Text(64, 'a column of the CSV audience')),
    value: Type.Optional(Text(4096, 'the same value for everyone')),
    fallback: Type.Optional(Text(4096, 'used when the source is empty')),
  },
  { additionalProperties: false, description: 'exactly one of field, attribute, column, value' },
);

export const CampaignFields = {
  name: Type.Optional(Text(1024, '1 to 200 characters')),
  from: Type.Optional(Text(64, 'the sending number, with country code')),
  template: Type.Optional(
    Type.Object(
      {
        name: Type.String({ minLength: 1, maxLength: 512 }),
        language: Type.String({ minLength: 1, maxLength: 16 }),
        header: Type.Optional(
          Type.Object(
            {
              type: Type.String({ maxLength: 16 }),
              parameter: Type.Optional(Type.String({ maxLength: 4096 })),
              mediaUrl: Type.Optional(Type.String({ maxLength: 4096 })),
              mediaId: Type.Optional(Type.String({ maxLength: 128 })),
              filename: Type.Optional(Type.String({ maxLength: 256 })),
            },
            {
              additionalProperties: false,
              description: 'the header parameter every recipient gets, as in a template send',
            },
          ),
        ),
        buttons: Type.Optional(
          Type.Array(
            Type.Object(
              {
                index: Type.Integer({ minimum: 0, maximum: 9 }),
                parameter: Type.String({ maxLength: 2000 }),
              },
              { additionalProperties: false },
            ),
            { maxItems: 10, description: "button parameters every recipient gets (a URL button's suffix)" },
          ),
        ),
      },
      { additionalProperties: false },
    ),
  ),
  parameters: Type.Optional(
    Type.Array(Placeholder, {
      maxItems: 100,
      description: "one per placeholder of the template's body, in order",
    }),
  ),
  audience: Type.Optional(
    Type.Object(
      {
        tags: Type.Optional(Type.Array(Type.String({ maxLength: 256 }), { maxItems: 100 })),
        contactIds: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 5000 })),
        csv: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false, description: 'exactly one of tags, contactIds, csv' },
    ),
  ),
  startAt: Type.Optional(
    Type.Union([Text(64), Type.Null()], {
      description: 'when to start: a local time read in `timeZone` (2026-12-01T09:00) or an instant (…Z)',
    }),
  ),
  timeZone: Type.Optional(Type.Union([Text(64), Type.Null()], { description: 'an IANA zone; default UTC' })),
};

export const CampaignBody = Type.Object(CampaignFields, { additionalProperties: false });

export function campaignView(c: Campaign, counts?: CampaignCounts) {
  return {
    id: c.id,
    name: c.name,
    from: `+${c.from}`,
    template: c.template,
    parameters: c.parameters,
    audience: c.audience,
    status: c.status,
    statusReason: c.statusReason,
    startAt: iso(c.startAt),
    timeZone: c.timeZone,
    total: c.total,
    ...(counts ? { counts } : {}),
    createdAt: iso(c.createdAt),
    updatedAt: iso(c.updatedAt),
    startedAt: iso(c.startedAt),
    completedAt: iso(c.completedAt),
  };
}
