// Which component types hold a user's answer. Their `name` becomes the key of `${form.<name>}`.

export const INPUT_COMPONENT_TYPES: ReadonlySet<string> = new Set([
  'TextInput',
  'TextArea',
  'CheckboxGroup',
  'RadioButtonsGroup',
  'Dropdown',
  'ChipsSelector',
  'DatePicker',
  'CalendarPicker',
  'OptIn',
  'PhotoPicker',
  'DocumentPicker',
]);

/** Named components whose names share the screen's namespace with the inputs. */
export const NAMED_COMPONENT_TYPES: ReadonlySet<string> = new Set([
  ...INPUT_COMPONENT_TYPES,
  'NavigationList',
]);
