// TF-IDF cosine similarity, offline (the `similarity` check's default backend). The IDF is computed
// over the texts being compared (the response and every expected text), not a fixed corpus: benchrig
// ships none, and a score stays reproducible from the result file alone. TF is the raw count.

/** Lower-cased runs of letters and digits (any script); punctuation and spacing separate words. */
export function tokenize(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

function counts(tokens: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const t of tokens) m.set(t, (m.get(t) ?? 0) + 1);
  return m;
}

/**
 * Smoothed IDF over `docs` (already tokenised): ln((1 + N) / (1 + df)) + 1, scikit-learn's default.
 * With so few documents the plain ln(N/df) would weigh every shared word 0 (two identical texts
 * would score 0); here words in every text still count, words unique to one count more.
 */
export function idf(docs: string[][]): Map<string, number> {
  const df = new Map<string, number>();
  for (const d of docs) for (const t of new Set(d)) df.set(t, (df.get(t) ?? 0) + 1);
  const n = docs.length;
  const out = new Map<string, number>();
  for (const [t, k] of df) out.set(t, Math.log((1 + n) / (1 + k)) + 1);
  return out;
}

function vector(tokens: string[], weights: Map<string, number>): Map<string, number> {
  const v = new Map<string, number>();
  for (const [t, c] of counts(tokens)) v.set(t, c * (weights.get(t) ?? 0));
  return v;
}

function cosine(a: Map<string, number>, b: Map<string, number>): number {
  let dot = 0;
  for (const [t, x] of a) dot += x * (b.get(t) ?? 0);
  const norm = (v: Map<string, number>) => Math.sqrt([...v.values()].reduce((s, x) => s + x * x, 0));
  const d = norm(a) * norm(b);
  // Rounded so identical texts give exactly 1 (float noise would miss a threshold of 1).
  return d === 0 ? 0 : Math.min(1, Math.round((dot / d) * 1e12) / 1e12);
}

/** The cosine similarity of `text` to each of `others`, with the IDF over all of them. */
export function tfidfSimilarities(text: string, others: string[]): number[] {
  const docs = [text, ...others].map(tokenize);
  const weights = idf(docs);
  const base = vector(docs[0], weights);
  return docs.slice(1).map((d) => cosine(base, vector(d, weights)));
}

/** Plain cosine of two dense vectors (embeddings); 0 when either is all zeros. */
export function denseCosine(a: number[], b: number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  const d = Math.sqrt(na) * Math.sqrt(nb);
  return d === 0 ? 0 : Math.max(-1, Math.min(1, dot / d));
}
