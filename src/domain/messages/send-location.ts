/**
 * Operation 3: a location pin. The document spells the longitude `longtitude` in its table and
 * `longitude` in its sample: both are accepted. Coordinates may be numbers or numeric strings (the sample
 * sends strings) and must lie on Earth (docs/contract.md §3).
 */
import { Type } from 'typebox';
import {
  type CommonFields,
  commonFields,
  ok,
  type RuleResult,
  refuse,
  type SendOperation,
  text,
} from './send-operation.ts';

const COORDINATE_RULE = 'must be a number or a numeric string';

/**
 * A decimal number as people and programs write it: `-1.2921`, `+36.8`, `.5`, surrounding spaces, and
 * exponents, because `String(0.0000001)` is `1e-7` in JavaScript. No hex, no `Infinity`, no empty string.
 */
const NUMERIC = '^\\s*[-+]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][-+]?\\d+)?\\s*$';
const NUMERIC_REGEXP = new RegExp(NUMERIC);

const coordinate = Type.Union([Type.Number(), Type.String({ maxLength: 64, pattern: NUMERIC })], {
  'x-rule': COORDINATE_RULE,
  description: 'decimal degrees, as a number or a numeric string',
});

type Coordinate = number | string;
type Body = CommonFields & {
  latitude: Coordinate;
  longitude?: Coordinate;
  longtitude?: Coordinate;
  name?: string;
  address?: string;
};
export interface LocationContent {
  latitude: number;
  longitude: number;
  name?: string;
  address?: string;
}

/** The coordinate as a finite number within ±`limit`; `1e999` parses, but to Infinity, and is refused. */
function toDegrees(field: string, value: Coordinate, limit: number): RuleResult<number> {
  const n = typeof value === 'number' ? value : NUMERIC_REGEXP.test(value) ? Number(value) : Number.NaN;
  if (!Number.isFinite(n)) return refuse(field, `\`${field}\` ${COORDINATE_RULE}`);
  if (n < -limit || n > limit) return refuse(field, `\`${field}\` must be between -${limit} and ${limit}`);
  return ok(n);
}

const bodySchema = Type.Object(
  {
    ...commonFields,
    latitude: coordinate,
    longitude: Type.Optional(coordinate),
    longtitude: Type.Optional(coordinate),
    name: Type.Optional(text(0, 1000)),
    address: Type.Optional(text(0, 1000)),
  },
  { additionalProperties: false },
);

export const sendLocation: SendOperation<Body, LocationContent, typeof bodySchema> = {
  kind: 'location',
  summary: 'Send a location pin',
  bodySchema,
  normalize(body) {
    const latitude = toDegrees('latitude', body.latitude, 90);
    if (!latitude.ok) return latitude;
    if (body.longitude === undefined && body.longtitude === undefined)
      return refuse('longitude', '`longitude` is required');
    const longitude = body.longitude !== undefined ? toDegrees('longitude', body.longitude, 180) : undefined;
    if (longitude && !longitude.ok) return longitude;
    const longtitude =
      body.longtitude !== undefined ? toDegrees('longtitude', body.longtitude, 180) : undefined;
    if (longtitude && !longtitude.ok) return longtitude;
    // Compared as numbers, so `36.8` and `"36.80"` agree: they are one position.
    if (longitude && longtitude && longitude.value !== longtitude.value) {
      return refuse(
        'longitude',
        '`longitude` and `longtitude` are two spellings of one field and disagree; send one',
      );
    }
    return ok({
      latitude: latitude.value,
      longitude: (longitude ?? longtitude)!.value,
      // Empty strings say nothing and are left out, as the network shows no empty name line.
      ...(body.name ? { name: body.name } : {}),
      ...(body.address ? { address: body.address } : {}),
    });
  },
  toCloud: (content) => ({ type: 'location', location: { ...content } }),
};
