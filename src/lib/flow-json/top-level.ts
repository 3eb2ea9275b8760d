// Document-level rules: the root object, its keys, `version`, `data_api_version` and `screens` (docs/cloud-api.md §6.3, §6.5).

import { at, isObject, kindOf } from './paths.ts';
import type { JsonObject, Report } from './types.ts';
import {
  atLeast,
  DATA_API_VERSIONS,
  DATA_CHANNEL_URI_BEFORE,
  FLOW_JSON_VERSIONS,
  type FlowVersion,
  isKnownVersion,
  parseVersion,
} from './version.ts';

/** docs/cloud-api.md §6.3: keys allowed at the top of a Flow JSON document. */
export const TOP_LEVEL_KEYS = [
  'version',
  'screens',
  'routing_model',
  'data_api_version',
  'data_channel_uri',
] as const;

export interface TopLevel {
  root: JsonObject;
  /** The declared version when valid, otherwise the newest one so the rest can still be checked. */
  version: FlowVersion;
  hasDataApi: boolean;
  screens: unknown[] | null;
}

export function checkTopLevel(value: unknown, report: Report): TopLevel | null {
  if (!isObject(value)) {
    report(
      '',
      `A Flow JSON file must hold one JSON object with "version" and "screens", not ${kindOf(value)}.`,
    );
    return null;
  }
  for (const key of Object.keys(value)) {
    if (!(TOP_LEVEL_KEYS as readonly string[]).includes(key)) {
      report(at('', key), `Unknown top-level key "${key}"; allowed keys are ${TOP_LEVEL_KEYS.join(', ')}.`);
    }
  }
  const version = checkVersion(value['version'], report);
  const hasDataApi = checkDataApiVersion(value['data_api_version'], report);
  if (value['data_channel_uri'] !== undefined && atLeast(version, DATA_CHANNEL_URI_BEFORE)) {
    report(
      'data_channel_uri',
      `"data_channel_uri" is only valid below Flow JSON ${DATA_CHANNEL_URI_BEFORE}; newer flows set endpoint_uri through the Flows API.`,
    );
  }
  return { root: value, version, hasDataApi, screens: checkScreensArray(value['screens'], report) };
}

const NEWEST_VERSION = FLOW_JSON_VERSIONS[FLOW_JSON_VERSIONS.length - 1] as string;

function checkVersion(value: unknown, report: Report): FlowVersion {
  if (value === undefined) {
    report('version', `"version" is required; use a Flow JSON version such as "${NEWEST_VERSION}".`);
  } else if (typeof value !== 'string') {
    report('version', `"version" must be a string such as "${NEWEST_VERSION}", not ${kindOf(value)}.`);
  } else if (!isKnownVersion(value)) {
    report(
      'version',
      `Flow JSON version "${value}" is not accepted; use one of ${FLOW_JSON_VERSIONS.join(', ')}.`,
    );
  } else {
    return parseVersion(value);
  }
  return parseVersion(NEWEST_VERSION);
}

function checkDataApiVersion(value: unknown, report: Report): boolean {
  if (value === undefined) return false;
  if (typeof value !== 'string' || !(DATA_API_VERSIONS as readonly string[]).includes(value)) {
    report(
      'data_api_version',
      `"data_api_version" is ${JSON.stringify(value)}; allowed values are ${DATA_API_VERSIONS.join(', ')}.`,
    );
  }
  // Even a wrong value shows the flow means to use an endpoint, so endpoint rules still apply.
  return true;
}

function checkScreensArray(value: unknown, report: Report): unknown[] | null {
  if (value === undefined) {
    report('screens', '"screens" is required and must list at least one screen.');
    return null;
  }
  if (!Array.isArray(value)) {
    report('screens', `"screens" must be an array of screens, not ${kindOf(value)}.`);
    return null;
  }
  if (value.length === 0) {
    report('screens', '"screens" must list at least one screen.');
    return null;
  }
  return value;
}
