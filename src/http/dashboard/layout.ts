/** The page shell shared by every dashboard page: navigation, token box or read-only notice. */
import { formatInstant } from './format.js';
import { html, type Html } from './html.js';

export type Section = 'schedules' | 'timeline' | 'waiting' | 'schedule';

export interface PageFrame {
  title: string;
  section: Section;
  actionsAllowed: boolean;
  nowMs: number;
}

const NAV: Array<{ section: Section; href: string; label: string }> = [
  { section: 'schedules', href: '/', label: 'Schedules' },
  { section: 'timeline', href: '/timeline', label: 'Timeline (24 h)' },
  { section: 'waiting', href: '/waiting', label: 'Waiting runs' },
];

export function renderPage(frame: PageFrame, body: Html): Html {
  const controls = frame.actionsAllowed
    ? html`<form id="token-form" class="token-box" autocomplete="off">
<label for="token">Dashboard token</label><input id="token" type="password" autocomplete="off" spellcheck="false">
<button type="submit">Use</button><button type="button" id="forget-token">Forget</button><span id="token-state" class="muted"></span>
</form>`
    : html`<span class="read-only">read-only: actions need <code>--allow-actions</code></span>`;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${frame.title} · cronform</title>
<link rel="stylesheet" href="/assets/dashboard.css">
<script src="/assets/dashboard.js" defer></script>
</head>
<body>
<header>
<span class="brand">cronform</span>
<nav>${NAV.map((item) => html`<a href="${item.href}"${item.section === frame.section ? html` class="current" aria-current="page"` : ''}>${item.label}</a>`)}</nav>
${controls}
</header>
<main>
<output id="action-result" role="status" aria-live="polite"></output>
${body}
</main>
<footer>As of ${formatInstant(new Date(frame.nowMs))}; all times UTC.</footer>
</body>
</html>
`;
}
