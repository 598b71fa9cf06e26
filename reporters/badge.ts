import type { ConformanceSummary } from './verdict';

/**
 * badge.svg: a small, self-contained badge (no fonts, images or links to fetch) that an
 * implementer can put in a README: the verdict, the kit version and the day of the run.
 */
const COLOURS = { conformant: '#17643a', 'non-conformant': '#a01c1c', incomplete: '#7a5200' } as const;

const esc = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Width of a text in 11 px Verdana-like type, near enough for a badge. */
const widthOf = (text: string) => Math.round(text.length * 6.6 + 12);

/** Also drawn by `agc compare`, one per implementation, from what it read of a report or a certificate. */
export function renderBadge(s: Pick<ConformanceSummary, 'verdict' | 'startedAt' | 'finishedAt'> & { kit: { version: string } }): string {
  const label = 'asset-group conformance';
  const value = `${s.verdict} · kit ${s.kit.version} · ${s.finishedAt.slice(0, 10) || s.startedAt.slice(0, 10)}`;
  const left = widthOf(label);
  const right = widthOf(value);
  const total = left + right;
  const title = `${label}: ${value}`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${total}" height="20" role="img" aria-label="${esc(title)}">
<title>${esc(title)}</title>
<rect width="${left}" height="20" fill="#555"/>
<rect x="${left}" width="${right}" height="20" fill="${COLOURS[s.verdict]}"/>
<g fill="#fff" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11" text-anchor="middle">
<text x="${left / 2}" y="14">${esc(label)}</text>
<text x="${left + right / 2}" y="14">${esc(value)}</text>
</g>
</svg>
`;
}
