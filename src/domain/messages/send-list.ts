/**
 * Operation 7: a list menu. The document's table names the body `message`, its sample `body`; both are
 * accepted. `buttons` holds the sections: 1–10 sections, at most 10 rows across all of them, a section
 * title when there is more than one section, row ids unique across the message (docs/contract.md §3,
 * docs/cloud-api.md §1.5: row ids ≤ 200, not 256).
 */
import { Type } from 'typebox';
import {
  type CommonFields,
  commonFields,
  eitherSpelling,
  firstDuplicate,
  ok,
  refuse,
  type SendOperation,
  text,
} from './send-operation.ts';

const MAX_ROWS = 10;
const DEFAULT_BUTTON_TEXT = 'Choose';

interface Row {
  id: string;
  title: string;
  description?: string;
}
interface Section {
  sectionTitle?: string;
  sectionItems: Row[];
}
type Body = CommonFields & {
  message?: string;
  body?: string;
  headerText?: string;
  buttonText?: string;
  buttons: Section[];
};
export interface ListContent {
  body: string;
  headerText?: string;
  buttonText: string;
  sections: Section[];
}

const bodySchema = Type.Object(
  {
    ...commonFields,
    message: Type.Optional(text(1, 1024, { description: 'the body text (or send it as `body`)' })),
    body: Type.Optional(text(1, 1024, { description: 'alias of `message`, as in the sample request' })),
    headerText: Type.Optional(text(0, 60)),
    buttonText: Type.Optional(
      text(1, 20, {
        description: `label of the button that opens the list; default "${DEFAULT_BUTTON_TEXT}"`,
      }),
    ),
    buttons: Type.Array(
      Type.Object(
        {
          sectionTitle: Type.Optional(
            text(0, 24, { description: 'required when there are several sections' }),
          ),
          sectionItems: Type.Array(
            Type.Object(
              { id: text(1, 200), title: text(1, 24), description: Type.Optional(text(0, 72)) },
              { additionalProperties: false },
            ),
            { minItems: 1, maxItems: MAX_ROWS },
          ),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 10, description: 'the sections; at most 10 rows across all of them' },
    ),
  },
  { additionalProperties: false },
);

export const sendList: SendOperation<Body, ListContent, typeof bodySchema> = {
  kind: 'list',
  summary: 'Send a list menu of up to ten rows in up to ten sections',
  bodySchema,
  normalize(body) {
    const bodyText = eitherSpelling(
      { name: 'message', value: body.message },
      { name: 'body', value: body.body },
    );
    if (!bodyText.ok) return bodyText;
    const rows = body.buttons.flatMap((s, si) =>
      s.sectionItems.map((r, ri) => ({ ...r, path: `buttons[${si}].sectionItems[${ri}]` })),
    );
    if (rows.length > MAX_ROWS) {
      return refuse(
        'buttons',
        `\`buttons\` holds ${rows.length} rows in total; a list allows at most ${MAX_ROWS} across all sections`,
      );
    }
    if (body.buttons.length > 1) {
      const untitled = body.buttons.findIndex((s) => !s.sectionTitle?.trim());
      if (untitled >= 0) {
        return refuse(
          `buttons[${untitled}].sectionTitle`,
          `\`buttons[${untitled}].sectionTitle\` is required when the list has more than one section`,
        );
      }
    }
    const dup = firstDuplicate(rows.map((r) => r.id));
    if (dup)
      return refuse(
        `${rows[dup.index]!.path}.id`,
        `\`${rows[dup.index]!.path}.id\` repeats \`${rows[dup.earlier]!.path}.id\` (a duplicate); row ids must be unique across the list`,
      );
    return ok({
      body: bodyText.value,
      ...(body.headerText ? { headerText: body.headerText } : {}),
      buttonText: body.buttonText ?? DEFAULT_BUTTON_TEXT,
      sections: body.buttons.map((s) => ({
        ...(s.sectionTitle ? { sectionTitle: s.sectionTitle } : {}),
        sectionItems: s.sectionItems.map((r) => ({
          id: r.id,
          title: r.title,
          ...(r.description ? { description: r.description } : {}),
        })),
      })),
    });
  },
  toCloud: (content) => ({
    type: 'interactive',
    interactive: {
      type: 'list',
      ...(content.headerText ? { header: { type: 'text', text: content.headerText } } : {}),
      body: { text: content.body },
      action: {
        button: content.buttonText,
        sections: content.sections.map((s) => ({
          ...(s.sectionTitle ? { title: s.sectionTitle } : {}),
          rows: s.sectionItems,
        })),
      },
    },
  }),
};
