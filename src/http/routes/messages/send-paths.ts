/** The path of each send operation, exactly as in the API document (docs/sending.md). */
import type { SendOperation } from '../../../domain/messages/send-operation.ts';

type SendKind = SendOperation<never, unknown>['kind'];

export const sendPaths: Record<SendKind, string> = {
  text: '/api/v1/msg/message/text',
  media: '/api/v1/msg/media',
  location: '/api/v1/msg/location',
  request_location: '/api/v1/msg/request_location',
  contact: '/api/v1/msg/contact',
  buttons: '/api/v1/msg/interactive/buttons',
  list: '/api/v1/msg/interactive/list',
  flow: '/api/v1/msg/interactive/flows',
  template: '/api/v1/msg/template',
  reaction: '/api/v1/msg/reaction',
  cta_url: '/api/v1/msg/interactive/cta_url',
};
