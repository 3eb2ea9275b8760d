/**
 * An AUTHENTICATION (one-time password) template (docs/templates.md §8): the network writes its texts itself,
 * so the business chooses only whether the body adds the security recommendation, after how many minutes
 * the footer says the code expires, and its one OTP button: COPY_CODE (the user copies the code) or ONE_TAP
 * (WhatsApp hands the code to the business's Android app, named by package and signing key hash).
 *
 * The result is the network's create shape (docs/cloud-api.md §4.2): BODY with `add_security_recommendation`,
 * FOOTER with `code_expiration_minutes`, BUTTONS with one `OTP` button.
 */
import { OTP_TYPES, type TemplateButtonInput, type TemplateComponentsInput } from './template-body.ts';
import { invalid, LIMITS, type NetworkComponent, oneOf, requireText } from './template-rules.ts';

export const AUTH_LIMITS = {
  expiryMinutes: { min: 1, max: 90 },
  supportedApps: 5,
  packageName: 224,
  signatureHash: 11,
} as const;

/** An Android application id: dot-separated parts, each starting with a letter. */
const PACKAGE_NAME = /^[a-zA-Z][a-zA-Z0-9_]*(\.[a-zA-Z][a-zA-Z0-9_]*)+$/;
/** The 11-character hash of the app's signing key that Android's SMS retriever uses. */
const SIGNATURE_HASH = /^[A-Za-z0-9+/=]{11}$/;

const notForAuth = (field: string, what: string) =>
  invalid(field, `\`${field}\` cannot be set on an AUTHENTICATION template: ${what}`);

function refuseOwnTexts(parts: TemplateComponentsInput) {
  if (parts.header) throw notForAuth('component.header', 'it has no header');
  if (parts.cards) throw notForAuth('component.cards', 'carousels are MARKETING templates');
  if (parts.body?.text !== undefined || parts.body?.examples !== undefined) {
    throw notForAuth(
      'component.body.text',
      'the network writes "<code> is your verification code."; choose only `addSecurityRecommendation`',
    );
  }
  if (parts.footer?.text !== undefined) {
    throw notForAuth(
      'component.footer.text',
      'the network writes when the code expires; choose only `codeExpirationMinutes`',
    );
  }
}

function expiry(minutes: number | undefined): NetworkComponent[] {
  if (minutes === undefined) return [];
  const { min, max } = AUTH_LIMITS.expiryMinutes;
  if (minutes < min || minutes > max) {
    throw invalid(
      'component.footer.codeExpirationMinutes',
      `\`component.footer.codeExpirationMinutes\` must be a whole number of minutes from ${min} to ${max}; got ${minutes}`,
    );
  }
  return [{ type: 'FOOTER', code_expiration_minutes: minutes }];
}

function supportedApps(apps: TemplateButtonInput['supportedApps'], field: string) {
  if (!apps || apps.length === 0 || apps.length > AUTH_LIMITS.supportedApps) {
    throw invalid(
      field,
      `\`${field}\` must name 1 to ${AUTH_LIMITS.supportedApps} apps ({"packageName", "signatureHash"}) for a ONE_TAP button`,
    );
  }
  return apps.map((app, i) => {
    const at = `${field}[${i}]`;
    if (app.packageName.length > AUTH_LIMITS.packageName || !PACKAGE_NAME.test(app.packageName)) {
      throw invalid(
        `${at}.packageName`,
        `\`${at}.packageName\` must be an Android package name such as com.example.shop`,
      );
    }
    if (!SIGNATURE_HASH.test(app.signatureHash)) {
      throw invalid(
        `${at}.signatureHash`,
        `\`${at}.signatureHash\` must be the app's 11-character signing key hash (letters, digits, +, / and =)`,
      );
    }
    return { package_name: app.packageName, signature_hash: app.signatureHash };
  });
}

function otpButton(list: TemplateButtonInput[] | undefined) {
  const base = 'component.buttons';
  const input = list?.[0];
  if (!input || list.length !== 1) {
    throw invalid(base, `\`${base}\` must hold exactly one button of type OTP`);
  }
  const field = `${base}[0]`;
  if (input.type.toUpperCase() !== 'OTP') {
    throw invalid(`${field}.type`, `\`${field}.type\` must be OTP in an AUTHENTICATION template`);
  }
  for (const key of ['url', 'example', 'phoneNumber'] as const) {
    if (input[key] !== undefined)
      throw invalid(`${field}.${key}`, `\`${field}.${key}\` is not for an OTP button`);
  }
  if (input.otpType === undefined) {
    throw invalid(`${field}.otpType`, `\`${field}.otpType\` is required: ${OTP_TYPES.join(' or ')}`);
  }
  const otpType = oneOf(input.otpType, OTP_TYPES, `${field}.otpType`);
  const text =
    input.text === undefined ? {} : { text: requireText(input.text, `${field}.text`, LIMITS.buttonText) };
  if (otpType === 'COPY_CODE') {
    if (input.autofillText !== undefined || input.supportedApps !== undefined) {
      const key = input.autofillText !== undefined ? 'autofillText' : 'supportedApps';
      throw invalid(`${field}.${key}`, `\`${field}.${key}\` is only for a ONE_TAP button`);
    }
    return { type: 'OTP', otp_type: otpType, ...text };
  }
  const autofill =
    input.autofillText === undefined
      ? {}
      : { autofill_text: requireText(input.autofillText, `${field}.autofillText`, LIMITS.buttonText) };
  const apps = supportedApps(input.supportedApps, `${field}.supportedApps`);
  return { type: 'OTP', otp_type: otpType, ...text, ...autofill, supported_apps: apps };
}

export function authComponents(parts: TemplateComponentsInput): NetworkComponent[] {
  refuseOwnTexts(parts);
  const recommendation = parts.body?.addSecurityRecommendation;
  return [
    {
      type: 'BODY',
      ...(recommendation === undefined ? {} : { add_security_recommendation: recommendation }),
    },
    ...expiry(parts.footer?.codeExpirationMinutes),
    { type: 'BUTTONS', buttons: [otpButton(parts.buttons)] },
  ];
}
