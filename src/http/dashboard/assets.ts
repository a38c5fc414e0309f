/**
 * The dashboard's only stylesheet and script, served by the handler itself (`/assets/…`): the page
 * needs nothing from the network but this server, so it works offline and the CSP can say
 * `'self'` and nothing else. Plain strings in a module, so the build carries them without a copy step.
 *
 * The script does one thing: actions. The token is typed once into the page and kept in
 * sessionStorage (gone when the tab closes); each action is a fetch() POST with the token in an
 * `Authorization: Bearer` header. There is no cookie, so another site cannot make the browser send
 * an authenticated request (no CSRF), and a cross-origin fetch with that header needs a CORS
 * preflight that this server never approves.
 */

export const DASHBOARD_CSS = `
:root { color-scheme: light; --ink: #1d232b; --muted: #5b6673; --line: #d9dee4; --bg: #f6f7f9; --ok: #1f7a3a; --bad: #b42318; --warn: #a15c00; --info: #175cd3; --idle: #8a94a0; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--bg); }
header { display: flex; flex-wrap: wrap; gap: 12px 24px; align-items: center; padding: 10px 20px; background: #fff; border-bottom: 1px solid var(--line); }
header .brand { font-weight: 700; }
nav a { margin-right: 14px; color: var(--info); text-decoration: none; }
nav a.current { color: var(--ink); font-weight: 600; border-bottom: 2px solid var(--ink); }
main { padding: 16px 20px 40px; max-width: 1400px; }
h1 { font-size: 20px; margin: 4px 0 12px; overflow-wrap: anywhere; }
h2 { font-size: 16px; margin: 24px 0 8px; }
a { color: var(--info); }
table { border-collapse: collapse; width: 100%; background: #fff; border: 1px solid var(--line); }
th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: #eef1f4; font-weight: 600; white-space: nowrap; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.name { overflow-wrap: anywhere; max-width: 360px; }
.muted, .description { color: var(--muted); }
.description { font-size: 12px; overflow-wrap: anywhere; }
.badge { display: inline-block; padding: 0 6px; margin: 0 4px 2px 0; border-radius: 9px; font-size: 12px; border: 1px solid currentColor; white-space: nowrap; }
.status { font-weight: 600; white-space: nowrap; }
.status-SUCCESS { color: var(--ok); }
.status-PARTIAL_SUCCESS { color: #8a6d00; }
.status-FAILED, .status-MISSED { color: var(--bad); }
.status-SKIPPED, .status-CANCELLED { color: var(--idle); }
.status-MANUAL_REQUIRED, .badge-paused, .badge-approval { color: var(--warn); }
.status-RUNNING, .status-QUEUED, .status-PENDING, .status-RETRY_PENDING, .badge-active { color: var(--info); }
.badge-disabled { color: var(--idle); }
pre { background: #10161d; color: #e6edf3; padding: 8px; max-height: 320px; overflow: auto; white-space: pre-wrap; overflow-wrap: anywhere; font-size: 12px; }
details > summary { cursor: pointer; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; background: #fff; border: 1px solid var(--line); padding: 10px 12px; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
.toolbar { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin: 8px 0 12px; }
form.inline { display: inline-flex; gap: 4px; margin: 0 4px 2px 0; }
input, select, button { font: inherit; padding: 3px 8px; }
button { cursor: pointer; border: 1px solid var(--line); border-radius: 4px; background: #fff; }
button.danger { color: var(--bad); }
.pager { margin: 10px 0; display: flex; gap: 16px; align-items: center; }
output#action-result { display: block; min-height: 1.4em; font-weight: 600; }
output#action-result.failed { color: var(--bad); }
output#action-result.done { color: var(--ok); }
.token-box { margin-left: auto; display: flex; gap: 6px; align-items: center; }
.read-only { margin-left: auto; color: var(--muted); }
footer { color: var(--muted); font-size: 12px; padding: 0 20px 20px; }
svg .axis { stroke: #9aa4af; stroke-width: 1; }
svg .trend { fill: none; stroke-width: 1.5; }
svg .series-duration .trend, svg .series-duration .point { stroke: var(--info); }
svg .series-duration .point { fill: var(--info); }
svg .series-start-delay .trend, svg .series-start-delay .point { stroke: var(--warn); }
svg .series-start-delay .point { fill: var(--warn); }
svg text { font-size: 11px; fill: var(--muted); }
svg text.chart-label { font-size: 12px; fill: var(--ink); font-weight: 600; }
svg.timeline rect.cell-SUCCESS { fill: #3fa65b; }
svg.timeline rect.cell-PARTIAL_SUCCESS { fill: #c9a400; }
svg.timeline rect.cell-FAILED, svg.timeline rect.cell-MISSED { fill: #d92d20; }
svg.timeline rect.cell-MANUAL_REQUIRED { fill: #f79009; }
svg.timeline rect.cell-SKIPPED, svg.timeline rect.cell-CANCELLED { fill: #b9c0c8; }
svg.timeline rect.cell-RUNNING, svg.timeline rect.cell-QUEUED, svg.timeline rect.cell-PENDING, svg.timeline rect.cell-RETRY_PENDING { fill: #2e90fa; }
svg.timeline rect.lane { fill: #fff; stroke: var(--line); }
svg.timeline line.now { stroke: var(--ink); stroke-dasharray: 3 3; }
.legend span { margin-right: 12px; }
.empty { color: var(--muted); font-style: italic; }
`;

export const DASHBOARD_JS = `
'use strict';
(function () {
  var KEY = 'cronform-dashboard-token';
  var result = document.getElementById('action-result');
  function say(text, ok) {
    if (!result) return;
    result.textContent = text;
    result.className = ok ? 'done' : 'failed';
  }
  var tokenForm = document.getElementById('token-form');
  var tokenInput = document.getElementById('token');
  var tokenState = document.getElementById('token-state');
  function showTokenState() {
    if (tokenState) tokenState.textContent = sessionStorage.getItem(KEY) ? 'token set for this tab' : 'no token: actions will be refused';
  }
  if (tokenForm && tokenInput) {
    tokenForm.addEventListener('submit', function (event) {
      event.preventDefault();
      if (tokenInput.value) sessionStorage.setItem(KEY, tokenInput.value);
      tokenInput.value = '';
      showTokenState();
    });
    var forget = document.getElementById('forget-token');
    if (forget) forget.addEventListener('click', function () { sessionStorage.removeItem(KEY); showTokenState(); });
    showTokenState();
  }
  document.querySelectorAll('form[data-action]').forEach(function (form) {
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      var action = form.getAttribute('data-action');
      var body = {};
      if (form.hasAttribute('data-run-id')) body.runId = Number(form.getAttribute('data-run-id'));
      if (form.hasAttribute('data-schedule')) body.schedule = form.getAttribute('data-schedule');
      new FormData(form).forEach(function (value, name) { if (value !== '') body[name] = value; });
      var headers = { 'Content-Type': 'application/json' };
      var token = sessionStorage.getItem(KEY);
      if (token) headers.Authorization = 'Bearer ' + token;
      say(action + '…', true);
      fetch('/actions/' + encodeURIComponent(action), { method: 'POST', headers: headers, body: JSON.stringify(body), credentials: 'omit', cache: 'no-store' })
        .then(function (response) {
          return response.json().catch(function () { return {}; }).then(function (payload) {
            if (!response.ok) throw new Error(payload.error || ('HTTP ' + response.status));
            say(payload.message || (action + ' done'), true);
            setTimeout(function () { window.location.reload(); }, 600);
          });
        })
        .catch(function (error) { say(action + ' refused: ' + error.message, false); });
    });
  });
})();
`;
