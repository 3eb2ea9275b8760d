// Verifies a Switchboard webhook (Standard Webhooks signature) and prints the event.
// Run: WEBHOOK_SECRET=whsec_... node examples/verify-webhook.mjs   (listens on port 4000)
// Or import `verify` into your own receiver.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';

// `rawBody`: the body's bytes as received (a Buffer), or the same decoded as a whole (a string).
export function verify(secret, headers, rawBody) {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  // Refuse old or future deliveries: a captured request cannot be replayed later.
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const signed = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(rawBody).digest('base64');
  const expected = Buffer.from(`v1,${signed}`);
  // Several signatures appear during a secret rotation: any one may match.
  return String(headers['webhook-signature'])
    .split(' ')
    .some((s) => s.length === expected.length && timingSafeEqual(Buffer.from(s), expected));
}

// Run as a program (not imported): compared by path, which works on every Node.js from 18 on
// (`import.meta.main` exists only since Node.js 24).
const runAsProgram = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;

if (runAsProgram) {
  const secret = process.env.WEBHOOK_SECRET;
  if (!secret) throw new Error('set WEBHOOK_SECRET to the endpoint secret (whsec_...)');
  createServer((req, res) => {
    // The bytes as they came, joined before any decoding: a character split across two chunks, decoded
    // chunk by chunk, would no longer be the bytes that were signed.
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (!verify(secret, req.headers, body)) {
        res.writeHead(401).end();
        return;
      }
      const event = JSON.parse(body.toString('utf8'));
      // webhook-id is the event id: the same event may arrive more than once, so dedupe on it.
      console.log(req.headers['webhook-id'], event.type, JSON.stringify(event.data));
      res.writeHead(204).end();
    });
  }).listen(Number(process.env.PORT ?? 4000), '127.0.0.1', function () {
    console.log(`listening on http://127.0.0.1:${this.address().port}; verified events are printed here`);
  });
}
