/**
 * A create or update body checked and turned into the network's shape (docs/templates.md): the name and
 * language, then the components by kind of template. An AUTHENTICATION template has the network's fixed
 * texts and one OTP button (auth-template-rules.ts); a template with `cards` is a media-card carousel
 * (carousel-template-rules.ts); every other one has a header, body, footer and buttons (template-rules.ts).
 */
import { TEMPLATE_LANGUAGES } from '../../lib/template-languages.ts';
import { authComponents } from './auth-template-rules.ts';
import { carouselComponents } from './carousel-template-rules.ts';
import { TEMPLATE_CATEGORIES, type TemplateBodyInput } from './template-body.ts';
import {
  body,
  buttons,
  chars,
  footer,
  header,
  invalid,
  oneOf,
  type TemplateDefinition,
} from './template-rules.ts';

const NAME = /^[a-z0-9_]+$/;

export function checkTemplate(
  input: TemplateBodyInput,
  options: { nameMaxLength: number },
): TemplateDefinition {
  if (!NAME.test(input.name) || chars(input.name) > options.nameMaxLength) {
    throw invalid(
      'name',
      `\`name\` must be 1 to ${options.nameMaxLength} lowercase letters, digits and underscores, with no spaces`,
    );
  }
  if (!TEMPLATE_LANGUAGES.includes(input.language)) {
    throw invalid(
      'language',
      `\`language\` "${input.language}" is not a template language the network accepts (e.g. en, en_US, es, pt_BR, fr)`,
    );
  }
  const category = oneOf(input.category, TEMPLATE_CATEGORIES, 'category');
  if (input.component && input.components) {
    throw invalid('components', '`component` and `components` are two spellings of one field; send one');
  }
  const parts = input.component ?? input.components;
  if (!parts) throw invalid('component', '`component` with at least a `body` is required');
  const definition: TemplateDefinition = {
    name: input.name,
    language: input.language,
    category,
    components: [],
    mediaHandles: [],
  };
  if (category === 'AUTHENTICATION') {
    definition.components = authComponents(parts);
  } else if (parts.cards !== undefined) {
    definition.components = carouselComponents(parts, category, definition);
  } else {
    if (parts.header) definition.components.push(header(parts.header, definition));
    definition.components.push(body(parts.body));
    if (parts.footer) definition.components.push(footer(parts.footer));
    if (parts.buttons) definition.components.push(buttons(parts.buttons));
  }
  return definition;
}
