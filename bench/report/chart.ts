import { HTTP_CONTENDERS } from '../contenders';
import { ratio } from '../harness/stats';
import { micros, percent, rate, times } from './format';
import { provenance } from './markdown';
import { isMeasured, type BenchResults, type Measured, type RateFigures } from './results';

const WIDTH = 900;
const LEFT = 250;
const RIGHT = 290;
const TOP = 96;
const BAR = 16;
const GAP = 3;
const ROW_PAD = 10;

/** The bare baseline grey, phantom's oranges, and for the peers (however many there are) blues and greens. */
const BARE = '#8a8f98';
const PHANTOM = ['#e07b24', '#f0a868', '#b8570f', '#d08a4a'];
const PEERS = ['#2f5fc4', '#5b8def', '#1f8a70', '#4fb395', '#6f4fc4', '#9a85e0', '#a33c6e', '#d07aa3'];

/**
 * A bar chart of the server's CPU time per `tools/call` (shorter is better), as plain SVG: per
 * contender a bar for the echo tool and, where the bench measured it, one for the realistic tool;
 * phantom's goal (1.25× bare's CPU per echo call) as a dashed line; beside each bar its multiple of
 * bare's, its requests per second and the load generator's CPU share (near 100% on its own core,
 * the generator is the limit of the rate, not the server).
 */
export function throughputChart(results: BenchResults): string {
  const echo = results.throughput?.echo ?? {};
  const realistic = results.throughput?.realistic;
  const bare = figures(echo.bare)?.cpuPerRequestUs;
  let phantoms = 0;
  let others = 0;
  const rows = HTTP_CONTENDERS.map(({ id, label }) => ({
    label,
    colour: id === 'bare' ? BARE : id.startsWith('phantom') ? PHANTOM[phantoms++ % PHANTOM.length] : PEERS[others++ % PEERS.length],
    echo: figures(echo[id]),
    // Contenders the realistic call was not run on (the token ones) have no second bar.
    realistic: realistic && id in realistic ? { figures: figures(realistic[id]) } : undefined,
  }));
  const bars = realistic ? 2 : 1;
  const row = bars * BAR + (bars - 1) * GAP + ROW_PAD;
  const goal = bare === undefined ? undefined : 1.25 * bare;
  const scaleMax = Math.max(1, goal ?? 0, ...rows.flatMap((r) => [r.echo?.cpuPerRequestUs ?? 0, r.realistic?.figures?.cpuPerRequestUs ?? 0]));
  const plot = WIDTH - LEFT - RIGHT;
  const x = (us: number) => LEFT + (us / scaleMax) * plot;
  const bottom = TOP + rows.length * row;
  const height = bottom + 44;

  const ticks = tickValues(scaleMax).map((t) => `
  <line x1="${x(t)}" y1="${TOP - 6}" x2="${x(t)}" y2="${bottom}" stroke="#e3e5e8"/>
  <text x="${x(t)}" y="${bottom + 18}" text-anchor="middle" class="tick">${t.toLocaleString('en-US')} µs</text>`).join('');
  const goalMark = goal === undefined ? '' : `
  <line x1="${x(goal)}" y1="${TOP - 24}" x2="${x(goal)}" y2="${bottom}" stroke="#c23b22" stroke-width="1.2" stroke-dasharray="5 4"/>
  <text x="${x(goal) + 4}" y="${TOP - 14}" class="goal">goal: 1.25× bare (echo)</text>`;
  const legend = realistic
    ? `\n  <rect x="${WIDTH - 260}" y="${TOP - 34}" width="12" height="10" fill="#8a8f98"/><text x="${WIDTH - 244}" y="${TOP - 25}" class="sub">echo</text>`
      + `\n  <rect x="${WIDTH - 200}" y="${TOP - 34}" width="12" height="10" fill="#8a8f98" fill-opacity="0.45"/><text x="${WIDTH - 184}" y="${TOP - 25}" class="sub">realistic tool</text>`
    : '';
  const body = rows.map((r, i) => {
    const y = TOP + i * row + ROW_PAD / 2;
    const label = `<text x="${LEFT - 10}" y="${y + BAR - 3}" text-anchor="end" class="label">${escape(r.label)}</text>`;
    const echoBar = bar(r.echo, y, r.colour, 1, x, bare, true);
    const realisticBar = r.realistic ? bar(r.realistic.figures, y + BAR + GAP, r.colour, 0.45, x, bare, false) : '';
    return `${label}\n  ${echoBar}${realisticBar ? `\n  ${realisticBar}` : ''}`;
  }).join('\n  ');

  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-label="server CPU time per tools/call, by contender">
  <style>
    text { font-family: system-ui, -apple-system, 'Segoe UI', sans-serif; fill: #1f2328; }
    .title { font-size: 16px; font-weight: 600; }
    .sub { font-size: 11px; fill: #57606a; }
    .label { font-size: 13px; }
    .value { font-size: 11px; paint-order: stroke; stroke: #ffffff; stroke-width: 4px; stroke-linejoin: round; }
    .tick { font-size: 11px; fill: #57606a; }
    .goal { font-size: 11px; fill: #c23b22; }
    .note { font-size: 11px; fill: #57606a; font-style: italic; }
  </style>
  <rect width="100%" height="100%" fill="#ffffff"/>
  <text x="16" y="24" class="title">Server CPU time per tools/call (shorter is better)</text>
  <text x="16" y="42" class="sub">${escape(provenance(results).replaceAll('`', ''))}</text>
  <text x="16" y="58" class="sub">${results.throughput?.pinned ? 'Generator on one core, each server on the other. ' : ''}Beside each bar: × bare's CPU per echo call, requests/s, generator's CPU share.</text>${ticks}${goalMark}${legend}
  ${body}
</svg>
`;
}

function bar(f: RateFigures | undefined, y: number, colour: string, opacity: number, x: (us: number) => number, bare: number | undefined, echo: boolean): string {
  const us = f?.cpuPerRequestUs;
  if (f === undefined || us === undefined) {
    return `<text x="${LEFT + 6}" y="${y + BAR - 4}" class="note">${f === undefined ? 'unavailable' : 'no CPU figure (no /proc)'}${echo ? '' : ', realistic tool'}</text>`;
  }
  const end = x(us);
  const vsBare = echo ? ` · ${times(ratio(us, bare))} bare` : '';
  return `<rect x="${LEFT}" y="${y}" width="${Math.max(1, end - LEFT)}" height="${BAR}" rx="2" fill="${colour}" fill-opacity="${opacity}"/>
  <text x="${end + 6}" y="${y + BAR - 4}" class="value">${micros(us)}${vsBare} · ${rate(f.rps)}/s · gen ${percent(f.generatorCpuShare)}</text>`;
}

/** Four or five round tick values from 0 up to `max`. */
function tickValues(max: number): number[] {
  const rough = max / 4;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= rough)!;
  const ticks: number[] = [];
  for (let t = 0; t <= max; t += step) ticks.push(t);
  return ticks;
}

function figures(value: Measured<RateFigures> | undefined): RateFigures | undefined {
  return isMeasured<RateFigures>(value) ? value : undefined;
}

function escape(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}
