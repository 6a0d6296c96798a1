"use client";

/**
 * Completed volume per day and token. Amounts arrive as exact decimal strings; they become
 * numbers only to be drawn, and the tooltip shows the exact strings.
 */
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { groupDigits } from "./format";

const COLORS = ["var(--chart-1)", "var(--chart-2)", "var(--chart-3)", "var(--chart-4)", "var(--chart-5)"];

/** Axis ticks with two significant digits: 0.000135 → "0.00014", 1250 → "1300" (labels only; tooltips stay exact). */
const compactTick = (value: number) => (value === 0 ? "0" : String(Number(value.toPrecision(2))));

export function VolumeChart({
  points,
  symbols,
  label,
  yAxisWidth = 56,
}: {
  /** One per day: `day` (YYYY-MM-DD) and an exact decimal string per symbol. */
  points: { day: string; [symbol: string]: string }[];
  symbols: string[];
  label?: string;
  yAxisWidth?: number;
}) {
  const data = points.map((p) => ({ ...Object.fromEntries(symbols.map((s) => [s, Number(p[s] ?? "0")])), day: p.day.slice(5), exact: p }));
  return (
    <div className="h-64 w-full" role="img" aria-label={label ?? `Completed volume per day for ${symbols.join(", ")}`}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ top: 8, right: 8, left: -8, bottom: 0 }}>
          <CartesianGrid vertical={false} stroke="var(--border)" />
          <XAxis dataKey="day" tickLine={false} axisLine={false} fontSize={12} stroke="var(--muted-foreground)" minTickGap={16} />
          <YAxis
            tickLine={false}
            axisLine={false}
            fontSize={12}
            stroke="var(--muted-foreground)"
            width={yAxisWidth}
            allowDecimals
            tickFormatter={compactTick}
          />
          <Tooltip
            cursor={{ fill: "var(--muted)" }}
            contentStyle={{
              background: "var(--popover)",
              border: "1px solid var(--border)",
              borderRadius: 8,
              color: "var(--popover-foreground)",
              fontSize: 12,
            }}
            formatter={(_value, name, item) => [
              groupDigits((item.payload as { exact: Record<string, string> }).exact[String(name)] ?? "0"),
              String(name),
            ]}
          />
          {symbols.length > 1 && <Legend wrapperStyle={{ fontSize: 12 }} itemSorter={null} />}
          {symbols.map((symbol, i) => (
            <Bar
              key={symbol}
              dataKey={symbol}
              stackId="volume"
              fill={COLORS[i % COLORS.length]}
              radius={i === symbols.length - 1 ? [4, 4, 0, 0] : 0}
              maxBarSize={32}
            />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
