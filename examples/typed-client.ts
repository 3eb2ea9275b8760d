/**
 * The typed client (clients/typescript/) sending a text and reading its status. Run it beside a gateway:
 *   KEY=sb_live_... node examples/typed-client.ts +447911123456
 * (Node 24 or later runs TypeScript as it is; the user must have joined the sandbox.)
 */
import { switchboardClient } from '../clients/typescript/src/index.ts';

const to = process.argv[2] ?? '+447911123456';
const api = switchboardClient({
  baseUrl: process.env.GATEWAY ?? 'http://localhost:3000',
  apiKey: process.env.KEY,
});

const sent = await api.POST('/api/v1/msg/message/text', {
  body: { messageId: `typed-${Date.now()}`, from: '+14155550100', to, message: 'Sent with the typed client' },
});
if (sent.error) {
  console.error(sent.response.status, sent.error);
  process.exit(1);
}
console.log('sent:', sent.data.data);
const status = await api.GET('/api/v1/msg/message/{messageId}', {
  params: { path: { messageId: sent.data.data!.messageId } },
});
console.log('status:', status.data?.data);
