/**
 * The create and update body of operations 14 and 15 (docs/contract.md §5): the contract's `component` object
 * (`components` accepted too) with `header`, `body`, `footer` and `buttons`, or, for a media-card carousel,
 * `body` and `cards`. The schema bounds shapes and sizes; template-rules.ts, auth-template-rules.ts and
 * carousel-template-rules.ts say what the schema cannot (variables, per-type button rules, handles).
 */
import { type Static, Type } from 'typebox';

export const TEMPLATE_CATEGORIES = ['MARKETING', 'UTILITY', 'AUTHENTICATION'] as const;
export const HEADER_FORMATS = ['TEXT', 'IMAGE', 'VIDEO', 'DOCUMENT'] as const;
export const BUTTON_TYPES = ['QUICK_REPLY', 'URL', 'PHONE_NUMBER'] as const;
/** The one-time-password button of an AUTHENTICATION template (docs/templates.md §8). */
export const OTP_TYPES = ['COPY_CODE', 'ONE_TAP'] as const;

/** Generous outer bounds: the precise limits are checked, and named, by the rules. */
const str = (maxLength: number, description?: string) =>
  Type.String({ maxLength, ...(description ? { description } : {}) });

const Header = Type.Object(
  {
    format: Type.String({ maxLength: 16, description: 'TEXT, IMAGE, VIDEO or DOCUMENT' }),
    text: Type.Optional(str(4096, 'header text (TEXT): at most 60 characters and one variable {{1}}')),
    example: Type.Optional(
      str(4096, 'TEXT with a variable: the example value; IMAGE/VIDEO/DOCUMENT: the upload handle'),
    ),
  },
  { additionalProperties: false },
);

const Body = Type.Object(
  {
    text: Type.Optional(
      str(8192, 'at most 1024 characters (160 on a card); variables {{1}}, {{2}}... numbered in order'),
    ),
    examples: Type.Optional(
      Type.Array(str(4096), { maxItems: 200, description: 'one example value per body variable' }),
    ),
    addSecurityRecommendation: Type.Optional(
      Type.Boolean({
        description: 'AUTHENTICATION only: add "For your security, do not share this code." (no `text`)',
      }),
    ),
  },
  { additionalProperties: false },
);

const Footer = Type.Object(
  {
    text: Type.Optional(str(4096, 'at most 60 characters, no variables')),
    codeExpirationMinutes: Type.Optional(
      Type.Integer({
        description: 'AUTHENTICATION only: 1 to 90; the footer says when the code expires (no `text`)',
      }),
    ),
  },
  { additionalProperties: false },
);

const SupportedApp = Type.Object(
  {
    packageName: str(512, 'the Android package name of the app that receives the code'),
    signatureHash: str(64, "the app's 11-character signing key hash"),
  },
  { additionalProperties: false },
);

const Button = Type.Object(
  {
    type: Type.String({ maxLength: 32, description: 'QUICK_REPLY, URL, PHONE_NUMBER, or OTP' }),
    text: Type.Optional(str(4096, 'button label, at most 25 characters (optional for OTP)')),
    phoneNumber: Type.Optional(str(64, 'PHONE_NUMBER buttons: the number to call, with country code')),
    url: Type.Optional(str(8192, 'URL buttons: https URL, at most one variable {{1}} at its end')),
    example: Type.Optional(str(8192, 'URL buttons with a variable: a full example URL')),
    otpType: Type.Optional(str(32, 'OTP buttons: COPY_CODE or ONE_TAP')),
    autofillText: Type.Optional(str(4096, 'ONE_TAP buttons: the autofill label, at most 25 characters')),
    supportedApps: Type.Optional(
      Type.Array(SupportedApp, { maxItems: 20, description: 'ONE_TAP buttons: 1 to 5 apps' }),
    ),
  },
  { additionalProperties: false },
);

const Card = Type.Object(
  {
    header: Header,
    body: Type.Optional(Body),
    buttons: Type.Array(Button, { maxItems: 100 }),
  },
  { additionalProperties: false },
);

export const TemplateComponents = Type.Object(
  {
    header: Type.Optional(Header),
    body: Type.Optional(Body),
    footer: Type.Optional(Footer),
    buttons: Type.Optional(Type.Array(Button, { maxItems: 100 })),
    cards: Type.Optional(
      Type.Array(Card, {
        maxItems: 100,
        description: 'MARKETING only: 2 to 10 media cards, shown as a carousel under the body',
      }),
    ),
  },
  { additionalProperties: false },
);

export const TemplateBody = Type.Object(
  {
    name: str(4096, 'lowercase letters, digits and underscores, at most 512 characters'),
    language: str(64, 'a language code the network accepts, e.g. en, en_US, pt_BR'),
    category: str(64, 'MARKETING, UTILITY or AUTHENTICATION'),
    component: Type.Optional(TemplateComponents),
    components: Type.Optional(TemplateComponents),
  },
  { additionalProperties: false },
);

export type TemplateBodyInput = Static<typeof TemplateBody>;
export type TemplateComponentsInput = Static<typeof TemplateComponents>;
export type TemplateButtonInput = Static<typeof Button>;
export type TemplateCardInput = Static<typeof Card>;
