// SVG building blocks of the charts, drawn at their real pixel size: one unit of a chart's viewBox is
// one CSS pixel, so its text keeps the page's size at any width (docs/reports.md#reporthtml). Text is
// measured before it is placed, so that a label is shortened, moved or left out rather than drawn over
// another one or past the edge.

const SVGNS = 'http://www.w3.org/2000/svg';

/** The charts' text: the size `svg.plot` sets in the page's stylesheet (report/assets/css.ts). */
export const FONT_PX = 12;
const FONT = FONT_PX + 'px system-ui, sans-serif';
/** The height a line of chart text takes. */
export const LINE = FONT_PX + 3;

/** Draws a chart `width` pixels wide. */
export type Draw = (width: number) => SVGElement;

/** Attribute values; null and undefined are left out. */
type Attrs = Record<string, string | number | boolean | null | undefined>;

export function svg(tag: string, attrs?: Attrs | null, children?: unknown): SVGElement {
  const n = document.createElementNS(SVGNS, tag);
  if (attrs) {
    for (const k of Object.keys(attrs)) {
      const v = attrs[k];
      if (v !== undefined && v !== null) n.setAttribute(k, String(v));
    }
  }
  if (children !== undefined && children !== null) {
    for (const c of Array.isArray(children) ? children : [children]) {
      if (c === null || c === undefined) continue;
      n.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
    }
  }
  return n;
}

export function svgText(x: number, y: number, text: unknown, attrs?: Attrs): SVGElement {
  const a = attrs || {};
  a.x = x;
  a.y = y;
  return svg('text', a, String(text));
}

/** An SVG `w` × `h` CSS pixels, its viewBox the same size: nothing in it scales with the page. */
export const plot = (w: number, h: number, label: string): SVGElement =>
  svg('svg', {
    class: 'plot',
    width: w,
    height: h,
    viewBox: '0 0 ' + w + ' ' + h,
    role: 'img',
    'aria-label': label,
  });

let ctx: CanvasRenderingContext2D | null | undefined;

/** The width in pixels of `text` in the charts' font (bold for segment labels). */
export function textWidth(text: string, bold = false): number {
  if (ctx === undefined) ctx = document.createElement('canvas').getContext('2d');
  if (!ctx) return text.length * FONT_PX * 0.62; // no canvas: a generous estimate
  ctx.font = (bold ? 'bold ' : '') + FONT;
  // rounded up, plus a pixel: the browser's own layout of the same text may differ by a fraction
  return Math.ceil(ctx.measureText(text).width) + 1;
}

/**
 * `text` shortened to fit `max` pixels by an ellipsis in the middle: both ends stay, and with them the
 * part that tells two similar names apart (`agent-a…-20250102`).
 */
export function fitText(text: string, max: number): string {
  if (textWidth(text) <= max) return text;
  let keep = text.length - 1;
  while (keep > 1) {
    const head = Math.ceil(keep / 2);
    const cut = text.slice(0, head) + '\u2026' + text.slice(text.length - (keep - head));
    if (textWidth(cut) <= max) return cut;
    keep--;
  }
  return '\u2026';
}

/** A label with its full text as a tooltip when it had to be shortened. */
export function fittedText(x: number, y: number, text: string, max: number, attrs?: Attrs): SVGElement {
  const shown = fitText(text, max);
  const t = svgText(x, y, shown, attrs);
  if (shown !== text) t.appendChild(svg('title', null, text));
  return t;
}

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** The box of one line of text drawn at (x, y), its baseline at y, for an anchor. */
export function textBox(x: number, y: number, width: number, anchor: 'start' | 'middle' | 'end' = 'start'): Box {
  const left = anchor === 'start' ? x : anchor === 'middle' ? x - width / 2 : x - width;
  return { x: left, y: y - FONT_PX, w: width, h: LINE };
}

const overlaps = (a: Box, b: Box) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/** Labels placed one by one: each takes the first of its candidate spots that is free and inside. */
export class Placer {
  private readonly taken: Box[] = [];
  constructor(
    private readonly width: number,
    private readonly height: number,
  ) {}

  /** Marks a box as used (an axis label, a marker) without a label of its own. */
  reserve(b: Box): void {
    this.taken.push(b);
  }

  /** The first candidate that is inside the chart and clear of every placed box, now taken; else null. */
  place(candidates: Box[]): Box | null {
    for (const b of candidates) {
      const inside = b.x >= 0 && b.y >= 0 && b.x + b.w <= this.width && b.y + b.h <= this.height;
      if (inside && !this.taken.some((t) => overlaps(t, b))) {
        this.taken.push(b);
        return b;
      }
    }
    return null;
  }
}
