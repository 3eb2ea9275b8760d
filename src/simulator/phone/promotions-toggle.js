/**
 * The chat header's "Stop promotions from this business" toggle: the user stops, or allows again, the
 * marketing messages of the business they chat with, as WhatsApp lets a user do. The setting is the
 * phone's own (`GET` / `PUT /users/:phone/marketing`, marketing-stops.ts); `aria-pressed` says whether
 * promotions are stopped. What it draws is text only.
 */
// @ts-check

import { byId, errorMessage } from './dom.js';

/**
 * @typedef {{ business: string, stopped: boolean }} MarketingSetting
 * @typedef {{
 *   api: (path: string, options?: { method?: string, body?: string }) => Promise<MarketingSetting>,
 *   business: () => string,
 *   notify: (text: string) => void,
 * }} ToggleHooks
 */

const button = byId('stop-promotions', HTMLButtonElement);

/** @param {boolean} stopped */
function show(stopped) {
  button.setAttribute('aria-pressed', String(stopped));
}

/**
 * Wires the toggle; answers `load`, which reads the setting of the chat now open (the page calls it on
 * each chat it opens). An answer for a chat no longer open is dropped.
 * @param {ToggleHooks} hooks
 */
export function installPromotionsToggle(hooks) {
  button.addEventListener('click', async () => {
    const business = hooks.business();
    const stopped = button.getAttribute('aria-pressed') !== 'true';
    button.disabled = true;
    try {
      const body = JSON.stringify({ business, stopped });
      const setting = await hooks.api('/marketing', { method: 'PUT', body });
      if (hooks.business() !== business) return;
      show(setting.stopped);
      hooks.notify(setting.stopped ? 'Promotions from this business stopped' : 'Promotions allowed again');
    } catch (e) {
      hooks.notify(`Could not change promotions: ${errorMessage(e)}`);
    } finally {
      button.disabled = false;
    }
  });

  return {
    async load() {
      const business = hooks.business();
      show(false);
      try {
        const setting = await hooks.api(`/marketing?business=${business}`);
        if (hooks.business() === business) show(setting.stopped);
      } catch {
        // The toggle then starts as "not stopped"; pressing it sets the setting either way.
      }
    },
  };
}
