/**
 * The demo's picture of the dashboard: the synthesized `AWS::CloudWatch::Dashboard` body (its widgets' grid positions,
 * sizes, types and titles; https://docs.aws.amazon.com/AmazonCloudWatch/latest/APIReference/CloudWatch-Dashboard-Body-Structure.html)
 * drawn offline as an SVG grid, and rasterized to PNG by resvg like the architecture picture (./demo-diagram).
 */
import { writeFileSync } from 'fs';
import { join } from 'path';

export interface DashboardWidgetBox {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
  readonly type: string;
  readonly title: string;
}

/**
 * The widgets of the first dashboard in `template`: its DashboardBody (a string, or an Fn::Join whose tokens are shown
 * as `<LogicalId>`) parsed as JSON. Undefined when the template has no dashboard.
 */
export function dashboardWidgets(template: any): DashboardWidgetBox[] | undefined {
  const resource = Object.values<any>(template.Resources ?? {}).find((r) => r.Type === 'AWS::CloudWatch::Dashboard');
  if (!resource) return undefined;
  const body = resource.Properties.DashboardBody;
  const text = typeof body === 'string' ? body : (body['Fn::Join'][1] as any[]).map((p) => (typeof p === 'string' ? p : tokenText(p))).join('');
  return (JSON.parse(text).widgets as any[]).map((w) => ({
    x: w.x ?? 0,
    y: w.y ?? 0,
    width: w.width ?? 6,
    height: w.height ?? 6,
    type: w.type,
    title: String(w.properties?.title ?? firstLine(w.properties?.markdown) ?? w.type),
  }));
}

function tokenText(token: any): string {
  if (token.Ref) return `<${token.Ref}>`;
  if (token['Fn::GetAtt']) return `<${token['Fn::GetAtt'][0]}>`;
  return `<${Object.keys(token)[0]}>`;
}

function firstLine(markdown: unknown): string | undefined {
  return typeof markdown === 'string' ? markdown.split('\n')[0].replace(/^#+\s*/, '') : undefined;
}

const CELL_W = 52;
const CELL_H = 30;
const FILL: Record<string, string> = { metric: '#e8f1fb', alarm: '#fdecea', text: '#f3f3f3' };

function escape(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Lines of at most `max` characters (titles wrap inside their box). */
function wrap(text: string, max: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if ((line + ' ' + word).trim().length > max && line) {
      lines.push(line);
      line = word;
    } else {
      line = (line + ' ' + word).trim();
    }
  }
  if (line) lines.push(line);
  return lines;
}

/** The SVG of the widget grid: one box per widget at its grid position, with its type and title. */
export function dashboardSvg(widgets: DashboardWidgetBox[], title: string): string {
  const rows = Math.max(0, ...widgets.map((w) => w.y + w.height));
  const width = 24 * CELL_W + 20;
  const height = rows * CELL_H + 50;
  const boxes = widgets.map((w) => {
    const [x, y, bw, bh] = [10 + w.x * CELL_W, 40 + w.y * CELL_H, w.width * CELL_W - 4, w.height * CELL_H - 4];
    const lines = wrap(w.title, Math.max(8, Math.floor(bw / 7))).slice(0, Math.max(1, Math.floor((bh - 20) / 15)));
    const text = lines.map((l, i) => `<text x="${x + 6}" y="${y + 30 + i * 15}" font-size="12">${escape(l)}</text>`).join('');
    return `<g><rect x="${x}" y="${y}" width="${bw}" height="${bh}" rx="4" fill="${FILL[w.type] ?? '#ffffff'}" stroke="#8a9ba8"/>`
      + `<text x="${x + 6}" y="${y + 14}" font-size="10" fill="#5f6b7a">${escape(w.type)} ${w.width}×${w.height}</text>${text}</g>`;
  }).join('\n');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="DejaVu Sans, sans-serif">
<rect width="100%" height="100%" fill="#ffffff"/>
<text x="10" y="26" font-size="16" font-weight="bold">${escape(title)}</text>
${boxes}
</svg>
`;
}

/** Writes dashboard.svg and dashboard.png into `outdir`; returns their paths. */
export async function writeDashboardPicture(widgets: DashboardWidgetBox[], title: string, outdir: string): Promise<string[]> {
  const svg = dashboardSvg(widgets, title);
  const files = [join(outdir, 'dashboard.svg'), join(outdir, 'dashboard.png')];
  writeFileSync(files[0], svg);
  const { Resvg } = await import('@resvg/resvg-js');
  writeFileSync(files[1], new Resvg(svg, { font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' } }).render().asPng());
  return files;
}
