import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { tokens as tokenCount, usd } from './format.js';
import { wrapLabel } from './wrapLabel.js';

// A chart of labelled groups (days, agents, models) drawn with uPlot: tokens as bars on the left
// axis, and cost in USD as points on the right when any group cost something (a cost axis with
// nothing on it would run 0-100 USD). The card's heading names the chart and the table under it
// has the figures, so the chart has no title, no hover read-out, and a legend that only names
// its series (uPlot's live legend shows "--" until hovered).

/** Average width of a character of uPlot's 12px axis font, and the height of one of its lines. */
const CHAR_PX = 7;
const LINE_PX = 18;
const LABEL_LINES = 2;
/** uPlot's own height of a bottom axis with one line of labels. */
const AXIS_PX = 50;

const lineCount = (values: string[] | null): number => Math.max(1, ...(values ?? []).map((value) => String(value).split('\n').length));

export function UsageChart({ name, labels, tokens, costs }: { name: string; labels: string[]; tokens: number[]; costs: Array<number | null> }) {
  const host = useRef<HTMLDivElement>(null);
  const costed = costs.some((cost) => cost !== null && cost > 0);
  useEffect(() => {
    if (!host.current || labels.length === 0) return;
    const labelAt = (chart: uPlot, tick: number): string => {
      const slotPx = chart.bbox.width / uPlot.pxRatio / labels.length;
      return Number.isInteger(tick) && labels[tick] !== undefined ? wrapLabel(labels[tick], Math.floor(slotPx / CHAR_PX), LABEL_LINES) : '';
    };
    const chart = new uPlot(
      {
        width: Math.max(host.current.clientWidth, 320),
        height: 240,
        legend: { live: false },
        cursor: { show: false },
        scales: { x: { time: false, range: [-0.5, labels.length - 0.5] }, tokens: {}, ...(costed ? { usd: {} } : {}) },
        axes: [
          { values: (self, ticks) => ticks.map((tick) => labelAt(self, tick)), incrs: [1], size: (_self, values) => AXIS_PX + LINE_PX * (lineCount(values) - 1) },
          { scale: 'tokens', label: 'tokens', values: (_self, ticks) => ticks.map(tokenCount) },
          ...(costed ? [{ scale: 'usd', side: 1, label: 'USD', grid: { show: false }, values: (_self: uPlot, ticks: number[]) => ticks.map(usd) }] : []),
        ],
        series: [
          {},
          { label: 'tokens', scale: 'tokens', stroke: '#3358d4', fill: '#3358d480', paths: uPlot.paths.bars!({ size: [0.6, 80] }), points: { show: false } },
          ...(costed ? [{ label: 'cost (USD)', scale: 'usd', stroke: '#b7791f', width: 0, points: { show: true, size: 8, fill: '#b7791f' } }] : []),
        ],
      },
      [labels.map((_label, index) => index), tokens, ...(costed ? [costs] : [])],
      host.current,
    );
    return () => chart.destroy();
  }, [labels, tokens, costs, costed]);
  return (
    <>
      <div class="chart" ref={host} data-chart={name} />
      {!costed && <p class="muted chart-note">Cost is not charted: no call here has a price above $0.</p>}
    </>
  );
}
