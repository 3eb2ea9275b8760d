/**
 * Send bodies at the edge of each limit of docs/cloud-api.md §1.3/§1.5: `ok` sits exactly at the limit, `bad` just
 * past it; `code` and `field` are what the refusal must carry.
 */
const s = (n: number, c = 'a') => c.repeat(n);
const buttons = (...items: [string, string][]) => ({
  type: 'interactive',
  interactive: {
    type: 'button',
    body: { text: 'Pick' },
    action: { buttons: items.map(([id, title]) => ({ type: 'reply', reply: { id, title } })) },
  },
});
const list = (sections: unknown[], button = 'Options', bodyText = 'Pick') => ({
  type: 'interactive',
  interactive: { type: 'list', body: { text: bodyText }, action: { button, sections } },
});
const rows = (n: number, prefix = 'r') =>
  Array.from({ length: n }, (_, i) => ({ id: `${prefix}${i}`, title: `Row ${i}` }));
/** A flow message; the suite publishes the example flow as `signup` and puts its id for FLOW_ID. */
export const FLOW_ID = '1234567890';
export const flow = (parameters: Record<string, unknown>) => ({
  type: 'interactive',
  interactive: {
    type: 'flow',
    body: { text: 'Sign up' },
    action: {
      name: 'flow',
      parameters: {
        flow_message_version: '3',
        flow_id: FLOW_ID,
        flow_cta: 'Start',
        mode: 'published',
        flow_action: 'navigate',
        flow_action_payload: { screen: 'SIGN_UP', data: { name: 'Jane' } },
        ...parameters,
      },
    },
  },
});
const image = (media: Record<string, unknown>) => ({ type: 'image', image: media });
const location = (latitude: unknown, longitude: unknown) => ({
  type: 'location',
  location: { latitude, longitude },
});

export interface Case {
  name: string;
  ok: Record<string, unknown>;
  bad: Record<string, unknown>;
  code: number;
  field: RegExp;
}

