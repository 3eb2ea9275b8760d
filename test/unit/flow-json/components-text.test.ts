import { componentCases } from './component-cases.ts';

const long = (n: number) => 'x'.repeat(n);

componentCases({
  TextHeading: {
    valid: { type: 'TextHeading', text: long(80) },
    invalid: [
      { component: { type: 'TextHeading', text: long(81) }, path: '.text', rule: 'at most 80 are allowed' },
      { component: { type: 'TextHeading' }, path: '.text', rule: 'TextHeading requires "text"' },
    ],
  },
  TextSubheading: {
    valid: { type: 'TextSubheading', text: 'Your details', visible: true },
    invalid: [
      { component: { type: 'TextSubheading', text: long(81) }, path: '.text', rule: 'is 81 characters long' },
      {
        component: { type: 'TextSubheading', text: 5 },
        path: '.text',
        rule: 'must be a string, not an integer',
      },
    ],
  },
  TextBody: {
    valid: {
      type: 'TextBody',
      text: long(4096),
      'font-weight': 'bold_italic',
      strikethrough: false,
      markdown: true,
    },
    invalid: [
      { component: { type: 'TextBody', text: long(4097) }, path: '.text', rule: 'at most 4096 are allowed' },
      {
        component: { type: 'TextBody', text: 'Hi', 'font-weight': 'heavy' },
        path: '.font-weight',
        rule: 'allowed values are bold, italic, bold_italic, normal',
      },
      {
        component: { type: 'TextBody', text: 'Hi', markdown: 'yes' },
        path: '.markdown',
        rule: 'must be true or false',
      },
    ],
  },
  TextCaption: {
    valid: { type: 'TextCaption', text: 'Fine print', 'font-weight': 'italic' },
    invalid: [{ component: { type: 'TextCaption', text: long(4097) }, path: '.text', rule: 'at most 4096' }],
  },
  RichText: {
    valid: { type: 'RichText', text: ['# Terms', 'You agree to **everything**.'] },
    invalid: [
      {
        component: { type: 'RichText', text: [1, 2] },
        path: '.text',
        rule: 'must be a string or an array of strings',
      },
      {
        component: { type: 'RichText', text: 'x', color: 'red' },
        path: '.color',
        rule: 'does not accept the property "color"',
      },
    ],
  },
});
