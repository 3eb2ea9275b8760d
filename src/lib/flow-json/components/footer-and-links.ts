// Components that carry an on-click action: Footer, EmbeddedLink, OptIn (docs/cloud-api.md §6.4).
// Their per-screen counts (one Footer, two links, five opt-ins) are enforced in `screen-limits.ts`.

import { at } from '../paths.ts';
import { action, bool, type ComponentSpec, requiredStr, str } from './spec.ts';

/** docs/cloud-api.md §6.4: Footer label holds at most 35 characters. */
export const FOOTER_LABEL_MAX = 35;
/** docs/cloud-api.md §6.4: Footer captions hold at most 15 characters. */
export const FOOTER_CAPTION_MAX = 15;
/** docs/cloud-api.md §6.4: EmbeddedLink text holds at most 35 characters. */
export const EMBEDDED_LINK_TEXT_MAX = 35;
/** docs/cloud-api.md §6.4: OptIn label holds at most 30 characters. */
export const OPT_IN_LABEL_MAX = 30;

export const FOOTER_AND_LINK_COMPONENTS: Record<string, ComponentSpec> = {
  Footer: {
    props: {
      label: requiredStr(FOOTER_LABEL_MAX),
      // The Footer moves the user on: to another screen, to the endpoint, or out of the flow.
      'on-click-action': action(['navigate', 'complete', 'data_exchange'], true),
      'left-caption': str(FOOTER_CAPTION_MAX),
      'right-caption': str(FOOTER_CAPTION_MAX),
      'center-caption': str(FOOTER_CAPTION_MAX),
      enabled: bool,
    },
    crossChecks: (ctx, component, path) => {
      // docs/cloud-api.md §6.4: either a left/right caption pair or a single centre caption, never both layouts.
      const sides = component['left-caption'] !== undefined || component['right-caption'] !== undefined;
      if (sides && component['center-caption'] !== undefined) {
        ctx.report(
          at(path, 'center-caption'),
          'Footer takes either "left-caption"/"right-caption" or "center-caption", not both.',
        );
      }
    },
  },
  EmbeddedLink: {
    props: {
      text: requiredStr(EMBEDDED_LINK_TEXT_MAX),
      'on-click-action': action(['navigate', 'data_exchange', 'open_url'], true),
      visible: bool,
    },
  },
  OptIn: {
    props: {
      name: requiredStr(),
      label: requiredStr(OPT_IN_LABEL_MAX),
      required: bool,
      'init-value': bool,
      visible: bool,
      // The click opens the terms (another screen or a web page); selecting may update screen data.
      'on-click-action': action(['navigate', 'data_exchange', 'open_url']),
      'on-select-action': action(['update_data']),
      'on-unselect-action': action(['update_data']),
    },
  },
};
