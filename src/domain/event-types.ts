/** The event types a webhook endpoint can receive (docs/webhooks.md). */
export const eventTypes = [
  'message.received',
  'message.status',
  'template.status',
  'template.category',
  'contact.opted_out',
  'contact.opted_in',
  'campaign.status',
  'campaign.completed',
] as const;
export type EventType = (typeof eventTypes)[number];

/** The names in `events` that are no event type. */
export function unknownEventTypes(events: readonly string[]): string[] {
  return events.filter((e) => !(eventTypes as readonly string[]).includes(e));
}
