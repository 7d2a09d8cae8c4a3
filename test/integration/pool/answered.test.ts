// The first answered model call of a trial reaches the main side (run/circuit-breaker.ts lets the
// trials queued behind the running ones start their sandboxes on it, docs/agents.md#circuit-breaker),
// in every mode, once a trial. Only the endpoint's own answer counts: an agent that swallows its
// model's errors and answers anyway, or records a model call of its own making, says nothing.
import { describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from '../../support/model-server.ts';
import { runOnPool } from './support.ts';

async function answeredCalls(
  mode: 'single' | 'threads' | 'processes',
  server: ModelServer,
  agent = 'ask-model',
  transcripts?: 'metadata',
) {
  const answered: string[] = [];
  const r = await runOnPool({
    mode,
    bench: 'pool-local',
    agent,
    samples: ['a', 'b'],
    agentOptions: { on_error: 'answer' },
    flags: { llm: { base_url: server.url, model: 'm', api_key: 'sk-test', max_retries: 0 } },
    hooks: { onModelAnswered: () => answered.push(mode) },
    transcripts,
  });
  return { answered, r };
}

describe.each(['single', 'threads', 'processes'] as const)('--mode %s', (mode) => {
  it('says once a trial that its model answered', async () => {
    const server = await startModelServer(() => ({ content: 'apple banana' }));
    try {
      const { answered, r } = await answeredCalls(mode, server);
      expect(Object.values(r.results).map((t) => t.status)).toEqual(['PASSED', 'PASSED']);
      expect(answered).toHaveLength(2);
      // Without transcripts the call is recorded another way (an event, not a call): the same.
      expect((await answeredCalls(mode, server, 'ask-model', 'metadata')).answered).toHaveLength(2);
    } finally {
      await server.close();
    }
  });

  it('says nothing when the endpoint fails, even if the agent answers anyway', async () => {
    const server = await startModelServer(() => ({ status: 503, message: 'overloaded' }));
    try {
      const { answered, r } = await answeredCalls(mode, server);
      expect(r.saved('a')?.response).toBe('hello'); // the agent caught the error and replied
      expect(answered).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('says nothing of a model call the agent records itself', async () => {
    const server = await startModelServer(() => ({ status: 503, message: 'overloaded' }));
    try {
      const { answered, r } = await answeredCalls(mode, server, 'forge-transcript');
      expect(r.saved('a')?.events.some((e) => e.type === 'llm_call' && e.model === 'gpt-forged')).toBe(true);
      expect(answered).toEqual([]);
    } finally {
      await server.close();
    }
  });
  it("each trial's own hooks hear its answer (a job's: its cell's breaker)", async () => {
    // Sample b's model call fails; a's is answered.
    const server = await startModelServer((q) =>
      JSON.stringify(q.body.messages).includes('banana') ? { status: 503, message: 'down' } : { content: 'apple' },
    );
    try {
      const heard: string[] = [];
      await runOnPool({
        mode,
        bench: 'pool-local',
        agent: 'ask-model',
        samples: ['a', 'b'],
        agentOptions: { on_error: 'answer' },
        flags: { llm: { base_url: server.url, model: 'm', api_key: 'sk-test', max_retries: 0 } },
        hooks: (t) => ({ onModelAnswered: () => heard.push(t.taskId) }),
      });
      expect(heard).toEqual(['a']);
    } finally {
      await server.close();
    }
  });
});
