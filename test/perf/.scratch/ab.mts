import { gradeTrial as newG } from '../../../src/checks/grade.ts';
import { gradeTrial as oldG } from './grade-old.ts';
import { gradingChecks } from '../grading.ts';
const checks = gradingChecks();
const sample: any = { id: 'a', input: 'x', metadata: {}, expectations: { intent: 'refund', 'the number': 3, tools: ['lookup'], arguments: [{ tool: 'lookup', args: { order: 'ORD-1000' } }], efficiency: 1 } };
const events: any = [{ type: 'tool_call', tool: 'lookup', args: { order: 'ORD-1000' }, step: 1, ts: 0 }, { type: 'tool_result', tool: 'lookup', output: 'ok', step: 2, ts: 0 }];
const replies = ['The total for ORD-1000 ```json\n{"intent":"refund"}\n``` Answer: 3'];
for (let round = 0; round < 3; round++) for (const [name, g] of [['old', oldG], ['new', newG]] as const) {
  const c0 = process.cpuUsage();
  for (let i = 0; i < 20000; i++) await g({ checks, sample, replies, events, finalState: {}, blocked: false, artifacts: {}, skipSandbox: true });
  const c = process.cpuUsage(c0);
  console.log(name, Math.round(20000 * checks.length / ((c.user + c.system) / 1e6)), 'verdicts/cpu-s');
}
