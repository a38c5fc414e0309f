/** What a command job inherits from its runner's environment: the plumbing, by name, nothing else. */
import { describe, expect, it } from 'vitest';
import { inheritedEnvironment } from '../../../src/runner/executors/job-environment.js';

describe('inheritedEnvironment', () => {
  it('keeps the named plumbing and the locale categories, and drops every other variable', () => {
    const runnerEnv = {
      PATH: '/usr/bin',
      HOME: '/home/cronform',
      TZ: 'Europe/Paris',
      LC_ALL: 'C.UTF-8',
      LC_CTYPE: 'fr_FR.UTF-8',
      LC_TIME: 'en_GB.UTF-8',
      // Forwarded by ssh like a locale, but no locale category: not inherited.
      LC_TERMINAL: 'iTerm2',
      DATABASE_URL: 'postgres://runner:secret@db/cronform',
      HTTPS_PROXY: 'http://user:password@proxy:3128',
      UNSET: undefined,
    };
    expect(inheritedEnvironment(runnerEnv)).toEqual({ PATH: '/usr/bin', HOME: '/home/cronform', TZ: 'Europe/Paris', LC_ALL: 'C.UTF-8', LC_CTYPE: 'fr_FR.UTF-8', LC_TIME: 'en_GB.UTF-8' });
  });
});
