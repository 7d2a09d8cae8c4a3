// Picks the simulated user named by `[user] kind`; module users load from the benchmark's hooks.
import { resolve } from 'node:path';
import type { Config } from '../config/schema.ts';
import { importUserModule } from '../loader/user-module.ts';
import { noneUser } from './none.ts';
import { scriptedUser } from './scripted.ts';
import type { SimulatedUser } from './types.ts';

export async function loadUser(user: Config['user'], benchmarkDir: string): Promise<SimulatedUser> {
  switch (user.kind) {
    case 'none':
      return noneUser;
    case 'scripted':
      return scriptedUser(user.continuation);
    case 'llm': {
      const { llmUser } = await import('./llm.ts');
      return llmUser;
    }
    case 'module': {
      const [file, name = 'user'] = (user.module ?? 'hooks.ts#user').split('#');
      const mod = await importUserModule(resolve(benchmarkDir, file));
      const fn = mod[name] ?? (name === 'user' ? mod.default : undefined);
      if (typeof fn !== 'function') throw new Error(`[user] module ${user.module}: no function export "${name}"`);
      return fn as SimulatedUser;
    }
  }
}
