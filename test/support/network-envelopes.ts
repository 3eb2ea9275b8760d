/**
 * What Meta posts to `/webhooks/network` when a user writes to the sandbox number (reference §3): for
 * suites that forge, sign or replay the network's webhooks by hand.
 */
import { DEFAULT_SANDBOX_NUMBER } from '../../src/config/config.ts';

export function inboundTextEnvelope(user: string, waId: string, text: string, profileName = 'Zoë') {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: DEFAULT_SANDBOX_NUMBER,
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: {
                display_phone_number: DEFAULT_SANDBOX_NUMBER,
                phone_number_id: DEFAULT_SANDBOX_NUMBER,
              },
              contacts: [{ profile: { name: profileName }, wa_id: user }],
              messages: [
                {
                  from: user,
                  id: waId,
                  timestamp: String(Math.floor(Date.now() / 1000)),
                  type: 'text',
                  text: { body: text },
                },
              ],
            },
          },
        ],
      },
    ],
  };
}