export const cases: Case[] = [
  {
    name: 'text.body ≤ 4096',
    ok: { type: 'text', text: { body: s(4096) } },
    bad: { type: 'text', text: { body: s(4097) } },
    code: 131009,
    field: /text\.body/,
  },
  {
    name: 'text.body non-empty',
    ok: { type: 'text', text: { body: 'a' } },
    bad: { type: 'text', text: { body: '' } },
    code: 131009,
    field: /text\.body/,
  },
  {
    name: 'text.body required',
    ok: { type: 'text', text: { body: 'a' } },
    bad: { type: 'text', text: {} },
    code: 131008,
    field: /text\.body/,
  },
  {
    name: 'messaging_product is whatsapp',
    ok: { type: 'text', text: { body: 'a' } },
    bad: { messaging_product: 'sms', type: 'text', text: { body: 'a' } },
    code: 131009,
    field: /messaging_product/,
  },
  {
    name: 'type is known',
    ok: { type: 'text', text: { body: 'a' } },
    bad: { type: 'fax', fax: {} },
    code: 100,
    field: /type/,
  },
  {
    name: 'caption ≤ 1024',
    ok: image({ link: 'https://cdn.example.com/a.jpg', caption: s(1024) }),
    bad: image({ link: 'https://cdn.example.com/a.jpg', caption: s(1025) }),
    code: 131009,
    field: /image\.caption/,
  },
  {
    name: 'caption only for image/video/document',
    ok: { type: 'document', document: { link: 'https://x.example/a.pdf', caption: 'c', filename: 'a.pdf' } },
    bad: { type: 'audio', audio: { link: 'https://x.example/a.ogg', caption: 'c' } },
    code: 131009,
    field: /audio\.caption/,
  },
  {
    name: 'filename only for document',
    ok: { type: 'document', document: { link: 'https://x.example/a.pdf', filename: 'a.pdf' } },
    bad: image({ link: 'https://x.example/a.jpg', filename: 'a.jpg' }),
    code: 131009,
    field: /image\.filename/,
  },
  {
    name: 'media link is http or https, as Meta fetches either',
    ok: image({ link: 'http://x.example/a.jpg' }),
    bad: image({ link: 'ftp://x.example/a.jpg' }),
    code: 131009,
    field: /image\.link/,
  },
  {
    name: 'media needs one of id/link',
    ok: image({ id: '1234' }),
    bad: image({ id: '1234', link: 'https://x.example/a.jpg' }),
    code: 131009,
    field: /image/,
  },
  {
    name: 'media needs id or link',
    ok: image({ id: '1234' }),
    bad: image({ caption: 'no source' }),
    code: 131008,
    field: /image\.id or image\.link/,
  },
  {
    name: 'latitude within ±90',
    ok: location(90, -180),
    bad: location(90.0001, 0),
    code: 131009,
    field: /location\.latitude/,
  },
  {
    name: 'longitude within ±180',
    ok: location(-90, 180),
    bad: location(0, -180.5),
    code: 131009,
    field: /location\.longitude/,
  },
  {
    name: 'latitude is a number',
    ok: location(1.5, 2.5),
    bad: location('1.5', 2.5),
    code: 100,
    field: /location\.latitude/,
  },
  {
    name: 'contact needs name.formatted_name',
    ok: {
      type: 'contacts',
      contacts: [{ name: { formatted_name: 'Jane' }, phones: [{ phone: '+1 555', type: 'CELL' }] }],
    },
    bad: { type: 'contacts', contacts: [{ name: { first_name: 'Jane' } }] },
    code: 131008,
    field: /contacts\[0\]\.name\.formatted_name/,
  },
  {
    name: '1–3 buttons',
    ok: buttons(['a', 'A'], ['b', 'B'], ['c', 'C']),
    bad: buttons(['a', 'A'], ['b', 'B'], ['c', 'C'], ['d', 'D']),
    code: 131009,
    field: /interactive\.action\.buttons/,
  },
  {
    name: 'at least one button',
    ok: buttons(['a', 'A']),
    bad: buttons(),
    code: 131009,
    field: /interactive\.action\.buttons/,
  },
  {
    name: 'button title ≤ 20',
    ok: buttons(['a', s(20)]),
    bad: buttons(['a', s(21)]),
    code: 131009,
    field: /buttons\[0\]\.reply\.title/,
  },
  {
    name: 'button id ≤ 256',
    ok: buttons([s(256), 'A']),
    bad: buttons([s(257), 'A']),
    code: 131009,
    field: /buttons\[0\]\.reply\.id/,
  },
  {
    name: 'button id without outer spaces',
    ok: buttons(['a b', 'A']),
    bad: buttons([' ab', 'A']),
    code: 131009,
    field: /buttons\[0\]\.reply\.id/,
  },
  {
    name: 'button ids unique',
    ok: buttons(['a', 'A'], ['b', 'B']),
    bad: buttons(['a', 'A'], ['a', 'B']),
    code: 131009,
    field: /buttons\[1\]\.reply\.id/,
  },
  {
    name: 'button titles unique',
    ok: buttons(['a', 'A'], ['b', 'B']),
    bad: buttons(['a', 'A'], ['b', 'A']),
    code: 131009,
    field: /buttons\[1\]\.reply\.title/,
  },
  {
    name: 'interactive body.text ≤ 1024',
    ok: list([{ rows: rows(1) }], 'Options', s(1024)),
    bad: list([{ rows: rows(1) }], 'Options', s(1025)),
    code: 131009,
    field: /interactive\.body\.text/,
  },
  {
    name: 'list button label ≤ 20',
    ok: list([{ rows: rows(1) }], s(20)),
    bad: list([{ rows: rows(1) }], s(21)),
    code: 131009,
    field: /interactive\.action\.button/,
  },
  {
    name: 'list button label non-empty',
    ok: list([{ rows: rows(1) }], 'x'),
    bad: list([{ rows: rows(1) }], ''),
    code: 131009,
    field: /interactive\.action\.button/,
  },
  {
    name: '≤ 10 rows in total',
    ok: list([
      { title: 'A', rows: rows(5, 'a') },
      { title: 'B', rows: rows(5, 'b') },
    ]),
    bad: list([
      { title: 'A', rows: rows(5, 'a') },
      { title: 'B', rows: rows(6, 'b') },
    ]),
    code: 131009,
    field: /interactive\.action\.sections/,
  },
  {
    name: '1–10 sections',
    ok: list([{ rows: rows(1) }]),
    bad: list([]),
    code: 131009,
    field: /interactive\.action\.sections/,
  },
  {
    name: 'section title required with > 1 section',
    ok: list([{ rows: rows(1, 'a') }]),
    bad: list([{ rows: rows(1, 'a') }, { title: 'B', rows: rows(1, 'b') }]),
    code: 131008,
    field: /sections\[0\]\.title/,
  },
  {
    name: 'section title ≤ 24',
    ok: list([{ title: s(24), rows: rows(1) }]),
    bad: list([{ title: s(25), rows: rows(1) }]),
    code: 131009,
    field: /sections\[0\]\.title/,
  },
  {
    name: 'row id ≤ 200',
    ok: list([{ rows: [{ id: s(200), title: 'T' }] }]),
    bad: list([{ rows: [{ id: s(201), title: 'T' }] }]),
    code: 131009,
    field: /rows\[0\]\.id/,
  },
  {
    name: 'row ids unique across sections',
    ok: list([
      { title: 'A', rows: rows(1, 'a') },
      { title: 'B', rows: rows(1, 'b') },
    ]),
    bad: list([
      { title: 'A', rows: rows(1, 'a') },
      { title: 'B', rows: rows(1, 'a') },
    ]),
    code: 131009,
    field: /sections\[1\]\.rows\[0\]\.id/,
  },
  {
    name: 'row title ≤ 24',
    ok: list([{ rows: [{ id: 'r', title: s(24) }] }]),
    bad: list([{ rows: [{ id: 'r', title: s(25) }] }]),
    code: 131009,
    field: /rows\[0\]\.title/,
  },
  {
    name: 'row description ≤ 72',
    ok: list([{ rows: [{ id: 'r', title: 'T', description: s(72) }] }]),
    bad: list([{ rows: [{ id: 'r', title: 'T', description: s(73) }] }]),
    code: 131009,
    field: /rows\[0\]\.description/,
  },
  {
    name: 'header text ≤ 60',
    ok: {
      ...buttons(['a', 'A']),
      interactive: { ...buttons(['a', 'A']).interactive, header: { type: 'text', text: s(60) } },
    },
    bad: {
      ...buttons(['a', 'A']),
      interactive: { ...buttons(['a', 'A']).interactive, header: { type: 'text', text: s(61) } },
    },
    code: 131009,
    field: /interactive\.header\.text/,
  },
  {
    name: 'footer text ≤ 60',
    ok: {
      ...buttons(['a', 'A']),
      interactive: { ...buttons(['a', 'A']).interactive, footer: { text: s(60) } },
    },
    bad: {
      ...buttons(['a', 'A']),
      interactive: { ...buttons(['a', 'A']).interactive, footer: { text: s(61) } },
    },
    code: 131009,
    field: /interactive\.footer\.text/,
  },
  {
    name: 'flow_message_version is "3"',
    ok: flow({}),
    bad: flow({ flow_message_version: '2' }),
    code: 131009,
    field: /flow_message_version/,
  },
  {
    name: 'flow_cta ≤ 20',
    ok: flow({ flow_cta: s(20) }),
    bad: flow({ flow_cta: s(21) }),
    code: 131009,
    field: /flow_cta/,
  },
  {
    name: 'flow_cta non-empty',
    ok: flow({ flow_cta: 'x' }),
    bad: flow({ flow_cta: '' }),
    code: 131009,
    field: /flow_cta/,
  },
  {
    name: 'exactly one of flow_id/flow_name',
    ok: flow({ flow_id: undefined, flow_name: 'signup' }),
    bad: flow({ flow_name: 'signup' }),
    code: 131009,
    field: /interactive\.action\.parameters/,
  },
  {
    name: 'flow mode is published or draft',
    ok: flow({ mode: 'draft' }),
    bad: flow({ mode: 'live' }),
    code: 131009,
    field: /parameters\.mode/,
  },
  {
    name: 'navigate needs flow_action_payload.screen',
    ok: flow({ flow_action_payload: { screen: 'PREFERENCES' } }),
    bad: flow({ flow_action_payload: { data: { a: 1 } } }),
    code: 131008,
    field: /flow_action_payload\.screen/,
  },
];
