import type { BiorhythmChart as BiorhythmData } from '@roots/contracts/insights';
import { useTranslation } from 'react-i18next';
import { CartesianGrid, Legend, Line, LineChart, ReferenceLine, Tooltip, XAxis, YAxis } from 'recharts';

/** The cycles the home chart draws, each with a colour and a dash so they differ without colour too. */
export const CHART_CYCLES = [
  { cycle: 'physical', colour: '#a8492a', dash: undefined },
  { cycle: 'emotional', colour: '#1f5f8b', dash: '6 3' },
  { cycle: 'intellectual', colour: '#5b7f2a', dash: '2 3' },
] as const;

type ChartCycle = (typeof CHART_CYCLES)[number]['cycle'];

/** The chart's height; its width follows the section. */
const CHART_HEIGHT_PX = 280;

/** One chart row: a day with each cycle in percent (-100..100). */
export type ChartRow = { date: string; day: string } & Record<ChartCycle, number>;

/** The API's days as chart rows, values in whole percent. */
export function chartRowsOf(chart: BiorhythmData): ChartRow[] {
  return chart.days.map((day) => ({
    date: day.date,
    day: day.date.slice(8),
    physical: Math.round((day.values.physical ?? 0) * 100),
    emotional: Math.round((day.values.emotional ?? 0) * 100),
    intellectual: Math.round((day.values.intellectual ?? 0) * 100),
  }));
}

/**
 * The biorhythm chart (issue 6): physical, emotional and intellectual curves over the coming days,
 * drawn with Recharts (ADR 076) as SVG; its accessibility layer lets keyboard users step through
 * the days. A text summary and a table carry the same values for screen readers.
 */
export default function BiorhythmChart({ chart }: { chart: BiorhythmData }) {
  const { t } = useTranslation();
  const rows = chartRowsOf(chart);
  const today = rows[0];
  const critical = chart.days.filter((day) => day.criticalCycles.length > 0);
  const cycleName = (cycle: string) => t(`webapp.biorhythm.cycles.${cycle}`);
  return (
    <figure className="biorhythm" data-testid="biorhythm-chart">
      <LineChart
        responsive
        data={rows}
        width="100%"
        height={CHART_HEIGHT_PX}
        margin={{ top: 20, right: 8, bottom: 0, left: 0 }}
        title={t('webapp.biorhythm.title', { days: rows.length })}
        desc={today ? t('webapp.biorhythm.todayValues', today) : undefined}
      >
        <CartesianGrid stroke="#e6dccd" vertical={false} />
        <XAxis dataKey="day" tick={{ fill: '#4d5870', fontSize: 12 }} interval="preserveStartEnd" />
        <YAxis width={48} domain={[-100, 100]} ticks={[-100, -50, 0, 50, 100]} tick={{ fill: '#4d5870', fontSize: 12 }} unit="%" />
        <ReferenceLine y={0} stroke="#4d5870" />
        {today && (
          <ReferenceLine
            x={today.day}
            stroke="#1f2a44"
            strokeDasharray="4 4"
            label={{ value: t('webapp.biorhythm.today'), position: 'top', fill: '#1f2a44', fontSize: 12 }}
          />
        )}
        <Tooltip
          formatter={(value, name) => [`${String(value)}%`, cycleName(String(name))]}
          labelFormatter={(_label, payload) => String(payload[0]?.payload?.date ?? '')}
        />
        <Legend formatter={(value) => cycleName(String(value))} />
        {CHART_CYCLES.map(({ cycle, colour, dash }) => (
          <Line
            key={cycle}
            type="monotone"
            dataKey={cycle}
            stroke={colour}
            strokeWidth={2}
            strokeDasharray={dash}
            dot={false}
            isAnimationActive={false}
          />
        ))}
      </LineChart>
      <figcaption>
        <p>{t('webapp.biorhythm.from', { from: rows[0]?.date, to: rows.at(-1)?.date })}</p>
        {today && <p data-testid="biorhythm-today">{t('webapp.biorhythm.todayValues', today)}</p>}
        <p>
          {critical.length > 0
            ? t('webapp.biorhythm.critical', {
                days: critical.map((day) => `${day.date} (${day.criticalCycles.map(cycleName).join(', ')})`).join('; '),
              })
            : t('webapp.biorhythm.noCritical')}
        </p>
        <p className="hint">{chart.disclaimer}</p>
      </figcaption>
      <details className="biorhythm__values">
        <summary>{t('webapp.biorhythm.showTable')}</summary>
        <table>
          <caption>{t('webapp.biorhythm.tableCaption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('webapp.biorhythm.date')}</th>
              {CHART_CYCLES.map(({ cycle }) => (
                <th key={cycle} scope="col">
                  {cycleName(cycle)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.date}>
                <th scope="row">{row.date}</th>
                {CHART_CYCLES.map(({ cycle }) => (
                  <td key={cycle}>{row[cycle]}%</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
