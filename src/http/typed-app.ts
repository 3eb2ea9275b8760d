/**
 * The Fastify instance routes are written against: the TypeBox type provider turns each route's schema
 * into the types of its params, query and body, so handlers read what validation guaranteed, uncast.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';

export type TypedApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** The same instance, typed through its route schemas. */
export function typed(app: FastifyInstance): TypedApp {
  return app.withTypeProvider<TypeBoxTypeProvider>();
}
