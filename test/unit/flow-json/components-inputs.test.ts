import { componentCases } from './component-cases.ts';

const options = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `o${i}`, title: `Option ${i}` }));

componentCases({
  TextInput: {
    valid: {
      type: 'TextInput',
      name: 'email',
      label: 'Email',
      'input-type': 'email',
      required: true,
      'min-chars': 3,
      'max-chars': 80,
      'helper-text': 'We never share it',
    },
    invalid: [
      { component: { type: 'TextInput', label: 'Email' }, path: '.name', rule: 'TextInput requires "name"' },
      {
        component: { type: 'TextInput', name: 'e', label: 'Your email address here' },
        path: '.label',
        rule: 'at most 20 are allowed',
      },
      {
        component: { type: 'TextInput', name: 'e', label: 'Email', 'input-type': 'url' },
        path: '.input-type',
        rule: 'allowed values are text, number, email, password, passcode, phone',
      },
      {
        component: { type: 'TextInput', name: 'e', label: 'Email', 'helper-text': 'h'.repeat(81) },
        path: '.helper-text',
        rule: 'at most 80',
      },
      {
        component: { type: 'TextInput', name: 'e', label: 'Email', 'min-chars': 10, 'max-chars': 5 },
        path: '.min-chars',
        rule: 'must not be greater than "max-chars"',
      },
      {
        component: { type: 'TextInput', name: 'e', label: 'Email', inputType: 'email' },
        path: '.inputType',
        rule: 'does not accept the property "inputType"',
      },
    ],
  },
  TextArea: {
    valid: { type: 'TextArea', name: 'notes', label: 'Notes', 'max-length': 500, required: false },
    invalid: [
      {
        component: { type: 'TextArea', name: 'n', label: 'Notes', 'max-length': 0 },
        path: '.max-length',
        rule: 'the smallest allowed value is 1',
      },
      {
        component: { type: 'TextArea', name: 'n', label: 'Tell us more about it' },
        path: '.label',
        rule: 'at most 20',
      },
    ],
  },
  Dropdown: {
    valid: { type: 'Dropdown', name: 'city', label: 'City', 'data-source': options(200), required: true },
    invalid: [
      {
        component: { type: 'Dropdown', name: 'c', label: 'City', 'data-source': options(201) },
        path: '.data-source',
        rule: 'has 201 options; between 1 and 200 are allowed',
      },
      {
        component: { type: 'Dropdown', name: 'c', label: 'City', 'data-source': [] },
        path: '.data-source',
        rule: 'between 1 and 200',
      },
      {
        component: { type: 'Dropdown', name: 'c', label: 'City' },
        path: '.data-source',
        rule: 'Dropdown requires "data-source"',
      },
      {
        component: { type: 'Dropdown', name: 'c', label: 'C'.repeat(31), 'data-source': options(2) },
        path: '.label',
        rule: 'at most 30',
      },
      {
        component: {
          type: 'Dropdown',
          name: 'c',
          label: 'City',
          'on-select-action': { name: 'complete' },
          'data-source': options(2),
        },
        path: '.on-select-action.name',
        rule: 'cannot use the complete action',
      },
    ],
  },
  RadioButtonsGroup: {
    valid: {
      type: 'RadioButtonsGroup',
      name: 'plan',
      label: 'Plan',
      description: 'Pick one',
      'data-source': [
        { id: 'basic', title: 'Basic', description: 'Free forever', metadata: '0 EUR' },
        { id: 'pro', title: 'Pro', enabled: false },
      ],
    },
    invalid: [
      {
        component: { type: 'RadioButtonsGroup', name: 'p', label: 'Plan', 'data-source': options(21) },
        path: '.data-source',
        rule: 'between 1 and 20',
      },
      {
        component: {
          type: 'RadioButtonsGroup',
          name: 'p',
          label: 'Plan',
          'data-source': [
            { id: 'a', title: 'A' },
            { id: 'a', title: 'B' },
          ],
        },
        path: '.data-source[1].id',
        rule: 'Option id "a" is used twice',
      },
      {
        component: { type: 'RadioButtonsGroup', name: 'p', label: 'Plan', 'data-source': [{ id: 'a' }] },
        path: '.data-source[0].title',
        rule: 'needs "title"',
      },
      {
        component: {
          type: 'RadioButtonsGroup',
          name: 'p',
          label: 'Plan',
          'data-source': [{ id: 'a', title: 'T'.repeat(31) }],
        },
        path: '.data-source[0].title',
        rule: 'at most 30',
      },
      {
        component: {
          type: 'RadioButtonsGroup',
          name: 'p',
          label: 'Plan',
          'data-source': [{ id: 'a', title: 'A', metadata: 'm'.repeat(21) }],
        },
        path: '.data-source[0].metadata',
        rule: 'at most 20',
      },
      {
        component: {
          type: 'RadioButtonsGroup',
          name: 'p',
          label: 'Plan',
          description: 'd'.repeat(301),
          'data-source': options(2),
        },
        path: '.description',
        rule: 'at most 300',
      },
    ],
  },
  CheckboxGroup: {
    valid: {
      type: 'CheckboxGroup',
      name: 'topics',
      label: 'Topics',
      'data-source': options(5),
      'min-selected-items': 1,
      'max-selected-items': 3,
    },
    invalid: [
      {
        component: {
          type: 'CheckboxGroup',
          name: 't',
          label: 'Topics',
          'data-source': options(5),
          'max-selected-items': 21,
        },
        path: '.max-selected-items',
        rule: 'the largest allowed value is 20',
      },
      {
        component: {
          type: 'CheckboxGroup',
          name: 't',
          label: 'Topics',
          'data-source': options(5),
          'min-selected-items': 4,
          'max-selected-items': 2,
        },
        path: '.min-selected-items',
        rule: 'must not be greater than "max-selected-items"',
      },
      {
        component: {
          type: 'CheckboxGroup',
          name: 't',
          label: 'Topics',
          'data-source': options(2),
          'min-selected-items': 3,
        },
        path: '.min-selected-items',
        rule: 'is more than the 2 options',
      },
      {
        component: { type: 'CheckboxGroup', name: 't', label: 'Topics', 'data-source': 'options' },
        path: '.data-source',
        rule: 'must be an array of options',
      },
    ],
  },
  ChipsSelector: {
    valid: {
      type: 'ChipsSelector',
      name: 'tags',
      label: 'L'.repeat(80),
      'data-source': options(3),
      'max-selected-items': 2,
    },
    invalid: [
      {
        component: { type: 'ChipsSelector', name: 't', label: 'L'.repeat(81), 'data-source': options(3) },
        path: '.label',
        rule: 'at most 80',
      },
      {
        component: {
          type: 'ChipsSelector',
          name: 't',
          label: 'Tags',
          'data-source': options(3),
          'max-selected-items': 25,
        },
        path: '.max-selected-items',
        rule: 'largest allowed value is 20',
      },
    ],
  },
  DatePicker: {
    valid: {
      type: 'DatePicker',
      name: 'day',
      label: 'Appointment day',
      'min-date': '2026-01-01',
      'max-date': '2026-12-31',
      'unavailable-dates': ['2026-05-01'],
      'helper-text': 'Weekdays only',
    },
    invalid: [
      {
        component: { type: 'DatePicker', name: 'd', label: 'L'.repeat(41) },
        path: '.label',
        rule: 'at most 40',
      },
      {
        component: {
          type: 'DatePicker',
          name: 'd',
          label: 'Day',
          'min-date': '2026-12-31',
          'max-date': '2026-01-01',
        },
        path: '.min-date',
        rule: 'must not be after "max-date"',
      },
      {
        component: { type: 'DatePicker', name: 'd', label: 'Day', 'min-date': '01/02/2026' },
        path: '.min-date',
        rule: 'YYYY-MM-DD',
      },
      {
        component: { type: 'DatePicker', name: 'd', label: 'Day', 'unavailable-dates': '2026-05-01' },
        path: '.unavailable-dates',
        rule: 'must be an array of strings',
      },
    ],
  },
  CalendarPicker: {
    valid: {
      type: 'CalendarPicker',
      name: 'stay',
      mode: 'range',
      label: { 'start-date': 'Check-in', 'end-date': 'Check-out' },
      'min-days': 1,
      'max-days': 14,
      'include-days': ['Fri', 'Sat'],
    },
    invalid: [
      {
        component: { type: 'CalendarPicker', name: 's', label: 'Stay', mode: 'week' },
        path: '.mode',
        rule: 'allowed values are single, range',
      },
      {
        component: { type: 'CalendarPicker', name: 's', label: 'Stay', mode: 'single', 'max-days': 3 },
        path: '.max-days',
        rule: 'only allowed with "mode": "range"',
      },
      {
        component: { type: 'CalendarPicker', name: 's', label: 'Stay', 'include-days': ['Funday'] },
        path: '.include-days[0]',
        rule: 'is not one of Mon, Tue',
      },
      {
        component: {
          type: 'CalendarPicker',
          name: 's',
          mode: 'range',
          label: { 'start-date': 'S'.repeat(41) },
        },
        path: '.label.start-date',
        rule: 'at most 40',
      },
    ],
  },
  OptIn: {
    valid: {
      type: 'OptIn',
      name: 'terms',
      label: 'I accept the terms',
      required: true,
      'on-click-action': { name: 'open_url', url: 'https://example.com/terms' },
    },
    invalid: [
      { component: { type: 'OptIn', name: 'o', label: 'L'.repeat(31) }, path: '.label', rule: 'at most 30' },
      {
        component: { type: 'OptIn', name: 'o', label: 'Terms', 'on-click-action': { name: 'complete' } },
        path: '.on-click-action.name',
        rule: 'cannot use the complete action; allowed here: navigate, data_exchange, open_url',
      },
    ],
  },
  PhotoPicker: {
    valid: {
      type: 'PhotoPicker',
      name: 'receipt',
      label: 'Receipt photo',
      'photo-source': 'camera_gallery',
      'min-uploaded-photos': 1,
      'max-uploaded-photos': 3,
      'max-file-size-kb': 10240,
    },
    invalid: [
      {
        component: { type: 'PhotoPicker', name: 'p', label: 'Photo', 'photo-source': 'scanner' },
        path: '.photo-source',
        rule: 'allowed values are camera_gallery, camera, gallery',
      },
      {
        component: {
          type: 'PhotoPicker',
          name: 'p',
          label: 'Photo',
          'min-uploaded-photos': 5,
          'max-uploaded-photos': 2,
        },
        path: '.min-uploaded-photos',
        rule: 'must not be greater than',
      },
      {
        component: { type: 'PhotoPicker', name: 'p', label: 'L'.repeat(31) },
        path: '.label',
        rule: 'at most 30',
      },
    ],
  },
  DocumentPicker: {
    valid: {
      type: 'DocumentPicker',
      name: 'contract',
      label: 'Signed contract',
      'allowed-mime-types': ['application/pdf'],
      'max-uploaded-documents': 1,
    },
    invalid: [
      {
        component: { type: 'DocumentPicker', name: 'd', label: 'Doc', 'max-file-size-kb': 30000 },
        path: '.max-file-size-kb',
        rule: 'largest allowed value is 25600',
      },
      {
        component: { type: 'DocumentPicker', name: 'd', label: 'Doc', 'allowed-mime-types': [42] },
        path: '.allowed-mime-types[0]',
        rule: 'items must be strings',
      },
    ],
  },
});
