/**
 * The baseline: a bare Fastify route that answers a JSON body like a send does, with nothing behind it.
 * Measured in the same run as the gateway, so the report reads as a ratio to what this machine can do.
 */
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.post('/send', async (request) => {
  const body = request.body as { messageId?: string };
  return {
    timestamp: new Date().toISOString().slice(0, -1),
    data: {
      messageId: body.messageId ?? '',
      waId: 'wamid.bare',
      status: 'SENT',
      statusDesc: 'Message sent successfully',
    },
    status: 'success',
    message: '',
    errors: null,
  };
});
const address = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`Server listening at ${address}\n`);
