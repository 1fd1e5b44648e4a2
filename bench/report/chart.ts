import { HTTP_CONTENDERS, type HttpContenderId } from '../contenders';
import { ratio } from '../harness/stats';
import { rate, times } from './format';
import { provenance } from './markdown';
import { isMeasured, type BenchResults } from './results';

const WIDTH = 760;
const LEFT = 190;
const RIGHT = 150;
const TOP = 88;
const ROW = 36;
const BAR = 22;

const COLOURS: Readonly<Record<HttpContenderId, string>> = {
  'bare': '#8a8f98',
  'sdk-stateless': '#5b8def',
  'sdk-stateful': '#2f5fc4',
  'sdk2-modern': '#7fa8f5',
  'sdk2-legacy': '#4a78d6',
  'mcp-nest-stateless': '#e0245e',
  'mcp-nest-stateful': '#a3173f',
  'fastmcp': '#3aa676',
  'phantom-session': '#e07b24',
  'phantom-stateless': '#b8570f',
  'phantom-session-auth': '#f0a868',
  'phantom-stateless-auth': '#d08a4a',
};

/**
 * A bar chart of `tools/call` throughput relative to the bare baseline, as plain SVG: one bar per
 * contender, phantom's two goals (0.5× bare, 5× the SDK's best) as dashed lines, and each phantom
 * bar's multiple of the SDK's best.
 */
export function throughputChart(results: BenchResults): string {
  const throughput = results.throughput ?? {};
  const bare = throughput.bare;
  const bareRps = isMeasured(bare) ? bare.rps : undefined;
  const sdkBest = Math.max(...(['sdk-stateless', 'sdk-stateful'] as const).map((id) => {
    const f = throughput[id];
    return isMeasured(f) ? f.rps : 0;
  })) || undefined;
  const rows = HTTP_CONTENDERS.map(({ id, label }) => {
    const f = throughput[id];
    const rps = isMeasured(f) ? f.rps : undefined;
    return { id, label, rps, share: ratio(rps, bareRps), vsSdk: id.startsWith('phantom') ? ratio(rps, sdkBest) : null };
  });
  // The two throughput goals for phantom, as shares of the bare rate.
  const goals = [
    { share: 0.5, text: 'goal: 0.5× bare' },
    ...(sdkBest && bareRps ? [{ share: (5 * sdkBest) / bareRps, text: 'goal: 5× SDK best' }] : []),
  ];
  const scaleMax = Math.max(1, ...rows.map((r) => r.share ?? 0), ...goals.map((g) => g.share));
  const plot = WIDTH - LEFT - RIGHT;
  const x = (share: number) => LEFT + (share / scaleMax) * plot;
  const height = TOP + rows.length * ROW + 44;

  const ticks = [0, 0.25, 0.5, 0.75, 1].filter((t) => t <= scaleMax).map((t) => `
  <line x1="${x(t)}" y1="${TOP - 6}" x2="${x(t)}" y2="${TOP + rows.length * ROW}" stroke="#e3e5e8"/>
  <text x="${x(t)}" y="${TOP + rows.length * ROW + 18}" text-anchor="middle" class="tick">${t}×</text>`).join('');
  const goalMarks = goals.map((goal, i) => {
    const top = TOP - 28 + i * 14;
    return `
  <line x1="${x(goal.share)}" y1="${top - 10}" x2="${x(goal.share)}" y2="${TOP + rows.length * ROW}" stroke="#c23b22" stroke-width="1.2" stroke-dasharray="5 4"/>
  <text x="${x(goal.share) + 4}" y="${top}" class="goal">${goal.text}</text>`;
  }).join('');
  const bars = rows.map((row, i) => {
    const y = TOP + i * ROW + (ROW - BAR) / 2;
    const label = `<text x="${LEFT - 10}" y="${y + BAR / 2 + 5}" text-anchor="end" class="label">${escape(row.label)}</text>`;
    if (row.share === null) return `${label}\n  <text x="${LEFT + 6}" y="${y + BAR / 2 + 5}" class="note">unavailable</text>`;
    const end = x(row.share);
    const sdk = row.vsSdk === null ? '' : ` · ${times(row.vsSdk)} SDK best`;
    return `${label}
  <rect x="${LEFT}" y="${y}" width="${Math.max(1, end - LEFT)}" height="${BAR}" rx="3" fill="${COLOURS[row.id]}"/>
  <text x="${end + 6}" y="${y + BAR / 2 + 5}" class="value">${times(row.share)} (${rate(row.rps)}/s)${sdk}</text>`;
  }).join('\n  ');

  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-label="tools/call throughput relative to bare node:http">
  <style>
    text { font-family: system-ui, -apple-system, 'Segoe UI', sans-serif; fill: #1f2328; }
    .title { font-size: 16px; font-weight: 600; }
    .sub { font-size: 11px; fill: #57606a; }
    .label { font-size: 13px; }
    .value { font-size: 12px; paint-order: stroke; stroke: #ffffff; stroke-width: 4px; stroke-linejoin: round; }
    .tick { font-size: 11px; fill: #57606a; }
    .goal { font-size: 11px; fill: #c23b22; }
    .note { font-size: 12px; fill: #57606a; font-style: italic; }
  </style>
  <rect width="100%" height="100%" fill="#ffffff"/>
  <text x="16" y="24" class="title">tools/call throughput relative to a bare node:http JSON-RPC responder</text>
  <text x="16" y="42" class="sub">${escape(provenance(results).replaceAll('`', ''))}</text>${ticks}${goalMarks}
  ${bars}
</svg>
`;
}

function escape(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}
