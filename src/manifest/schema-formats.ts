/**
 * The string formats the generated validator checks (`date`, `uri`): ajv-formats' full formats,
 * which `npm run gen:validator` points the generated code at instead of requiring ajv-formats
 * itself, so that they load on first need and the usual URL skips ajv-formats' expression.
 *
 * ajv-formats' `uri` is one large case-insensitive regular expression (RFC 3986 with IPv6
 * literals): V8 compiles it on its first use, ~10 ms of CPU, most of `validate`'s first schema
 * check of an http job (bench/cli-start). COMMON_URI accepts `scheme://host[:port]/path?query#frag`
 * without user info or an IP literal; it is that expression's first alternative with those parts
 * left out, so whatever it accepts ajv-formats accepts too, and anything else goes to
 * ajv-formats: the answers are ajv-formats' (test/manifest/schema-formats.test.ts compares them).
 */
import { createRequire } from 'node:module';

interface AjvFullFormats {
  date: { validate(text: string): boolean };
  uri(text: string): boolean;
}

let fullFormats: AjvFullFormats | undefined;
const ajvFormats = (): AjvFullFormats => (fullFormats ??= (createRequire(import.meta.url)('ajv-formats/dist/formats') as { fullFormats: AjvFullFormats }).fullFormats);

/** ajv-formats' URI expression, case made explicit, without its user info and IP literal parts. */
export const COMMON_URI =
  /^[A-Za-z][A-Za-z0-9+\-.]*:\/\/(?:[A-Za-z0-9\-._~!$&'()*+,;=]|%[0-9A-Fa-f]{2})*(?::\d*)?(?:\/(?:[A-Za-z0-9\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f]{2})*)*(?:\?(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9A-Fa-f]{2})*)?(?:#(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9A-Fa-f]{2})*)?$/;

export function uri(text: string): boolean {
  return COMMON_URI.test(text) || ajvFormats().uri(text);
}

export const date = { validate: (text: string): boolean => ajvFormats().date.validate(text) };
