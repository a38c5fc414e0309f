/**
 * Colour only for humans: on a TTY by default, so CI logs and files stay plain. NO_COLOR (set and
 * not empty, no-color.org) always wins; otherwise FORCE_COLOR turns colour on even in a pipe (CI
 * systems that render ANSI set it), and FORCE_COLOR=0 or false turns it off on a TTY. FORCE_COLOR=1,
 * 2 or 3 picks 16, 256 or truecolor as in chalk and ansis; any other value means truecolor.
 */
import { Ansis } from 'ansis';

type ColorLevel = 0 | 1 | 2 | 3;

export function colorLevel(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): ColorLevel {
  if (env.NO_COLOR) return 0;
  const force = env.FORCE_COLOR;
  if (force !== undefined) {
    if (force === '0' || force.toLowerCase() === 'false') return 0;
    if (force === '1' || force === '2') return Number(force) as ColorLevel;
    return 3;
  }
  return stream.isTTY ? 3 : 0;
}

export function createPalette(stream: NodeJS.WriteStream = process.stdout): Ansis {
  return new Ansis(colorLevel(stream));
}
