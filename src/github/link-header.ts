/**
 * RFC 8288 `Link` headers as GitHub sends them for pagination:
 * `<https://api.github.com/…?page=2>; rel="next", <…?page=5>; rel="last"`.
 */
export function findNextPageUrl(link: string | null): string | null {
  if (!link) return null;
  for (const part of link.split(',')) {
    const match = /^\s*<([^>]*)>\s*;(.*)$/.exec(part);
    if (!match) continue;
    const rels = /\brel\s*=\s*"?([^";]*)"?/i.exec(match[2]!)?.[1]?.split(/\s+/) ?? [];
    if (rels.includes('next')) return match[1]!;
  }
  return null;
}
