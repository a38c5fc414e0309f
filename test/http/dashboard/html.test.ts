import { describe, expect, it } from 'vitest';
import { escapeHtml, html, visible, visibleLines } from '../../../src/http/dashboard/html.js';
import { renderRunChart } from '../../../src/http/dashboard/run-chart.js';
import { MARKUP_INJECTIONS, SQL_INJECTIONS } from '../../hostile/injection-strings.js';

describe('html template', () => {
  it('escapes every interpolated string, in text and in attributes, but not its own markup', () => {
    for (const hostile of [...MARKUP_INJECTIONS, ...SQL_INJECTIONS, '"><img src=x onerror=alert(1)>']) {
      const rendered = html`<a title="${hostile}">${hostile}</a>${[hostile, html`<b>${hostile}</b>`]}`.text;
      expect(rendered).not.toMatch(/<(?!\/?(a|b)\b)/);
      expect(rendered.match(/"/g)).toHaveLength(2);
      expect(rendered).toContain(escapeHtml(hostile));
    }
  });

  it('makes controls and bidi overrides visible, keeping the line breaks of output', () => {
    expect(visible('a\u202Eb\u001b[31m')).toBe('a\\u202Eb\\u001B[31m');
    expect(visibleLines('one\ntwo\r\u200b')).toBe('one\ntwo\\r\\u200B');
  });
});

describe('run chart', () => {
  it('draws one point per run having the value, oldest first', () => {
    const runs = [
      { runId: 2, scheduledForMs: 2000, durationMs: 500, startDelayMs: 10 },
      { runId: 1, scheduledForMs: 1000, durationMs: null, startDelayMs: 20 },
      { runId: 3, scheduledForMs: 3000, durationMs: 900, startDelayMs: null },
    ];
    const svg = renderRunChart(runs).text;
    expect(svg).toContain('data-series="duration" data-points="2"');
    expect(svg).toContain('data-series="start-delay" data-points="2"');
    const startDelayRuns = [...svg.split('data-series="start-delay"')[1]!.matchAll(/data-run="(\d+)"/g)].map((m) => m[1]);
    expect(startDelayRuns).toEqual(['1', '2']);
    expect(renderRunChart([]).text).toContain('nothing to chart');
  });
});
