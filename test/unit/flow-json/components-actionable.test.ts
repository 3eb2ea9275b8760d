import { componentCases } from './component-cases.ts';

const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const complete = { name: 'complete', payload: {} };

componentCases({
  Footer: {
    valid: {
      type: 'Footer',
      label: 'F'.repeat(35),
      'left-caption': 'Total',
      'right-caption': '12 EUR',
      'on-click-action': complete,
    },
    invalid: [
      {
        component: { type: 'Footer', label: 'Done' },
        path: '.on-click-action',
        rule: 'Footer requires "on-click-action"',
      },
      {
        component: { type: 'Footer', label: 'F'.repeat(36), 'on-click-action': complete },
        path: '.label',
        rule: 'at most 35',
      },
      {
        component: {
          type: 'Footer',
          label: 'Done',
          'center-caption': 'C'.repeat(16),
          'on-click-action': complete,
        },
        path: '.center-caption',
        rule: 'at most 15',
      },
      {
        component: {
          type: 'Footer',
          label: 'Done',
          'left-caption': 'a',
          'center-caption': 'b',
          'on-click-action': complete,
        },
        path: '.center-caption',
        rule: 'either "left-caption"/"right-caption" or "center-caption"',
      },
      {
        component: {
          type: 'Footer',
          label: 'Done',
          'on-click-action': { name: 'open_url', url: 'https://example.com' },
        },
        path: '.on-click-action.name',
        rule: 'cannot use the open_url action; allowed here: navigate, complete, data_exchange',
      },
    ],
  },
  EmbeddedLink: {
    valid: {
      type: 'EmbeddedLink',
      text: 'Read the terms',
      'on-click-action': { name: 'open_url', url: 'https://example.com/t' },
    },
    invalid: [
      {
        component: {
          type: 'EmbeddedLink',
          text: 'L'.repeat(36),
          'on-click-action': { name: 'open_url', url: 'https://e.com' },
        },
        path: '.text',
        rule: 'at most 35',
      },
      {
        component: { type: 'EmbeddedLink', text: 'Terms' },
        path: '.on-click-action',
        rule: 'EmbeddedLink requires "on-click-action"',
      },
      {
        component: { type: 'EmbeddedLink', text: 'Terms', 'on-click-action': complete },
        path: '.on-click-action.name',
        rule: 'cannot use the complete action',
      },
    ],
  },
  Image: {
    valid: {
      type: 'Image',
      src: PNG,
      width: 120,
      height: 80,
      'scale-type': 'contain',
      'aspect-ratio': 1.5,
      'alt-text': 'Logo',
    },
    invalid: [
      { component: { type: 'Image', width: 10 }, path: '.src', rule: 'Image requires "src"' },
      {
        component: { type: 'Image', src: PNG, 'scale-type': 'fill' },
        path: '.scale-type',
        rule: 'allowed values are cover, contain',
      },
      {
        component: { type: 'Image', src: PNG, width: 0 },
        path: '.width',
        rule: 'smallest allowed value is 1',
      },
    ],
  },
  ImageCarousel: {
    valid: {
      type: 'ImageCarousel',
      images: [
        { src: PNG, 'alt-text': 'One' },
        { src: PNG, 'alt-text': 'Two' },
      ],
      'scale-type': 'cover',
    },
    invalid: [
      {
        component: {
          type: 'ImageCarousel',
          images: [{ src: PNG }, { src: PNG }, { src: PNG }, { src: PNG }],
        },
        path: '.images',
        rule: 'has 4 images; between 1 and 3 are allowed',
      },
      {
        component: { type: 'ImageCarousel', images: [{ 'alt-text': 'x' }] },
        path: '.images[0].src',
        rule: 'needs "src"',
      },
    ],
  },
  NavigationList: {
    valid: {
      type: 'NavigationList',
      name: 'menu',
      'list-items': [
        {
          id: 'orders',
          'main-content': { title: 'My orders', description: 'Track a parcel' },
          end: { title: '3' },
          'on-click-action': { name: 'navigate', next: { type: 'screen', name: 'ONLY' }, payload: {} },
        },
      ],
    },
    invalid: [
      {
        component: { type: 'NavigationList', name: 'm', 'list-items': [] },
        path: '.list-items',
        rule: 'has 0 items; between 1 and 20 are allowed',
      },
      {
        component: {
          type: 'NavigationList',
          name: 'm',
          'list-items': Array.from({ length: 21 }, (_, i) => ({
            id: `i${i}`,
            'main-content': { title: 'T' },
          })),
        },
        path: '.list-items',
        rule: 'between 1 and 20',
      },
      {
        component: { type: 'NavigationList', name: 'm', 'list-items': [{ id: 'a' }] },
        path: '.list-items[0].main-content',
        rule: 'needs "main-content"',
      },
      {
        component: {
          type: 'NavigationList',
          name: 'm',
          'list-items': [{ id: 'a', 'main-content': { title: 'A' }, 'on-click-action': complete }],
        },
        path: '.list-items[0].on-click-action.name',
        rule: 'cannot use the complete action',
      },
    ],
  },
});
