import { describe, expect, it } from 'vitest';
import { colorLevel } from '../../src/shared/terminal.js';

describe('colour choice', () => {
  const pipe = { isTTY: false };
  const tty = { isTTY: true };

  it.each([
    ['a pipe', pipe, {}, 0],
    ['a terminal', tty, {}, 3],
    ['FORCE_COLOR in a pipe', pipe, { FORCE_COLOR: '1' }, 1],
    ['FORCE_COLOR=3 in a pipe', pipe, { FORCE_COLOR: '3' }, 3],
    ['FORCE_COLOR empty in a pipe', pipe, { FORCE_COLOR: '' }, 3],
    ['FORCE_COLOR=0 on a terminal', tty, { FORCE_COLOR: '0' }, 0],
    ['FORCE_COLOR=false on a terminal', tty, { FORCE_COLOR: 'false' }, 0],
    ['NO_COLOR over FORCE_COLOR', pipe, { NO_COLOR: '1', FORCE_COLOR: '3' }, 0],
    ['NO_COLOR on a terminal', tty, { NO_COLOR: '1' }, 0],
    ['an empty NO_COLOR', tty, { NO_COLOR: '' }, 3],
  ] as const)('%s', (_name, stream, env, level) => {
    expect(colorLevel(stream, env)).toBe(level);
  });
});
