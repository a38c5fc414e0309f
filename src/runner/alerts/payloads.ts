/**
 * The bodies alert targets receive (README "Alerts" documents both). Pure.
 * - webhook: cronform's JSON, versioned (`version: 1`); fields are only ever added.
 * - slack: Slack's incoming-webhook format, `{ text, blocks }`: `text` is the whole message (what
 *   notifications and clients without blocks show), the blocks lay it out.
 */
export type AlertEvent = 'firing' | 'resolved';

/** What a message says about its alert: the recorded row, as sent. */
export interface AlertMessage {
  event: AlertEvent;
  alert: {
    id: number;
    rule: string;
    schedule: string | null;
    criticality: string | null;
    summary: string;
    details: Record<string, unknown>;
    openedAt: string;
    resolvedAt: string | null;
  };
  /** The runner that recorded the event. */
  runner: string;
}

export const WEBHOOK_PAYLOAD_VERSION = 1;

/**
 * The same for every copy of one message, whichever runner sends it: delivery is at least once
 * (a runner that dies after the receiver accepted a message, before recording it, leaves it owed),
 * so a receiver that must not act twice keeps the keys it has seen.
 */
export function dedupKeyOf(message: AlertMessage): string {
  return `cronform-alert-${message.alert.id}-${message.event}`;
}

export function renderWebhookPayload(message: AlertMessage, sentAtMs: number): Record<string, unknown> {
  return { version: WEBHOOK_PAYLOAD_VERSION, event: message.event, dedupKey: dedupKeyOf(message), alert: message.alert, runner: message.runner, sentAt: new Date(sentAtMs).toISOString() };
}

/** Slack's mrkdwn gives &, < and > a meaning: a job's error text must not make links or mentions. */
function escapeSlack(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Slack caps a section's text at 3,000 characters. */
const SECTION_LIMIT_CHARS = 2_900;

export function renderSlackPayload(message: AlertMessage): { text: string; blocks: unknown[] } {
  const { alert } = message;
  const level = alert.criticality ? `[${alert.criticality}] ` : '';
  const headline = message.event === 'firing' ? `:rotating_light: ${level}${alert.summary}` : `:white_check_mark: resolved: ${level}${alert.summary}`;
  const text = escapeSlack(headline).slice(0, SECTION_LIMIT_CHARS);
  const command = typeof alert.details.command === 'string' ? ` · \`${escapeSlack(alert.details.command)}\`` : '';
  const context = `rule \`${alert.rule}\` · alert ${alert.id} · opened ${alert.openedAt}${alert.resolvedAt ? ` · resolved ${alert.resolvedAt}` : ''}${command} · \`cronform alerts\``;
  return {
    text,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text } },
      { type: 'context', elements: [{ type: 'mrkdwn', text: context }] },
    ],
  };
}
