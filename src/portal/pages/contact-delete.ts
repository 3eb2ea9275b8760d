/**
 * /app/contacts/:id/delete: a contact deleted from the portal, after a page that says what goes and what
 * stays. The deletion is the domain's (src/domain/contacts.ts `deleteContact`), as
 * `DELETE /api/v1/contacts/<id>` does it; another account's contact is "not found".
 */
import type { FastifyInstance } from 'fastify';
import { deleteContact, ownedContact } from '../../domain/contacts.ts';
import { GatewayError } from '../../domain/errors.ts';
import { type PortalDeps, sessionOf } from '../deps.ts';
import { param } from '../forms.ts';
import { html } from '../html.ts';
import { csrfField, page } from '../layout.ts';

const contactNotFound = () => new GatewayError('not_found', 'There is no such contact in your account.');

/** The domain's "not found" names the id it was given; the portal's says it in its own words. */
async function orNotFound<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof GatewayError && error.status === 404) throw contactNotFound();
    throw error;
  }
}

export function registerContactDelete(portal: FastifyInstance, deps: PortalDeps): void {
  portal.get('/contacts/:id/delete', async (request, reply) => {
    const session = sessionOf(request);
    const id = param(request.params, 'id');
    const contact = await orNotFound(ownedContact(deps.contacts, session.accountId, id));
    const who = [contact.name, contact.phone ? `+${contact.phone}` : contact.userId]
      .filter(Boolean)
      .join(', ');
    const body = html`<section class="card"><p>Delete the contact <bdi>${who}</bdi>? Their name, tags and attributes are removed. Messages and conversations with them stay, as does an opt-out, and campaigns already started still send to them. If they write to one of your numbers again, they are listed again as a new contact. This cannot be undone.</p>
<div class="actions"><form method="post" action="/app/contacts/${id}/delete">${csrfField(session.csrfToken)}<button type="submit" class="danger">Delete contact</button></form>
<a class="button secondary" href="/app/contacts">Cancel</a></div></section>`;
    return reply
      .type('text/html; charset=utf-8')
      .send(page({ title: 'Delete contact', session, section: 'contacts', body }));
  });

  portal.post('/contacts/:id/delete', async (request, reply) => {
    const session = sessionOf(request);
    await orNotFound(deleteContact(deps.contacts, session.accountId, param(request.params, 'id')));
    return reply.redirect('/app/contacts?notice=contact-deleted', 303);
  });
}
