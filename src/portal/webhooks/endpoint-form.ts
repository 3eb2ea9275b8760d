/**
 * The fields of a webhook endpoint (its URL and its event types) as the portal asks for them, when one is
 * added and when one is changed, and the check of what was posted: the domain's URL rule
 * (src/domain/webhook-endpoints.ts) and the known event types, each error at its field.
 */
import { eventTypes, unknownEventTypes } from '../../domain/event-types.ts';
import { endpointUrlProblem } from '../../domain/webhook-endpoints.ts';
import { input } from '../components.ts';
import type { PortalDeps } from '../deps.ts';
import { field, fieldList } from '../forms.ts';
import { html, type SafeHtml } from '../html.ts';

export interface EndpointAnswers {
  url: string;
  events: string[];
  urlError?: string | undefined;
  eventsError?: string | undefined;
}

/** The URL and the event types posted, with what is wrong with each. */
export function endpointAnswers(service: PortalDeps['webhooks'], body: unknown): EndpointAnswers {
  const url = field(body, 'url', 2048).trim();
  const events = fieldList(body, 'events');
  const problem = endpointUrlProblem(service, url);
  const unknown = unknownEventTypes(events);
  const eventsError =
    events.length === 0
      ? 'Choose at least one event type.'
      : unknown.length
        ? `Unknown event type ${unknown[0]}.`
        : undefined;
  return { url, events, urlError: problem ? `The URL ${problem}.` : undefined, eventsError };
}

export const answersAreFine = (a: EndpointAnswers) => !a.urlError && !a.eventsError;

/** The URL input and one checkbox per event type, checked as `answers` says. */
export function endpointFields(answers: EndpointAnswers): SafeHtml {
  return html`${input({ name: 'url', label: 'URL', type: 'url', value: answers.url, error: answers.urlError, hint: 'An https URL of your application.', required: true })}
<fieldset${answers.eventsError ? html` aria-describedby="events-error"` : ''}><legend>Events</legend>
${answers.eventsError ? html`<p class="field-error" id="events-error">${answers.eventsError}</p>` : ''}
${eventTypes.map((t) => html`<div class="check"><input type="checkbox" id="ev-${t}" name="events" value="${t}"${answers.events.includes(t) ? html` checked` : ''}><label for="ev-${t}">${t}</label></div>`)}
</fieldset>`;
}
