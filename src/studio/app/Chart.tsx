import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

// A chart of labelled groups (days, agents, models) drawn with uPlot: tokens as bars on the
// left axis, cost in USD as points on the right.

export function UsageChart({ title, labels, tokens, costs }: { title: string; labels: string[]; tokens: number[]; costs: number[] }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!host.current || labels.length === 0) return;
    const chart = new uPlot(
      {
        title,
        width: Math.max(host.current.clientWidth, 320),
        height: 240,
        scales: { x: { time: false, range: [-0.5, labels.length - 0.5] }, tokens: {}, usd: {} },
        axes: [
          { values: (_chart, ticks) => ticks.map((tick) => (Number.isInteger(tick) ? (labels[tick] ?? '') : '')), incrs: [1] },
          { scale: 'tokens', label: 'tokens' },
          { scale: 'usd', side: 1, label: 'USD', grid: { show: false } },
        ],
        series: [
          {},
          { label: 'tokens', scale: 'tokens', stroke: '#3358d4', fill: '#3358d480', paths: uPlot.paths.bars!({ size: [0.6, 80] }), points: { show: false } },
          { label: 'cost (USD)', scale: 'usd', stroke: '#b7791f', width: 0, points: { show: true, size: 8, fill: '#b7791f' } },
        ],
      },
      [labels.map((_label, index) => index), tokens, costs],
      host.current,
    );
    return () => chart.destroy();
  }, [title, labels, tokens, costs]);
  return <div class="chart" ref={host} data-chart={title} />;
}
