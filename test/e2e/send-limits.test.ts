/**
 * Every limit of docs/contract.md §3, at its edge and one past it, over real HTTP: the accepted side is sent to a
 * joined virtual user, the refused side is a 400 whose message names the field.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_SANDBOX_NUMBER } from '../../src/config/config.ts';
import {
  call,
  createAccount,
  joinSandbox,
  startGateway,
  type TestAccount,
  type TestGateway,
} from '../support/gateway.ts';

const USER = '254712300555';
const x = (n: number) => 'x'.repeat(n);
const rows = (n: number, prefix = 'r') =>
  Array.from({ length: n }, (_, i) => ({ id: `${prefix}${i}`, title: `Row ${i}` }));
const buttons = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `b${i}`, title: `Button ${i}` }));

type Case = [name: string, path: string, body: Record<string, unknown>, expected: 200 | 404 | RegExp];

const TEXT = '/api/v1/msg/message/text';
const MEDIA = '/api/v1/msg/media';
const LOCATION = '/api/v1/msg/location';
const REQUEST = '/api/v1/msg/request_location';
const CONTACT = '/api/v1/msg/contact';
const BUTTONS = '/api/v1/msg/interactive/buttons';
const LIST = '/api/v1/msg/interactive/list';
const FLOW = '/api/v1/msg/interactive/flows';
const image = { mediaType: 'IMAGE', mediaUrl: 'https://example.com/a.jpg' };
const list = { body: 'Pick one', buttons: [{ sectionItems: rows(1) }] };
const flow = { text: 'Go', flowId: '42', flowCta: 'Start', screen: 'WELCOME' };

const cases: Case[] = [
  ['messageId of 128 characters', TEXT, { messageId: x(128), message: 'hi' }, 200],
  [
    'messageId of 129 characters',
    TEXT,
    { messageId: x(129), message: 'hi' },
    /`messageId` must be at most 128 characters/,
  ],
  ['empty messageId', TEXT, { messageId: '', message: 'hi' }, /`messageId` must not be empty/],
  ['text of 4096 characters', TEXT, { message: x(4096) }, 200],
  ['text of 4097 characters', TEXT, { message: x(4097) }, /`message` must be at most 4096 characters/],
  ['empty text', TEXT, { message: '' }, /`message` must not be empty/],
  ['mediaType in lower case', MEDIA, { ...image, mediaType: 'image' }, 200],
  [
    'unknown mediaType',
    MEDIA,
    { ...image, mediaType: 'GIF' },
    /`mediaType` must be one of IMAGE, VIDEO, AUDIO, DOCUMENT, STICKER/,
  ],
  [
    'http mediaUrl',
    MEDIA,
    { ...image, mediaUrl: 'http://example.com/a.jpg' },
    /`mediaUrl` must be a valid absolute URL starting with https:\/\//,
  ],
  ['relative mediaUrl', MEDIA, { ...image, mediaUrl: '/a.jpg' }, /`mediaUrl`/],
  ['caption of 1024 characters', MEDIA, { ...image, caption: x(1024) }, 200],
  [
    'caption of 1025 characters',
    MEDIA,
    { ...image, caption: x(1025) },
    /`caption` must be at most 1024 characters/,
  ],
  [
    'caption on audio',
    MEDIA,
    { mediaType: 'AUDIO', mediaUrl: 'https://example.com/a.mp3', caption: 'x' },
    /`caption` is allowed only for IMAGE, VIDEO, DOCUMENT/,
  ],
  [
    'caption on sticker',
    MEDIA,
    { mediaType: 'STICKER', mediaUrl: 'https://example.com/a.webp', caption: 'x' },
    /`caption` is allowed only/,
  ],
  [
    'filename on a document',
    MEDIA,
    { mediaType: 'DOCUMENT', mediaUrl: 'https://example.com/a.pdf', filename: 'a.pdf' },
    200,
  ],
  ['filename on an image', MEDIA, { ...image, filename: 'a.jpg' }, /`filename` is allowed only for DOCUMENT/],
  ['latitude 90 and longitude -180', LOCATION, { latitude: 90, longitude: -180 }, 200],
  [
    'latitude past 90',
    LOCATION,
    { latitude: 90.0001, longitude: 0 },
    /`latitude` must be between -90 and 90/,
  ],
  ['latitude past -90', LOCATION, { latitude: -90.5, longitude: 0 }, /`latitude` must be between -90 and 90/],
  [
    'longitude past 180',
    LOCATION,
    { latitude: 0, longitude: 180.01 },
    /`longitude` must be between -180 and 180/,
  ],
  ['coordinates as numeric strings', LOCATION, { latitude: '-1.2921', longitude: '36.8219' }, 200],
  [
    'a coordinate that is not numeric',
    LOCATION,
    { latitude: 'north', longitude: 1 },
    /`latitude` must be a number or a numeric string/,
  ],
  [
    'a coordinate of another type',
    LOCATION,
    { latitude: true, longitude: 1 },
    /`latitude` must be a number or a numeric string/,
  ],
  ['the spelling longtitude alone', LOCATION, { latitude: 1, longtitude: 2 }, 200],
  ['both spellings, equal', LOCATION, { latitude: 1, longitude: 2, longtitude: '2' }, 200],
  [
    'both spellings, different',
    LOCATION,
    { latitude: 1, longitude: 2, longtitude: 3 },
    /`longitude` and `longtitude` are two spellings of one field and disagree/,
  ],
  ['no longitude at all', LOCATION, { latitude: 1 }, /`longitude` is required/],
  ['location text of 1024 characters', REQUEST, { text: x(1024) }, 200],
  ['location text of 1025 characters', REQUEST, { text: x(1025) }, /`text` must be at most 1024 characters/],
  ['empty location text', REQUEST, { text: '' }, /`text` must not be empty/],
  ['contact without name', CONTACT, { phones: [{ phone: '+1' }] }, /`name` is required/],
  [
    'contact without formattedName',
    CONTACT,
    { name: {}, phones: [{ phone: '+1' }] },
    /`name.formattedName` is required/,
  ],
  [
    'contact without phones',
    CONTACT,
    { name: { formattedName: 'J' }, phones: [] },
    /`phones` must have at least 1 item/,
  ],
  [
    'contact with one phone and no waId',
    CONTACT,
    { name: { formattedName: 'J' }, phones: [{ phone: '+254700000000', type: 'cell' }] },
    200,
  ],
  ['three buttons', BUTTONS, { message: 'Pick', buttons: buttons(3) }, 200],
  ['four buttons', BUTTONS, { message: 'Pick', buttons: buttons(4) }, /`buttons` must have at most 3 items/],
  ['no buttons', BUTTONS, { message: 'Pick', buttons: [] }, /`buttons` must have at least 1 item/],
  ['button title of 20 characters', BUTTONS, { message: 'Pick', buttons: [{ id: 'a', title: x(20) }] }, 200],
  [
    'button title of 21 characters',
    BUTTONS,
    { message: 'Pick', buttons: [{ id: 'a', title: x(21) }] },
    /`buttons\[0\].title` must be at most 20 characters/,
  ],
  ['button id of 256 characters', BUTTONS, { message: 'Pick', buttons: [{ id: x(256), title: 'A' }] }, 200],
  [
    'button id of 257 characters',
    BUTTONS,
    { message: 'Pick', buttons: [{ id: x(257), title: 'A' }] },
    /`buttons\[0\].id` must be at most 256 characters/,
  ],
  [
    'button id with a leading space',
    BUTTONS,
    { message: 'Pick', buttons: [{ id: ' a', title: 'A' }] },
    /`buttons\[0\].id` must not start or end with spaces/,
  ],
  [
    'duplicate button ids',
    BUTTONS,
    {
      message: 'Pick',
      buttons: [
        { id: 'a', title: 'A' },
        { id: 'a', title: 'B' },
      ],
    },
    /`buttons\[1\].id` repeats `buttons\[0\].id`/,
  ],
  [
    'duplicate button titles',
    BUTTONS,
    {
      message: 'Pick',
      buttons: [
        { id: 'a', title: 'A' },
        { id: 'b', title: 'A' },
      ],
    },
    /`buttons\[1\].title` repeats `buttons\[0\].title`/,
  ],
  ['button body as text', BUTTONS, { text: 'Pick', buttons: buttons(1) }, 200],
  [
    'button body as message and text, equal',
    BUTTONS,
    { message: 'Pick', text: 'Pick', buttons: buttons(1) },
    200,
  ],
  [
    'button body as message and text, different',
    BUTTONS,
    { message: 'Pick', text: 'Choose', buttons: buttons(1) },
    /`message` and `text` are two spellings/,
  ],
  [
    'button body missing',
    BUTTONS,
    { buttons: buttons(1) },
    /`message` \(or `text`, the same field\) is required/,
  ],
  ['button body of 1024 characters', BUTTONS, { message: x(1024), buttons: buttons(1) }, 200],
  [
    'button body of 1025 characters',
    BUTTONS,
    { message: x(1025), buttons: buttons(1) },
    /`message` must be at most 1024 characters/,
  ],
  [
    'ten rows over two sections',
    LIST,
    {
      body: 'Pick',
      buttons: [
        { sectionTitle: 'A', sectionItems: rows(5, 'a') },
        { sectionTitle: 'B', sectionItems: rows(5, 'b') },
      ],
    },
    200,
  ],
  [
    'eleven rows over two sections',
    LIST,
    {
      body: 'Pick',
      buttons: [
        { sectionTitle: 'A', sectionItems: rows(5, 'a') },
        { sectionTitle: 'B', sectionItems: rows(6, 'b') },
      ],
    },
    /`buttons` holds 11 rows in total; a list allows at most 10/,
  ],
  [
    'ten sections',
    LIST,
    {
      body: 'Pick',
      buttons: Array.from({ length: 10 }, (_, i) => ({
        sectionTitle: `S${i}`,
        sectionItems: rows(1, `s${i}`),
      })),
    },
    200,
  ],
  [
    'eleven sections',
    LIST,
    {
      body: 'Pick',
      buttons: Array.from({ length: 11 }, (_, i) => ({
        sectionTitle: `S${i}`,
        sectionItems: rows(1, `s${i}`),
      })),
    },
    /`buttons` must have at most 10 items/,
  ],
  [
    'an empty section',
    LIST,
    { body: 'Pick', buttons: [{ sectionItems: [] }] },
    /`buttons\[0\].sectionItems` must have at least 1 item/,
  ],
  ['one section without a title', LIST, list, 200],
  [
    'two sections, one without a title',
    LIST,
    {
      body: 'Pick',
      buttons: [{ sectionTitle: 'A', sectionItems: rows(1, 'a') }, { sectionItems: rows(1, 'b') }],
    },
    /`buttons\[1\].sectionTitle` is required when the list has more than one section/,
  ],
  [
    'section title of 24 characters',
    LIST,
    { body: 'Pick', buttons: [{ sectionTitle: x(24), sectionItems: rows(1) }] },
    200,
  ],
  [
    'section title of 25 characters',
    LIST,
    { body: 'Pick', buttons: [{ sectionTitle: x(25), sectionItems: rows(1) }] },
    /`buttons\[0\].sectionTitle` must be at most 24 characters/,
  ],
  [
    'row id of 200 characters',
    LIST,
    { body: 'Pick', buttons: [{ sectionItems: [{ id: x(200), title: 'A' }] }] },
    200,
  ],
  [
    'row id of 201 characters',
    LIST,
    { body: 'Pick', buttons: [{ sectionItems: [{ id: x(201), title: 'A' }] }] },
    /`buttons\[0\].sectionItems\[0\].id` must be at most 200 characters/,
  ],
  [
    'row title of 24 characters',
    LIST,
    { body: 'Pick', buttons: [{ sectionItems: [{ id: 'a', title: x(24) }] }] },
    200,
  ],
  [
    'row title of 25 characters',
    LIST,
    { body: 'Pick', buttons: [{ sectionItems: [{ id: 'a', title: x(25) }] }] },
    /`buttons\[0\].sectionItems\[0\].title` must be at most 24 characters/,
  ],
  [
    'row description of 72 characters',
    LIST,
    { body: 'Pick', buttons: [{ sectionItems: [{ id: 'a', title: 'A', description: x(72) }] }] },
    200,
  ],
  [
    'row description of 73 characters',
    LIST,
    { body: 'Pick', buttons: [{ sectionItems: [{ id: 'a', title: 'A', description: x(73) }] }] },
    /`buttons\[0\].sectionItems\[0\].description` must be at most 72 characters/,
  ],
  [
    'row ids repeated across sections',
    LIST,
    {
      body: 'Pick',
      buttons: [
        { sectionTitle: 'A', sectionItems: rows(1) },
        { sectionTitle: 'B', sectionItems: rows(1) },
      ],
    },
    /`buttons\[1\].sectionItems\[0\].id` repeats `buttons\[0\].sectionItems\[0\].id`/,
  ],
  ['header of 60 characters', LIST, { ...list, headerText: x(60) }, 200],
  [
    'header of 61 characters',
    LIST,
    { ...list, headerText: x(61) },
    /`headerText` must be at most 60 characters/,
  ],
  ['button text of 20 characters', LIST, { ...list, buttonText: x(20) }, 200],
  [
    'button text of 21 characters',
    LIST,
    { ...list, buttonText: x(21) },
    /`buttonText` must be at most 20 characters/,
  ],
  ['list body as message', LIST, { message: 'Pick', buttons: list.buttons }, 200],
  [
    'list body as message and body, different',
    LIST,
    { message: 'Pick', body: 'Other', buttons: list.buttons },
    /`message` and `body` are two spellings/,
  ],
  [
    'list body of 1025 characters',
    LIST,
    { body: x(1025), buttons: list.buttons },
    /`body` must be at most 1024 characters/,
  ],
  ['flow CTA of 20 characters (valid; the flow is unknown)', FLOW, { ...flow, flowCta: x(20) }, 404],
  ['flow CTA of 21 characters', FLOW, { ...flow, flowCta: x(21) }, /`flowCta` must be at most 20 characters/],
  ['flow data that is not an object', FLOW, { ...flow, data: [1] }, /`data` must be an object/],
];

describe('send limits at their edges', () => {
  let t: TestGateway;
  let account: TestAccount;
  before(async () => {
    t = await startGateway();
    account = await createAccount(t, 'Limits Co');
    await joinSandbox(t, account, USER);
  });
  after(() => t.close());

  for (const [index, [name, path, body, expected]] of cases.entries()) {
    test(`${name}: ${expected instanceof RegExp ? 'refused' : expected}`, async () => {
      const r = await call(t.url, 'POST', path, {
        key: account.apiKey,
        body: { messageId: `limit-${index}`, from: DEFAULT_SANDBOX_NUMBER, to: USER, ...body },
      });
      if (expected instanceof RegExp) {
        assert.equal(r.status, 400, JSON.stringify(r.body));
        assert.equal(r.body.error, 'Bad Request');
        assert.match(r.body.message, expected);
      } else {
        assert.equal(r.status, expected, JSON.stringify(r.body));
      }
    });
  }
});
