// Flow JSON and Data API versions the validator accepts.

/**
 * Flow JSON `version` values accepted on upload. docs/cloud-api.md §6.3 shows "7.1"; Meta's Flows changelog adds 7.2
 * (July 2025) and 7.3 (September 2025). Releases before 2.1 have expired and Meta refuses them
 * ("Invalid Flow JSON version"), so they are not listed.
 */
export const FLOW_JSON_VERSIONS = [
  '2.1',
  '3.0',
  '3.1',
  '4.0',
  '5.0',
  '5.1',
  '6.0',
  '6.1',
  '6.2',
  '6.3',
  '7.0',
  '7.1',
  '7.2',
  '7.3',
] as const;

/**
 * `data_api_version` values. docs/cloud-api.md §6.3 names "3.0"; Meta's changelog announced Data API 4.0 in
 * November 2025.
 */
export const DATA_API_VERSIONS = ['3.0', '4.0'] as const;

/** Below this version input components must sit inside a `Form` (docs/cloud-api.md §6.3, last bullet). */
export const FORM_OPTIONAL_SINCE = '4.0';
/** `data_channel_uri` is the legacy endpoint setting and is only valid below this version (docs/cloud-api.md §6.3). */
export const DATA_CHANNEL_URI_BEFORE = '3.0';
/** Screen key `sensitive` exists from this version on (docs/cloud-api.md §6.3). */
export const SENSITIVE_FIELDS_SINCE = '5.1';

/**
 * The Flow JSON version each later component came with (docs/cloud-api.md §6.4): in a file of an earlier
 * version the network refuses it. Components not listed exist in every accepted version.
 */
export const COMPONENT_SINCE: Readonly<Record<string, string>> = {
  If: '4.0',
  Switch: '4.0',
  PhotoPicker: '4.0',
  DocumentPicker: '4.0',
  RichText: '5.1',
  CalendarPicker: '6.1',
  NavigationList: '6.2',
  ChipsSelector: '6.3',
  ImageCarousel: '7.1',
};

export interface FlowVersion {
  major: number;
  minor: number;
}

export function isKnownVersion(value: string): boolean {
  return (FLOW_JSON_VERSIONS as readonly string[]).includes(value);
}

export function parseVersion(value: string): FlowVersion {
  const [major = '0', minor = '0'] = value.split('.');
  return { major: Number(major), minor: Number(minor) };
}

export function atLeast(version: FlowVersion, wanted: string): boolean {
  const w = parseVersion(wanted);
  return version.major > w.major || (version.major === w.major && version.minor >= w.minor);
}
