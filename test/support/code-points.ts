/**
 * Strings of any Unicode code points, lone surrogates included, for the property suites.
 *
 * fast-check's own `fc.string({ unit: 'binary' })` draws the same code points, but the first such
 * arbitrary a process creates builds a map of all 1.1 million of them to shrink by: about 0.65 s of CPU
 * in every test process that runs a property suite. Drawing each code point as a number costs nothing
 * up front; a failing case still shrinks, towards shorter strings and smaller code points.
 */
import fc from 'fast-check';

const codePoint = fc.integer({ min: 0, max: 0x10ffff }).map((n) => String.fromCodePoint(n));

export function anyCodePoints(maxLength: number): fc.Arbitrary<string> {
  return fc.string({ unit: codePoint, maxLength });
}
