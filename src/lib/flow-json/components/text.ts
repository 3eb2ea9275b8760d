// Display-only text: TextHeading, TextSubheading, TextBody, TextCaption, RichText (docs/cloud-api.md §6.4).

import { bool, type ComponentSpec, oneOf } from './spec.ts';

/** docs/cloud-api.md §6.4: TextHeading and TextSubheading hold at most 80 characters. */
export const HEADING_MAX_CHARS = 80;
/** docs/cloud-api.md §6.4: TextBody holds at most 4096 characters. */
export const BODY_MAX_CHARS = 4096;
/** docs/cloud-api.md §6.4: TextCaption holds at most 4096 characters (figure taken from pywa). */
export const CAPTION_MAX_CHARS = 4096;
/** `font-weight` values from Meta's TextBody/TextCaption reference (docs/cloud-api.md §6.4 names the property only). */
export const FONT_WEIGHTS = ['bold', 'italic', 'bold_italic', 'normal'] as const;

const styledText = (max: number): ComponentSpec => ({
  props: {
    text: { kind: 'string', max, required: true },
    'font-weight': oneOf(FONT_WEIGHTS),
    strikethrough: bool,
    markdown: bool,
    visible: bool,
  },
});

export const TEXT_COMPONENTS: Record<string, ComponentSpec> = {
  TextHeading: { props: { text: { kind: 'string', max: HEADING_MAX_CHARS, required: true }, visible: bool } },
  TextSubheading: {
    props: { text: { kind: 'string', max: HEADING_MAX_CHARS, required: true }, visible: bool },
  },
  TextBody: styledText(BODY_MAX_CHARS),
  TextCaption: styledText(CAPTION_MAX_CHARS),
  // RichText carries markdown either as one string or as an array of lines (docs/cloud-api.md §6.4).
  RichText: { props: { text: { kind: 'text', required: true }, visible: bool } },
};
