/** Operation 4: asks the user to share a location; `text` 1–1024 (docs/cloud-api.md §1.3, location request). */
import { Type } from 'typebox';
import { type CommonFields, commonFields, ok, type SendOperation, text } from './send-operation.ts';

type Body = CommonFields & { text: string };
export interface RequestLocationContent {
  text: string;
}

const bodySchema = Type.Object({ ...commonFields, text: text(1, 1024) }, { additionalProperties: false });

export const sendRequestLocation: SendOperation<Body, RequestLocationContent, typeof bodySchema> = {
  kind: 'request_location',
  summary: 'Ask the user to share a location',
  bodySchema,
  normalize: (body) => ok({ text: body.text }),
  toCloud: (content) => ({
    type: 'interactive',
    interactive: {
      type: 'location_request_message',
      body: { text: content.text },
      action: { name: 'send_location' },
    },
  }),
};
