// A retrieval agent without a model: it ranks the help-centre articles (data/corpus.jsonl) by
// TF-IDF cosine similarity to the question, reports the top `k` as its `contexts`, and answers with
// the sentence of the best article closest to the question.
//   benchrig run rag-handbook --agent benchmarks/rag-handbook/agent.ts
// Options: k (contexts reported, default 3).
import { readFileSync } from 'node:fs';
import type { AgentContext, AgentReply } from '../../src/index.ts'; // 'benchrig' outside this repository

export interface Article {
  id: string;
  text: string;
}

const tokenize = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** A TF-IDF index over the articles: idf(t) = ln((1 + N) / (1 + df(t))) + 1. */
export class Index {
  private readonly idf = new Map<string, number>();
  private readonly vectors: Map<string, number>[];

  constructor(readonly articles: Article[]) {
    const docs = articles.map((a) => tokenize(a.text));
    const df = new Map<string, number>();
    for (const d of docs) for (const t of new Set(d)) df.set(t, (df.get(t) ?? 0) + 1);
    for (const [t, n] of df) this.idf.set(t, Math.log((1 + docs.length) / (1 + n)) + 1);
    this.vectors = docs.map((d) => this.vector(d));
  }

  vector(tokens: string[]): Map<string, number> {
    const v = new Map<string, number>();
    for (const t of tokens) v.set(t, (v.get(t) ?? 0) + (this.idf.get(t) ?? 0));
    return v;
  }

  similarity(a: Map<string, number>, b: Map<string, number>): number {
    let dot = 0;
    for (const [t, x] of a) dot += x * (b.get(t) ?? 0);
    const norm = (v: Map<string, number>) => Math.sqrt([...v.values()].reduce((s, x) => s + x * x, 0));
    const d = norm(a) * norm(b);
    return d === 0 ? 0 : dot / d;
  }

  /** Every article with its similarity to the query, best first (ties in corpus order). */
  rank(query: string): Array<Article & { score: number }> {
    const q = this.vector(tokenize(query));
    return this.articles
      .map((a, i) => ({ ...a, score: this.similarity(q, this.vectors[i]) }))
      .sort((x, y) => y.score - x.score);
  }

  /** The sentence of `text` closest to the query. */
  bestSentence(query: string, text: string): string {
    const q = this.vector(tokenize(query));
    const sentences = text.match(/[^.!?]+[.!?]+/g)?.map((s) => s.trim()) ?? [text];
    let best = sentences[0];
    let top = -1;
    for (const s of sentences) {
      const sim = this.similarity(q, this.vector(tokenize(s)));
      if (sim > top) [best, top] = [s, sim];
    }
    return best;
  }
}

export function loadIndex(): Index {
  const lines = readFileSync(new URL('./data/corpus.jsonl', import.meta.url), 'utf8').split('\n');
  return new Index(lines.filter((l) => l.trim()).map((l) => JSON.parse(l) as Article));
}

const round = (x: number) => Math.round(x * 1e4) / 1e4;

export default function createAgent(ctx: AgentContext) {
  const index = loadIndex();
  const k = Number(ctx.options.k ?? 3);
  return {
    async respond(question: string): Promise<AgentReply> {
      const top = index.rank(question).slice(0, k);
      return {
        content: index.bestSentence(question, top[0].text),
        done: true,
        contexts: top.map((a) => ({ id: a.id, text: a.text, score: round(a.score) })),
      };
    },
  };
}
