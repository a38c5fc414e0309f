/**
 * Colour only for humans: on a TTY, unless NO_COLOR is set (ansis also honours FORCE_COLOR).
 * Piped output stays plain so CI logs and files are clean.
 */
import { Ansis } from 'ansis';

export function createPalette(stream: NodeJS.WriteStream = process.stdout): Ansis {
  const enabled = Boolean(stream.isTTY) && !process.env.NO_COLOR;
  return new Ansis(enabled ? 3 : 0);
}
