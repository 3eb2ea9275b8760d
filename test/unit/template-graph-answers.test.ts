/**
 * The connector's template create against a stand-in Graph API answering as Meta does: the category Meta
 * gave the template is the one the gateway keeps (Meta files a "utility" template that reads as marketing
 * under MARKETING), and a refusal whose words are only in `error_user_title`/`error_user_msg` (Meta's shape
 * for template and flow refusals) reaches the client with those words, not "Invalid parameter".
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { managementNetworkError } from '../../src/domain/management-network-error.ts';
import { createCloudConnector } from '../../src/network/cloud-connector.ts';

const ACCOUNT = { wabaId: '102290129340398', accessToken: 'graph-token' };
const TEMPLATE = { name: 'order_note', language: 'en_US', category: 'UTILITY', components: [] };

describe('template create answers', () => {
  let graph: Server;
  let answer: { status: number; body: unknown };
  let connector: ReturnType<typeof createCloudConnector>;

  before(async () => {
    graph = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        response.writeHead(answer.status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(answer.body));
      });
    });
    await new Promise<void>((resolve) => graph.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(graph.address() as AddressInfo).port}`;
    connector = createCloudConnector({ baseUrl, apiVersion: 'v23.0', timeoutMs: 5_000 });
  });
  after(() => {
    graph.close();
  });

  test("the category Meta answers is the template's, whatever was asked", async () => {
    for (const [category, expected] of [
      ['MARKETING', 'MARKETING'],
      [undefined, null],
      ['SOMETHING_NEW', null],
    ] as const) {
      answer = { status: 200, body: { id: '8186015735542107', status: 'PENDING', category } };
      const created = await connector.createTemplate(ACCOUNT, TEMPLATE);
      assert.deepEqual(created, {
        ok: true,
        value: { id: '8186015735542107', status: 'PENDING', category: expected },
      });
    }
  });

  test('a refusal told in error_user_title and error_user_msg reaches the client in those words', async () => {
    // A create refused by Meta, as recorded from its API: no error_data, the reason for people only.
    answer = {
      status: 400,
      body: {
        error: {
          message: 'Invalid parameter',
          type: 'OAuthException',
          code: 100,
          error_subcode: 2388299,
          is_transient: false,
          error_user_title: 'Leading or trailing params not allowed',
          error_user_msg: "Variables can't be at the start or end of the template.",
          fbtrace_id: 'AbCdEf',
        },
      },
    };
    const created = await connector.createTemplate(ACCOUNT, TEMPLATE);
    assert.equal(created.ok, false);
    if (created.ok) return;
    assert.equal(
      created.failure.details,
      "Leading or trailing params not allowed: Variables can't be at the start or end of the template.",
    );
    const error = managementNetworkError(
      { noun: 'template', checkFirst: 'list the templates' },
      'template',
      created.failure,
    );
    assert.equal(error.status, 422);
    assert.match(error.message, /\(#100\) Leading or trailing params not allowed: Variables can't be/);
  });
});
