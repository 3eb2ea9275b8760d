/**
 * The virtual phone page (`GET /simulator/phone`): server-rendered markup with every control labelled;
 * app.js (an ES module, no build step) fills in the chat, follows the live stream and sends what the user
 * does. The numbers the page starts with come from the query (`?user=&with=`), else the browser's
 * localStorage, else these defaults.
 */
import { escapeHtml } from '../../lib/escape-html.ts';

export interface PhonePageInput {
  /** Where the simulator is mounted, e.g. `/simulator`. */
  base: string;
  defaultUser: string;
  defaultBusiness: string;
}

/** The sheets the page opens over the chat: a list to choose from, a location to share, a flow. */
const DIALOGS = `<dialog id="list-dialog" class="sheet" aria-labelledby="list-title">
<form id="list-form" method="dialog">
<header class="sheet-header"><h2 id="list-title">Choose</h2><button type="button" class="icon-button close" data-close aria-label="Close">✕</button></header>
<div id="list-sections" class="list-sections"></div>
<button type="submit" class="primary" id="list-send">Send</button>
</form>
</dialog>

<dialog id="location-dialog" class="sheet" aria-labelledby="location-title">
<form id="location-form" method="dialog">
<header class="sheet-header"><h2 id="location-title">Share a location</h2><button type="button" class="icon-button close" data-close aria-label="Close">✕</button></header>
<div class="field"><label for="location-latitude">Latitude</label><input id="location-latitude" name="latitude" type="number" step="any" min="-90" max="90" value="-1.2921" required></div>
<div class="field"><label for="location-longitude">Longitude</label><input id="location-longitude" name="longitude" type="number" step="any" min="-180" max="180" value="36.8219" required></div>
<div class="field"><label for="location-name">Name <span class="optional">(optional)</span></label><input id="location-name" name="name" type="text" value="Nairobi CBD"></div>
<div class="field"><label for="location-address">Address <span class="optional">(optional)</span></label><input id="location-address" name="address" type="text" value="Kenyatta Avenue, Nairobi"></div>
<button type="submit" class="primary" id="location-send">Send location</button>
</form>
</dialog>

<dialog id="flow-dialog" class="sheet flow-sheet" aria-labelledby="flow-title">
<header class="sheet-header"><button type="button" class="icon-button" id="flow-back" aria-label="Back to the previous screen">←</button><h2 id="flow-title" tabindex="-1">Flow</h2><button type="button" class="icon-button close" data-close aria-label="Close">✕</button></header>
<div id="flow-screens" class="flow-screens"></div>
<p id="flow-status" class="flow-status" role="status"></p>
</dialog>`;

export function phonePage(input: PhonePageInput): string {
  const base = escapeHtml(input.base);
  const user = escapeHtml(`+${input.defaultUser}`);
  const business = escapeHtml(`+${input.defaultBusiness}`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Virtual phone — Switchboard simulator</title>
<link rel="stylesheet" href="${base}/phone/phone.css">
<script type="module" src="${base}/phone/app.js"></script>
</head>
<body data-base="${base}" data-default-user="${user}" data-default-business="${business}">
<main class="frame">
<section class="phone" aria-labelledby="chat-title">
<form id="setup" class="setup" novalidate>
<div class="field"><label for="user-number">Your number</label><input id="user-number" name="user" type="tel" value="${user}" required autocomplete="off" spellcheck="false"></div>
<div class="field"><label for="business-number">Chat with</label><input id="business-number" name="business" type="tel" value="${business}" list="business-numbers" required autocomplete="off" spellcheck="false"><datalist id="business-numbers"></datalist></div>
<button type="submit" class="setup-open">Open</button>
<p id="setup-error" class="error" role="alert"></p>
</form>
<header class="chat-header">
<div class="avatar" aria-hidden="true"><svg class="icon" viewBox="0 0 24 24" focusable="false"><path d="M12 7V3H2v18h20V7H12zM6 19H4v-2h2v2zm0-4H4v-2h2v2zm0-4H4V9h2v2zm0-4H4V5h2v2zm4 12H8v-2h2v2zm0-4H8v-2h2v2zm0-4H8V9h2v2zm0-4H8V5h2v2zm10 12h-8v-2h2v-2h-2v-2h2v-2h-2V9h8v10zm-2-8h-2v2h2v-2zm0 4h-2v2h2v-2z"/></svg></div>
<div class="chat-name"><h1 id="chat-title">${business}</h1><p id="connection" class="connection" role="status">connecting…</p></div>
<button type="button" id="stop-promotions" class="promotions-toggle" aria-pressed="false">Stop promotions<span class="visually-hidden"> from this business</span></button>
</header>
<ol id="messages" class="messages" aria-label="Messages" aria-live="polite" aria-relevant="additions text" tabindex="0"></ol>
<p id="notice" class="notice" role="status"></p>
<p id="composer-error" class="error composer-error" role="alert"></p>
<form id="composer" class="composer">
<button type="button" id="share-location" class="icon-button" aria-label="Share a location" title="Share a location"><svg class="icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M12 2C8.13 2 5 5.13 5 9c0 5.25 7 13 7 13s7-7.75 7-13c0-3.87-3.13-7-7-7zm0 9.5a2.5 2.5 0 1 1 0-5 2.5 2.5 0 0 1 0 5z"/></svg></button>
<label for="composer-text" class="visually-hidden">Message</label>
<textarea id="composer-text" name="text" rows="1" maxlength="4096" placeholder="Message" autocomplete="off"></textarea>
<button type="submit" class="icon-button send" aria-label="Send" title="Send">➤</button>
</form>
</section>
</main>

${DIALOGS}
</body>
</html>`;
}
